/// The tree's random requests (protocol.md, "Subtasks"): subtasks created and moved under parents, deep
/// chains, indents and outdents, moves by index to a depth, collapsing and expanding, filters that make
/// context rows. Each draws its params to hit both what works and each refusal; `ShadowStore` says which must
/// happen, and the server is held to it.

import TasklsProtocol
import Wire

extension RandomSession {
    /// `items/create` with `parent`: under a random item (sometimes with a subtask of it as `before`, sometimes a
    /// `before` that is not one: `beforeNotChild`), at the top level with `parent: null`, under an item of another
    /// list (`parentInOtherList`), or under the deepest item (`tooDeep` at depth 15).
    func createSubtask(in list: ListID) throws {
        let order = store.order(of: list)
        guard !order.isEmpty else { return try createItem(in: list) }
        var params = ItemsCreate(list: list, title: randomTitle())
        let others = store.lists.filter { $0 != list && !store.items(at: .top($0)).isEmpty }
        switch random.below(100) {
        case 0..<15:
            params.parent = .topLevel
            let top = store.items(at: .top(list))
            let deeper = order.filter { !top.contains($0) }
            switch random.below(10) {
            case 0..<4: params.before = random.pick(top)
            case 4..<6 where !deeper.isEmpty: params.before = random.pick(deeper)
            default: break
            }
        case 15..<22 where !others.isEmpty:
            params.parent = .item(random.pick(store.order(of: random.pick(others))))
        case 22..<32:
            params.parent = .item(order.max { store.depth(of: $0) < store.depth(of: $1) }!)
        default:
            let parent = random.pick(order)
            params.parent = .item(parent)
            let subtasks = store.items(at: .under(parent))
            switch random.below(20) {
            case 0..<7 where !subtasks.isEmpty: params.before = random.pick(subtasks)
            case 7..<10: params.before = random.pick(order)
            default: break
            }
        }
        try create(params)
    }

    /// A chain of subtasks, each under the last, from a random item down to depth 15; then one more under the
    /// last, refused with `tooDeep`.
    func deepChain() throws {
        let lists = store.lists.filter { !store.items(at: .top($0)).isEmpty }
        guard !lists.isEmpty else { return }
        let order = store.order(of: random.pick(lists))
        var parent = random.chance(50) ? random.pick(order) : order.max { store.depth(of: $0) < store.depth(of: $1) }!
        while true {
            let deepest = store.depth(of: parent) == ShadowStore.deepest
            try create(ItemsCreate(list: store.list(of: parent), title: randomTitle(), parent: .item(parent)))
            if deepest { return }
            parent = store.items(at: .under(parent)).last!
        }
    }

    /// `items/move` by id with `parent`: under a random item (of any list, sometimes inside the block: `cycle`),
    /// with a subtask of it as `before` or a `before` that is not one (`beforeNotChild`); at the top level with
    /// `parent: null`; with a `list` the parent is not in (`parentInOtherList`).
    func moveUnderParent() throws {
        let sources = store.lists.filter { !store.items(at: .top($0)).isEmpty }
        guard !sources.isEmpty else { return }
        let source = random.pick(sources)
        let manual = store.order(of: source)
        var block = [random.pick(manual)]
        if random.chance(40) {
            // Siblings of the first, or anything, or a descendant of it (which rides along).
            let siblings = store.items(at: store.place(of: block[0])).filter { $0 != block[0] }
            let extra = random.chance(60) && !siblings.isEmpty ? siblings : manual.filter { $0 != block[0] }
            if !extra.isEmpty { block += random.sample(extra, count: random.int(in: 1...min(2, extra.count))) }
        }
        let everything = store.lists.flatMap { store.order(of: $0) }
        var list: ListID?
        var parent: ParentChoice
        var before: ItemID?
        switch random.below(100) {
        case 0..<15:
            parent = .item(random.pick(block.flatMap { store.subtree(of: $0) }))
        case 15..<30:
            parent = .topLevel
            let top = store.items(at: .top(source))
            switch random.below(10) {
            case 0..<5: before = random.pick(top)
            case 5..<7: before = random.pick(manual)
            default: break
            }
        case 30..<37 where store.lists.count > 1:
            parent = .item(random.pick(everything))
            list = random.pick(store.lists)
        default:
            let target = random.chance(70) ? random.pick(manual) : random.pick(everything)
            parent = .item(target)
            let subtasks = store.items(at: .under(target))
            switch random.below(20) {
            case 0..<8 where !subtasks.isEmpty: before = random.pick(subtasks)
            case 8..<11: before = random.pick(everything)
            default: break
            }
            if random.chance(15) { list = store.list(of: target) }
        }
        let expected = store.movingByID(block, before: before, list: list, parent: parent)
        if wouldReportParentInOtherList(expected, before: before, parent: parent) { return skip("items/move before a subtask in another list") }
        try performMove(ItemsMove.ids(block, before: before, list: list, parent: parent), expected)
    }

    /// `items/indent` of a run of siblings (sometimes a first subtask or the first top-level item:
    /// `noPreviousSibling`; sometimes with an item elsewhere: `notSiblings`; sometimes with a descendant, which
    /// rides along).
    func indent() throws {
        guard let ids = randomSiblings(preferring: { _, siblings in siblings.first }) else { return }
        try performMove(ItemsIndent(ids: ids), store.indenting(ids))
    }

    /// `items/outdent` of a run of siblings (sometimes at the top level: `topLevel`; sometimes with an item
    /// elsewhere: `notSiblings`).
    func outdent() throws {
        guard let ids = randomSiblings(preferring: { place, siblings in
            if case .top = place { siblings.first } else { nil }
        }) else { return }
        try performMove(ItemsOutdent(ids: ids), store.outdenting(ids))
    }

    /// One to three consecutive siblings from a random item (a quarter of the time the one `special` picks among
    /// the siblings of a random place, when it picks one), in a random order, sometimes with an item of another
    /// place or a descendant of one of them.
    private func randomSiblings(preferring special: (Place, [ItemID]) -> ItemID?) -> [ItemID]? {
        let everything = store.lists.flatMap { store.order(of: $0) }
        guard !everything.isEmpty else { return nil }
        var first = random.pick(everything)
        if random.chance(25) {
            let place = store.place(of: random.pick(everything))
            if let item = special(place, store.items(at: place)) { first = item }
        }
        let siblings = store.items(at: store.place(of: first))
        let start = siblings.firstIndex(of: first)!
        var ids = Array(siblings[start..<min(siblings.count, start + random.int(in: 1...3))])
        if random.chance(10) { ids.append(random.pick(everything.filter { !ids.contains($0) } + [ids[0]])) }
        if random.chance(10), let inner = ids.flatMap({ store.subtree(of: $0).dropFirst() }).first { ids.append(inner) }
        var unique: [ItemID] = []
        for id in ids where !unique.contains(id) { unique.append(id) }
        return random.chance(20) ? unique.reversed() : unique
    }

    /// `view/collapse` or `view/expand` of `all`, or of random items of a view: mostly items with items of the view
    /// below them, sometimes any item of it, sometimes one that is not (`notInView`: of another list, filtered out,
    /// deleted).
    func fold(collapse: Bool) throws {
        guard let view = randomView() else { return }
        let shadow = store.views[view]!
        let membership = store.members(of: shadow)
        let members = spelled(membership.keys)
        let target: CollapseTarget
        if random.chance(collapse ? 20 : 30) || members.isEmpty {
            target = .all
        } else {
            let parents = members.filter { id in store.items(at: .under(id)).contains { membership[$0] != nil } }
            let folded = spelled(shadow.collapsed)
            var ids: [ItemID] = []
            for _ in 0..<random.int(in: 1...3) {
                switch random.below(20) {
                case 0..<12 where !parents.isEmpty: ids.append(random.pick(collapse || folded.isEmpty ? parents : folded))
                case 12..<18: ids.append(random.pick(members))
                default:
                    let outside = spelled(store.items.keys).filter { !members.contains($0) } + store.deleted.suffix(3)
                    ids.append(outside.isEmpty ? random.pick(members) : random.pick(outside))
                }
            }
            var unique: [ItemID] = []
            for id in ids where !unique.contains(id) { unique.append(id) }
            target = .ids(unique)
        }
        let expected = store.folding(view, target, collapse: collapse)
        if case .applied(let after) = expected, wouldKeepStaleRows(view, owning: after.views[view]!.ownsOrder) {
            return skip("view/collapse in manual order")
        }
        let method = collapse ? "view/collapse" : "view/expand"
        let handle = { (result: Result<CollapseResult, ResponseError>) throws in
            guard case .applied(let after) = expected else {
                if case .refused(let reason) = expected { try self.expectRefusal(result, reason: reason) }
                return
            }
            let changed = self.store.rows(of: shadow) != after.rows(of: after.views[view]!)
            let answer = try self.success(result)
            try self.check(answer.changed == changed, "\(method) must answer changed \(changed), answered \(answer.changed)")
            let views = self.received.compactMap { notification -> ViewID? in
                if case .viewChanged(let change) = notification { change.view } else { nil }
            }
            try self.check(
                views == (changed ? [view] : []) && views.count == self.received.count,
                "\(method) must send \(changed ? "one view/changed, for \(view)" : "nothing"), sent \(self.describe(self.received))")
            self.store.views = after.views
        }
        if collapse {
            try perform(ViewCollapse(view: view, target), handle: handle)
        } else {
            try perform(ViewExpand(view: view, target), handle: handle)
        }
    }

    /// `view/filter` with a random filter (or everything): one reset, then the view's version.
    func filterView() throws {
        guard let view = randomView() else { return }
        let filter = random.chance(30) ? nil : randomFilter()
        if wouldForgetCollapsedItems(of: view, filteredBy: filter ?? .all) { return skip("view/filter") }
        if wouldKeepStaleRows(view, filter: filter ?? .all) { return skip("view/filter of a view with collapsed items to everything") }
        client.willFilter(view, by: filter ?? .all)
        try perform(ViewFilter(view: view, filter: filter)) { result in
            let answer = try self.success(result)
            guard self.received.count == 1, case .viewChanged(let change) = self.received[0], change.view == view else {
                throw SessionFailure("view/filter must send exactly one view/changed, for \(view), got \(self.describe(self.received))")
            }
            try self.check(
                change.ops.map(\.name) == ["reset"], "view/filter's view/changed must hold one reset op, got \(change.ops.json.text)")
            try self.client.filtered(view, answer: answer)
            self.store.views[view]!.filter = filter ?? .all
        }
    }

    /// A filter the shadow store can apply exactly: by completion, by least priority, or both.
    func randomFilter() -> Filter {
        var filter = Filter()
        switch random.below(10) {
        case 0..<4: filter.done = .notDone
        case 4..<6: filter.done = .done
        case 6..<8: filter.priorityAtLeast = random.pick([.low, .medium, .high])
        default:
            filter.done = random.chance(50) ? .done : .notDone
            filter.priorityAtLeast = random.pick([.low, .medium])
        }
        return filter
    }

    // MARK: Holding the server to the outcome

    /// Sends a move (by id or index, an indent or an outdent) and holds the server to `expected`: the refusal, or
    /// `changed` and the revision as the tree changed or not; then the shadow store takes the new tree.
    func performMove<Request: RequestMessage>(_ request: Request, _ expected: TreeOutcome) throws where Request.Result == ItemsMoveResult {
        switch expected {
        case .refused(let reason):
            try perform(request, mutates: true) { result in try self.expectRefusal(result, reason: reason) }
        case .invalid(let field):
            try perform(request, mutates: true) { result in try self.expectInvalid(result, field: field) }
        case .applied(let after):
            let unchanged = after.hasSameTree(as: store)
            try perform(request, mutates: true, changesNothing: unchanged) { result in
                let answer = try self.success(result)
                try self.check(answer.changed == !unchanged, "\(Request.method) must answer changed \(!unchanged), answered \(answer.changed)")
                if unchanged {
                    try self.check(self.received.isEmpty, "\(Request.method) changed nothing but changed views: \(self.describe(self.received))")
                }
                let revision = self.store.revision
                self.store = after
                self.store.revision = revision
            }
        }
    }

    /// A `-32602` whose message names `params.<field>`; counted as the refusal `<field>OutOfRange`.
    func expectInvalid<Value: ProtocolValue>(_ result: Result<Value, ResponseError>, field: String) throws {
        guard case .failure(let error) = result, error.code == .invalidParams, error.message.hasPrefix("params.\(field):") else {
            throw SessionFailure("expected -32602 naming params.\(field), got \(describe(result))")
        }
        statistics.refusals["\(field)OutOfRange", default: 0] += 1
    }
}
