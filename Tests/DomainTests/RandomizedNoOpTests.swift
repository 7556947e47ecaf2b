// A seeded randomized test of the no-op rules, against an oracle written from protocol.md: random sequences of
// moves and updates, many of them to where things already are or to the values they already have. Exactly the
// groups the oracle calls no-ops must leave the revision, every item, every view and the undo history alone;
// every other group changes exactly what the oracle says; and every notification shows a visible change.

import Testing
@testable import Domain
import TestSupport

struct RandomizedNoOpTests {
    @Test(arguments: 0..<16)
    func exactlyTheNoOpsLeaveEverythingAlone(seed: UInt64) throws {
        var run = NoOpRun(seed: seed)
        try run.start()
        for _ in 0..<250 { try run.step() }
        // Both kinds are exercised, and views see real changes.
        #expect(run.tally.noOps >= 60 && run.tally.changes >= 80 && run.tally.notified >= 40, "\(run.tally)")
    }
}

/// One random sequence: the engine, a reference client per open view (which checks that every notification
/// shows a visible change, with its ops in the documented order), and the history a server would record.
private struct NoOpRun: EngineRun {
    var random: SplitMix64
    var engine = Engine()
    var clients = ClientSet()
    var builds: [BuiltIndex] = []
    var clock: Int64 = 1_000
    /// What a server's history would hold: one entry per group that changed something.
    var history: [Changes] = []
    var tally = (noOps: 0, changes: 0, notified: 0)

    static let titles = ["apple", "Apple", "banana", "cherry"]
    static let tagSets: [[String]] = [[], ["home"], ["home", "work"]]
    static let sorts: [Sort] = [.manual, .manual, Sort(.title), Sort(.priority, .descending), Sort(.manual, .descending)]

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    var now: Timestamp { Timestamp(milliseconds: clock) }

    mutating func randomWindow(count: Int) -> Window {
        let start = Int.random(in: 0...max(0, count - 2), using: &random)
        return Window(start: start, end: start + Int.random(in: 1...12, using: &random))
    }

    mutating func start() throws {
        for name in ["A", "B", "C", "D"] { _ = try engine.makeList(name) }
        for _ in 0..<24 { try apply([createItem()], noOp: false) }
        for list in lists.prefix(2) { try open(.list(list), .manual) }
        try open(.group(.all), .manual)
        try open(.group(.all), .manual, grouping: .list)
        try open(.group(.all), Sort(.title), grouping: .priority)
        try open(.list(lists[2]), Sort(.title))
    }

    mutating func step() throws {
        clock += 1_000
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<14: try apply([inPlaceItemMove()], noOp: true)
        case 14..<20: try inPlaceMoveByIndex()
        case 20..<28: try apply([inPlaceListMove()], noOp: true)
        case 28..<38: try apply([sameValues()], noOp: true)
        case 38..<56: try oracleApply(randomItemMove())
        case 56..<64: try oracleApply(randomListMove())
        case 64..<78: try oracleApply(randomUpdate())
        case 78..<84: try apply([inPlaceItemMove(), inPlaceListMove(), sameValues()], noOp: true)
        case 84..<90: try apply([createItem()], noOp: false)
        case 90..<93: try apply([.deleteItems(ids: [pick(itemIDs())!])], noOp: false)
        case 93..<97: try undoLast()
        case 97: try changeWindow()
        case 98: try closeView()
        default: try open(pick([.group(.all), .list(pick(lists)!)])!, pick(Self.sorts)!)
        }
    }

    // MARK: Applying and checking

    /// Applies a group the oracle judged: a no-op must leave the revision, every item, list and view, and the
    /// history alone; any other group must change something and advance the revision by one.
    mutating func apply(_ mutations: [Mutation], noOp: Bool, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = engine.fingerprint
        let revision = engine.revision
        let recorded = history.count
        let applied = try engine.apply(mutations)
        clients.receive(applied.viewChanges, engine: engine, sourceLocation: sourceLocation)
        if !applied.changes.isEmpty { history.append(applied.changes) }
        if noOp {
            tally.noOps += 1
            #expect(applied.changes.isEmpty, "a no-op changed \(applied.changes): \(mutations)", sourceLocation: sourceLocation)
            #expect(applied.viewChanges.isEmpty, "a no-op notified views: \(mutations)", sourceLocation: sourceLocation)
            #expect(engine.revision == revision && history.count == recorded, sourceLocation: sourceLocation)
            #expect(engine.fingerprint == before, "a no-op changed the state: \(mutations)", sourceLocation: sourceLocation)
        } else {
            tally.changes += 1
            #expect(!applied.changes.isEmpty, "nothing changed: \(mutations)", sourceLocation: sourceLocation)
            #expect(engine.revision == revision + 1 && history.count == recorded + 1, sourceLocation: sourceLocation)
        }
        if !applied.viewChanges.isEmpty { tally.notified += 1 }
    }

    /// Applies one mutation the oracle judged, then checks that exactly the items and lists it expects changed:
    /// each of them with its revision one higher and `modified` now; everything else exactly as it was.
    mutating func oracleApply(_ judged: Judged?, sourceLocation: SourceLocation = #_sourceLocation) throws {
        guard let judged else { return }
        let itemsBefore = Dictionary(uniqueKeysWithValues: engine.state.items.values.map { ($0.item.id, $0.item) })
        let listsBefore = engine.state.lists
        try apply([judged.mutation], noOp: judged.changedItems.isEmpty && judged.changedLists.isEmpty,
                  sourceLocation: sourceLocation)
        for (id, old) in itemsBefore {
            let new = engine.item(id)!
            if judged.changedItems.contains(id) {
                #expect(new.revision == old.revision + 1 && new.modifiedAt == now, "\(id) changed", sourceLocation: sourceLocation)
            } else {
                #expect(new == old, "\(id) untouched by \(judged.mutation)", sourceLocation: sourceLocation)
            }
        }
        for (id, old) in listsBefore where !judged.changedLists.contains(id) {
            #expect(engine.state.lists[id] == old, "\(id) untouched by \(judged.mutation)", sourceLocation: sourceLocation)
        }
        if let orders = judged.orders {
            for (list, order) in orders {
                #expect(self.order(of: list) == order, "manual order of \(list) after \(judged.mutation)", sourceLocation: sourceLocation)
            }
        }
        if let listOrder = judged.listOrder {
            #expect(lists == listOrder, "order of lists after \(judged.mutation)", sourceLocation: sourceLocation)
        }
    }

    /// Undoes the latest recorded group (never a no-op: every restored item's revision goes up).
    mutating func undoLast() throws {
        guard let last = history.popLast() else { return }
        guard let inverse = try? engine.inverse(of: last, at: now) else { return }
        try apply(inverse, noOp: false)
        history.removeLast()
    }

    mutating func open(_ source: ViewSource, _ sort: Sort, grouping: Grouping = .none) throws {
        let count = engine.state.itemCount
        let opened = try engine.openView(source: source, sort: sort, grouping: grouping, window: randomWindow(count: count))
        clients.open(opened.snapshot)
    }

    // MARK: The oracle: protocol.md's rules, on the orders as a client would list them

    /// A mutation, and what protocol.md says it changes.
    struct Judged {
        var mutation: Mutation
        var changedItems: Set<ItemID> = []
        var changedLists: Set<ListID> = []
        /// The manual order of each list after it (nil: not checked).
        var orders: [ListID: [ItemID]]?
        /// The order of lists after it (nil: not checked).
        var listOrder: [ListID]?
    }

    func order(of list: ListID) -> [ItemID] {
        engine.state.items(in: list, ranks: 0..<Int.max).map(\.id)
    }

    /// A run of consecutive items of a list, named in any order, moved before the item after it (or to the end).
    mutating func inPlaceItemMove() -> Mutation {
        let list = pick(lists.filter { engine.state.itemCount(in: $0) > 0 })!
        let order = order(of: list)
        let start = Int.random(in: 0..<order.count, using: &random)
        let end = min(order.count, start + Int.random(in: 1...3, using: &random))
        return .moveItems(ids: order[start..<end].shuffled(using: &random), toList: Bool.random(using: &random) ? list : nil,
                          before: end < order.count ? order[end] : nil, at: now)
    }

    /// A run of consecutive lists, named in any order, moved before the list after it (or to the end).
    mutating func inPlaceListMove() -> Mutation {
        let start = Int.random(in: 0..<lists.count, using: &random)
        let end = min(lists.count, start + Int.random(in: 1...2, using: &random))
        return .moveLists(ids: lists[start..<end].shuffled(using: &random), before: end < lists.count ? lists[end] : nil)
    }

    /// Rows of a manual view moved by index to where they are.
    mutating func inPlaceMoveByIndex() throws {
        let manual = engine.openViews.filter { (try? engine.snapshot($0))?.sort == .manual }
        guard let view = pick(manual), let snapshot = try? engine.snapshot(view), let count = snapshot.count, count > 0 else { return }
        let start = Int.random(in: 0..<count, using: &random)
        let rows = start..<min(count, start + Int.random(in: 1...2, using: &random))
        // Dropped where they are, the rows change nothing, whatever the view hides around them (protocol.md):
        // no mutation at all, unless the rows cannot be moved (a header row).
        let moved: Mutation?
        do {
            moved = try engine.moveMutation(view: view, rows: rows, to: start, seenVersion: snapshot.version, at: now)
        } catch {
            return // a header row
        }
        #expect(moved == nil, "rows dropped where they are became \(String(describing: moved))")
        try apply([], noOp: true)
    }

    /// A patch of one or several items that sets fields to the values they have (every item gets the same patch,
    /// so the fields named are those the items share).
    mutating func sameValues() -> Mutation {
        if Int.random(in: 0..<4, using: &random) == 0 {
            let list = engine.state.lists[pick(lists)!]!
            return .updateList(id: list.id, patch: ListPatch(name: list.name, color: list.color.map { .set($0) } ?? .clear))
        }
        let item = engine.item(pick(itemIDs())!)!
        var patch = ItemPatch()
        switch Int.random(in: 0..<6, using: &random) {
        case 0: patch.title = item.title
        case 1: patch.done = item.done
        case 2: patch.priority = item.priority
        case 3: patch.due = item.due.map { .set($0) } ?? .clear
        case 4: patch.tags = item.tags
        default: patch = ItemPatch(title: item.title, notes: item.notes, done: item.done, priority: item.priority)
        }
        let alike = itemIDs().filter { !Self.differs(engine.item($0)!, patch) }
        return .updateItems(ids: [item.id] + alike.prefix(Int.random(in: 0...2, using: &random)).filter { $0 != item.id },
                            patch: patch, at: now)
    }

    mutating func createItem() -> Mutation {
        let fields = ItemFields(title: pick(Self.titles)!, done: Int.random(in: 0..<5, using: &random) == 0,
                                priority: pick(Priority.allCases)!, tags: pick(Self.tagSets)!)
        return .createItem(id: ItemID(engine.state.nextIdentifier), list: pick(lists)!, fields: fields, before: nil, at: now)
    }

    /// A random move of one to three items, judged: the block (in list order, then manual order) is taken out and
    /// put back before `before` (or at the end) of the destination; a no-op exactly when every list's order is as it was.
    mutating func randomItemMove() -> Judged? {
        let ids = Array(Set((0..<Int.random(in: 1...3, using: &random)).map { _ in pick(itemIDs())! }))
        let lists = Set(ids.map { engine.item($0)!.list })
        let destination = lists.count == 1 && Bool.random(using: &random) ? lists.first! : pick(self.lists)!
        let destinationOrder = order(of: destination)
        let candidates = destinationOrder.filter { !ids.contains($0) }
        // Mostly the item after the block's first one, where no-ops happen.
        let first = ids.compactMap { destinationOrder.firstIndex(of: $0) }.min()
        let near = first.flatMap { index in destinationOrder[index...].first { !ids.contains($0) } }
        let before = Bool.random(using: &random) ? near : pick(candidates)
        let named = lists.count == 1 && lists.first == destination && Bool.random(using: &random) ? nil : destination
        let mutation = Mutation.moveItems(ids: ids.shuffled(using: &random), toList: named, before: before, at: now)
        return judge(mutation)
    }

    /// What protocol.md says a move of items by id does.
    func judge(_ mutation: Mutation) -> Judged? {
        guard case .moveItems(let ids, let toList, let before, _, _) = mutation else { return nil }
        let sources = Set(ids.map { engine.item($0)!.list })
        guard let destination = toList ?? before.map({ engine.item($0)!.list }) ?? (sources.count == 1 ? sources.first : nil) else {
            return nil
        }
        let listRank = Dictionary(uniqueKeysWithValues: lists.enumerated().map { ($1, $0) })
        let block = ids.sorted { left, right in
            let (l, r) = (engine.item(left)!, engine.item(right)!)
            if l.list != r.list { return listRank[l.list]! < listRank[r.list]! }
            return order(of: l.list).firstIndex(of: left)! < order(of: r.list).firstIndex(of: right)!
        }
        var orders: [ListID: [ItemID]] = [:]
        for list in sources.union([destination]) {
            orders[list] = order(of: list).filter { !ids.contains($0) }
        }
        let at = before.map { orders[destination]!.firstIndex(of: $0)! } ?? orders[destination]!.count
        orders[destination]!.insert(contentsOf: block, at: at)
        let unchanged = orders.allSatisfy { order(of: $0.key) == $0.value }
        return Judged(mutation: mutation, changedItems: unchanged ? [] : Set(ids), orders: orders)
    }

    /// A random move of one or two lists, judged as `judge` judges items. The lists that change are those of the
    /// side holding fewer items, plus one per list (the block on a tie): the block, or the lists it jumps over (those
    /// with a different number of the block's lists before them after the move).
    mutating func randomListMove() -> Judged? {
        let ids = Array(Set([pick(lists)!, pick(lists)!]))
        let others = lists.filter { !ids.contains($0) }
        let before = Bool.random(using: &random) ? pick(others) : others.first { lists.firstIndex(of: $0)! > lists.firstIndex(of: ids[0])! }
        var expected = others
        expected.insert(contentsOf: lists.filter { ids.contains($0) }, at: before.map { expected.firstIndex(of: $0)! } ?? expected.count)
        let unchanged = expected == lists
        func blockBefore(_ list: ListID, in order: [ListID]) -> Int {
            order.prefix { $0 != list }.filter { ids.contains($0) }.count
        }
        let jumped = others.filter { blockBefore($0, in: lists) != blockBefore($0, in: expected) }
        let state = engine.state
        let weight = { (lists: [ListID]) in lists.reduce(0) { $0 + state.itemCount(in: $1) + 1 } }
        let repositioned = weight(jumped) < weight(ids) ? jumped : ids
        return Judged(mutation: .moveLists(ids: ids, before: before), changedLists: unchanged ? [] : Set(repositioned),
                      listOrder: expected)
    }

    /// A random patch of one or two items, judged field by field: an item changes when some field named differs.
    mutating func randomUpdate() -> Judged? {
        let ids = Array(Set([pick(itemIDs())!, pick(itemIDs())!]))
        var patch = ItemPatch()
        switch Int.random(in: 0..<5, using: &random) {
        case 0: patch.title = pick(Self.titles)
        case 1: patch.done = Bool.random(using: &random)
        case 2: patch.priority = pick(Priority.allCases)
        case 3: patch.tags = pick(Self.tagSets)
        default: patch.notes = pick(["", "n"])
        }
        return Judged(mutation: .updateItems(ids: ids, patch: patch, at: now),
                      changedItems: Set(ids.filter { Self.differs(engine.item($0)!, patch) }))
    }

    /// Whether `patch` names a field with a value `item` does not have (protocol.md: "An item the change leaves as
    /// it was is not touched").
    static func differs(_ item: Item, _ patch: ItemPatch) -> Bool {
        (patch.title.map { $0 != item.title } ?? false) || (patch.notes.map { $0 != item.notes } ?? false)
            || (patch.done.map { $0 != item.done } ?? false) || (patch.due.map { $0.value != item.due } ?? false)
            || (patch.priority.map { $0 != item.priority } ?? false) || (patch.tags.map { $0 != item.tags } ?? false)
    }
}
