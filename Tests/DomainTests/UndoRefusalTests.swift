// Undo refusals: an undo whose items or lists changed, were deleted or lost their list since is refused whole and
// changes nothing; restore mutations refuse values that would break the state's rules.

import Testing
@testable import Domain

/// A recorded group, then something that happens since, then the undo that must be refused.
enum RefusalCase: String, CaseIterable, CustomStringConvertible, Sendable {
    case itemDeletedSince, itemChangedSince, itemMovedSince, oneOfABlockChangedSince, createdItemChangedSince
    case itemsListDeletedSince, deletedItemsListDeletedSince, oldListDeletedSince
    case listChangedSince, createdListDeletedSince, createdListHoldsNewItems
    case deletedItemRestoredSince, deletedListRestoredSince

    var description: String { rawValue }

    /// The reason of the refusal, and the id its message names.
    func expected(_ stage: UndoStage) -> (reason: String, names: String) {
        let (h, w) = (stage.homeItems, stage.workItems)
        switch self {
        case .itemDeletedSince: return ("deletedSince", "item \(h[0])")
        case .itemChangedSince, .itemMovedSince: return ("changedSince", "item \(h[0])")
        case .oneOfABlockChangedSince: return ("changedSince", "item \(h[3])")
        case .createdItemChangedSince: return ("changedSince", "item i\(stage.next)")
        case .itemsListDeletedSince: return ("listDeleted", "list \(stage.work) of item \(w[0])")
        case .deletedItemsListDeletedSince: return ("listDeleted", "list \(stage.home) of item \(h[0])")
        case .oldListDeletedSince: return ("listDeleted", "list \(stage.work) of item \(w[0])")
        case .listChangedSince: return ("changedSince", "list \(stage.home)")
        case .createdListDeletedSince: return ("deletedSince", "list l\(stage.next)")
        case .createdListHoldsNewItems: return ("changedSince", "list l\(stage.next)")
        case .deletedItemRestoredSince: return ("changedSince", "item \(h[0])")
        case .deletedListRestoredSince: return ("changedSince", "list \(stage.work)")
        }
    }

    /// Applies the group and what happens since; returns the group's changes.
    func setUp(_ stage: inout UndoStage) throws -> Changes {
        let (h, w) = (stage.homeItems, stage.workItems)
        let time = stage.time
        let created = ItemID(stage.next)
        let list = ListID(stage.next)
        func record(_ group: [Mutation], since: [Mutation]) throws -> Changes {
            let changes = try stage.fixture.apply(group).changes
            try stage.fixture.apply(since)
            return changes
        }
        switch self {
        case .itemDeletedSince:
            return try record([.updateItems(ids: [h[0]], patch: ItemPatch(title: "x"), at: time)], since: [.deleteItems(ids: [h[0]])])
        case .itemChangedSince:
            return try record([.updateItems(ids: [h[0]], patch: ItemPatch(title: "x"), at: time)],
                              since: [.updateItems(ids: [h[0]], patch: ItemPatch(notes: "y"), at: time)])
        case .itemMovedSince:
            return try record([.updateItems(ids: [h[0]], patch: ItemPatch(title: "x"), at: time)],
                              since: [.moveItems(ids: [h[0]], toList: nil, before: nil, at: time)])
        case .oneOfABlockChangedSince:
            return try record([.moveItems(ids: [h[1], h[3], h[4]], toList: nil, before: h[0], at: time)],
                              since: [.updateItems(ids: [h[3]], patch: ItemPatch(done: true), at: time)])
        case .createdItemChangedSince:
            return try record([.createItem(id: created, list: stage.home, fields: ItemFields(title: "c"), before: nil, at: time)],
                              since: [.updateItems(ids: [created], patch: ItemPatch(priority: .low), at: time)])
        case .itemsListDeletedSince:
            return try record([.updateItems(ids: [w[0]], patch: ItemPatch(title: "x"), at: time)], since: [.deleteList(id: stage.work)])
        case .deletedItemsListDeletedSince:
            return try record([.deleteItems(ids: [h[0]])], since: [.deleteList(id: stage.home)])
        case .oldListDeletedSince:
            return try record([.moveItems(ids: [w[0]], toList: stage.home, before: nil, at: time)], since: [.deleteList(id: stage.work)])
        case .listChangedSince:
            return try record([.updateList(id: stage.home, patch: ListPatch(name: "House"))],
                              since: [.updateList(id: stage.home, patch: ListPatch(color: .set("blue")))])
        case .createdListDeletedSince:
            return try record([.createList(id: list, fields: ListFields(name: "N"), before: nil)], since: [.deleteList(id: list)])
        case .createdListHoldsNewItems:
            return try record([.createList(id: list, fields: ListFields(name: "N"), before: nil)],
                              since: [.createItem(id: ItemID(list.rawValue + 1), list: list, fields: ItemFields(title: "n"), before: nil, at: time)])
        case .deletedItemRestoredSince, .deletedListRestoredSince:
            let group: Mutation = self == .deletedItemRestoredSince ? .deleteItems(ids: [h[0]]) : .deleteList(id: stage.work)
            let changes = try stage.fixture.apply([group]).changes
            try stage.fixture.invert(changes)
            return changes
        }
    }
}

struct UndoRefusalTests {
    @Test(arguments: RefusalCase.allCases)
    func anUndoOfSomethingChangedSinceIsRefusedWhole(_ kind: RefusalCase) throws {
        var stage = try UndoStage()
        let expected = kind.expected(stage)
        let changes = try kind.setUp(&stage)
        let before = stage.fixture.engine.fingerprint
        #expect {
            try stage.fixture.engine.inverse(of: changes, at: stage.time)
        } throws: { error in
            guard case .refused(let reason, let message) = error as? DomainError else { return false }
            return reason == expected.reason && message.hasPrefix(expected.names + " ")
        }
        #expect(stage.fixture.engine.fingerprint == before)
    }

    /// Restores refuse, in a group after valid mutations, whatever would break a rule; nothing is applied then.
    @Test(arguments: ["neverUsedItem", "itemIdOfAList", "revisionNotAhead", "itemPositionTaken", "duplicateInRestore",
                      "missingList", "malformedPosition", "notDoneButCompleted", "neverUsedList", "listPositionTaken"])
    func restoresRefuseWhatBreaksTheRules(_ name: String) throws {
        var stage = try UndoStage()
        let state = stage.fixture.engine.state
        let (h, home) = (stage.homeItems, stage.home)
        var item = try #require(state.item(h[0]))
        item.revision += 1
        var list = try #require(state.lists[stage.spare])
        let mutation: Mutation
        let reason: String
        switch name {
        case "neverUsedItem":
            item.id = ItemID(stage.next + 20)
            (mutation, reason) = (.restoreItems(items: [item]), "identifierUnused")
        case "itemIdOfAList":
            item.id = ItemID(home.rawValue)
            (mutation, reason) = (.restoreItems(items: [item]), "identifierUnused")
        case "revisionNotAhead":
            item.revision -= 1
            (mutation, reason) = (.restoreItems(items: [item]), "changedSince")
        case "itemPositionTaken":
            item.position = try #require(state.item(h[1])).position
            (mutation, reason) = (.restoreItems(items: [item]), "positionTaken")
        case "duplicateInRestore":
            var other = try #require(state.item(h[1]))
            other.revision += 1
            other.position = item.position
            (mutation, reason) = (.restoreItems(items: [item, other]), "positionTaken")
        case "missingList":
            item.list = ListID(stage.next)
            (mutation, reason) = (.restoreItems(items: [item]), "notFound")
        case "malformedPosition":
            item.position = Position(bytes: [130, 1])
            (mutation, reason) = (.restoreItems(items: [item]), "invalidField")
        case "notDoneButCompleted":
            item.completedAt = stage.time
            (mutation, reason) = (.restoreItems(items: [item]), "invalidField")
        case "neverUsedList":
            list.id = ListID(stage.next + 20)
            (mutation, reason) = (.restoreLists(lists: [list]), "identifierUnused")
        default:
            list.position = try #require(state.lists[stage.work]).position
            (mutation, reason) = (.restoreLists(lists: [list]), "positionTaken")
        }
        let before = stage.fixture.engine.fingerprint
        let prelude: [Mutation] = [
            .createItem(id: ItemID(stage.next + 10), list: home, fields: ItemFields(title: "p"), before: h[1], at: stage.time),
            .moveItems(ids: [h[2]], toList: stage.work, before: nil, at: stage.time),
            .deleteItems(ids: [h[4]]),
        ]
        #expect {
            try stage.fixture.engine.apply(prelude + [mutation])
        } throws: { error in
            switch error as? DomainError {
            case .refused(let refusal, let message)?: return refusal == reason && !message.isEmpty
            case .notFound?: return reason == "notFound"
            case .invalidField?: return reason == "invalidField"
            default: return false
            }
        }
        #expect(stage.fixture.engine.fingerprint == before)
    }

    /// A restore of the current value with a later revision is accepted (that is what redo of an update does).
    @Test func aRestoreOfAnExistingItemReplacesIt() throws {
        var stage = try UndoStage()
        var item = try #require(stage.fixture.engine.item(stage.homeItems[0]))
        item.revision += 5
        item.title = "again"
        item.list = stage.spare
        let applied = try stage.fixture.apply([.restoreItems(items: [item])])
        #expect(applied.changes.items.map(\.new) == [item])
        #expect(stage.fixture.engine.state.items(in: stage.spare, ranks: 0..<10).map(\.id) == [stage.homeItems[0]])
    }
}
