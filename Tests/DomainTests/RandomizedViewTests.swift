// A seeded randomized test: long random sequences of mutations, sorts, windows and builds against several views,
// checking after every change that the reference client's window equals a fresh snapshot and the true order.

import Testing
@testable import Domain
import TestSupport

struct RandomizedViewTests {
    @Test(arguments: 0..<32)
    func randomSequencesKeepEveryViewExact(seed: UInt64) throws {
        var run = RandomRun(seed: seed)
        try run.start()
        for _ in 0..<300 {
            try run.step()
        }
        // Most groups must change something: a domain that refused them all, or ignored them, would not pass.
        #expect(run.groups.changed * 4 >= run.groups.tried * 3 && run.groups.tried >= 150, "\(run.groups)")
        #expect(run.groups.refused * 5 <= run.groups.tried, "\(run.groups)")
    }
}

/// One random sequence: an engine, the clients of its open views, and builds waiting to be installed.
private struct RandomRun: EngineRun {
    var random: SplitMix64
    var engine: Engine
    var clients = ClientSet()
    var builds: [BuiltIndex] = []
    var clock: Int64 = 1_000
    var steps = 0
    /// The mutation groups applied: tried, refused (nothing changed), and those that changed something.
    var groups = (tried: 0, refused: 0, changed: 0)

    static let titles = ["apple", "Apple", "Éclair", "eclair", "banana", "Zoë", "zoe", "cherry", "ångström", "b"]
    static let sorts: [Sort] = SortField.allCases.flatMap { field in SortDirection.allCases.map { Sort(field, $0) } }

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
        engine = Engine(backgroundBuildThreshold: seed % 2 == 0 ? 8 : 1_000)
    }

    mutating func start() throws {
        for name in ["A", "B", "C"] { _ = try engine.makeList(name) }
        for _ in 0..<40 { try apply([createItem()]) }
        for _ in 0..<4 { try openView() }
    }

    mutating func step() throws {
        steps += 1
        clock += Int64.random(in: 0...3, using: &random)
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<20: try apply([createItem()])
        case 20..<35: try apply([updateItems()])
        case 35..<50: try apply([moveItems()])
        case 50..<58: try apply([deleteItems()])
        case 58..<64: try apply([createItem(), updateItems(), moveItems()])
        case 64..<70: try changeSort()
        case 70..<77: try changeWindow()
        case 77..<80: try openView()
        case 80..<82: try closeView()
        case 82..<84: try deleteAndRecreateList()
        case 84..<90: try moveByIndex()
        case 90..<94: try installBuild()
        case 94..<97: try refusedChangesNothing()
        case 97: try apply([updateManyItems()])
        default: try apply([createItem(), deleteItems()])
        }
        verifyOrder()
    }

    // MARK: Mutations

    mutating func randomDue() -> Due? {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return nil
        case 1: return .date(CalendarDate(year: 2026, month: 11, day: Int.random(in: 20...23, using: &random))!)
        default: return .dateTime(Timestamp(milliseconds: 1_795_300_000_000 + Int64.random(in: 0...4, using: &random) * 3_600_000),
                                  offsetSeconds: Int.random(in: -1...1, using: &random) * 3600)
        }
    }

    mutating func createItem() -> Mutation {
        let list = pick(lists)!
        let before = Bool.random(using: &random) ? pick(itemIDs(in: list)) : nil
        let fields = ItemFields(title: pick(Self.titles)!, due: randomDue(), priority: pick(Priority.allCases)!)
        return .createItem(id: ItemID(engine.state.nextIdentifier), list: list, fields: fields, before: before,
                           at: Timestamp(milliseconds: clock))
    }

    mutating func updateItems() -> Mutation {
        var patch = ItemPatch()
        switch Int.random(in: 0..<5, using: &random) {
        case 0: patch.title = pick(Self.titles)
        case 1: patch.due = randomDue().map { .set($0) } ?? .clear
        case 2: patch.priority = pick(Priority.allCases)
        case 3: patch.done = Bool.random(using: &random)
        default: patch.notes = "note \(clock)"
        }
        return .updateItems(ids: someItems(), patch: patch, at: Timestamp(milliseconds: clock))
    }

    /// A group touching more items than the unhashed window diff handles.
    mutating func updateManyItems() -> Mutation {
        let ids = (0..<24).compactMap { _ in pick(itemIDs()) }
        return .updateItems(ids: ids, patch: ItemPatch(title: pick(Self.titles), priority: pick(Priority.allCases)),
                            at: Timestamp(milliseconds: clock))
    }

    mutating func moveItems() -> Mutation {
        let moved = someItems()
        let destination = Int.random(in: 0..<4, using: &random) == 0 ? pick(lists) : engine.item(moved.first ?? ItemID(0))?.list
        let candidates = destination.map { itemIDs(in: $0) }?.filter { !moved.contains($0) } ?? []
        let before = Bool.random(using: &random) ? pick(candidates) : nil
        return .moveItems(ids: moved, toList: destination, before: before, at: Timestamp(milliseconds: clock))
    }

    mutating func deleteItems() -> Mutation {
        .deleteItems(ids: someItems())
    }

    mutating func apply(_ mutations: [Mutation]) throws {
        groups.tried += 1
        let before = engine.fingerprint
        do {
            let applied = try engine.apply(mutations)
            clients.receive(applied.viewChanges, engine: engine)
            if !applied.changes.isEmpty { groups.changed += 1 }
        } catch {
            // Random groups can be refused (a block naming its anchor, a list deleted earlier in the group):
            // nothing changes then.
            groups.refused += 1
            #expect(engine.fingerprint == before, "a refused group changed nothing: \(error)")
            clients.verify(engine)
        }
    }

    // MARK: Views

    mutating func randomWindow(count: Int) -> Window {
        let size = Int.random(in: 0...14, using: &random)
        let start: Int
        switch Int.random(in: 0..<4, using: &random) {
        case 0: start = 0
        case 1: start = count / 2
        case 2: start = max(0, count - size / 2)
        default: start = count + Int.random(in: 0...3, using: &random)
        }
        return Window(start: start, end: start + size)
    }

    mutating func openView() throws {
        let list = pick(lists)!
        let opened = try engine.openView(source: .list(list), sort: pick(Self.sorts)!,
                                         window: randomWindow(count: engine.state.itemCount(in: list)))
        clients.open(opened.snapshot)
        if let build = opened.build { builds.append(build.run()) }
        clients.verify(engine)
    }

    mutating func changeSort() throws {
        guard let view = pick(engine.openViews) else { return }
        let changed = try engine.setSort(view, pick(Self.sorts)!)
        clients.receiveGeneration(changed.change, engine: engine)
        if let build = changed.build { builds.append(build.run()) }
    }

    mutating func deleteAndRecreateList() throws {
        guard lists.count > 1, let list = pick(lists) else { return }
        try apply([.deleteList(id: list)])
        try apply([.createList(id: ListID(engine.state.nextIdentifier), fields: ListFields(name: "N"), before: pick(lists))])
        for id in engine.openViews where engine.views[id]?.spec.source.list == list {
            Issue.record("view \(id) of a deleted list is still open")
        }
    }

    mutating func moveByIndex() throws {
        guard let view = pick(engine.openViews) else { return }
        let snapshot = try engine.snapshot(view)
        let count = snapshot.count ?? 0
        guard count > 0 else { return }
        let start = Int.random(in: 0..<count, using: &random)
        let rows = start..<min(count, start + Int.random(in: 1...3, using: &random))
        let target = Int.random(in: 0...(count - rows.count), using: &random)
        let stale = Int.random(in: 0..<10, using: &random) == 0
        do {
            let mutation = try engine.moveMutation(view: view, rows: rows, to: target,
                                                   seenVersion: snapshot.version - (stale ? 1 : 0),
                                                   at: Timestamp(milliseconds: clock))
            #expect(!stale && snapshot.sort == .manual && snapshot.state == .ready)
            let ids = (try engine.snapshot(view).rows)
            #expect((mutation == nil) == (target == start))
            if let mutation { try apply([mutation]) }
            if case .list(let list) = snapshot.source, snapshot.window.start == 0, snapshot.window.end >= count {
                var expected = ids.map(\.id)
                let block = Array(expected[rows])
                expected.removeSubrange(rows)
                expected.insert(contentsOf: block, at: target)
                #expect(engine.state.items(in: list, ranks: 0..<count).map { RowID.item($0.id) } == expected)
            }
        } catch let error as DomainError {
            switch error {
            case .staleVersion: #expect(stale)
            case .refused(let reason, _): #expect(reason == "sortedView" && snapshot.sort != .manual)
            default: Issue.record("unexpected \(error)")
            }
        }
    }

    mutating func refusedChangesNothing() throws {
        let before = engine.fingerprint
        let bad: Mutation = pick([
            .deleteItems(ids: [ItemID(999_999)]),
            .updateItems(ids: itemIDs().prefix(2) + [ItemID(999_998)], patch: ItemPatch(title: "x"), at: Timestamp(milliseconds: clock)),
            .createItem(id: ItemID(1), list: lists[0], fields: ItemFields(title: "dup"), before: nil, at: Timestamp(milliseconds: clock)),
        ])!
        #expect(throws: DomainError.self) { try engine.apply([createItem(), moveItems(), bad]) }
        #expect(engine.fingerprint == before)
    }

    // MARK: The true order, computed independently of the indexes.

    func verifyOrder() {
        for id in engine.openViews {
            guard let snapshot = try? engine.snapshot(id), snapshot.state == .ready, case .list(let list) = snapshot.source else {
                continue
            }
            let all = engine.state.items.values.map(\.item).filter { $0.list == list }.sorted { trueOrder($0, $1, snapshot.sort) }
            #expect(snapshot.count == all.count)
            let ranks = snapshot.window.ranks(count: all.count)
            #expect(snapshot.rows == all[ranks].map { Row.item($0) }, "true order of view \(id) in \(snapshot.sort)")
        }
    }
}
