/// Claiming reminders: a turn on the store like a mutation's, so each reminder fires once across processes.

import Domain
import Store
import TasklsProtocol
import Wire

extension Persistence {
    /// Fires the reminders due now, when the client watches them: under the store's lock, after applying every
    /// record other processes appended (their `fireReminders` take what they fired out of the schedule), appends
    /// one `fireReminders` record for the reminders still due, and sends `reminder/fired` for each. The
    /// notifications are held with the turn's messages until its sync (dropped if it fails), so a reminder
    /// reaches a client only once its record is durable, and no other process can claim it again. Called by the
    /// loop each turn, by `debug/setClock` and by `reminders/watch`. A failure (another process keeps the lock,
    /// the store cannot write) is logged and tried again a second later.
    /// - Complexity: O(log n) when nothing is due; O(k log n) for k reminders fired.
    func fireDueReminders() {
        guard workspace.remindersWatched, phase.isUsable, monotonicMilliseconds() >= workspace.reminderRetry else { return }
        let now = options.clock()
        guard let next = workspace.engine.nextReminder(now: now), next <= now else { return }
        do throws(ResponseError) {
            try prepareToWrite()
            let due = workspace.engine.dueReminders(now: now)
            guard !due.isEmpty else { return }
            let applied = try applyDurably([.fireReminders(reminders: due.map(\.fired), at: now)])
            workspace.publish(applied.viewChanges)
            for reminder in due {
                guard let item = workspace.engine.item(reminder.fired.key.item) else { continue }
                let fired = ReminderFired(reminder, item: item, subtasks: workspace.engine.state.subtaskCount(of: item.id), now: now,
                                          in: workspace.calendar)
                outbox.send(fired.message, isChange: true)
            }
        } catch {
            logger.log(.warning, "reminders: could not claim the reminders due (\(error.message)); trying again in a second")
            workspace.reminderRetry = monotonicMilliseconds() + 1000
        }
    }

    /// How long the loop may sleep before a reminder is due (milliseconds; -1: no limit): only while the client
    /// watches reminders on the real clock.
    var millisecondsUntilReminder: Int32 {
        guard workspace.remindersWatched, phase.isUsable, options.manualClock == nil else { return -1 }
        let now = options.clock()
        guard let next = workspace.engine.nextReminder(now: now) else { return -1 }
        let retry = max(0, workspace.reminderRetry - monotonicMilliseconds())
        return Int32(clamping: max(retry, min(next.milliseconds - now.milliseconds, 3_600_000)))
    }
}
