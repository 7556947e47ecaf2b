// Window operations derived from ranks against the window diff: two engines in lockstep, one of them diffing every
// window, on random mutations of trees under random views (sorts, filters, sections, collapsed items) and random
// windows.

import Testing
@testable import Domain
import TestSupport

struct WindowRanksTests {
    @Test(arguments: 0..<24)
    func ranksGiveTheWindowsTheDiffGives(seed: UInt64) throws {
        var run = LockstepRun(seed: seed)
        try run.start()
        for _ in 0..<250 { try run.step() }
        // Real work: most refreshes that moved, inserted or removed rows took the ranks' path.
        #expect(run.engine.windowPaths.byRank > run.engine.windowPaths.byDiff, "\(run.engine.windowPaths)")
        #expect(run.engine.windowPaths.byRankWithSections >= 50, "\(run.engine.windowPaths)")
        #expect(run.byRankWithOperations >= 60, "\(run.byRankWithOperations) changes by ranks with operations")
        #expect(run.compared >= 150, "\(run.compared) changes compared")
        #expect(run.diffing.windowPaths.byRank == 0, "the diffing engine never takes the ranks' path")
    }

    /// One item inserted, moved and removed inside, before and after a full window of a flat list: the exact ops.
    @Test func oneItemAgainstAWindow() throws {
        var engine = Engine()
        let list = try engine.makeList()
        let items = try engine.makeItems((0..<10).map { "t\($0)" }, in: list)
        let view = try engine.openView(source: .list(list), sort: .manual, window: Window(start: 3, end: 6)).snapshot.view
        var client = ReferenceClient(try engine.snapshot(view))
        func apply(_ mutation: Mutation) throws -> [WindowOperation] {
            let change = try engine.apply([mutation]).viewChanges.first { $0.view == view }
            if let change { client.apply(change) }
            #expect(client.rows == (try engine.snapshot(view)).rows)
            return change?.operations ?? []
        }
        let time = Timestamp(milliseconds: 1)
        // Moved from inside the window (t4, index 1) to before it: the row before the window (t2) enters at the top.
        var operations = try apply(.moveItems(ids: [items[4]], toList: nil, before: items[0], at: time))
        #expect(operations.count == 2 && operations.first == .remove(index: 1))
        if case .insert(let index, let row) = operations.last { #expect(index == 0 && row.id == .item(items[2])) }
        else { Issue.record("expected an insert, got \(operations)") }
        // Moved within the window (t2 t3 t5 to t2 t5 t3): one move carrying the row (its position changed).
        operations = try apply(.moveItems(ids: [items[3]], toList: nil, before: items[6], at: time))
        #expect(operations.count == 1)
        if case .move(let from, let to, let row) = operations.first { #expect(from == 1 && to == 2 && row != nil) }
        else { Issue.record("expected a move, got \(operations)") }
        // Created after the window: nothing but the count.
        operations = try apply(.createItem(id: ItemID(engine.state.nextIdentifier), list: list, fields: ItemFields(title: "n"),
                                           before: nil, at: time))
        #expect(operations.isEmpty)
        // Retitled inside the window: one update.
        operations = try apply(.updateItems(ids: [client.rows[2].itemID!], patch: ItemPatch(title: "new"), at: time))
        #expect(operations.count == 1 && { if case .update(2, _) = operations[0] { true } else { false } }())
        // The create after the window needs no ranks: its side of the window tells (`Engine+WindowSides.swift`).
        #expect(engine.windowPaths.byDiff == 0 && engine.windowPaths.byRank == 3)
    }
}

extension Row {
    /// The item a row shows, nil for a header.
    var itemID: ItemID? { if case .item(let item, _) = self { item.id } else { nil } }
}

/// An engine deriving windows from ranks where it can, and a copy of it that always diffs, given the same groups;
/// each with a reference client per view.
private struct LockstepRun: EngineRun {
    var random: SplitMix64
    var engine = Engine()
    var diffing = Engine()
    var clients = ClientSet()
    var diffClients = ClientSet()
    var builds: [BuiltIndex] = []
    var clock: Int64 = 1_000
    /// Changes compared between the engines, and those of the ranks' path that carried operations.
    var compared = 0
    var byRankWithOperations = 0

    static let titles = ["apple", "Éclair", "banana", "zoe", "cherry", "b", "kiwi", "date"]
    static let sorts: [Sort] = [.manual, Sort(.title), Sort(.due), Sort(.priority, .descending), Sort(.manual, .descending)]
    static let filters = [Filter.all, Filter(done: .notDone), Filter(priorityAtLeast: .medium), Filter(text: "a")]
    static let groupings: [Grouping] = [.none, .none, .priority, .done, .list]

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
        diffing.derivesWindowsByRank = false
    }

    mutating func start() throws {
        for name in ["A", "B"] {
            _ = try engine.makeList(name)
            _ = try diffing.makeList(name)
        }
        for _ in 0..<70 { try apply([createItem()]) }
        for _ in 0..<6 { try openView() }
    }

    mutating func step() throws {
        clock += 1
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<25: try apply([createItem()])
        case 25..<50: try apply([updateItem()])
        case 50..<70: try apply([moveItem()])
        case 70..<80: try apply([.deleteItems(ids: [pick(itemIDs()) ?? ItemID(1)])])
        case 80..<85: try apply([createItem(), updateItem()])
        case 85..<90: try changeWindows()
        case 90..<95: try collapse()
        default:
            if engine.openViews.count > 3 { try closeBoth() } else { try openView() }
        }
    }

    // MARK: Mutations

    mutating func createItem() -> Mutation {
        let list = pick(lists)!
        let parent = Int.random(in: 0..<3, using: &random) == 0 ? pick(itemIDs(in: list)) : nil
        let siblings = itemIDs(in: list).filter { engine.item($0)?.parent == parent }
        let fields = ItemFields(title: pick(Self.titles)!, done: Int.random(in: 0..<5, using: &random) == 0,
                                due: Bool.random(using: &random) ? nil : .date(CalendarDate(year: 2026, month: 3, day: Int.random(in: 1...3, using: &random))!),
                                priority: pick(Priority.allCases)!)
        return .createItem(id: ItemID(engine.state.nextIdentifier), list: list, fields: fields,
                           before: Bool.random(using: &random) ? pick(siblings) : nil,
                           parent: parent.map { .set($0) }, at: Timestamp(milliseconds: clock))
    }

    mutating func updateItem() -> Mutation {
        var patch = ItemPatch()
        switch Int.random(in: 0..<5, using: &random) {
        case 0: patch.title = pick(Self.titles)
        case 1: patch.due = Bool.random(using: &random) ? .clear : .set(.date(CalendarDate(year: 2026, month: 3, day: 2)!))
        case 2: patch.priority = pick(Priority.allCases)
        case 3: patch.done = Bool.random(using: &random)
        default: patch.notes = "note \(clock)"
        }
        return .updateItems(ids: [pick(itemIDs()) ?? ItemID(1)], patch: patch, at: Timestamp(milliseconds: clock))
    }

    /// Moves one item among its siblings mostly; sometimes under another parent, to the top level or to the other list.
    mutating func moveItem() -> Mutation {
        let moved = pick(itemIDs()) ?? ItemID(1)
        let item = engine.item(moved)
        let time = Timestamp(milliseconds: clock)
        switch Int.random(in: 0..<10, using: &random) {
        case 0: return .moveItems(ids: [moved], toList: pick(lists), before: nil, at: time)
        case 1: return .moveItems(ids: [moved], toList: nil, before: nil, parent: .clear, at: time)
        case 2: return .moveItems(ids: [moved], toList: nil, before: nil, parent: pick(itemIDs(in: item?.list)).map { .set($0) }, at: time)
        default:
            let siblings = itemIDs(in: item?.list).filter { $0 != moved && engine.item($0)?.parent == item?.parent }
            return .moveItems(ids: [moved], toList: nil, before: pick(siblings), at: time)
        }
    }

    /// Applies a group to both engines: the same outcome, the same views changed with the same counts and the same
    /// number of operations, and both clients' windows equal to a fresh snapshot.
    mutating func apply(_ mutations: [Mutation]) throws {
        let byRank = engine.windowPaths.byRank
        let applied: Applied
        do {
            applied = try engine.apply(mutations)
        } catch {
            #expect(throws: DomainError.self) { try diffing.apply(mutations) }
            return
        }
        let diffed = try diffing.apply(mutations)
        #expect(applied.viewChanges.map(\.view) == diffed.viewChanges.map(\.view))
        for (change, other) in zip(applied.viewChanges, diffed.viewChanges) {
            #expect(change.count == other.count && change.version == other.version)
            #expect(change.operations.count == other.operations.count, "\(change.operations) against \(other.operations)")
            compared += 1
        }
        if engine.windowPaths.byRank > byRank, applied.viewChanges.contains(where: { !$0.operations.isEmpty }) {
            byRankWithOperations += 1
        }
        clients.receive(applied.viewChanges, engine: engine)
        diffClients.receive(diffed.viewChanges, engine: diffing)
        for (id, client) in clients.clients { #expect(client.rows == diffClients.clients[id]?.rows) }
    }

    // MARK: Views

    mutating func randomWindow(count: Int) -> Window {
        let size = Int.random(in: 1...40, using: &random)
        let start = Int.random(in: 0...max(0, count - size / 2), using: &random)
        return Window(start: start, end: start + size)
    }

    mutating func openView() throws {
        let list = pick(lists)!
        let sort = pick(Self.sorts)!
        let filter = pick(Self.filters)!
        let grouping = pick(Self.groupings)!
        let window = randomWindow(count: engine.state.itemCount(in: list))
        let opened = try engine.openView(source: .list(list), sort: sort, filter: filter, grouping: grouping, window: window)
        let other = try diffing.openView(source: .list(list), sort: sort, filter: filter, grouping: grouping, window: window)
        #expect(opened.build == nil && other.build == nil)
        clients.open(opened.snapshot)
        diffClients.open(other.snapshot)
    }

    mutating func closeBoth() throws {
        guard let view = pick(engine.openViews) else { return }
        try engine.closeView(view)
        try diffing.closeView(view)
        clients.clients[view] = nil
        diffClients.clients[view] = nil
    }

    mutating func changeWindows() throws {
        guard let view = pick(engine.openViews) else { return }
        let window = randomWindow(count: try engine.snapshot(view).count ?? 0)
        clients.open(try engine.setWindow(view, window))
        diffClients.open(try diffing.setWindow(view, window))
    }

    /// Collapses or expands a random parent in a random view.
    mutating func collapse() throws {
        guard let view = pick(engine.openViews) else { return }
        let parents = itemIDs().filter { id in engine.state.items.values.contains { $0.item.parent == id } }
        guard let parent = pick(parents) else { return }
        let collapse = Bool.random(using: &random)
        let change = try? engine.setCollapsed(view, ids: [parent], collapse: collapse)
        let other = try? diffing.setCollapsed(view, ids: [parent], collapse: collapse)
        #expect(change?.operations.count == other?.operations.count)
        if let change { clients.receive([change], engine: engine) }
        if let other { diffClients.receive([other], engine: diffing) }
    }
}
