// Tests of Item's compact storage: the rarely set fields in a shared box, read and written as plain fields,
// with equality and hashing by content whichever way an item was made.

import Testing
@testable import Domain

private let time = Timestamp(milliseconds: 1_795_000_000_000)

private func plainItem() -> Item {
    Item(id: ItemID(2), list: ListID(1), title: "Buy milk", notes: "", done: false, completedAt: nil, due: nil,
         priority: .none, tags: [], createdAt: time, modifiedAt: time, revision: 1, position: Position.initial)
}

@Suite struct ItemStorageTests {
    @Test func rareFieldsReadBackAsSetAndEmptyOnesLeaveNoBox() {
        var item = plainItem()
        #expect(item.notes == "" && item.uid == nil && item.alerts.isEmpty && item.extras.isEmpty)
        #expect(item.repeatRule == nil && item.occurrences == .none)
        item.notes = "two litres"
        item.uid = "abc"
        item.alerts = [.offset(minutes: -10)]
        item.extras = [Extra(key: "project", value: "home")]
        #expect(item.notes == "two litres")
        #expect(item.uid == "abc")
        #expect(item.alerts == [.offset(minutes: -10)])
        #expect(item.extras == [Extra(key: "project", value: "home")])
        item.notes = ""
        item.uid = nil
        item.alerts = []
        item.extras = []
        #expect(item == plainItem(), "emptied fields compare as never set")
        #expect(item.hashValue == plainItem().hashValue)
    }

    @Test func equalityAndHashingFollowContentNotBoxes() {
        var first = plainItem()
        first.notes = "same"
        var second = plainItem()
        second.uid = "x"
        second.notes = "same"
        second.uid = nil
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
        var third = second
        third.notes = "different"
        #expect(third != second)
        #expect(second.notes == "same", "a copy's change leaves the original as it was")
        var parentless = plainItem()
        parentless.parent = ItemID(7)
        #expect(parentless.parent == ItemID(7))
        #expect(parentless != plainItem())
        parentless.parent = nil
        #expect(parentless == plainItem())
    }

    @Test func theFullInitializerAndTheFieldsOneAgree() {
        let fields = ItemFields(title: "Buy milk", notes: "n", done: true, due: nil, priority: .high, tags: ["a"],
                                repeatRule: nil, alerts: [], extras: [])
        let made = Item(id: ItemID(2), list: ListID(1), fields: fields, position: Position.initial, at: time)
        let restored = Item(id: ItemID(2), list: ListID(1), title: "Buy milk", notes: "n", done: true, completedAt: time,
                            due: nil, priority: .high, tags: ["a"], createdAt: time, modifiedAt: time, revision: 1,
                            position: Position.initial)
        #expect(made == restored)
        #expect(made.hashValue == restored.hashValue)
        #expect(made.titleKey == CollationKey(folding: "Buy milk"))
    }
}
