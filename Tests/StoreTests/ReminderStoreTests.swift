// The store keeps alerts and fired reminders: a snapshot (format 3) holds both and reads back what it wrote, a
// journal's reminder records replay to the same table, and a version 2 snapshot (before alerts) still opens.

import Domain
@testable import Store
import Testing
import TestSupport

@Suite struct ReminderStoreTests {
    static let time = Timestamp(milliseconds: 1_763_800_000_000)

    /// A state with alerts on some items and reminders pending, snoozed and dismissed.
    static func stateWithReminders() throws -> TaskState {
        var state = TaskState()
        _ = try state.apply([.createList(id: ListID(1), fields: ListFields(name: "Inbox"), before: nil)])
        let alerts: [[Alert]] = [[], [.offset(minutes: -60)], [.at(time), .offset(minutes: 540)], [.offset(minutes: 0)]]
        for (index, itemAlerts) in alerts.enumerated() {
            _ = try state.apply([.createItem(id: ItemID(UInt64(2 + index)), list: ListID(1),
                                             fields: ItemFields(title: "item \(index)", due: .date(CalendarDate(year: 2026, month: 11, day: 23)!),
                                                                alerts: itemAlerts), before: nil, at: time)])
        }
        let keys = (3...5).map { ReminderKey(item: ItemID(UInt64($0)), fireAt: Timestamp(milliseconds: time.milliseconds + Int64($0) * 60_000)) }
        _ = try state.apply([.fireReminders(reminders: keys.map { FiredReminder(key: $0, alert: .offset(minutes: -60)) }, at: time)])
        _ = try state.apply([.snoozeReminder(keys[1], until: Timestamp(milliseconds: time.milliseconds + 3_600_000), at: time)])
        _ = try state.apply([.dismissReminder(keys[2], at: time)])
        _ = try state.apply([.deleteItems(ids: [ItemID(5)])])
        return state
    }

    @Test func aSnapshotKeepsAlertsAndReminders() throws {
        let state = try Self.stateWithReminders()
        #expect(state.reminderCount == 3)
        let bytes = SnapshotCodec.encode(state)
        let decoded = try bytes.withUnsafeBytes { raw throws(CodecError) in try SnapshotCodec.decode(raw) }
        #expect(decoded.allReminders == state.allReminders)
        #expect(decoded.allReminders.map(\.state) == [.pending, .dismissed, .snoozed(until: Timestamp(milliseconds: Self.time.milliseconds + 3_600_000))])
        #expect(decoded.item(ItemID(4))?.alerts == [.at(Self.time), .offset(minutes: 540)])
        #expect(SnapshotCodec.encode(decoded) == bytes)
        // Cut anywhere, it is refused, never misread.
        for length in stride(from: 0, to: bytes.count, by: 1) {
            let cut = Array(bytes[..<length])
            let result = cut.withUnsafeBytes { raw in Result { () throws(CodecError) in try SnapshotCodec.decode(raw) } }
            if case .success = result { Issue.record("a snapshot cut to \(length) of \(bytes.count) bytes decoded") }
        }
    }

    @Test func aStoreReplaysItsReminderRecords() throws {
        let directory = makeTemporaryDirectory(prefix: "reminders")
        defer { removeTree(directory) }
        let expected = try Self.stateWithReminders()
        do {
            let (store, _) = try DurableStore.open(directory)
            var state = TaskState()
            // The same groups as `stateWithReminders`, journaled.
            for group in try Self.groups() {
                _ = try state.apply(group)
                _ = try store.lockForWriting()
                try store.append(group)
                try store.commit()
            }
            #expect(state.allReminders == expected.allReminders)
        }
        let (reopened, state) = try DurableStore.open(directory)
        #expect(state.allReminders == expected.allReminders)
        #expect(state.item(ItemID(4))?.alerts == expected.item(ItemID(4))?.alerts)
        _ = reopened
    }

    @Test func aSnapshotOfFormat2ReadsWithoutAlerts() throws {
        var state = TaskState()
        _ = try state.apply([.createList(id: ListID(1), fields: ListFields(name: "Inbox"), before: nil),
                             .createItem(id: ItemID(2), list: ListID(1), fields: ItemFields(title: "old"), before: nil, at: Self.time)])
        let version2 = SnapshotCodec.encode(state.stored, version: 2)
        let decoded = try version2.withUnsafeBytes { raw throws(CodecError) in try SnapshotCodec.decode(raw, version: 2) }
        #expect(decoded.item(ItemID(2))?.title == "old" && decoded.item(ItemID(2))?.alerts == [])
        #expect(decoded.reminderCount == 0)
        #expect(SnapshotCodec.encode(state) != version2, "format 3 adds the alerts and the reminders")
    }

    /// The groups `stateWithReminders` applies.
    static func groups() throws -> [[Mutation]] {
        var groups: [[Mutation]] = [[.createList(id: ListID(1), fields: ListFields(name: "Inbox"), before: nil)]]
        let alerts: [[Alert]] = [[], [.offset(minutes: -60)], [.at(time), .offset(minutes: 540)], [.offset(minutes: 0)]]
        for (index, itemAlerts) in alerts.enumerated() {
            groups.append([.createItem(id: ItemID(UInt64(2 + index)), list: ListID(1),
                                       fields: ItemFields(title: "item \(index)", due: .date(CalendarDate(year: 2026, month: 11, day: 23)!),
                                                          alerts: itemAlerts), before: nil, at: time)])
        }
        let keys = (3...5).map { ReminderKey(item: ItemID(UInt64($0)), fireAt: Timestamp(milliseconds: time.milliseconds + Int64($0) * 60_000)) }
        groups.append([.fireReminders(reminders: keys.map { FiredReminder(key: $0, alert: .offset(minutes: -60)) }, at: time)])
        groups.append([.snoozeReminder(keys[1], until: Timestamp(milliseconds: time.milliseconds + 3_600_000), at: time)])
        groups.append([.dismissReminder(keys[2], at: time)])
        groups.append([.deleteItems(ids: [ItemID(5)])])
        return groups
    }
}
