// ValueCodec: the encodings of the domain's values (ids, times, dues, positions, lists, items) that both codecs share.

import Domain

/// The layouts, in `ByteWriter`'s primitives:
/// ```
/// ListID, ItemID  varint raw value
/// Timestamp       signed varint milliseconds since 1970
/// CalendarDate    varint year | u8 month | u8 day           (checked to exist when read)
/// Due             u8 kind: 0 date (CalendarDate) | 1 date-time (Timestamp, signed varint UTC offset in seconds)
/// Priority        u8 rank: 0 none, 1 low, 2 medium, 3 high
/// Position        bytes (varint length, the key's bytes)
/// tags            varint count, then that many strings
/// Alert           u8 kind: 0 at (Timestamp) | 1 offset (signed varint minutes)
/// alerts          varint count, then that many Alerts
/// Reminder        item id | fireAt Timestamp | Alert | firedAt Timestamp | u8 state: 0 pending | 1 snoozed, then
///                 until Timestamp | 2 dismissed
/// TaskList        id | name string | color optional string | icon optional string | Position
/// Item            id | list id | title string | notes string | done bool | completedAt optional Timestamp
///                 | due optional Due | Priority | tags | createdAt | modifiedAt | revision varint | Position
///                 [| parent varint, 0 for none] [| alerts]   (parent: snapshots from version 2 and the records that
///                 carry parents; alerts: snapshots from version 3 and the records that carry alerts)
/// ```
/// Reading checks only what the encoding itself needs (tags, ranges of small fields, UTF-8, real dates);
/// the domain validates the values when they are applied or restored.
enum ValueCodec {
    /// The fewest bytes an encoded `TaskList` takes.
    static let minimumListSize = 5
    /// The fewest bytes an encoded `Item` takes.
    static let minimumItemSize = 13
}

extension ByteWriter {
    mutating func write(_ id: ListID) { writeVarint(id.rawValue) }

    mutating func write(_ id: ItemID) { writeVarint(id.rawValue) }

    mutating func write(_ time: Timestamp) { writeSignedVarint(time.milliseconds) }

    mutating func write(_ due: Due) {
        switch due {
        case .date(let date):
            write(0)
            writeVarint(UInt64(date.year))
            write(UInt8(date.month))
            write(UInt8(date.day))
        case .dateTime(let instant, let offset):
            write(1)
            write(instant)
            writeSignedVarint(Int64(offset))
        }
    }

    mutating func write(_ priority: Priority) { write(UInt8(priority.rank)) }

    mutating func write(_ position: Position) { writeBytes(position.bytes) }

    mutating func write(tags: [String]) {
        writeCount(tags.count)
        for tag in tags { writeString(tag) }
    }

    mutating func write(ids: [ListID]) {
        writeCount(ids.count)
        for id in ids { write(id) }
    }

    mutating func write(ids: [ItemID]) {
        writeCount(ids.count)
        for id in ids { write(id) }
    }

    mutating func write(_ list: TaskList) {
        write(list.id)
        writeString(list.name)
        writeOptional(list.color) { $0.writeString($1) }
        writeOptional(list.icon) { $0.writeString($1) }
        write(list.position)
    }

    /// An item; its parent (0 for none) when `withParent` (snapshots from version 2, and records of the
    /// mutations that carry parents), then its alerts when `withAlerts` (snapshots from version 3, and records of
    /// the mutations that carry alerts).
    mutating func write(_ item: Item, withParent: Bool = true, withAlerts: Bool = false) {
        write(item.id)
        write(item.list)
        writeString(item.title)
        writeString(item.notes)
        writeBool(item.done)
        writeOptional(item.completedAt) { $0.write($1) }
        writeOptional(item.due) { $0.write($1) }
        write(item.priority)
        write(tags: item.tags)
        write(item.createdAt)
        write(item.modifiedAt)
        writeVarint(item.revision)
        write(item.position)
        if withParent { writeVarint(item.parent?.rawValue ?? 0) }
        if withAlerts { write(alerts: item.alerts) }
    }

    mutating func write(_ alert: Alert) {
        switch alert {
        case .at(let instant):
            write(0)
            write(instant)
        case .offset(let minutes):
            write(1)
            writeSignedVarint(Int64(minutes))
        }
    }

    mutating func write(alerts: [Alert]) {
        writeCount(alerts.count)
        for alert in alerts { write(alert) }
    }

    mutating func write(_ reminder: Reminder) {
        write(reminder.key.item)
        write(reminder.key.fireAt)
        write(reminder.alert)
        write(reminder.firedAt)
        switch reminder.state {
        case .pending: write(0)
        case .snoozed(let until):
            write(1)
            write(until)
        case .dismissed: write(2)
        }
    }
}

extension ByteReader {
    mutating func readListID() throws(CodecError) -> ListID { ListID(try readVarint()) }

    mutating func readItemID() throws(CodecError) -> ItemID { ItemID(try readVarint()) }

    mutating func readTimestamp() throws(CodecError) -> Timestamp { Timestamp(milliseconds: try readSignedVarint()) }

    mutating func readDue() throws(CodecError) -> Due {
        let start = offset
        switch try read() {
        case 0:
            let year = try readVarint()
            let month = try read()
            let day = try read()
            guard year <= 9999, let date = CalendarDate(year: Int(year), month: Int(month), day: Int(day)) else {
                throw CodecError(offset: start, problem: "\(year)-\(month)-\(day) is not a calendar date")
            }
            return .date(date)
        case 1:
            let instant = try readTimestamp()
            return .dateTime(instant, offsetSeconds: Int(try readSignedVarint()))
        case let kind:
            throw CodecError(offset: start, problem: "a due's kind is \(kind), not 0 (date) or 1 (date-time)")
        }
    }

    mutating func readPriority() throws(CodecError) -> Priority {
        let rank = try read()
        switch rank {
        case 0: return .none
        case 1: return .low
        case 2: return .medium
        case 3: return .high
        default: throw CodecError(offset: offset - 1, problem: "a priority is \(rank), not 0 to 3")
        }
    }

    mutating func readPosition() throws(CodecError) -> Position { Position(bytes: try readBytes()) }

    mutating func readTags() throws(CodecError) -> [String] {
        let count = try readCount()
        guard count > 0 else { return [] }
        var tags: [String] = []
        tags.reserveCapacity(count)
        for _ in 0..<count { tags.append(try readString()) }
        return tags
    }

    mutating func readListIDs() throws(CodecError) -> [ListID] {
        let count = try readCount()
        var ids: [ListID] = []
        ids.reserveCapacity(count)
        for _ in 0..<count { ids.append(try readListID()) }
        return ids
    }

    mutating func readItemIDs() throws(CodecError) -> [ItemID] {
        let count = try readCount()
        var ids: [ItemID] = []
        ids.reserveCapacity(count)
        for _ in 0..<count { ids.append(try readItemID()) }
        return ids
    }

    mutating func readList() throws(CodecError) -> TaskList {
        let id = try readListID()
        let name = try readString()
        let color = try readOptional { reader throws(CodecError) in try reader.readString() }
        let icon = try readOptional { reader throws(CodecError) in try reader.readString() }
        return TaskList(id: id, name: name, color: color, icon: icon, position: try readPosition())
    }

    mutating func readAlert() throws(CodecError) -> Alert {
        let start = offset
        switch try read() {
        case 0: return .at(try readTimestamp())
        case 1:
            let minutes = try readSignedVarint()
            guard let value = Int(exactly: minutes), abs(value) <= Alert.maximumOffsetMinutes else {
                throw CodecError(offset: start, problem: "an alert's offset of \(minutes) minutes is out of range")
            }
            return .offset(minutes: value)
        case let kind:
            throw CodecError(offset: start, problem: "an alert's kind is \(kind), not 0 (at) or 1 (offset)")
        }
    }

    mutating func readAlerts() throws(CodecError) -> [Alert] {
        let count = try readCount(minimumSize: 2)
        guard count > 0 else { return [] }
        var alerts: [Alert] = []
        alerts.reserveCapacity(count)
        for _ in 0..<count { alerts.append(try readAlert()) }
        return alerts
    }

    mutating func readReminder() throws(CodecError) -> Reminder {
        let item = try readItemID()
        let fireAt = try readTimestamp()
        let alert = try readAlert()
        let firedAt = try readTimestamp()
        let state: ReminderState
        switch try read() {
        case 0: state = .pending
        case 1: state = .snoozed(until: try readTimestamp())
        case 2: state = .dismissed
        case let byte: throw CodecError(offset: offset - 1, problem: "a reminder's state is \(byte), not 0 (pending), 1 (snoozed) or 2 (dismissed)")
        }
        return Reminder(key: ReminderKey(item: item, fireAt: fireAt), alert: alert, firedAt: firedAt, state: state)
    }

    mutating func readItem(withParent: Bool, withAlerts: Bool = false) throws(CodecError) -> Item {
        let id = try readItemID()
        let list = try readListID()
        let title = try readString()
        let notes = try readString()
        let done = try readBool()
        let completedAt = try readOptional { reader throws(CodecError) in try reader.readTimestamp() }
        let due = try readOptional { reader throws(CodecError) in try reader.readDue() }
        let priority = try readPriority()
        let tags = try readTags()
        let createdAt = try readTimestamp()
        let modifiedAt = try readTimestamp()
        let revision = try readVarint()
        let position = try readPosition()
        let parent = withParent ? try readVarint() : 0
        let alerts = withAlerts ? try readAlerts() : []
        return Item(id: id, list: list, title: title, notes: notes, done: done, completedAt: completedAt, due: due,
                    priority: priority, tags: tags, createdAt: createdAt, modifiedAt: modifiedAt, revision: revision,
                    position: position, parent: parent == 0 ? nil : ItemID(parent), alerts: alerts)
    }

    mutating func readLists() throws(CodecError) -> [TaskList] {
        let count = try readCount(minimumSize: ValueCodec.minimumListSize)
        var lists: [TaskList] = []
        lists.reserveCapacity(count)
        for _ in 0..<count { lists.append(try readList()) }
        return lists
    }

    mutating func readItems(withParents: Bool, withAlerts: Bool = false, progress: (Double) -> Void = { _ in }) throws(CodecError) -> [Item] {
        let count = try readCount(minimumSize: ValueCodec.minimumItemSize)
        var items: [Item] = []
        items.reserveCapacity(count)
        for index in 0..<count {
            if index & 0xFFFF == 0, index > 0 { progress(Double(index) / Double(count)) }
            items.append(try readItem(withParent: withParents, withAlerts: withAlerts))
        }
        return items
    }
}
