/// An imported item's uid and extras on the wire: in every item the server writes (absent when there are none, so
/// nothing changes for items made in taskls), and read-only: `items/create` and `items/update` refuse them.

import Foundation
import Domain
@testable import Server
import TasklsProtocol
import Testing
import Wire

@Suite struct ImportedItemTests {
    static let calendar = ClientCalendar(timeZone: TimeZone(identifier: "UTC")!)

    static func item(uid: String?, extras: [Extra]) -> Domain.Item {
        let time = Timestamp(milliseconds: 1_763_800_000_000)
        return Domain.Item(id: Domain.ItemID(7), list: Domain.ListID(1), title: "t", notes: "", done: false, completedAt: nil,
                           due: nil, priority: .none, tags: [], createdAt: time, modifiedAt: time, revision: 1, position: .initial,
                           uid: uid, extras: extras)
    }

    @Test func anImportedItemCarriesItsUIDAndExtrasInOrder() throws {
        let extras = [Extra(key: "taskwarrior:wait", value: "\"20261201T000000Z\""), Extra(key: "ical:X-A", value: ";P=1:v\tw")]
        let wire = TasklsProtocol.Item(Self.item(uid: "3f2a-uuid", extras: extras), subtasks: SubtaskCount(), in: Self.calendar)
        #expect(wire.uid == "3f2a-uuid")
        #expect(wire.extras == [ItemExtra(key: "taskwarrior:wait", value: "\"20261201T000000Z\""), ItemExtra(key: "ical:X-A", value: ";P=1:v\tw")])
        guard case .object(let object) = wire.json else {
            Issue.record("an item is an object")
            return
        }
        #expect(Array(object.keys.suffix(2)) == ["uid", "extras"])
        #expect(object["extras"] == .array([["key": "taskwarrior:wait", "value": "\"20261201T000000Z\""],
                                            ["key": "ical:X-A", "value": ";P=1:v\tw"]]))
        #expect(try TasklsProtocol.Item(json: wire.json, path: "result") == wire)
    }

    @Test func anItemMadeInTasklsHasNeitherMember() throws {
        let wire = TasklsProtocol.Item(Self.item(uid: nil, extras: []), subtasks: SubtaskCount(), in: Self.calendar)
        guard case .object(let object) = wire.json else {
            Issue.record("an item is an object")
            return
        }
        #expect(object["uid"] == nil && object["extras"] == nil)
        #expect(object.keys.last == "alerts")
    }

    @Test func createAndUpdateRefuseThem() throws {
        let client = try TestClient()
        let list = try client.send(ListsCreate(name: "Inbox")).list
        let created = try client.request(ItemsCreate.method, ["list": list.id.json, "title": "t", "uid": "u"])
        #expect(created.failureMessage?.hasPrefix("params.uid: unknown field") == true, "\(created)")
        let item = try client.send(ItemsCreate(list: list.id, title: "t")).item
        #expect(item.uid == nil && item.extras.isEmpty)
        let updated = try client.request(ItemsUpdate.method, ["ids": [item.id.json], "extras": [["key": "a:b", "value": "c"]]])
        #expect(updated.failureMessage?.hasPrefix("params.extras: unknown field") == true, "\(updated)")
    }
}
