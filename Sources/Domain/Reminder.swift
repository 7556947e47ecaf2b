// Reminders: the alerts that have fired, as the state records them (so every process fires each one once).

/// A reminder's identity: the item and the instant its alert fires. Changing the item's due gives new instants,
/// hence new reminders; an unchanged due keeps them.
public struct ReminderKey: Hashable, Comparable, Sendable {
    public var item: ItemID
    public var fireAt: Timestamp

    public init(item: ItemID, fireAt: Timestamp) {
        self.item = item
        self.fireAt = fireAt
    }

    public static func < (lhs: ReminderKey, rhs: ReminderKey) -> Bool {
        (lhs.fireAt, lhs.item) < (rhs.fireAt, rhs.item)
    }
}

/// What became of a reminder once it fired.
public enum ReminderState: Hashable, Sendable {
    /// Fired and shown; not dismissed (`reminders/list` shows it while its item is not done).
    case pending
    /// Snoozed: it fires again at `until` (once, as it first did).
    case snoozed(until: Timestamp)
    /// Dismissed, or its item was completed: it never fires again.
    case dismissed
}

/// One fired reminder, as the state records it.
public struct Reminder: Hashable, Sendable {
    /// Which item, and the instant its alert fires.
    public var key: ReminderKey
    /// The alert that fired (the first of the item's alerts with this instant).
    public var alert: Alert
    /// When it last fired (by the clock of the process that fired it).
    public var firedAt: Timestamp
    /// Pending, snoozed or dismissed.
    public var state: ReminderState

    public init(key: ReminderKey, alert: Alert, firedAt: Timestamp, state: ReminderState) {
        self.key = key
        self.alert = alert
        self.firedAt = firedAt
        self.state = state
    }

    /// The latest instant at which the record's reminder could fire: its fire instant, or the end of its snooze.
    /// It is forgotten `Reminder.forgetAfter` after it, when no alert at that instant can fire any more.
    var lastInstant: Timestamp {
        if case .snoozed(let until) = state { return max(key.fireAt, until) }
        return key.fireAt
    }

    /// How long a reminder is remembered after its last instant (30 days, in milliseconds). An alert whose
    /// instant is older than this is never fired, so forgetting its record cannot make it fire again.
    public static let forgetAfter: Int64 = 30 * 86_400_000
}

/// One reminder to fire, as a `fireReminders` mutation names it.
public struct FiredReminder: Hashable, Sendable {
    public var key: ReminderKey
    public var alert: Alert

    public init(key: ReminderKey, alert: Alert) {
        self.key = key
        self.alert = alert
    }
}

/// One reminder's change in a group: before (nil: none) and after (nil: forgotten).
public struct ReminderChange: Hashable, Sendable {
    public var key: ReminderKey
    public var old: Reminder?
    public var new: Reminder?
}

/// The fired reminders: by item (for the alert schedule and completions), and by last instant (to forget
/// the old ones).
struct ReminderTable: Sendable {
    private(set) var byItem: [ItemID: [Reminder]] = [:]
    /// Every record's (last instant, key), to forget them in order.
    private(set) var byAge = OrderedIndex<ReminderAge>()
    private(set) var count = 0

    /// The record of `key`, if it has fired.
    /// - Complexity: O(reminders of the item).
    func reminder(_ key: ReminderKey) -> Reminder? {
        byItem[key.item]?.first { $0.key == key }
    }

    /// Stores `new` as the record of `key` (nil: forgets it); returns the record it replaces.
    /// - Complexity: O(log r + reminders of the item) for r records.
    @discardableResult
    mutating func put(_ key: ReminderKey, _ new: Reminder?) -> Reminder? {
        var records = byItem[key.item] ?? []
        let slot = records.firstIndex { $0.key == key }
        let old = slot.map { records[$0] }
        if let old { byAge.remove(ReminderAge(old)) } else if new != nil { count += 1 }
        if let new { byAge.insert(ReminderAge(new)) } else if old != nil { count -= 1 }
        switch (slot, new) {
        case (let slot?, let new?): records[slot] = new
        case (let slot?, nil): records.remove(at: slot)
        case (nil, let new?): records.append(new)
        case (nil, nil): break
        }
        byItem[key.item] = records.isEmpty ? nil : records
        return old
    }

    /// The keys of the records whose last instant is before `instant`, oldest first.
    /// - Complexity: O(log r + k).
    func keys(before instant: Timestamp) -> [ReminderKey] {
        let end = byAge.insertionRank(of: ReminderAge(last: instant, key: ReminderKey(item: ItemID(0), fireAt: Timestamp(milliseconds: .min))))
        return byAge.keys(in: 0..<end).map(\.key)
    }

    /// Every record, oldest first.
    var all: [Reminder] {
        byAge.allKeys.map { reminder($0.key)! }
    }
}

/// A record's place in the order of ages: its last instant, then its key.
struct ReminderAge: IndexKey {
    var last: Timestamp
    var key: ReminderKey

    init(last: Timestamp, key: ReminderKey) {
        self.last = last
        self.key = key
    }

    init(_ reminder: Reminder) { self.init(last: reminder.lastInstant, key: reminder.key) }

    static func < (lhs: ReminderAge, rhs: ReminderAge) -> Bool {
        (lhs.last, lhs.key) < (rhs.last, rhs.key)
    }

    var weight: Int { 1 }
    static var hasUnitWeights: Bool { true }
}
