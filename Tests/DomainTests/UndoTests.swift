// Undo and redo: the inverse of each kind of group gives back the state before it, the inverse of that the state
// after it; an undo whose items or lists changed since is refused whole; restores keep positions unique.

import Testing
@testable import Domain

/// Three lists (Home h1...h6, Work w1...w3, Spare empty), some items done, due, tagged, and views on all of them.
struct UndoStage {
    var fixture = UndoFixture()
    let home: ListID
    let work: ListID
    let spare: ListID
    let homeItems: [ItemID]
    let workItems: [ItemID]
    let homeView: ViewID

    init() throws {
        home = try fixture.engine.makeList("Home")
        work = try fixture.engine.makeList("Work")
        spare = try fixture.engine.makeList("Spare")
        homeItems = try fixture.engine.makeItems(["h1", "h2", "h3", "h4", "h5", "h6"], in: home)
        workItems = try fixture.engine.makeItems(["w1", "w2", "w3"], in: work)
        let due = try Due(parsing: "2026-11-22T09:30:00+01:00")
        _ = try fixture.engine.apply([
            .updateItems(ids: [homeItems[1], workItems[2]], patch: ItemPatch(done: true), at: Timestamp(milliseconds: 2_000)),
            .updateItems(ids: [homeItems[2]], patch: ItemPatch(notes: "n", due: .set(due), priority: .high, tags: ["a", "b"]),
                         at: Timestamp(milliseconds: 3_000)),
            .updateList(id: work, patch: ListPatch(color: .set("#0af"), icon: .set("briefcase"))),
        ])
        for item in fixture.engine.state.items.values.map(\.item) {
            fixture.revisions[item.id] = item.revision
        }
        homeView = try fixture.open(home, .manual, Window(start: 0, end: 10))
        try fixture.open(home, Sort(.title, .descending), Window(start: 1, end: 4))
        try fixture.open(work, .manual, Window(start: 1, end: 3))
        try fixture.open(work, Sort(.due), Window(start: 0, end: 10))
        try fixture.open(spare, Sort(.modified), Window(start: 0, end: 5))
    }

    var next: UInt64 { fixture.engine.state.nextIdentifier }
    var time: Timestamp { fixture.now }
}

/// One group of each kind, and mixed groups.
enum UndoCase: String, CaseIterable, CustomStringConvertible, Sendable {
    case createItemAtEnd, createItemBefore, updateTitle, markDone, markNotDone, clearFields, deleteOne, deleteFive
    case moveWithinList, blockMove, blockMoveByRows, blockMoveToOtherList, moveFromTwoLists
    case createList, createListWithItems, updateList, moveLists, deleteList, deleteListAfterMovingIn
    case moveOutThenDeleteList, mixed

    var description: String { rawValue }

    func group(_ stage: UndoStage) throws -> [Mutation] {
        let (h, w) = (stage.homeItems, stage.workItems)
        let time = stage.time
        let newList = ListID(stage.next)
        switch self {
        case .createItemAtEnd:
            return [.createItem(id: ItemID(stage.next), list: stage.home, fields: ItemFields(title: "new", done: true, tags: ["x"]),
                                before: nil, at: time)]
        case .createItemBefore:
            return [.createItem(id: ItemID(stage.next), list: stage.home, fields: ItemFields(title: "new"), before: h[2], at: time)]
        case .updateTitle:
            return [.updateItems(ids: [h[0]], patch: ItemPatch(title: "renamed"), at: time)]
        case .markDone:
            return [.updateItems(ids: [h[0], h[3], w[0]], patch: ItemPatch(done: true), at: time)]
        case .markNotDone:
            return [.updateItems(ids: [h[1]], patch: ItemPatch(done: false), at: time)]
        case .clearFields:
            return [.updateItems(ids: [h[2]], patch: ItemPatch(notes: "", due: .clear, priority: Priority.none, tags: []), at: time)]
        case .deleteOne:
            return [.deleteItems(ids: [h[3]])]
        case .deleteFive:
            return [.deleteItems(ids: [h[0], h[2], h[4], w[0], w[2]])]
        case .moveWithinList:
            return [.moveItems(ids: [h[4]], toList: nil, before: h[1], at: time)]
        case .blockMove:
            return [.moveItems(ids: [h[1], h[3], h[4]], toList: nil, before: h[0], at: time)]
        case .blockMoveByRows:
            let version = try stage.fixture.engine.snapshot(stage.homeView).version
            return [try #require(try stage.fixture.engine.moveMutation(view: stage.homeView, rows: 1..<4, to: 2, seenVersion: version, at: time))]
        case .blockMoveToOtherList:
            return [.moveItems(ids: [h[0], h[2]], toList: stage.work, before: w[1], at: time)]
        case .moveFromTwoLists:
            return [.moveItems(ids: [h[5], w[0]], toList: stage.spare, before: nil, at: time)]
        case .createList:
            return [.createList(id: newList, fields: ListFields(name: "New", color: "red"), before: stage.work)]
        case .createListWithItems:
            return [.createList(id: newList, fields: ListFields(name: "New"), before: nil),
                    .createItem(id: ItemID(stage.next + 1), list: newList, fields: ItemFields(title: "n1"), before: nil, at: time),
                    .moveItems(ids: [h[1], w[1]], toList: newList, before: nil, at: time),
                    .createItem(id: ItemID(stage.next + 2), list: newList, fields: ItemFields(title: "n2"), before: h[1], at: time)]
        case .updateList:
            return [.updateList(id: stage.home, patch: ListPatch(name: "House", color: .set("#f00"), icon: .set("house")))]
        case .moveLists:
            return [.moveLists(ids: [stage.spare, stage.work], before: stage.home)]
        case .deleteList:
            return [.deleteList(id: stage.work)]
        case .deleteListAfterMovingIn:
            return [.moveItems(ids: [h[0]], toList: stage.work, before: w[0], at: time), .deleteList(id: stage.work)]
        case .moveOutThenDeleteList:
            return [.moveItems(ids: [w[1]], toList: stage.home, before: nil, at: time), .deleteList(id: stage.work)]
        case .mixed:
            return [.createItem(id: ItemID(stage.next), list: stage.spare, fields: ItemFields(title: "s"), before: nil, at: time),
                    .updateItems(ids: [h[0], w[1]], patch: ItemPatch(title: "x", done: true), at: time),
                    .moveItems(ids: [h[0]], toList: nil, before: h[5], at: time),
                    .deleteItems(ids: [h[3], w[2]]),
                    .updateList(id: stage.spare, patch: ListPatch(name: "Spare2")),
                    .moveLists(ids: [stage.home], before: nil),
                    .moveItems(ids: [ItemID(stage.next)], toList: stage.home, before: h[1], at: time)]
        }
    }
}

struct UndoTests {
    @Test(arguments: UndoCase.allCases)
    func undoGivesBackTheStateBeforeAndRedoTheStateAfter(_ kind: UndoCase) throws {
        var stage = try UndoStage()
        let before = StateImage(stage.fixture.engine.state)
        let applied = try stage.fixture.apply(try kind.group(stage))
        #expect(!applied.changes.isEmpty)
        let after = StateImage(stage.fixture.engine.state)
        let undone = try stage.fixture.invert(applied.changes)
        #expect(StateImage(stage.fixture.engine.state) == before, "undo")
        let redone = try stage.fixture.invert(undone.changes)
        #expect(StateImage(stage.fixture.engine.state) == after, "redo")
        try stage.fixture.invert(redone.changes)
        #expect(StateImage(stage.fixture.engine.state) == before, "undo again")
    }

    @Test func undoOfNothingIsNothing() throws {
        let stage = try UndoStage()
        #expect(try stage.fixture.engine.inverse(of: Changes(), at: stage.time) == [])
    }

    /// Deleting an item, then creating one in its gap, gives the new one the deleted one's position: the restored
    /// item goes just before it, and positions stay unique (inserting next to them still works).
    @Test func aRestoredItemWhosePositionWasTakenGoesJustBeforeTheTaker() throws {
        var stage = try UndoStage()
        let h = stage.homeItems
        let deleted = try stage.fixture.apply([.deleteItems(ids: [h[2]])])
        let taker = ItemID(stage.next)
        try stage.fixture.apply([.createItem(id: taker, list: stage.home, fields: ItemFields(title: "t"), before: h[3], at: stage.time)])
        let takenPosition = try #require(stage.fixture.engine.item(taker)).position
        #expect(takenPosition == deleted.changes.items[0].old?.position)
        try stage.fixture.invert(deleted.changes)
        let order = stage.fixture.engine.state.items(in: stage.home, ranks: 0..<100).map(\.id)
        #expect(order == [h[0], h[1], h[2], taker, h[3], h[4], h[5]])
        #expect(stage.fixture.engine.item(taker)?.position == takenPosition)
        try stage.fixture.apply([.createItem(id: ItemID(stage.next), list: stage.home, fields: ItemFields(title: "u"), before: taker, at: stage.time)])
        try stage.fixture.apply([.moveItems(ids: [h[1]], toList: nil, before: h[2], at: stage.time)])
    }

    @Test func aRestoredListWhosePositionWasTakenGoesJustBeforeTheTaker() throws {
        var stage = try UndoStage()
        let deleted = try stage.fixture.apply([.deleteList(id: stage.spare)])
        let taker = ListID(stage.next)
        try stage.fixture.apply([.createList(id: taker, fields: ListFields(name: "T"), before: nil)])
        #expect(stage.fixture.engine.state.lists[taker]?.position == deleted.changes.lists[0].old?.position)
        try stage.fixture.invert(deleted.changes)
        #expect(stage.fixture.engine.lists().map(\.list.id) == [stage.home, stage.work, stage.spare, taker])
        try stage.fixture.apply([.createList(id: ListID(stage.next), fields: ListFields(name: "U"), before: taker)])
    }

    /// Undo of undo-of-delete, many times: the item keeps its id and its revision only goes up.
    @Test func undoAndRedoRepeatedKeepTheIdAndAdvanceTheRevision() throws {
        var stage = try UndoStage()
        var changes = try stage.fixture.apply([.deleteItems(ids: [stage.homeItems[0]])]).changes
        var revisions: [UInt64] = []
        for _ in 0..<6 {
            changes = try stage.fixture.invert(changes).changes
            if let item = stage.fixture.engine.item(stage.homeItems[0]) { revisions.append(item.revision) }
        }
        #expect(revisions == [2, 3, 4])
        #expect(stage.fixture.engine.item(stage.homeItems[0]) == nil)
    }
}

/// What protocol.md says an item that undo or redo puts back carries: every old field (`created` and
/// `completed` too), its revision one more than the one it has (or had when deleted), and the time of the undo.
struct UndoRevisionTests {
    @Test func aRestoredItemHasItsOldFieldsTheNextRevisionAndTheTimeOfTheUndo() throws {
        var fixture = UndoFixture()
        let list = ListID(1)
        let id = ItemID(2)
        try fixture.apply([.createList(id: list, fields: ListFields(name: "L"), before: nil),
                           .createItem(id: id, list: list, fields: ItemFields(title: "a"), before: nil, at: fixture.now)])
        let created = fixture.engine.item(id)!
        fixture.clock += 1_000
        let done = try fixture.apply([.updateItems(ids: [id], patch: ItemPatch(title: "b", done: true), at: fixture.now)])
        let completed = fixture.engine.item(id)!
        #expect(completed.revision == 2 && completed.completedAt == fixture.now)
        // Undo: the old fields, created as it was, revision 3, modified at the undo.
        let undone = try fixture.invert(done.changes)
        var expected = created
        expected.revision = 3
        expected.modifiedAt = fixture.now
        #expect(fixture.engine.item(id) == expected)
        // Redo: the fields the update left, completed at the update's time, revision 4, modified at the redo.
        try fixture.invert(undone.changes)
        expected = completed
        expected.revision = 4
        expected.modifiedAt = fixture.now
        #expect(fixture.engine.item(id) == expected)
        // Undo of a delete: revision one more than the item had when it was deleted.
        let deleted = try fixture.apply([.deleteItems(ids: [id])])
        try fixture.invert(deleted.changes)
        expected.revision = 5
        expected.modifiedAt = fixture.now
        #expect(fixture.engine.item(id) == expected)
    }
}
