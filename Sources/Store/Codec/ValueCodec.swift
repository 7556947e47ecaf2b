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
/// TaskList        id | name string | color optional string | icon optional string | Position
/// Item            id | list id | title string | notes string | done bool | completedAt optional Timestamp
///                 | due optional Due | Priority | tags | createdAt | modifiedAt | revision varint | Position
///                 | parent varint (0: none)                         (`ItemLayout.parents` and later)
///                 | repeat optional RepeatRule | Occurrences | alerts (`ItemLayout.repeats` and later)
///                 | uid optional string | extras                (`ItemLayout.extras`)
/// extras          varint count, then that many: key string | value string
/// Alert           u8 kind: 0 at (Timestamp) | 1 offset (signed varint minutes)
/// alerts          varint count, then that many Alerts
/// Reminder        item id | fireAt Timestamp | Alert | firedAt Timestamp | u8 state: 0 pending | 1 snoozed, then
///                 until Timestamp | 2 dismissed
/// RepeatRule      rule string (the RRULE text, read strictly) | u8 anchor: 0 due, 1 dueFuture, 2 completion
/// Occurrences     varint completed | varint skipped | varint count | that many: Due | u8 outcome (0 completed,
///                 1 skipped) | Timestamp
/// ```
/// Reading checks only what the encoding itself needs (tags, ranges of small fields, UTF-8, real dates);
/// the domain validates the values when they are applied or restored.
enum ValueCodec {
    /// The anchors, by their byte.
    static let anchors: [RepeatRule.Anchor] = [.due, .dueFuture, .completion]

    /// The fewest bytes an encoded `TaskList` takes.
    static let minimumListSize = 5
    /// The fewest bytes an encoded `Item` takes.
    static let minimumItemSize = 13
    /// The most distinct tag lists one decoding shares (`ByteReader.readItem(layout:sharing:)`).
    static let sharedTagLists = 4096
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

    mutating func write(_ position: Position) {
        position.withBytes { bytes in
            writeCount(bytes.count)
            self.bytes.append(contentsOf: bytes)
        }
    }

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

    /// An item in `layout` (what it leaves out must be absent: no parent before `.parents`, no rule, history or
    /// alerts before `.repeats`, no uid or extras before `.extras`).
    mutating func write(_ item: Item, layout: ItemLayout = .repeats) {
        write(item.id)
        write(item.list)
        item.titleText.withUTF8 { writeUTF8($0) }
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
        if layout >= .parents { writeVarint(item.parent?.rawValue ?? 0) }
        if layout >= .repeats {
            writeOptional(item.repeatRule) { $0.write($1) }
            write(item.occurrences)
            write(alerts: item.alerts)
        }
        if layout >= .extras {
            writeOptional(item.uid) { $0.writeString($1) }
            write(extras: item.extras)
        }
    }

    mutating func write(extras: [Extra]) {
        writeCount(extras.count)
        for extra in extras {
            writeString(extra.key)
            writeString(extra.value)
        }
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

    mutating func write(_ rule: RepeatRule) {
        writeString(rule.rrule)
        write(UInt8(ValueCodec.anchors.firstIndex(of: rule.anchor)!))
    }

    mutating func write(_ occurrences: Occurrences) {
        writeVarint(UInt64(occurrences.completed))
        writeVarint(UInt64(occurrences.skipped))
        writeCount(occurrences.recent.count)
        for occurrence in occurrences.recent {
            write(occurrence.due)
            write(occurrence.outcome.rawValue)
            write(occurrence.at)
        }
    }
}

/// Which fields an encoded item has: what each format version added.
enum ItemLayout: Int, Comparable {
    /// Before subtasks (snapshot version 1, journal tag 10): no parent.
    case plain
    /// With its parent (snapshot version 2, journal tag 13).
    case parents
    /// With its parent, repeat rule, history and alerts (snapshot version 3, journal tag 16).
    case repeats
    /// With all that, its uid and its extras (snapshot version 4, journal tags 18 and 19).
    case extras

    /// The layout of a snapshot's items in format `version`.
    init(snapshotVersion version: UInt32) {
        self = version >= 4 ? .extras : version == 3 ? .repeats : version == 2 ? .parents : .plain
    }

    /// The oldest layout that holds everything `item` has (what a journal record of whole items is written in).
    init(holding item: Item) {
        self = item.uid != nil || !item.extras.isEmpty ? .extras
            : item.repeatRule != nil || item.occurrences != .none || !item.alerts.isEmpty ? .repeats
            : item.parent != nil ? .parents : .plain
    }

    static func < (lhs: ItemLayout, rhs: ItemLayout) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension ByteReader {
    mutating func readListID() throws(CodecError) -> ListID { ListID(try readVarint()) }

    /// A string as `readString` reads it, made straight into an item's title block (`TitleText`).
    mutating func readTitle() throws(CodecError) -> TitleText {
        let (title, length) = try readBytes { raw in
            (raw.count > TitleText.maximumBytes ? nil : TitleText.make(utf8: raw.assumingMemoryBound(to: UInt8.self)), raw.count)
        }
        guard length <= TitleText.maximumBytes else {
            throw CodecError(offset: offset - length, problem: "a title of \(length) bytes is longer than \(TitleText.maximumBytes)")
        }
        guard let title else { throw CodecError(offset: offset - length, problem: "a string is not valid UTF-8") }
        return title
    }

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

    mutating func readPosition() throws(CodecError) -> Position { try readBytes { Position(bytes: $0) } }

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

    mutating func readItem(layout: ItemLayout) throws(CodecError) -> Item {
        var unshared: [[String]: [String]]? = nil
        return try readItem(layout: layout, sharing: &unshared)
    }

    /// An item, its tag list shared with an equal one read before when `tagLists` holds one (a snapshot repeats a
    /// few tag lists many times: one array each, not one per item); new lists are added while there are fewer than
    /// `ValueCodec.sharedTagLists`. nil shares nothing.
    mutating func readItem(layout: ItemLayout, sharing tagLists: inout [[String]: [String]]?) throws(CodecError) -> Item {
        let id = try readItemID()
        let list = try readListID()
        let title = try readTitle()
        let notes = try readString()
        let done = try readBool()
        let completedAt = try readOptional { reader throws(CodecError) in try reader.readTimestamp() }
        let due = try readOptional { reader throws(CodecError) in try reader.readDue() }
        let priority = try readPriority()
        var tags = try readTags()
        if !tags.isEmpty, tagLists != nil {
            if let shared = tagLists![tags] {
                tags = shared
            } else if tagLists!.count < ValueCodec.sharedTagLists {
                tagLists![tags] = tags
            }
        }
        let createdAt = try readTimestamp()
        let modifiedAt = try readTimestamp()
        let revision = try readVarint()
        let position = try readPosition()
        let parent = layout >= .parents ? try readVarint() : 0
        let rule = layout >= .repeats ? try readOptional { reader throws(CodecError) in try reader.readRepeatRule() } : nil
        let occurrences = layout >= .repeats ? try readOccurrences() : .none
        let alerts = layout >= .repeats ? try readAlerts() : []
        let uid = layout >= .extras ? try readOptional { reader throws(CodecError) in try reader.readString() } : nil
        let extras = layout >= .extras ? try readExtras() : []
        return Item(id: id, list: list, titleText: title, notes: notes, done: done, completedAt: completedAt, due: due,
                    priority: priority, tags: tags, createdAt: createdAt, modifiedAt: modifiedAt, revision: revision,
                    position: position, parent: parent == 0 ? nil : ItemID(parent), repeatRule: rule, occurrences: occurrences,
                    alerts: alerts, uid: uid, extras: extras)
    }

    mutating func readExtras() throws(CodecError) -> [Extra] {
        let count = try readCount(minimumSize: 2)
        guard count > 0 else { return [] }
        var extras: [Extra] = []
        extras.reserveCapacity(count)
        for _ in 0..<count {
            let key = try readString()
            extras.append(Extra(key: key, value: try readString()))
        }
        return extras
    }

    mutating func readRepeatRule() throws(CodecError) -> RepeatRule {
        let start = offset
        let text = try readString()
        let anchor = try read()
        guard Int(anchor) < ValueCodec.anchors.count else {
            throw CodecError(offset: offset - 1, problem: "a repeat's anchor is \(anchor), not 0 (due), 1 (dueFuture) or 2 (completion)")
        }
        do throws(DomainError) {
            return try RepeatRule(rrule: text, anchor: ValueCodec.anchors[Int(anchor)])
        } catch {
            throw CodecError(offset: start, problem: "a repeat rule is refused: \(error.message)")
        }
    }

    mutating func readOccurrences() throws(CodecError) -> Occurrences {
        let start = offset
        let completed = try readVarint()
        let skipped = try readVarint()
        guard completed <= UInt64(Int.max / 2), skipped <= UInt64(Int.max / 2) else {
            throw CodecError(offset: start, problem: "an occurrence count is out of range")
        }
        let count = try readCount(minimumSize: 4)
        var recent: [Occurrence] = []
        recent.reserveCapacity(count)
        for _ in 0..<count {
            let due = try readDue()
            let byte = try read()
            guard let outcome = Occurrence.Outcome(rawValue: byte) else {
                throw CodecError(offset: offset - 1, problem: "an occurrence's outcome is \(byte), not 0 (completed) or 1 (skipped)")
            }
            recent.append(Occurrence(due: due, outcome: outcome, at: try readTimestamp()))
        }
        return Occurrences(completed: Int(completed), skipped: Int(skipped), recent: recent)
    }

    mutating func readLists() throws(CodecError) -> [TaskList] {
        let count = try readCount(minimumSize: ValueCodec.minimumListSize)
        var lists: [TaskList] = []
        lists.reserveCapacity(count)
        for _ in 0..<count { lists.append(try readList()) }
        return lists
    }

    mutating func readItems(layout: ItemLayout, progress: (Double) -> Void = { _ in }) throws(CodecError) -> [Item] {
        let count = try readCount(minimumSize: ValueCodec.minimumItemSize)
        var items: [Item] = []
        items.reserveCapacity(count)
        for index in 0..<count {
            if index & 0xFFFF == 0, index > 0 { progress(Double(index) / Double(count)) }
            items.append(try readItem(layout: layout))
        }
        return items
    }
}
