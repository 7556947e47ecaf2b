// The alert schedule: every pending fire instant in one ordered index, kept up item by item, and the reminders due.

/// A reminder to fire now: what `Engine.dueReminders(now:)` finds and the server sends.
public struct DueReminder: Hashable, Sendable {
    /// Its identity and the alert that fires.
    public var fired: FiredReminder
    /// When it was due to fire: its fire instant, or the end of its snooze.
    public var dueAt: Timestamp
}

/// Every fire instant not yet fired (or the end of a snooze), keyed by (instant, item, fire instant), with the keys
/// each item has in it, so an item's change re-keys only that item.
struct AlertSchedule: Sendable {
    /// The zone day-relative alerts are read in.
    var zone: any AlertZone = UTCAlertZone()
    var index = OrderedIndex<AlertKey>()
    /// Each item with alerts (done or not), with the keys it has in `index` (none while done).
    var keysByItem: [ItemID: [AlertKey]] = [:]

    /// Re-keys `item` (nil: it is gone) from its alerts, its due and its reminders' records in `state`.
    /// - Complexity: O(k log n) for the item's k alerts; O(1) for an item that has none and had none.
    mutating func schedule(_ id: ItemID, _ item: Item?, in state: TaskState) {
        let old = keysByItem[id]
        guard old != nil || !(item?.alerts.isEmpty ?? true) else { return }
        for key in old ?? [] { index.remove(key) }
        guard let item, !item.alerts.isEmpty else {
            keysByItem[id] = nil
            return
        }
        let keys = item.done ? [] : AlertSchedule.keys(of: item, in: state, zone: zone)
        for key in keys { index.insert(key) }
        keysByItem[id] = keys
    }

    /// The keys an item that is not done has: one per distinct fire instant not yet fired, or snoozed (keyed by
    /// the snooze's end).
    static func keys(of item: Item, in state: TaskState, zone: any AlertZone) -> [AlertKey] {
        var keys: [AlertKey] = []
        for (slot, alert) in item.alerts.enumerated() {
            guard let fireAt = alert.fireInstant(due: item.due, zone: zone),
                  !keys.contains(where: { $0.fireAt == fireAt }) else { continue }
            switch state.reminder(ReminderKey(item: item.id, fireAt: fireAt))?.state {
            case nil: keys.append(AlertKey(at: fireAt, item: item.id, fireAt: fireAt, alert: slot))
            case .snoozed(let until)?: keys.append(AlertKey(at: until, item: item.id, fireAt: fireAt, alert: slot))
            case .pending?, .dismissed?: break
            }
        }
        return keys
    }
}

/// One pending fire: when (`at`), which item, the reminder's fire instant, and the slot of the alert in the
/// item's alerts.
struct AlertKey: IndexKey, Hashable {
    var at: Timestamp
    var item: ItemID
    var fireAt: Timestamp
    var alert: Int

    static func < (lhs: AlertKey, rhs: AlertKey) -> Bool {
        (lhs.at, lhs.item, lhs.fireAt) < (rhs.at, rhs.item, rhs.fireAt)
    }

    static func == (lhs: AlertKey, rhs: AlertKey) -> Bool {
        (lhs.at, lhs.item, lhs.fireAt) == (rhs.at, rhs.item, rhs.fireAt)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(at)
        hasher.combine(item)
        hasher.combine(fireAt)
    }

    var weight: Int { 1 }
    static var hasUnitWeights: Bool { true }
}

extension Engine {
    /// Reads day-relative alerts in `zone` from now on (the client's zone, once `initialize` gives it): every
    /// item with alerts is re-keyed.
    /// - Complexity: O(a log a) for the a items with alerts.
    public mutating func setAlertZone(_ zone: any AlertZone) {
        alerts.zone = zone
        for id in Array(alerts.keysByItem.keys) { alerts.schedule(id, state.item(id), in: state) }
    }

    /// The earliest instant at which a reminder is due to fire, not before `now` minus `Reminder.forgetAfter`
    /// (older alerts never fire); it may be before `now` (then `dueReminders(now:)` finds it). Nil when none.
    /// - Complexity: O(log n).
    public func nextReminder(now: Timestamp) -> Timestamp? {
        let rank = alerts.index.insertionRank(of: AlertSchedule.lowest(now: now))
        return rank < alerts.index.count ? alerts.index.key(at: rank).at : nil
    }

    /// The reminders due at `now` and not fired yet: each not-done item's alerts whose fire instant (or snooze's
    /// end) is at or before `now` and at most `Reminder.forgetAfter` before it, by instant then item.
    /// - Complexity: O(log n + k) for k reminders due.
    public func dueReminders(now: Timestamp) -> [DueReminder] {
        let lower = alerts.index.insertionRank(of: AlertSchedule.lowest(now: now))
        let upper = alerts.index.insertionRank(of: AlertKey(at: Timestamp(milliseconds: now.milliseconds + 1), item: ItemID(0),
                                                              fireAt: Timestamp(milliseconds: .min), alert: 0))
        guard lower < upper else { return [] }
        return alerts.index.keys(in: lower..<upper).map { key in
            let alert = state.item(key.item)!.alerts[key.alert]
            return DueReminder(fired: FiredReminder(key: ReminderKey(item: key.item, fireAt: key.fireAt), alert: alert),
                               dueAt: key.at)
        }
    }

    /// The number of pending fires in the schedule (for tests and measurements).
    public var scheduledAlertCount: Int { alerts.index.count }

    /// Re-keys the items and reminders a group changed.
    /// - Complexity: O(k log n) for the k alerts of the items changed; nothing for items without alerts.
    mutating func scheduleAlerts(for changes: Changes) {
        for change in changes.items { alerts.schedule(change.id, change.new, in: state) }
        var seen = Set<ItemID>()
        for change in changes.reminders where seen.insert(change.key.item).inserted {
            alerts.schedule(change.key.item, state.item(change.key.item), in: state)
        }
    }

    /// Builds the schedule of a state at once from its items that have alerts.
    /// - Complexity: O(a log a) for the a items with alerts.
    mutating func buildAlertSchedule(_ items: [Item]) {
        alerts.keysByItem = [:]
        var keys: [AlertKey] = []
        for item in items {
            let itemKeys = item.done ? [] : AlertSchedule.keys(of: item, in: state, zone: alerts.zone)
            alerts.keysByItem[item.id] = itemKeys
            keys += itemKeys
        }
        keys.sort()
        alerts.index = OrderedIndex.build(sorted: keys)
    }
}

extension AlertSchedule {
    /// The lowest key that may still fire at `now`.
    static func lowest(now: Timestamp) -> AlertKey {
        AlertKey(at: Timestamp(milliseconds: now.milliseconds - Reminder.forgetAfter), item: ItemID(0),
                 fireAt: Timestamp(milliseconds: .min), alert: 0)
    }
}
