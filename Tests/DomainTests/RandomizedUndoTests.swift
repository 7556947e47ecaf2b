// A seeded randomized test: random histories of mutation groups from the empty state, undone all the way back and
// redone all the way forward, twice, with views open: the state and every view exact at every step.

import Testing
@testable import Domain
import TestSupport

struct RandomizedUndoTests {
    @Test(arguments: 0..<24)
    func randomHistoriesUndoToEmptyAndRedoToTheEnd(seed: UInt64) throws {
        var run = UndoRun(seed: seed)
        try run.record(groups: 80)
        // Real work: repeating items were moved on (their history grew), and are undone and redone below.
        let advances = run.changes.filter { group in
            group.items.contains { ($0.new?.occurrences.used ?? 0) > ($0.old?.occurrences.used ?? 0) }
        }
        #expect(!advances.isEmpty, "no group moved a repeating item on")
        // And whole items were inserted (as an import does), with uids and extras that undo and redo keep.
        #expect(run.inserts > 0, "no group inserted items")
        for _ in 0..<2 {
            try run.undoAll()
            #expect(run.fixture.engine.state.lists.isEmpty && run.fixture.engine.state.itemCount == 0)
            try run.redoAll()
        }
        #expect(run.changes.count == 80)
    }

    /// Undos and redos of any past group, in any order, between new groups: each is refused whole (nothing
    /// changes) or applied, putting back the recorded values (at another position when theirs was taken since).
    @Test(arguments: 0..<16)
    func undosInAnyOrderAreRefusedWholeOrApplied(seed: UInt64) throws {
        var run = UndoRun(seed: seed)
        try run.record(groups: 10)
        var pool = run.changes
        var outcomes = (applied: 0, refused: 0)
        for _ in 0..<200 {
            if run.chance(40) {
                try run.record(groups: run.changes.count + 1)
                pool.append(run.changes.last!)
                continue
            }
            // Mostly recent groups, which are more often still undoable.
            let index = max(0, pool.count - 1 - Int.random(in: 0..<(run.chance(80) ? 4 : pool.count), using: &run.random))
            let before = run.fixture.engine.fingerprint
            do {
                let undone = try run.fixture.invert(pool[index])
                let recorded = Dictionary(uniqueKeysWithValues: pool[index].items.map { ($0.id, $0.old) })
                for change in undone.changes.items {
                    guard var restored = change.new, let old = recorded[change.id] ?? nil else { continue }
                    restored.position = old.position
                    #expect(restored.hasSameContent(as: old), "\(change.id) is back as it was")
                }
                pool[index] = undone.changes
                outcomes.applied += 1
            } catch let error as DomainError {
                guard case .refused = error else { throw error }
                #expect(run.fixture.engine.fingerprint == before)
                outcomes.refused += 1
            }
            try run.touchViews()
        }
        #expect(outcomes.applied > 20 && outcomes.refused > 20, "\(outcomes)")
    }
}

/// One random history: the fixture, the image of the state before each group and after the last, and the
/// changes to invert (each group's, then each redo's).
private struct UndoRun {
    var random: SplitMix64
    var fixture = UndoFixture()
    var images: [StateImage] = []
    var changes: [Changes] = []
    var undos: [Changes] = []
    /// How many of the groups inserted whole items.
    var inserts = 0

    static let titles = ["apple", "Apple", "Éclair", "eclair", "banana", "Zoë", "cherry", "b"]
    static let rules = [try! RepeatRule(rrule: "FREQ=DAILY"), try! RepeatRule(rrule: "FREQ=MONTHLY;BYMONTHDAY=-1", anchor: .completion)]
    static let sorts: [Sort] = SortField.allCases.flatMap { field in SortDirection.allCases.map { Sort(field, $0) } }

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    /// Applies random groups until `groups` of them changed something; fails (instead of looping on) when
    /// fewer than one in four attempts does.
    mutating func record(groups: Int) throws {
        images = [StateImage(fixture.engine.state)]
        var attempts = 0
        while changes.count < groups {
            attempts += 1
            guard attempts <= 4 * groups + 40 else {
                Issue.record("only \(changes.count) of \(attempts - 1) random groups changed something")
                return
            }
            fixture.clock += Int64.random(in: 0...3, using: &random)
            // Random groups can be refused (a list deleted earlier in the group, say): nothing changes then.
            let group = makeGroup()
            guard let applied = try? fixture.apply(group), !applied.changes.isEmpty else { continue }
            if case .insertItems? = group.first { inserts += 1 }
            changes.append(applied.changes)
            images.append(StateImage(fixture.engine.state))
            try touchViews()
        }
    }

    mutating func undoAll() throws {
        undos = changes
        for index in changes.indices.reversed() {
            undos[index] = try fixture.invert(changes[index]).changes
            #expect(StateImage(fixture.engine.state) == images[index], "undo of group \(index)")
            try touchViews()
        }
    }

    mutating func redoAll() throws {
        for index in changes.indices {
            changes[index] = try fixture.invert(undos[index]).changes
            #expect(StateImage(fixture.engine.state) == images[index + 1], "redo of group \(index)")
            try touchViews()
        }
    }

    // MARK: Groups

    mutating func pick<T>(_ values: [T]) -> T? {
        values.isEmpty ? nil : values[Int.random(in: 0..<values.count, using: &random)]
    }

    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    /// One to four mutations, built against the state as the group's earlier mutations leave it; now and then
    /// instead an import's group: one to three whole items inserted at the end of a list.
    mutating func makeGroup() -> [Mutation] {
        let state = fixture.engine.state
        if chance(8), let list = pick(state.orderedLists.map(\.id)) {
            let last = state.items(in: list, ranks: max(0, state.itemCount(in: list) - 1)..<Int.max).last?.position
            let count = Int.random(in: 1...3, using: &random)
            let inserted = zip(0..<UInt64(count), Position.between(last, nil, count: count)).map { offset, position in
                let id = state.nextIdentifier + offset
                let done = chance(20)
                return Item(id: ItemID(id), list: list, title: pick(Self.titles)!, notes: "", done: done,
                            completedAt: done ? fixture.now : nil, due: nil, priority: pick(Priority.allCases)!, tags: [],
                            createdAt: Timestamp(milliseconds: 1_000), modifiedAt: fixture.now, revision: UInt64.random(in: 1...5, using: &random),
                            position: position, uid: chance(70) ? "uid-\(id)" : nil,
                            extras: chance(50) ? [Extra(key: "taskwarrior:uda.n", value: "\(id)")] : [])
            }
            return [.insertItems(items: inserted)]
        }
        var lists = state.orderedLists.map(\.id)
        var items = state.items.values.map(\.item).sorted { $0.id < $1.id }.map { ($0.id, $0.list) }
        var next = state.nextIdentifier
        let time = fixture.now
        var group: [Mutation] = []
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let roll = lists.isEmpty ? 0 : Int.random(in: 0..<100, using: &random)
            func inList(_ list: ListID) -> [ItemID] { items.filter { $0.1 == list }.map(\.0) }
            switch roll {
            case 0..<6:
                let list = ListID(next)
                next += 1
                group.append(.createList(id: list, fields: ListFields(name: pick(Self.titles)!, color: chance(50) ? "red" : nil),
                                         before: chance(50) ? pick(lists) : nil))
                lists.append(list)
            case 6..<10:
                let patch = ListPatch(name: chance(50) ? pick(Self.titles) : nil, color: chance(50) ? .set("blue") : .clear,
                                      icon: chance(50) ? .set("star") : nil)
                group.append(.updateList(id: pick(lists)!, patch: patch))
            case 10..<14:
                let moved = Array(Set([pick(lists)!, pick(lists)!])).sorted()
                group.append(.moveLists(ids: moved, before: pick(lists.filter { !moved.contains($0) })))
            case 14..<16:
                let list = pick(lists)!
                group.append(.deleteList(id: list))
                lists.removeAll { $0 == list }
                items.removeAll { $0.1 == list }
            case 16..<50:
                let (id, list) = (ItemID(next), pick(lists)!)
                next += 1
                // Some repeat (with a due, as a repeat needs one), so groups move them on and undo puts them back.
                let repeats = chance(25)
                let fields = ItemFields(title: pick(Self.titles)!, done: chance(20),
                                        due: repeats ? .date(CalendarDate(year: 2026, month: 11, day: 26)!) : nil,
                                        priority: pick(Priority.allCases)!, tags: chance(30) ? ["t", "u"] : [],
                                        repeatRule: repeats ? pick(Self.rules) : nil)
                group.append(.createItem(id: id, list: list, fields: fields, before: chance(50) ? pick(inList(list)) : nil, at: time))
                items.append((id, list))
            case 50..<56 where !items.isEmpty:
                // A repeating item moved on (completed or skipped): its due, history and subtasks' done change.
                guard let id = pick(items.map(\.0).filter({ state.item($0)?.repeatRule != nil })) else { continue }
                let next = Due.date(CalendarDate(year: 2027, month: 1, day: Int.random(in: 1...28, using: &random))!)
                group.append(.advanceItems(advances: [Advance(id: id, next: next, outcome: chance(50) ? .completed : .skipped)], at: time))
            case 56..<68 where !items.isEmpty:
                let ids = (0..<Int.random(in: 1...3, using: &random)).map { _ in pick(items)!.0 }
                group.append(.updateItems(ids: ids, patch: randomPatch(), at: time))
            case 68..<88 where !items.isEmpty:
                let ids = Array(Set((0..<Int.random(in: 1...3, using: &random)).map { _ in pick(items)!.0 })).sorted()
                let destination = chance(40) ? pick(lists)! : items.first { $0.0 == ids[0] }!.1
                let before = chance(60) ? pick(inList(destination).filter { !ids.contains($0) }) : nil
                group.append(.moveItems(ids: ids, toList: destination, before: before, at: time))
                items = items.map { ids.contains($0.0) ? ($0.0, destination) : $0 }
            case 88..<100 where !items.isEmpty:
                let ids = (0..<Int.random(in: 1...3, using: &random)).map { _ in pick(items)!.0 }
                group.append(.deleteItems(ids: ids))
                items.removeAll { ids.contains($0.0) }
            default:
                continue
            }
        }
        return group
    }

    mutating func randomPatch() -> ItemPatch {
        var patch = ItemPatch()
        switch Int.random(in: 0..<6, using: &random) {
        case 0: patch.title = pick(Self.titles)
        case 1: patch.due = chance(70) ? .set(.date(CalendarDate(year: 2026, month: 11, day: Int.random(in: 20...23, using: &random))!)) : .clear
        case 2: patch.priority = pick(Priority.allCases)
        case 3: patch.done = Bool.random(using: &random)
        case 4: patch.tags = chance(50) ? ["t"] : []
        default: patch.notes = "note \(fixture.clock)"
        }
        return patch
    }

    // MARK: Views

    /// Opens, scrolls, re-sorts or closes a view now and then, so views of every kind see the undos and redos.
    mutating func touchViews() throws {
        let engine = fixture.engine
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<3:
            guard let list = pick(engine.state.orderedLists.map(\.id)) else { return }
            let start = Int.random(in: 0...max(0, engine.state.itemCount(in: list) - 2), using: &random)
            try fixture.open(list, pick(Self.sorts)!, Window(start: start, end: start + Int.random(in: 1...8, using: &random)))
        case 3:
            guard let view = pick(engine.openViews) else { return }
            fixture.clients.receiveGeneration(try fixture.engine.setSort(view, pick(Self.sorts)!).change, engine: fixture.engine)
        case 4:
            guard let view = pick(engine.openViews) else { return }
            let start = Int.random(in: 0...4, using: &random)
            fixture.clients.open(try fixture.engine.setWindow(view, Window(start: start, end: start + 6)))
        case 5 where engine.openViews.count > 6:
            guard let view = pick(engine.openViews) else { return }
            try fixture.engine.closeView(view)
            fixture.clients.clients[view] = nil
        default:
            return
        }
    }
}
