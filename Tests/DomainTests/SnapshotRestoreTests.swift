// Snapshot restore: a state read out (allLists, forEachItem) and built back is the same state, and refusals.

import Testing
@testable import Domain
import TestSupport

@Suite struct SnapshotRestoreTests {
    @Test(arguments: 0..<8)
    func restoredStateEqualsTheOriginalAndEvolvesAlike(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var original = TaskState()
        for _ in 0..<400 { _ = try? original.apply(randomGroup(original, &random)) }
        #expect(original.itemCount > 50 && original.lists.count > 3)
        var restored = try restore(original)
        expectSame(original, restored)
        for _ in 0..<200 {
            let group = randomGroup(original, &random)
            let expected = Result { () throws(DomainError) in try original.apply(group) }
            let actual = Result { () throws(DomainError) in try restored.apply(group) }
            #expect(expected == actual)
        }
        expectSame(original, restored)
    }

    /// Items given in chunks cut anywhere (empty ones too), a list's items split across chunks and interleaved
    /// with another's, some lists out of order and one with subtasks: the keys are moved out of the chunks run
    /// by run, and the state is the one a single array gives.
    @Test(arguments: 0..<6)
    func restoredFromChunksEqualsTheOriginal(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var original = TaskState()
        for _ in 0..<300 { _ = try? original.apply(randomGroup(original, &random)) }
        let withChildren = original.orderedLists.first { original.itemCount(in: $0.id) > 1 }!.id
        let parent = original.items(in: withChildren, ranks: 0..<1)[0].id
        _ = try original.apply([.createItem(id: ItemID(original.nextIdentifier), list: withChildren, fields: ItemFields(title: "child"),
                                            before: nil, parent: .set(parent), at: Timestamp(milliseconds: 9))])
        var items: [Item] = []
        original.forEachItem { items.append($0) }
        #expect(items.count > 40 && original.lists.count > 3 && items.contains { $0.parent != nil })
        // The first list's items: half at the start, half at the end (after every other list's); another list reversed.
        let lists = original.orderedLists
        let first = items.filter { $0.list == lists[0].id }
        let reversed = lists[1].id
        var shuffled = Array(first.prefix(first.count / 2))
        shuffled += items.filter { $0.list != lists[0].id && $0.list != reversed }
        shuffled += items.filter { $0.list == reversed }.reversed()
        shuffled += first.dropFirst(first.count / 2)
        var chunks: [[Item]] = [[]]
        for item in shuffled {
            while Int.random(in: 0..<8, using: &random) == 0 { chunks.append([]) }
            chunks[chunks.count - 1].append(item)
        }
        #expect(chunks.count > 2)
        let restored = try TaskState(restoring: original.allLists, itemChunks: chunks, nextIdentifier: original.nextIdentifier,
                                     revision: original.revision)
        expectSame(original, restored)
        // A refusal found once the keys are moved (two items at one position, in a list with and one without
        // subtasks) releases every key: nothing is left behind or released twice.
        let flat = lists.first { $0.id != withChildren && original.itemCount(in: $0.id) > 1 }!.id
        for list in [withChildren, flat] {
            let listItems = items.filter { $0.list == list && $0.parent == nil }
            var taken = listItems[1]
            taken.position = listItems[0].position
            let refusedChunks = chunks.map { chunk in chunk.map { $0.id == taken.id ? taken : $0 } }
            #expect(throws: DomainError.self) {
                _ = try TaskState(restoring: original.allLists, itemChunks: refusedChunks, nextIdentifier: original.nextIdentifier,
                                  revision: original.revision)
            }
        }
    }

    /// A journal's group replayed at load leaves the state, its revision included, as applying it does, and is
    /// refused (leaving the state as it was) exactly when applying it is.
    @Test(arguments: 0..<4)
    func replayMatchesApply(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var applied = TaskState()
        var replayed = TaskState()
        var refused = 0
        for _ in 0..<400 {
            let group = randomGroup(applied, &random)
            let expected = Result { () throws(DomainError) in _ = try applied.apply(group) }
            let actual = Result { () throws(DomainError) in try replayed.replay(group) }
            #expect((try? expected.get()) != nil ? (try? actual.get()) != nil : (try? actual.get()) == nil)
            if (try? expected.get()) == nil { refused += 1 }
            #expect(replayed.revision == applied.revision)
        }
        #expect(refused > 0 && applied.itemCount > 50)
        expectSame(applied, replayed)
    }

    @Test func emptyStateRestores() throws {
        let restored = try TaskState(restoring: [], items: [], nextIdentifier: 1, revision: 0)
        expectSame(TaskState(), restored)
    }

    @Test func refusals() throws {
        var state = TaskState()
        _ = try state.apply([.createList(id: ListID(1), fields: ListFields(name: "A"), before: nil),
                             .createList(id: ListID(2), fields: ListFields(name: "B"), before: nil),
                             .createItem(id: ItemID(3), list: ListID(1), fields: ItemFields(title: "x"), before: nil, at: Timestamp(milliseconds: 5)),
                             .createItem(id: ItemID(4), list: ListID(1), fields: ItemFields(title: "y"), before: nil, at: Timestamp(milliseconds: 5))])
        let lists = state.allLists
        let items = state.items(in: ListID(1), ranks: 0..<2)
        func refusal(_ lists: [TaskList], _ items: [Item], next: UInt64 = 5) -> DomainError? {
            do throws(DomainError) {
                _ = try TaskState(restoring: lists, items: items, nextIdentifier: next, revision: 1)
                return nil
            } catch { return error }
        }
        #expect(refusal(lists, items) == nil)
        #expect(reason(refusal(lists + [lists[0]], items)) == "identifierUsed")
        #expect(reason(refusal(lists, items + [items[0]])) == "identifierUsed")
        var onList = items[0]
        onList.id = ItemID(2)
        #expect(reason(refusal(lists, [onList, items[1]])) == "identifierUsed")
        #expect(refusal([lists[1]], items) == .notFound(kind: .list, ids: [1]))
        var shared = items[1]
        shared.position = items[0].position
        #expect(reason(refusal(lists, [items[0], shared])) == "positionTaken")
        var sharedList = lists[1]
        sharedList.position = lists[0].position
        #expect(reason(refusal([lists[0], sharedList], [])) == "positionTaken")
        #expect(reason(refusal(lists, items, next: 4)) == "identifierUnused")
        #expect(reason(refusal(lists, items, next: 2)) == "identifierUnused")
        var zero = items[0]
        zero.id = ItemID(0)
        #expect(reason(refusal(lists, [zero])) == "identifierUnused")
        var blank = items[0]
        blank.title = " "
        #expect(refusal(lists, [blank]) == .invalidField(field: "title", problem: "must not be only white space"))
        var malformed = lists[0]
        malformed.position = Position(bytes: [])
        if case .invalidField(let field, _)? = refusal([malformed], []) { #expect(field == "position") } else { Issue.record("malformed position") }
    }

    /// Subtasks in a snapshot are gathered by parent wherever they come: cousins (under different parents) may share
    /// a position, siblings may not, and the order comes out whole either way.
    @Test func subtasksShareAPositionOnlyWithCousins() throws {
        let list = TaskList(id: ListID(1), name: "A", color: nil, icon: nil, position: .initial)
        let time = Timestamp(milliseconds: 5)
        func item(_ id: UInt64, _ parent: UInt64?, _ position: [UInt8]) -> Item {
            Item(id: ItemID(id), list: list.id, title: "t\(id)", notes: "", done: false, completedAt: nil, due: nil,
                 priority: .none, tags: [], createdAt: time, modifiedAt: time, revision: 1, position: Position(bytes: position),
                 parent: parent.map { ItemID($0) })
        }
        // Interleaved: the groups of 2 and 3 alternate, and the second parent's group is given in reverse.
        let items = [item(2, nil, [128, 1]), item(6, 3, [128, 9]), item(4, 2, [128, 2]), item(3, nil, [128, 2]),
                     item(5, 2, [128, 9]), item(7, 3, [128, 1])]
        let state = try TaskState(restoring: [list], items: items, nextIdentifier: 8, revision: 1)
        #expect(state.items(in: list.id, ranks: 0..<6).map(\.id.rawValue) == [2, 4, 5, 3, 7, 6])
        var refused: DomainError?
        do throws(DomainError) {
            _ = try TaskState(restoring: [list], items: items + [item(8, 3, [128, 9])], nextIdentifier: 9, revision: 1)
        } catch { refused = error }
        #expect(reason(refused) == "positionTaken")
    }

    private func reason(_ error: DomainError?) -> String? {
        if case .refused(let reason, _)? = error { reason } else { nil }
    }
}

/// The state read out as a snapshot stores it and built back.
func restore(_ state: TaskState) throws -> TaskState {
    var items: [Item] = []
    state.forEachItem { items.append($0) }
    return try TaskState(restoring: state.allLists, items: items, nextIdentifier: state.nextIdentifier, revision: state.revision)
}

/// Expects two states to be equal in everything they show, and their indexes well formed.
func expectSame(_ expected: TaskState, _ actual: TaskState, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(actual.lists == expected.lists, sourceLocation: sourceLocation)
    #expect(actual.items.mapValues(\.item) == expected.items.mapValues(\.item), sourceLocation: sourceLocation)
    #expect(actual.orderedLists == expected.orderedLists, sourceLocation: sourceLocation)
    #expect(actual.allLists == expected.orderedLists, sourceLocation: sourceLocation)
    #expect(actual.nextIdentifier == expected.nextIdentifier, sourceLocation: sourceLocation)
    #expect(actual.revision == expected.revision, sourceLocation: sourceLocation)
    #expect(actual.itemCount == expected.itemCount, sourceLocation: sourceLocation)
    var walked: [Item] = []
    actual.forEachItem { walked.append($0) }
    var expectedWalk: [Item] = []
    for list in expected.orderedLists {
        let items = expected.items(in: list.id, ranks: 0..<Int.max)
        #expect(actual.items(in: list.id, ranks: 0..<Int.max) == items, sourceLocation: sourceLocation)
        #expect(actual.itemCount(in: list.id) == expected.itemCount(in: list.id), sourceLocation: sourceLocation)
        #expect(actual.openItemCount(in: list.id) == expected.openItemCount(in: list.id), sourceLocation: sourceLocation)
        expectedWalk += items
    }
    #expect(walked == expectedWalk, sourceLocation: sourceLocation)
    actual.listOrder.checkInvariants()
    for order in actual.manualOrders.values { order.checkInvariants() }
}

/// A random group of one to three mutations, valid or not, against `state`.
func randomGroup(_ state: TaskState, _ random: inout SplitMix64) -> [Mutation] {
    let lists = state.orderedLists.map(\.id)
    let items = state.items.keys.sorted()
    let time = Timestamp(milliseconds: Int64(state.revision) * 10)
    func pick<T>(_ values: [T]) -> T? { values.isEmpty ? nil : values[Int.random(in: 0..<values.count, using: &random)] }
    let titles = ["apple", "Éclair", "Zoë", "b", "日本語"]
    var next = state.nextIdentifier
    var group: [Mutation] = []
    for _ in 0..<Int.random(in: 1...3, using: &random) {
        switch lists.isEmpty ? 0 : Int.random(in: 0..<100, using: &random) {
        case 0..<8:
            group.append(.createList(id: ListID(next), fields: ListFields(name: pick(titles)!, color: pick(["red", nil])!),
                                     before: Bool.random(using: &random) ? pick(lists) : nil))
            next += 1
        case 8..<12:
            group.append(.updateList(id: pick(lists)!, patch: ListPatch(name: pick(titles), icon: pick([.set("star"), .clear, nil])!)))
        case 12..<16:
            group.append(.moveLists(ids: [pick(lists)!], before: pick(lists)))
        case 16..<17:
            group.append(.deleteList(id: pick(lists)!))
        case 18..<60:
            let due: Due? = pick([nil, .date(CalendarDate(year: 2026, month: 3, day: 1)!),
                                  .dateTime(Timestamp(milliseconds: 1_700_000_000_000), offsetSeconds: 3600)])!
            let fields = ItemFields(title: pick(titles)!, notes: pick(["", "n"])!, done: Bool.random(using: &random),
                                    due: due, priority: pick(Priority.allCases)!, tags: pick([[], ["a", "b"]])!)
            let list = pick(lists)!
            let before = Bool.random(using: &random) ? pick(state.items(in: list, ranks: 0..<Int.max).map(\.id)) : nil
            group.append(.createItem(id: ItemID(next), list: list, fields: fields, before: before, at: time))
            next += 1
        case 60..<75 where !items.isEmpty:
            let patch = ItemPatch(title: pick([nil, "renamed"])!, done: pick([nil, true, false])!,
                                  due: pick([nil, .clear, .set(.date(CalendarDate(year: 2027, month: 1, day: 2)!))])!)
            group.append(.updateItems(ids: [pick(items)!], patch: patch, at: time))
        case 75..<90 where !items.isEmpty:
            let moved = [pick(items)!, pick(items)!]
            let list = pick(lists)!
            let others = state.items(in: list, ranks: 0..<Int.max).map(\.id).filter { !moved.contains($0) }
            group.append(.moveItems(ids: moved, toList: list, before: Bool.random(using: &random) ? pick(others) : nil, at: time))
        case 90..<100 where !items.isEmpty:
            group.append(.deleteItems(ids: [pick(items)!]))
        default:
            continue
        }
    }
    return group
}
