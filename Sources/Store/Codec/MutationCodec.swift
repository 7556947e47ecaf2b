// MutationCodec: one group of mutations (a journal record's payload) as bytes, and back.

import Domain

/// Encodes a group of mutations, applied atomically, as one journal record's payload.
///
/// ```
/// group      varint count | that many mutations
/// mutation   u8 tag | its fields, in order:
///   1 createList    ListID | name string | color optional string | icon optional string | before optional ListID
///   2 updateList    ListID | name optional string | color Clearable string | icon Clearable string
///   3 deleteList    ListID
///   4 moveLists     varint count, ListIDs | before optional ListID
///   5 createItem    ItemID | list ListID | title string | notes string | done bool | due optional Due
///                   | Priority | tags | before optional ItemID | at Timestamp
///   6 updateItems   varint count, ItemIDs | title optional string | notes optional string | done optional bool
///                   | due Clearable Due | priority optional Priority | tags optional tags | at Timestamp
///   7 deleteItems   varint count, ItemIDs
///   8 moveItems     varint count, ItemIDs | toList optional ListID | before optional ItemID | at Timestamp
///   9 restoreLists  varint count, TaskLists
///  10 restoreItems  varint count, Items (without parents: the layout before subtasks)
///  11 createItem    as 5, then parent Clearable ItemID (tag 5 is written when the creation names no parent)
///  12 moveItems     as 8, then parent Clearable ItemID (tag 8 is written when the move names no parent)
///  13 restoreItems  varint count, Items with their parents (tag 10 is written when none has a parent)
///  40 createItem    as 5, then parent Clearable ItemID, then alerts (written only when the item has alerts)
///  41 updateItems   as 6, then alerts (written only when the patch sets alerts)
///  42 restoreItems  varint count, Items with their parents and alerts (written only when one has alerts)
///  43 fireReminders varint count, (ItemID | fireAt Timestamp | Alert) each | at Timestamp
///  44 dismissReminder  ItemID | fireAt Timestamp | at Timestamp
///  45 snoozeReminder   ItemID | fireAt Timestamp | until Timestamp | at Timestamp
/// Clearable  u8: 0 unchanged | 1 set, then the value | 2 clear
/// ```
/// The value layouts (ids, Timestamp, Due, Priority, tags, TaskList, Item) are `ValueCodec`'s. The format
/// version is the journal header's, not repeated here.
public enum MutationCodec {
    /// Appends the encoding of `group` to `bytes`.
    /// - Complexity: O(size of the group).
    public static func encode(_ group: [Mutation], into bytes: inout [UInt8]) {
        var writer = ByteWriter()
        swap(&writer.bytes, &bytes)
        writer.writeCount(group.count)
        for mutation in group { writer.write(mutation) }
        swap(&writer.bytes, &bytes)
    }

    /// The group `bytes` encodes, all of them.
    /// - Throws: `CodecError` for bytes that are truncated, malformed, or followed by more bytes.
    /// - Complexity: O(size of the bytes).
    public static func decode(_ bytes: UnsafeRawBufferPointer) throws(CodecError) -> [Mutation] {
        var reader = ByteReader(bytes)
        let count = try reader.readCount(minimumSize: 2)
        var group: [Mutation] = []
        group.reserveCapacity(count)
        for _ in 0..<count { group.append(try reader.readMutation()) }
        try reader.expectEnd()
        return group
    }
}

extension ByteWriter {
    mutating func write(_ mutation: Mutation) {
        switch mutation {
        case .createList(let id, let fields, let before):
            write(1)
            write(id)
            writeString(fields.name)
            writeOptional(fields.color) { $0.writeString($1) }
            writeOptional(fields.icon) { $0.writeString($1) }
            writeOptional(before) { $0.write($1) }
        case .updateList(let id, let patch):
            write(2)
            write(id)
            writeOptional(patch.name) { $0.writeString($1) }
            writeClearable(patch.color) { $0.writeString($1) }
            writeClearable(patch.icon) { $0.writeString($1) }
        case .deleteList(let id):
            write(3)
            write(id)
        case .moveLists(let ids, let before):
            write(4)
            write(ids: ids)
            writeOptional(before) { $0.write($1) }
        case .createItem(let id, let list, let fields, let before, let parent, let time):
            let withAlerts = !fields.alerts.isEmpty
            write(withAlerts ? 40 : parent == nil ? 5 : 11)
            write(id)
            write(list)
            writeString(fields.title)
            writeString(fields.notes)
            writeBool(fields.done)
            writeOptional(fields.due) { $0.write($1) }
            write(fields.priority)
            write(tags: fields.tags)
            writeOptional(before) { $0.write($1) }
            write(time)
            if parent != nil || withAlerts { writeClearable(parent) { $0.write($1) } }
            if withAlerts { write(alerts: fields.alerts) }
        case .updateItems(let ids, let patch, let time):
            write(patch.alerts == nil ? 6 : 41)
            write(ids: ids)
            writeOptional(patch.title) { $0.writeString($1) }
            writeOptional(patch.notes) { $0.writeString($1) }
            writeOptional(patch.done) { $0.writeBool($1) }
            writeClearable(patch.due) { $0.write($1) }
            writeOptional(patch.priority) { $0.write($1) }
            writeOptional(patch.tags) { $0.write(tags: $1) }
            write(time)
            if let alerts = patch.alerts { write(alerts: alerts) }
        case .deleteItems(let ids):
            write(7)
            write(ids: ids)
        case .moveItems(let ids, let list, let before, let parent, let time):
            write(parent == nil ? 8 : 12)
            write(ids: ids)
            writeOptional(list) { $0.write($1) }
            writeOptional(before) { $0.write($1) }
            write(time)
            if parent != nil { writeClearable(parent) { $0.write($1) } }
        case .restoreLists(let lists):
            write(9)
            writeCount(lists.count)
            for list in lists { write(list) }
        case .restoreItems(let items):
            let withAlerts = items.contains { !$0.alerts.isEmpty }
            let withParents = withAlerts || items.contains { $0.parent != nil }
            write(withAlerts ? 42 : withParents ? 13 : 10)
            writeCount(items.count)
            for item in items { write(item, withParent: withParents, withAlerts: withAlerts) }
        case .fireReminders(let reminders, let time):
            write(43)
            writeCount(reminders.count)
            for reminder in reminders {
                write(reminder.key.item)
                write(reminder.key.fireAt)
                write(reminder.alert)
            }
            write(time)
        case .dismissReminder(let key, let time):
            write(44)
            write(key.item)
            write(key.fireAt)
            write(time)
        case .snoozeReminder(let key, let until, let time):
            write(45)
            write(key.item)
            write(key.fireAt)
            write(until)
            write(time)
        }
    }

    private mutating func writeClearable<Value>(_ change: Clearable<Value>?, _ writeValue: (inout ByteWriter, Value) -> Void) {
        switch change {
        case nil: write(0)
        case .set(let value)?:
            write(1)
            writeValue(&self, value)
        case .clear?: write(2)
        }
    }
}

extension ByteReader {
    mutating func readMutation() throws(CodecError) -> Mutation {
        let start = offset
        let tag = try read()
        switch tag {
        case 1:
            let id = try readListID()
            let name = try readString()
            let color = try readOptional { reader throws(CodecError) in try reader.readString() }
            let icon = try readOptional { reader throws(CodecError) in try reader.readString() }
            let before = try readOptional { reader throws(CodecError) in try reader.readListID() }
            return .createList(id: id, fields: ListFields(name: name, color: color, icon: icon), before: before)
        case 2:
            let id = try readListID()
            let name = try readOptional { reader throws(CodecError) in try reader.readString() }
            let color = try readClearable { reader throws(CodecError) in try reader.readString() }
            let icon = try readClearable { reader throws(CodecError) in try reader.readString() }
            return .updateList(id: id, patch: ListPatch(name: name, color: color, icon: icon))
        case 3:
            return .deleteList(id: try readListID())
        case 4:
            let ids = try readListIDs()
            return .moveLists(ids: ids, before: try readOptional { reader throws(CodecError) in try reader.readListID() })
        case 5, 11, 40:
            let id = try readItemID()
            let list = try readListID()
            let title = try readString()
            let notes = try readString()
            let done = try readBool()
            let due = try readOptional { reader throws(CodecError) in try reader.readDue() }
            let priority = try readPriority()
            let tags = try readTags()
            let before = try readOptional { reader throws(CodecError) in try reader.readItemID() }
            var fields = ItemFields(title: title, notes: notes, done: done, due: due, priority: priority, tags: tags)
            let time = try readTimestamp()
            let parent = tag != 5 ? try readClearable { reader throws(CodecError) in try reader.readItemID() } : nil
            if tag == 11, parent == nil {
                throw CodecError(offset: offset - 1, problem: "a creation with a parent names none")
            }
            if tag == 40 { fields.alerts = try readAlerts() }
            return .createItem(id: id, list: list, fields: fields, before: before, parent: parent, at: time)
        case 6, 41:
            let ids = try readItemIDs()
            let title = try readOptional { reader throws(CodecError) in try reader.readString() }
            let notes = try readOptional { reader throws(CodecError) in try reader.readString() }
            let done = try readOptional { reader throws(CodecError) in try reader.readBool() }
            let due = try readClearable { reader throws(CodecError) in try reader.readDue() }
            let priority = try readOptional { reader throws(CodecError) in try reader.readPriority() }
            let tags = try readOptional { reader throws(CodecError) in try reader.readTags() }
            var patch = ItemPatch(title: title, notes: notes, done: done, due: due, priority: priority, tags: tags)
            let time = try readTimestamp()
            if tag == 41 { patch.alerts = try readAlerts() }
            return .updateItems(ids: ids, patch: patch, at: time)
        case 7:
            return .deleteItems(ids: try readItemIDs())
        case 8, 12:
            let ids = try readItemIDs()
            let list = try readOptional { reader throws(CodecError) in try reader.readListID() }
            let before = try readOptional { reader throws(CodecError) in try reader.readItemID() }
            let time = try readTimestamp()
            let parent = tag == 12 ? try readClearable { reader throws(CodecError) in try reader.readItemID() } : nil
            if tag == 12, parent == nil {
                throw CodecError(offset: offset - 1, problem: "a move with a parent names none")
            }
            return .moveItems(ids: ids, toList: list, before: before, parent: parent, at: time)
        case 9:
            return .restoreLists(lists: try readLists())
        case 10:
            return .restoreItems(items: try readItems(withParents: false))
        case 13:
            return .restoreItems(items: try readItems(withParents: true))
        case 42:
            return .restoreItems(items: try readItems(withParents: true, withAlerts: true))
        case 43:
            let count = try readCount(minimumSize: 4)
            var reminders: [FiredReminder] = []
            reminders.reserveCapacity(count)
            for _ in 0..<count {
                let key = ReminderKey(item: try readItemID(), fireAt: try readTimestamp())
                reminders.append(FiredReminder(key: key, alert: try readAlert()))
            }
            return .fireReminders(reminders: reminders, at: try readTimestamp())
        case 44:
            let key = ReminderKey(item: try readItemID(), fireAt: try readTimestamp())
            return .dismissReminder(key, at: try readTimestamp())
        case 45:
            let key = ReminderKey(item: try readItemID(), fireAt: try readTimestamp())
            let until = try readTimestamp()
            return .snoozeReminder(key, until: until, at: try readTimestamp())
        default:
            throw CodecError(offset: start, problem: "unknown mutation tag \(tag)")
        }
    }

    private mutating func readClearable<Value>(
        _ readValue: (inout ByteReader) throws(CodecError) -> Value
    ) throws(CodecError) -> Clearable<Value>? {
        switch try read() {
        case 0: return nil
        case 1: return .set(try readValue(&self))
        case 2: return .clear
        case let byte: throw CodecError(offset: offset - 1, problem: "a field change is \(byte), not 0 (unchanged), 1 (set) or 2 (clear)")
        }
    }
}
