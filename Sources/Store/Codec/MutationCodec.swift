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
///  14 createItem    as 5, then parent Clearable ItemID, then repeat optional RepeatRule, then alerts (written
///                   when the item repeats or has alerts)
///  15 updateItems   as 6, then repeat Clearable RepeatRule, then alerts optional (written when the patch changes
///                   the repeat or the alerts)
///  16 restoreItems  varint count, Items with parents, repeat rules, histories and alerts (written when any item
///                   has a rule, a history or alerts; else 13 or 10)
///  17 advanceItems  varint count, that many: ItemID | next Due | u8 outcome (0 completed, 1 skipped) | at Timestamp
///  18 restoreItems  varint count, Items with all that and their uids and extras (written when any item has a uid
///                   or extras; else 16, 13 or 10)
///  19 insertItems   varint count, Items with their uids and extras (`ItemLayout.extras`)
///  20 createSmartList  SmartListID | name string | color optional string | icon optional string | SmartListRule
///                      | before optional SmartListID
///  21 updateSmartList  SmartListID | name optional string | color Clearable string | icon Clearable string
///                      | filter optional Filter | lists Clearable (varint count, ListIDs)
///  22 deleteSmartList  SmartListID
///  23 moveSmartLists   varint count, SmartListIDs | before optional SmartListID
///  24 restoreSmartLists  varint count, SmartLists
///  25 fireReminders varint count, (ItemID | fireAt Timestamp | Alert) each | at Timestamp
///  26 dismissReminder  ItemID | fireAt Timestamp | at Timestamp
///  27 snoozeReminder   ItemID | fireAt Timestamp | until Timestamp | at Timestamp
///  28 createItem    as 14, then extras (written when the fields carry extras: a duplicate of an imported item)
/// Clearable  u8: 0 unchanged | 1 set, then the value | 2 clear
/// ```
/// The value layouts (ids, Timestamp, Due, Priority, tags, TaskList, Item) are `ValueCodec`'s, the smart lists'
/// (SmartListID, Filter, SmartListRule, SmartList) `SmartListCodec`'s. A taskls from before them takes tags
/// 14 to 28 for damage it leaves as it is, as it does any record it cannot read; the newer tags are written only
/// for what the older ones cannot hold, so a store that uses nothing new stays readable by the taskls before. The format
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
            let extended = fields.repeatRule != nil || !fields.alerts.isEmpty || !fields.extras.isEmpty
            write(!fields.extras.isEmpty ? 28 : extended ? 14 : parent == nil ? 5 : 11)
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
            if parent != nil || extended { writeClearable(parent) { $0.write($1) } }
            if extended {
                writeOptional(fields.repeatRule) { $0.write($1) }
                write(alerts: fields.alerts)
            }
            if !fields.extras.isEmpty { write(extras: fields.extras) }
        case .updateItems(let ids, let patch, let time):
            let extended = patch.repeatRule != nil || patch.alerts != nil
            write(extended ? 15 : 6)
            write(ids: ids)
            writeOptional(patch.title) { $0.writeString($1) }
            writeOptional(patch.notes) { $0.writeString($1) }
            writeOptional(patch.done) { $0.writeBool($1) }
            writeClearable(patch.due) { $0.write($1) }
            writeOptional(patch.priority) { $0.write($1) }
            writeOptional(patch.tags) { $0.write(tags: $1) }
            write(time)
            if extended {
                writeClearable(patch.repeatRule) { $0.write($1) }
                writeOptional(patch.alerts) { $0.write(alerts: $1) }
            }
        case .advanceItems(let advances, let time):
            write(17)
            writeCount(advances.count)
            for advance in advances {
                write(advance.id)
                write(advance.next)
                write(advance.outcome.rawValue)
            }
            write(time)
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
            let layout = items.reduce(ItemLayout.plain) { max($0, ItemLayout(holding: $1)) }
            switch layout {
            case .plain: write(10)
            case .parents: write(13)
            case .repeats: write(16)
            case .extras: write(18)
            }
            writeCount(items.count)
            for item in items { write(item, layout: layout) }
        case .insertItems(let items):
            write(19)
            writeCount(items.count)
            for item in items { write(item, layout: .extras) }
        case .createSmartList(let id, let fields, let before):
            write(20)
            write(id)
            writeString(fields.name)
            writeOptional(fields.color) { $0.writeString($1) }
            writeOptional(fields.icon) { $0.writeString($1) }
            write(fields.rule)
            writeOptional(before) { $0.write($1) }
        case .updateSmartList(let id, let patch):
            write(21)
            write(id)
            writeOptional(patch.name) { $0.writeString($1) }
            writeClearable(patch.color) { $0.writeString($1) }
            writeClearable(patch.icon) { $0.writeString($1) }
            writeOptional(patch.filter) { $0.write($1) }
            writeClearable(patch.lists) { $0.write(sources: $1) }
        case .deleteSmartList(let id):
            write(22)
            write(id)
        case .moveSmartLists(let ids, let before):
            write(23)
            writeCount(ids.count)
            for id in ids { write(id) }
            writeOptional(before) { $0.write($1) }
        case .restoreSmartLists(let smartLists):
            write(24)
            writeCount(smartLists.count)
            for smartList in smartLists { write(smartList) }
        case .fireReminders(let reminders, let time):
            write(25)
            writeCount(reminders.count)
            for reminder in reminders {
                write(reminder.key.item)
                write(reminder.key.fireAt)
                write(reminder.alert)
            }
            write(time)
        case .dismissReminder(let key, let time):
            write(26)
            write(key.item)
            write(key.fireAt)
            write(time)
        case .snoozeReminder(let key, let until, let time):
            write(27)
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
        case 5, 11, 14, 28:
            let id = try readItemID()
            let list = try readListID()
            let title = try readString()
            let notes = try readString()
            let done = try readBool()
            let due = try readOptional { reader throws(CodecError) in try reader.readDue() }
            let priority = try readPriority()
            let tags = try readTags()
            let before = try readOptional { reader throws(CodecError) in try reader.readItemID() }
            let time = try readTimestamp()
            let parent = tag != 5 ? try readClearable { reader throws(CodecError) in try reader.readItemID() } : nil
            if tag == 11, parent == nil {
                throw CodecError(offset: offset - 1, problem: "a creation with a parent names none")
            }
            let extended = tag == 14 || tag == 28
            let rule = extended ? try readOptional { reader throws(CodecError) in try reader.readRepeatRule() } : nil
            let alerts = extended ? try readAlerts() : []
            if tag == 14, rule == nil, alerts.isEmpty {
                throw CodecError(offset: offset - 1, problem: "an extended creation has neither a repeat nor alerts")
            }
            let extras = tag == 28 ? try readExtras() : []
            if tag == 28, extras.isEmpty {
                throw CodecError(offset: offset - 1, problem: "a creation with extras has none")
            }
            let fields = ItemFields(title: title, notes: notes, done: done, due: due, priority: priority, tags: tags,
                                    repeatRule: rule, alerts: alerts, extras: extras)
            return .createItem(id: id, list: list, fields: fields, before: before, parent: parent, at: time)
        case 6, 15:
            let ids = try readItemIDs()
            let title = try readOptional { reader throws(CodecError) in try reader.readString() }
            let notes = try readOptional { reader throws(CodecError) in try reader.readString() }
            let done = try readOptional { reader throws(CodecError) in try reader.readBool() }
            let due = try readClearable { reader throws(CodecError) in try reader.readDue() }
            let priority = try readOptional { reader throws(CodecError) in try reader.readPriority() }
            let tags = try readOptional { reader throws(CodecError) in try reader.readTags() }
            let time = try readTimestamp()
            let rule = tag == 15 ? try readClearable { reader throws(CodecError) in try reader.readRepeatRule() } : nil
            let alerts = tag == 15 ? try readOptional { reader throws(CodecError) in try reader.readAlerts() } : nil
            if tag == 15, rule == nil, alerts == nil {
                throw CodecError(offset: offset - 1, problem: "an update of the repeat and alerts changes neither")
            }
            let patch = ItemPatch(title: title, notes: notes, done: done, due: due, priority: priority, tags: tags,
                                  repeatRule: rule, alerts: alerts)
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
            return .restoreItems(items: try readItems(layout: .plain))
        case 13:
            return .restoreItems(items: try readItems(layout: .parents))
        case 16:
            return .restoreItems(items: try readItems(layout: .repeats))
        case 18:
            return .restoreItems(items: try readItems(layout: .extras))
        case 19:
            return .insertItems(items: try readItems(layout: .extras))
        case 17:
            let count = try readCount(minimumSize: 4)
            var advances: [Advance] = []
            advances.reserveCapacity(count)
            for _ in 0..<count {
                let id = try readItemID()
                let next = try readDue()
                let byte = try read()
                guard let outcome = Occurrence.Outcome(rawValue: byte) else {
                    throw CodecError(offset: offset - 1, problem: "an advance's outcome is \(byte), not 0 (completed) or 1 (skipped)")
                }
                advances.append(Advance(id: id, next: next, outcome: outcome))
            }
            return .advanceItems(advances: advances, at: try readTimestamp())
        case 20:
            let id = try readSmartListID()
            let name = try readString()
            let color = try readOptional { reader throws(CodecError) in try reader.readString() }
            let icon = try readOptional { reader throws(CodecError) in try reader.readString() }
            let rule = try readSmartListRule()
            let before = try readOptional { reader throws(CodecError) in try reader.readSmartListID() }
            return .createSmartList(id: id, fields: SmartListFields(name: name, color: color, icon: icon, rule: rule),
                                    before: before)
        case 21:
            let id = try readSmartListID()
            let name = try readOptional { reader throws(CodecError) in try reader.readString() }
            let color = try readClearable { reader throws(CodecError) in try reader.readString() }
            let icon = try readClearable { reader throws(CodecError) in try reader.readString() }
            let filter = try readOptional { reader throws(CodecError) in try reader.readFilter() }
            let lists = try readClearable { reader throws(CodecError) in try reader.readSources() }
            return .updateSmartList(id: id, patch: SmartListPatch(name: name, color: color, icon: icon, filter: filter,
                                                                  lists: lists))
        case 22:
            return .deleteSmartList(id: try readSmartListID())
        case 23:
            let count = try readCount()
            var ids: [SmartListID] = []
            for _ in 0..<count { ids.append(try readSmartListID()) }
            return .moveSmartLists(ids: ids, before: try readOptional { reader throws(CodecError) in try reader.readSmartListID() })
        case 24:
            return .restoreSmartLists(smartLists: try readSmartLists())
        case 25:
            let count = try readCount(minimumSize: 4)
            var reminders: [FiredReminder] = []
            reminders.reserveCapacity(count)
            for _ in 0..<count {
                let key = ReminderKey(item: try readItemID(), fireAt: try readTimestamp())
                reminders.append(FiredReminder(key: key, alert: try readAlert()))
            }
            return .fireReminders(reminders: reminders, at: try readTimestamp())
        case 26:
            let key = ReminderKey(item: try readItemID(), fireAt: try readTimestamp())
            return .dismissReminder(key, at: try readTimestamp())
        case 27:
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
