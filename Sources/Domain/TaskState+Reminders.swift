// Reminder mutations: recording fired reminders, dismissing and snoozing them, and forgetting old ones.

extension TaskState {
    /// The record of a fired reminder, if it has fired (and is not forgotten).
    /// - Complexity: O(reminders of the item).
    public func reminder(_ key: ReminderKey) -> Reminder? { reminderTable.reminder(key) }

    /// The records of an item's fired reminders.
    /// - Complexity: O(1).
    public func reminders(of item: ItemID) -> [Reminder] { reminderTable.byItem[item] ?? [] }

    /// Every record of a fired reminder, oldest last instant first: what a snapshot stores.
    /// - Complexity: O(r) for r records.
    public var allReminders: [Reminder] { reminderTable.all }

    /// How many records of fired reminders the state holds.
    public var reminderCount: Int { reminderTable.count }

    /// The fired reminders not dismissed whose items exist and are not done (`reminders/list`), oldest fire
    /// instant first.
    /// - Complexity: O(r) for r records.
    public var pendingReminders: [Reminder] {
        reminderTable.all.filter { reminder in
            guard case .pending = reminder.state, let item = item(reminder.key.item) else { return false }
            return !item.done
        }.sorted { $0.key < $1.key }
    }

    /// Stores the records of fired reminders (a snapshot's), replacing none: for a state just restored.
    /// - Throws: `identifierUnused` for an item id not below `nextIdentifier` (a record may outlive its item);
    ///   `identifierUsed` for a key stored twice.
    /// - Complexity: O(r log r).
    public mutating func restoreReminders(_ reminders: [Reminder]) throws(DomainError) {
        for reminder in reminders {
            guard reminder.key.item.rawValue > 0, reminder.key.item.rawValue < nextIdentifier else {
                throw .refused(reason: "identifierUnused", message: "reminder of item \(reminder.key.item): the id is not below the next free id \(nextIdentifier)")
            }
            guard reminderTable.put(reminder.key, reminder) == nil else {
                throw .refused(reason: "identifierUsed", message: "reminder of item \(reminder.key.item) at \(reminder.key.fireAt) is stored twice")
            }
        }
    }

    mutating func fireReminders(_ reminders: [FiredReminder], at time: Timestamp, log: inout ChangeLog) throws(DomainError) {
        _ = try existingItems(reminders.map(\.key.item))
        for fired in reminders {
            putReminder(fired.key, Reminder(key: fired.key, alert: fired.alert, firedAt: time, state: .pending), log: &log)
        }
        forgetReminders(before: time, log: &log)
    }

    mutating func dismissReminder(_ key: ReminderKey, at time: Timestamp, log: inout ChangeLog) throws(DomainError) {
        var reminder = try firedReminder(key)
        reminder.state = .dismissed
        putReminder(key, reminder, log: &log)
        forgetReminders(before: time, log: &log)
    }

    mutating func snoozeReminder(_ key: ReminderKey, until: Timestamp, at time: Timestamp,
                                 log: inout ChangeLog) throws(DomainError) {
        guard Validation.instantInRange(until) else {
            throw .invalidField(field: "until", problem: "must be between years 1 and 9999")
        }
        var reminder = try firedReminder(key)
        reminder.state = .snoozed(until: until)
        putReminder(key, reminder, log: &log)
        forgetReminders(before: time, log: &log)
    }

    /// Dismisses the pending and snoozed reminders of an item that became done (undoing that brings none back).
    mutating func dismissReminders(of item: ItemID, log: inout ChangeLog) {
        for reminder in reminderTable.byItem[item] ?? [] where reminder.state != .dismissed {
            var dismissed = reminder
            dismissed.state = .dismissed
            putReminder(reminder.key, dismissed, log: &log)
        }
    }

    /// A reminder that has fired and is not dismissed, or `notFound`.
    private func firedReminder(_ key: ReminderKey) throws(DomainError) -> Reminder {
        guard let reminder = reminderTable.reminder(key), reminder.state != .dismissed else {
            let why = reminderTable.reminder(key) == nil ? "has not fired (or is forgotten)" : "was dismissed"
            throw .refused(reason: "notFound", message: "no reminder of item \(key.item) at \(key.fireAt.iso8601): it \(why)")
        }
        return reminder
    }

    /// Forgets the records whose last instant is more than `Reminder.forgetAfter` before `time`.
    /// - Complexity: O((k + 1) log r) for k records forgotten.
    private mutating func forgetReminders(before time: Timestamp, log: inout ChangeLog) {
        let horizon = Timestamp(milliseconds: time.milliseconds - Reminder.forgetAfter)
        for key in reminderTable.keys(before: horizon) { putReminder(key, nil, log: &log) }
    }

    private mutating func putReminder(_ key: ReminderKey, _ new: Reminder?, log: inout ChangeLog) {
        let old = reminderTable.put(key, new)
        log.entries.append(.reminder(key, old: old, new: new))
    }
}
