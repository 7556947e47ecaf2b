// A seeded randomized test of trees against an independent model (`TreeModel`): random creates (at the top level,
// under parents, down to the depth limit), moves by id (with and without `parent`, cycles, other lists), indents,
// outdents, moves by index (with and without `depth`), deletes and completions (cascading), reopenings, undos and
// redos, with several views open (manual, sorted, filtered with context rows, smart groups, sections), random
// collapsing in them and now and then another sort, filter or grouping. After every step every view's rows equal
// the model's, every client that applied the changes holds the snapshot, every tree order's invariants hold, and the
// counts equal the model's.

import Testing
@testable import Domain
import TestSupport

struct RandomizedTreeTests {
    @Test(arguments: 0..<8)
    func everyTreeViewEqualsTheModelAfterEveryStep(seed: UInt64) throws {
        var run = TreeRun(seed: seed)
        try run.start()
        for _ in 0..<350 { try run.step() }
        // Real work: every kind of step happened, and the views showed trees (context rows, collapsed rows hidden).
        let tally = run.tally
        for kind in ["create.nested", "create.deep", "moveByID.parent", "moveByID.otherList", "indent", "outdent",
                     "moveByIndex.depth", "moveByIndex.default", "moveByIndex.otherParent", "delete.cascade",
                     "complete.cascade", "reopen", "undo", "redo", "collapse", "expand", "collapse.all", "reconfigure"] {
            #expect(tally[kind, default: 0] > 0, "seed \(seed): no \(kind) in \(tally)")
        }
        for reason in ["cycle", "tooDeep", "notSiblings", "noPreviousSibling", "topLevel", "beforeNotChild",
                       "parentInOtherList", "notInView", "depth", "sortedView", "to"] {
            #expect(tally["refused." + reason, default: 0] > 0, "seed \(seed): no refusal \(reason) in \(tally)")
        }
        #expect(tally["rows.context", default: 0] > 500, "seed \(seed): context rows seen \(tally)")
        #expect(tally["rows.hidden", default: 0] > 500, "seed \(seed): rows hidden by collapsing \(tally)")
        #expect(tally["rows.deep", default: 0] > 0, "seed \(seed): no row at depth \(Limits.maxDepth) \(tally)")
        for kind in ["locate.own", "locate.hidden", "locate.none"] {
            #expect(tally[kind, default: 0] > 50, "seed \(seed): too few \(kind) in \(tally)")
        }
        #expect(tally["unchanged", default: 0] > 0 && tally["changed", default: 0] > 150,
                "seed \(seed): changes \(tally)")
    }
}

/// One view open in the run: what it shows, and the items it collapses (the model's copy of the view's set).
private struct OpenTreeView {
    var spec: TreeSpec
    var collapsed: Set<ItemID> = []
}

/// A group applied: what it changed (to undo it), and the model before and after it.
private struct Step {
    var changes: Changes
    var before: TreeModel
    var after: TreeModel
}

private struct TreeRun {
    var random: SplitMix64
    var engine = Engine()
    var model: TreeModel
    var clients = ClientSet()
    var views: [ViewID: OpenTreeView] = [:]
    var time: Int64 = 1_000
    /// Steps to undo (the last first), and undone steps to redo.
    var done: [Step] = []
    var undone: [Step] = []
    /// How often each kind of step, refusal and row was seen.
    var tally: [String: Int] = [:]

    static let today = makeDay(day(2026, 11, 22), after: 10 * 3_600_000)
    static let titles = ["apple", "Apple", "b", "B", "cherry", "apple pie"]
    static let maxItems = 90

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
        model = TreeModel(today: Self.today)
    }

    var lists: [ListID] { model.lists }
    var itemIDs: [ItemID] { model.items.keys.sorted() }
    var now: Timestamp { Timestamp(milliseconds: time) }

    mutating func count(_ key: String, _ amount: Int = 1) { tally[key, default: 0] += amount }

    /// One of `values`, nil when there are none.
    mutating func element<T>(of values: [T]) -> T? { values.isEmpty ? nil : random.pick(values) }

    mutating func start() throws {
        _ = engine.advance(to: Self.today, budget: 1_000)
        for _ in 0..<3 {
            let id = ListID(engine.state.nextIdentifier)
            _ = try engine.apply([.createList(id: id, fields: ListFields(name: "L\(id.rawValue)"), before: nil)])
            model.createList(id)
        }
        let (first, second, third) = (lists[0], lists[1], lists[2])
        let specs: [(TreeSpec, Window)] = [
            (TreeSpec(source: .list(first), sort: .manual, filter: .everything, grouping: .none), Window(start: 0, end: 1_000)),
            (TreeSpec(source: .list(first), sort: .manual, filter: .everything, grouping: .none), Window(start: 3, end: 11)),
            (TreeSpec(source: .list(first), sort: Sort(.due), filter: .everything, grouping: .none), Window(start: 0, end: 1_000)),
            (TreeSpec(source: .list(second), sort: Sort(.title, .descending), filter: .everything, grouping: .none),
             Window(start: 0, end: 1_000)),
            (TreeSpec(source: .list(first), sort: .manual, filter: .atLeastMedium, grouping: .none), Window(start: 0, end: 1_000)),
            (TreeSpec(source: .list(second), sort: .manual, filter: .home, grouping: .priority), Window(start: 0, end: 1_000)),
            (TreeSpec(source: .list(third), sort: .manual, filter: .everything, grouping: .priority), Window(start: 0, end: 1_000)),
            (TreeSpec(source: .all, sort: .manual, filter: .everything, grouping: .list), Window(start: 0, end: 1_000)),
            (TreeSpec(source: .today, sort: .manual, filter: .everything, grouping: .none), Window(start: 0, end: 1_000)),
            (TreeSpec(source: .all, sort: Sort(.priority, .descending), filter: .atLeastMedium, grouping: .dueBucket),
             Window(start: 0, end: 1_000)),
            (TreeSpec(source: .completed, sort: .manual, filter: .everything, grouping: .list), Window(start: 0, end: 1_000)),
        ]
        for (spec, window) in specs {
            let opened = try engine.openView(source: spec.source, sort: spec.sort, filter: spec.filter.filter,
                                             grouping: spec.grouping, window: window)
            views[opened.snapshot.view] = OpenTreeView(spec: spec)
            clients.open(opened.snapshot)
        }
        for _ in 0..<30 { try create() }
        verify()
    }

    mutating func step() throws {
        time += 1_000
        switch random.below(100) {
        case 0..<16: try model.items.count < Self.maxItems ? create() : delete()
        case 16..<26: try update()
        case 26..<30: try delete()
        case 30..<42: try moveByID()
        case 42..<48: try indent()
        case 48..<53: try outdent()
        case 53..<72: try moveByIndex()
        case 72..<83: try collapse()
        case 83..<95: try undoOrRedo()
        case 95..<97: try reconfigure()
        default: try moveLists()
        }
        verify()
    }

    // MARK: Applying

    /// Applies one mutation whose outcome the model (`next`, already changed) says is `expected`, and hands the views'
    /// changes to their clients; a refusal must leave everything as it was.
    mutating func apply(_ mutation: Mutation, _ expected: TreeOutcome, next: TreeModel, kind: String) {
        let revision = engine.revision
        do {
            let applied = try engine.apply([mutation])
            clients.receive(applied.viewChanges, engine: engine)
            switch expected {
            case .refused(let reason):
                Issue.record("\(kind): \(mutation) should be refused with \(reason)")
            case .unchanged:
                #expect(applied.revision == revision && applied.changes.isEmpty, "\(kind): \(mutation) should change nothing")
                count("unchanged")
            case .changed(let touched):
                #expect(applied.revision == revision + 1, "\(kind): \(mutation) should change something")
                #expect(Set(applied.changes.items.map(\.id)) == touched,
                        "\(kind): \(mutation) touched \(applied.changes.items.map(\.id).sorted()), expected \(touched.sorted())")
                count("changed")
                count(kind)
                done.append(Step(changes: applied.changes, before: model, after: next))
                undone.removeAll()
            }
            model = next
        } catch {
            #expect(expected == .refused(reason(error)), "\(kind): \(mutation) refused with \(error), expected \(expected)")
            // Nothing changed: the revision, and (checked next) the lists, the items, the views and their versions.
            #expect(engine.revision == revision, "\(kind): a refusal changed the revision")
            clients.verify(engine)
            count("refused." + reason(error))
        }
        forgetDeleted()
    }

    /// A view's set of collapsed items loses the items deleted.
    mutating func forgetDeleted() {
        for view in views.keys { views[view]!.collapsed = views[view]!.collapsed.filter { model.items[$0] != nil } }
    }

    func reason(_ error: DomainError) -> String {
        switch error {
        case .refused(let reason, _): reason
        case .invalidField(let field, _): field
        case .notFound: "notFound"
        case .staleVersion: "staleVersion"
        case .unknownView: "unknownView"
        }
    }

    // MARK: Creating

    mutating func randomDue() -> Due? {
        switch random.below(4) {
        case 0: return nil
        case 1: return .date(CalendarDate(daysSinceEpoch: Self.today.date.daysSinceEpoch + Int64(random.int(in: -2...3))))
        default:
            let hours = Int64(random.int(in: -30...60))
            let offset = random.int(in: -2...2) * 3600
            return .dateTime(Timestamp(milliseconds: Self.today.now.milliseconds + hours * 3_600_000 - Int64(offset) * 1000),
                             offsetSeconds: offset)
        }
    }

    /// One creation: at the top level, under a random parent, before a random item, down the deepest chain (to the
    /// depth limit and past it), or one of the refusals.
    mutating func create() throws {
        let id = ItemID(engine.state.nextIdentifier)
        let items = itemIDs
        var list = random.pick(lists)
        var before: ItemID?
        var parent: Clearable<ItemID>?
        var kind = "create.top"
        switch items.isEmpty ? 0 : random.below(10) {
        case 0, 1:
            before = random.chance(50) ? element(of: model.tops[list]!) : nil
            parent = random.chance(30) ? .clear : nil
        case 2, 3, 4:
            let under = random.pick(items)
            list = model.items[under]!.list
            parent = .set(under)
            before = random.chance(40) ? element(of: model.subtasks[under] ?? []) : nil
            kind = "create.nested"
        case 5:
            before = random.pick(items)
            list = model.items[before!]!.list
            kind = "create.before"
        case 6, 7:
            // Down the deepest chain, a few levels at once.
            for _ in 0..<random.int(in: 1...6) {
                let deepest = itemIDs.max { model.depth(of: $0) < model.depth(of: $1) }!
                try create(ItemID(engine.state.nextIdentifier), in: model.items[deepest]!.list, before: nil,
                           parent: .set(deepest), kind: "create.deep")
            }
            return
        default:
            // Refusals: a parent or `before` in another list, or `before` not a subtask of `parent`.
            let other = random.pick(items)
            list = random.pick(lists)
            switch random.below(3) {
            case 0: parent = .set(other)
            case 1: before = other
            default:
                // `before` is not a subtask of `parent` (at the top level for `.clear`).
                before = other
                list = model.items[other]!.list
                let strangers = model.treeOrder(list).filter { $0 != model.items[other]!.parent }
                parent = model.items[other]!.parent != nil && random.chance(50) ? .clear : element(of: strangers).map { .set($0) }
            }
            kind = "create.odd"
        }
        try create(id, in: list, before: before, parent: parent, kind: kind)
    }

    mutating func create(_ id: ItemID, in list: ListID, before: ItemID?, parent: Clearable<ItemID>?, kind: String) throws {
        let item = TreeItem(id: id, list: list, parent: nil, title: random.pick(Self.titles), done: random.chance(20),
                            due: randomDue(), priority: random.pick(Priority.allCases),
                            tags: random.pick([[], ["home"], ["work"], ["home", "work"]]), created: time)
        let fields = ItemFields(title: item.title, done: item.done, due: item.due, priority: item.priority, tags: item.tags)
        var next = model
        let outcome = next.create(item, before: before, parent: parent)
        apply(.createItem(id: id, list: list, fields: fields, before: before, parent: parent, at: now), outcome, next: next,
              kind: kind)
        if case .changed = outcome { #expect(engine.state.depth(of: id) == model.depth(of: id)) }
    }

    // MARK: Changing fields, deleting

    mutating func update() throws {
        guard !model.items.isEmpty else { return try create() }
        var ids = random.sample(itemIDs, count: min(model.items.count, random.int(in: 1...2)))
        var patch = ItemPatch()
        var kind = "update"
        switch random.below(9) {
        case 0, 1:
            // Mostly items with subtasks not done.
            let parents = itemIDs.filter { model.descendants(of: $0).contains { !model.items[$0]!.done } }
            if !parents.isEmpty && random.chance(70) { ids = [random.pick(parents)] }
            patch.done = true
            kind = ids.contains(where: { model.descendants(of: $0).contains { !model.items[$0]!.done } })
                ? "complete.cascade" : "complete"
        case 2, 3:
            // Mostly items that are done.
            let done = itemIDs.filter { model.items[$0]!.done }
            if !done.isEmpty { ids = [random.pick(done)] }
            patch.done = false
            kind = "reopen"
        case 4: patch.title = random.pick(Self.titles)
        case 5: patch.due = randomDue().map { .set($0) } ?? .clear
        case 6, 7: patch.priority = random.pick(Priority.allCases)
        default: patch.tags = random.pick([[], ["home"], ["work"]])
        }
        var next = model
        let outcome = next.update(ids, patch)
        apply(.updateItems(ids: ids, patch: patch, at: now), outcome, next: next, kind: kind)
    }

    mutating func delete() throws {
        guard !model.items.isEmpty else { return try create() }
        let ids = random.sample(itemIDs, count: min(model.items.count, random.int(in: 1...2)))
        var next = model
        let outcome = next.delete(ids)
        let cascade = ids.contains { model.subtasks[$0] != nil }
        apply(.deleteItems(ids: ids), outcome, next: next, kind: cascade ? "delete.cascade" : "delete")
    }

    // MARK: Moving

    mutating func moveByID() throws {
        guard !model.items.isEmpty else { return try create() }
        let items = itemIDs
        var ids = random.sample(items, count: min(items.count, random.int(in: 1...3)))
        var toList: ListID?
        var before: ItemID?
        var parent: Clearable<ItemID>?
        var kind = "moveByID"
        switch random.below(7) {
        case 0:
            before = random.chance(70) ? random.pick(items) : nil
        case 1, 2:
            let under = random.pick(items)
            parent = .set(under)
            before = random.chance(40) ? element(of: model.subtasks[under] ?? [random.pick(items)]) : nil
            kind = "moveByID.parent"
        case 3:
            parent = .clear
            before = random.chance(50) ? element(of: model.tops[random.pick(lists)]!) : nil
            kind = "moveByID.parent"
        case 4:
            // Into a descendant of a moved item (or the item itself): a cycle.
            let top = random.pick(ids)
            parent = .set(random.pick([top] + model.descendants(of: top)))
            kind = "moveByID.cycle"
        case 5:
            // Where it is: before its next sibling, or last under its own parent.
            ids = [ids[0]]
            let item = model.items[ids[0]]!
            let siblings = model.siblings(of: item.id)
            let next = siblings.firstIndex(of: item.id)! + 1
            before = next < siblings.count ? siblings[next] : nil
            parent = item.parent.map { .set($0) } ?? .clear
            kind = "moveByID.inPlace"
        default:
            toList = random.pick(lists)
            if random.chance(50), let under = element(of: model.treeOrder(toList!)) { parent = .set(under) }
            if random.chance(15), let under = element(of: items.filter { model.items[$0]!.list != toList }) {
                parent = .set(under)
            }
            kind = "moveByID.otherList"
        }
        var next = model
        let outcome = next.move(ids, toList: toList, before: before, parent: parent)
        apply(.moveItems(ids: ids, toList: toList, before: before, parent: parent, at: now), outcome, next: next, kind: kind)
    }

    /// A few items to indent or outdent: an item and some of its next siblings, now and then another item too.
    mutating func siblingRun() -> [ItemID] {
        let first = random.pick(itemIDs)
        let siblings = model.siblings(of: first)
        let start = siblings.firstIndex(of: first)!
        var ids = Array(siblings[start..<min(siblings.count, start + random.int(in: 1...3))])
        if random.chance(25) { ids.append(random.pick(itemIDs)) }
        return Array(Set(ids)).sorted()
    }

    mutating func indent() throws {
        guard !model.items.isEmpty else { return try create() }
        let ids = siblingRun()
        var next = model
        let outcome = next.indent(ids)
        do throws(DomainError) {
            let mutation = try engine.state.indentMutation(ids, at: now)
            apply(mutation, outcome, next: next, kind: "indent")
        } catch {
            #expect(outcome == .refused(reason(error)), "indent \(ids): refused with \(error), expected \(outcome)")
            count("refused." + reason(error))
        }
    }

    mutating func outdent() throws {
        guard !model.items.isEmpty else { return try create() }
        // Now and then items at the top level, which are refused.
        let ids = random.chance(15) ? [random.pick(itemIDs.filter { model.items[$0]!.parent == nil })] : siblingRun()
        var next = model
        let outcome = next.outdent(ids)
        do throws(DomainError) {
            let mutation = try engine.state.outdentMutation(ids, at: now)
            apply(mutation, outcome, next: next, kind: "outdent")
        } catch {
            #expect(outcome == .refused(reason(error)), "outdent \(ids): refused with \(error), expected \(outcome)")
            count("refused." + reason(error))
        }
    }

    mutating func moveByIndex() throws {
        // Mostly a view in manual order (a sorted one is refused, which is checked too), now and then a grouped one
        // and its top (refused too).
        let manual = views.keys.sorted().filter { views[$0]!.spec.sort == .manual }
        let grouped = manual.filter { views[$0]!.spec.grouping != .none }
        let top = random.chance(8) && !grouped.isEmpty
        let sorted = views.keys.sorted().filter { !manual.contains($0) }
        let view: ViewID
        if top {
            view = random.pick(grouped)
        } else if !manual.isEmpty && (sorted.isEmpty || random.chance(90)) {
            view = random.pick(manual)
        } else {
            view = random.pick(sorted)
        }
        let open = views[view]!
        let rows = model.rows(open.spec, collapsed: open.collapsed)
        guard rows.count > 1 else { return try create() }
        let from = random.below(rows.count)
        let count = random.int(in: 1...min(3, rows.count - from))
        let block = TreeModel.block(rows, from: from, count: count)
        let remaining = rows.count - (block ?? from..<(from + count)).count
        // Now and then where it is.
        let target = top ? 0 : random.chance(10) ? from : random.int(in: 0...remaining)
        var depth: Int?
        if let block, random.chance(60) {
            // Mostly a depth the place allows, now and then one just outside.
            let depths = TreeModel.allowedDepths(rows, block: block, to: target).depths
            depth = max(0, random.int(in: (depths.lowerBound - 1)...(depths.upperBound + 1)))
        }
        let expected = model.indexMove(open.spec, rows, from: from, count: count, to: target, depth: depth)
        let drop = "\(open.spec): \(from)+\(count) to \(target) at depth \(depth.map(String.init) ?? "-")"
        let mutation: Mutation?
        do {
            mutation = try engine.moveMutation(view: view, from: from, count: count, to: target, depth: depth,
                                               seenVersion: try engine.snapshot(view).version, at: now)
        } catch {
            #expect(expected == .refused(reason(error)), "\(drop) refused with \(error), expected \(expected)")
            self.count("refused." + reason(error))
            return
        }
        guard let mutation else {
            #expect(expected == .nothing, "\(drop) changed nothing, expected \(expected)")
            return
        }
        guard case .move(let ids, let list, let parent, let before) = expected else {
            Issue.record("\(drop) gave \(mutation), expected \(expected)")
            return
        }
        var next = model
        let outcome = next.move(ids, toList: list, before: before, parent: parent.map { .set($0) } ?? .clear)
        let parentsBefore = ids.map { model.items[$0]!.parent }
        apply(mutation, outcome, next: next, kind: depth == nil ? "moveByIndex.default" : "moveByIndex.depth")
        if case .changed = outcome, parentsBefore != ids.map({ model.items[$0]!.parent }) {
            self.count("moveByIndex.otherParent")
        }
    }

    mutating func moveLists() throws {
        let block = random.sample(lists, count: random.int(in: 1...2))
        let before = random.chance(50) ? random.pick(lists) : nil
        guard before.map({ !block.contains($0) }) ?? true else { return }
        let applied = try engine.apply([.moveLists(ids: block, before: before)])
        clients.receive(applied.viewChanges, engine: engine)
        model.moveLists(block, before: before)
        // A list move is not undone here: the steps recorded before it stay undoable all the same.
        count("moveLists")
    }

    // MARK: Undo, collapsing

    /// Undoes the last step, or redoes the last undone one: the model goes back to what it was.
    mutating func undoOrRedo() throws {
        if !undone.isEmpty && random.chance(50) {
            let step = undone.removeLast()
            let applied = try engine.apply(try engine.inverse(of: step.changes, at: now))
            clients.receive(applied.viewChanges, engine: engine)
            model = step.after
            model.lists = engine.state.orderedLists.map(\.id)
            done.append(Step(changes: applied.changes, before: step.before, after: step.after))
            count("redo")
        } else if let step = done.popLast() {
            let applied = try engine.apply(try engine.inverse(of: step.changes, at: now))
            clients.receive(applied.viewChanges, engine: engine)
            model = step.before
            model.lists = engine.state.orderedLists.map(\.id)
            undone.append(Step(changes: applied.changes, before: step.before, after: step.after))
            count("undo")
        }
        forgetDeleted()
    }

    /// Collapses or expands items of a random view (ids, now and then one not in it, or all), as the model says.
    mutating func collapse() throws {
        guard !model.items.isEmpty else { return try create() }
        let view = random.pick(views.keys.sorted())
        let open = views[view]!
        let (members, _) = model.members(open.spec)
        let rows = model.rows(open.spec, collapsed: open.collapsed)
        let collapse = random.chance(60)
        var ids: [ItemID]?
        var collapsed = open.collapsed
        var refusal: String?
        // The view's items with items of the view below them.
        let parents = Set(members.compactMap { model.items[$0]!.parent })
        if random.chance(20) {
            if collapse { collapsed.formUnion(parents) } else { collapsed.removeAll() }
            count(collapse ? "collapse.all" : "expand.all")
        } else {
            // Mostly items with subtasks in the view, now and then one that is not an item of the view.
            let candidates = parents.isEmpty ? members.sorted() : parents.sorted()
            var chosen = random.sample(candidates, count: min(random.int(in: 1...2), candidates.count))
            let outside = itemIDs.filter { !members.contains($0) }
            if chosen.isEmpty || random.chance(10) { chosen.append(random.pick(outside.isEmpty ? itemIDs : outside)) }
            ids = Array(Set(chosen)).sorted()
            if ids!.contains(where: { !members.contains($0) }) {
                refusal = "notInView"
            } else if collapse {
                collapsed.formUnion(ids!.filter(parents.contains))
            } else {
                collapsed.subtract(ids!)
            }
            count(collapse ? "collapse" : "expand")
        }
        do {
            let change = try engine.setCollapsed(view, ids: ids, collapse: collapse)
            #expect(refusal == nil, "collapse \(ids ?? []) in \(open.spec) should be refused: \(refusal ?? "")")
            views[view]!.collapsed = collapsed
            let now = model.rows(open.spec, collapsed: collapsed)
            #expect((change != nil) == (now.map(model.image) != rows.map(model.image)),
                    "\(collapse ? "collapse" : "expand") \(ids.map { "\($0)" } ?? "all") in \(open.spec): change \(change != nil)")
            if let change { clients.receive([change], engine: engine) }
        } catch {
            #expect(refusal == reason(error), "collapse \(ids ?? []) in \(open.spec): refused with \(error)")
            count("refused." + reason(error))
        }
    }

    /// Gives a random view another sort, filter and grouping (its source and its collapsed items stay).
    mutating func reconfigure() throws {
        let view = random.pick(views.keys.sorted())
        var spec = views[view]!.spec
        spec.sort = random.pick([Sort.manual, .manual, Sort(.due), Sort(.title, .descending), Sort(.priority, .descending)])
        spec.filter = random.pick(TreeFilter.allCases)
        spec.grouping = random.pick([Grouping.none, .none, .priority, .list, .dueBucket, .done])
        let changed = try engine.reconfigure(view, sort: spec.sort, filter: spec.filter.filter, grouping: spec.grouping)
        clients.receiveGeneration(changed.change, engine: engine)
        views[view]!.spec = spec
        count("reconfigure")
    }

    // MARK: Checks

    /// Every list's tree, the items' fields, the counts, every order's invariants and every view's rows equal the
    /// model's.
    mutating func verify() {
        #expect(engine.state.orderedLists.map(\.id) == model.lists, "lists' order")
        for list in model.lists {
            let items = engine.state.items(in: list, ranks: 0..<Int.max)
            #expect(items.map(\.id) == model.treeOrder(list), "tree order of \(list)")
            for item in items {
                guard let expected = model.items[item.id] else { continue }
                #expect(item.list == expected.list && item.parent == expected.parent && item.title == expected.title
                        && item.done == expected.done && item.due == expected.due && item.priority == expected.priority
                        && item.tags == expected.tags, "fields of \(item.id)")
                #expect(engine.state.subtaskCount(of: item.id) == model.subtaskCount(of: item.id), "subtasks of \(item.id)")
                if model.depth(of: item.id) == Limits.maxDepth { count("rows.deep") }
            }
            let counts = model.counts(of: list)
            #expect(engine.state.itemCount(in: list) == counts.total && engine.state.openItemCount(in: list) == counts.open,
                    "counts of \(list)")
        }
        #expect(engine.state.itemCount == model.items.count, "item count")
        for order in engine.state.manualOrders.values { order.checkInvariants() }
        for order in engine.indexes.values { order.checkInvariants() }
        let groups = engine.overview().groups
        for group in groups {
            let expected = model.items.values.filter { model.contains(.group(group.group), $0) }.count
            #expect(group.count == expected, "count of \(group.group)")
        }
        let ranks = model.manualRanks()
        for (view, open) in views.sorted(by: { $0.key < $1.key }) {
            guard let snapshot = try? engine.snapshot(view) else {
                Issue.record("view \(view) should be open")
                continue
            }
            let (rows, items) = model.view(open.spec, collapsed: open.collapsed, ranks: ranks)
            let expected = rows[snapshot.window.ranks(count: rows.count)].map(model.image)
            let shown = snapshot.rows.map(RowImage.init)
            if shown != expected {
                let index = zip(shown, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                    ?? min(shown.count, expected.count)
                Issue.record("""
                    rows of \(view) (\(open.spec)) differ at \(index): \
                    shown \(index < shown.count ? "\(shown[index])" : "none"), \
                    expected \(index < expected.count ? "\(expected[index])" : "none")
                    shown:    \(shown)
                    expected: \(expected)
                    """)
            }
            #expect(snapshot.count == rows.count, "count of \(view)")
            let sourceCount = model.items.values.filter { model.contains(open.spec.source, $0) }.count
            let empty: EmptyReason? = rows.isEmpty ? (sourceCount == 0 ? .noItems : .noMatches) : nil
            #expect(snapshot.empty == empty, "empty reason of \(view)")
            checkLocations(view, open, rows: rows)
            count("rows.context", rows.filter { $0.facts?.context == true }.count)
            count("rows.hidden", items - rows.filter { $0.item != nil }.count)
        }
    }

    /// `Engine.locate` for a few random items of the model against `rows`, the view's rows in the model: the
    /// item's own row, or its outermost collapsed ancestor's; none when the item has no row even uncollapsed.
    mutating func checkLocations(_ view: ViewID, _ open: OpenTreeView, rows: [TreeModelRow]) {
        let ids = model.items.keys.sorted()
        guard !ids.isEmpty else { return }
        let members = model.members(open.spec).all
        for _ in 0..<4 {
            let id = ids[random.below(ids.count)]
            var expected: Location?
            if members.contains(id) {
                var shown = id
                var current = model.items[id]?.parent
                while let ancestor = current {
                    if open.collapsed.contains(ancestor) { shown = ancestor }
                    current = model.items[ancestor]?.parent
                }
                expected = rows.firstIndex { $0.item == shown }.map { Location(index: $0, row: shown) }
                count(shown == id ? "locate.own" : "locate.hidden")
            } else {
                count("locate.none")
            }
            let located = try? engine.locate(id, in: view)
            #expect(located?.location == expected, "locate \(id) in \(view) (\(open.spec))")
            #expect(located?.version == (try? engine.snapshot(view))?.version, "version of locate in \(view)")
        }
    }
}
