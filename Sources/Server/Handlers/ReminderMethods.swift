/// `reminders/watch`, `reminders/list`, `reminders/dismiss`, `reminders/snooze`.

import Domain
import TasklsProtocol
import Wire

enum ReminderMethods {
    static func register(in table: inout MethodTable) {
        // Whether this client gets `reminder/fired`: answered whatever the store's state (the reminders due fire
        // once it can serve). Claiming them is the loop's turn on the store (`Persistence.fireDueReminders`).
        table.state(RemindersWatch.self) { context, params in
            context.watchesReminders = params.watch
            return RemindersWatchResult(watch: params.watch)
        }
        table.reading(RemindersList.self) { context, _ in
            let engine = context.engine
            return RemindersListResult(reminders: engine.state.pendingReminders.compactMap { reminder in
                engine.item(reminder.key.item).map {
                    PendingReminder(reminder, item: $0, subtasks: engine.state.subtaskCount(of: $0.id), in: context.calendar)
                }
            })
        }
        // Dismissing and snoozing change no item: no revision, no undo step (`Changes.isEmpty`), but a record
        // every process applies.
        table.writing(RemindersDismiss.self) { context, params throws(ResponseError) in
            let key = try reminderKey(context, params.item, params.fireAt)
            try refusingUnknown(key) { () throws(ResponseError) in
                _ = try context.apply([.dismissReminder(key, at: context.now)])
            }
            return EmptyResult()
        }
        table.writing(RemindersSnooze.self) { context, params throws(ResponseError) in
            let key = try reminderKey(context, params.item, params.fireAt)
            let until: Timestamp
            switch params.length {
            case .until(let text): until = try Timestamp(wire: text, path: "params.until")
            case .minutes(let minutes): until = Timestamp(milliseconds: context.now.milliseconds + Int64(minutes) * 60_000)
            }
            try refusingUnknown(key) { () throws(ResponseError) in
                _ = try context.apply([.snoozeReminder(key, until: until, at: context.now)])
            }
            return RemindersSnoozeResult(until: until.iso8601)
        }
    }

    /// The reminder a request names: `fireAt` parsed, the item known (`notFound` naming it otherwise).
    private static func reminderKey(_ context: WritingContext, _ item: TasklsProtocol.ItemID,
                                    _ fireAt: String) throws(ResponseError) -> ReminderKey {
        let id = ItemID(item)
        let instant = try Timestamp(wire: fireAt, path: "params.fireAt")
        guard context.engine.item(id) != nil else { throw DomainError.notFound(kind: .item, ids: [id.rawValue]).responseError }
        return ReminderKey(item: id, fireAt: instant)
    }

    /// Runs `body`, giving an unknown reminder's refusal the `notFound` shape (`data.ids` empty: the item exists).
    private static func refusingUnknown(_ key: ReminderKey, _ body: () throws(ResponseError) -> Void) throws(ResponseError) {
        do {
            try body()
        } catch where error.data?["reason"] == .string("notFound") && error.data?["ids"] == nil {
            throw .requestFailed(reason: "notFound", error.message, data: ["ids": .array([])])
        }
    }
}
