/// Random values of the alert and reminder types, for the round trips.

import TasklsProtocol

extension Alert: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> Alert {
        random.bool() ? .at(random.string()) : .offset(random.anyInt())
    }

    /// Zero to three alerts.
    static func list(_ random: inout Randomness) -> [Alert] { (0..<random.int(0...3)).map { _ in .arbitrary(&random) } }
}

extension RemindersWatch: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> RemindersWatch { RemindersWatch(watch: random.bool()) }
}

extension RemindersWatchResult: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> RemindersWatchResult { RemindersWatchResult(watch: random.bool()) }
}

extension RemindersList: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> RemindersList { RemindersList() }
}

extension PendingReminder: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> PendingReminder {
        PendingReminder(item: .arbitrary(&random), alert: .arbitrary(&random), fireAt: random.string(), firedAt: random.string())
    }
}

extension RemindersListResult: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> RemindersListResult {
        RemindersListResult(reminders: (0..<random.int(0...3)).map { _ in .arbitrary(&random) })
    }
}

extension RemindersDismiss: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> RemindersDismiss {
        RemindersDismiss(item: .arbitrary(&random), fireAt: random.string())
    }
}

extension RemindersSnooze: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> RemindersSnooze {
        RemindersSnooze(item: .arbitrary(&random), fireAt: random.string(),
                        random.bool() ? .until(random.string()) : .minutes(random.int(1...527_040)))
    }
}

extension RemindersSnoozeResult: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> RemindersSnoozeResult { RemindersSnoozeResult(until: random.string()) }
}

extension ReminderFired: Arbitrary {
    static func arbitrary(_ random: inout Randomness) -> ReminderFired {
        ReminderFired(item: .arbitrary(&random), alert: .arbitrary(&random), fireAt: random.string(), late: random.bool())
    }
}
