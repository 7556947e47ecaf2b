/// `TaskState.stored` shares the state's trees: what it shows never changes when the state goes on changing.

import Domain
import Testing

@Suite struct StoredStateTests {
    static let time = Timestamp(milliseconds: 1_795_000_000_000)

    private func titles(_ stored: StoredState) -> [String] {
        var titles: [String] = []
        stored.forEachItem { titles.append($0.title) }
        return titles
    }

    @Test func aStoredStateIsNotChangedByLaterMutations() throws {
        var state = TaskState()
        let list = ListID(1)
        _ = try state.apply([.createList(id: list, fields: ListFields(name: "Inbox"), before: nil)])
        for index in 0..<300 {
            _ = try state.apply([.createItem(id: ItemID(UInt64(index) + 2), list: list, fields: ItemFields(title: "item \(index)"),
                                             before: nil, at: Self.time)])
        }
        let stored = state.stored
        let before = titles(stored)
        #expect(before.count == 300 && stored.itemCount == 300 && stored.revision == state.revision)
        _ = try state.apply([.updateItems(ids: [ItemID(2)], patch: ItemPatch(title: "renamed"), at: Self.time)])
        _ = try state.apply([.deleteItems(ids: (3...100).map { ItemID(UInt64($0)) })])
        _ = try state.apply([.moveItems(ids: [ItemID(250)], toList: nil, before: ItemID(2), at: Self.time)])
        _ = try state.apply([.createList(id: ListID(1000), fields: ListFields(name: "Later"), before: list)])
        #expect(titles(stored) == before)
        #expect(stored.lists.map(\.name) == ["Inbox"])
        #expect(titles(state.stored).first == "item 248")
        #expect(state.stored.lists.map(\.name) == ["Later", "Inbox"])
    }
}
