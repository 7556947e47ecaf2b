/// Reminders in the REPL (protocol.md, "Reminders"): the REPL watches them from its start, prints each one that
/// fires on a line of its own (above the prompt in a terminal), and lists, dismisses and snoozes the pending ones.

import TasklsProtocol
import Wire

extension Commands {
    static let reminderCommands: [Command] = [
        Command(names: ["reminders", "rem"], usage: "", summary: "list the reminders that fired and wait for you (numbered for dismiss and snooze)",
                example: "reminders", area: "Reminders",
                run: { repl, _ throws(CommandError) in try repl.showReminders() }),
        Command(names: ["dismiss"], usage: "N...|all", summary: "dismiss reminders (numbers from reminders)",
                example: "dismiss 1   dismiss all", area: "Reminders",
                run: { repl, arguments throws(CommandError) in try repl.dismissReminders(arguments.words) }),
        Command(names: ["snooze"], usage: "N... [10m|1h|2d|MINUTES]", summary: "have reminders fire again later (default 10 minutes)",
                example: "snooze 1   snooze 1 2 1h", area: "Reminders",
                run: { repl, arguments throws(CommandError) in try repl.snoozeReminders(arguments.words) }),
    ]
}

extension REPL {
    /// The line a fired reminder prints: the task, its due in the table's words, and when it fired late.
    func reminderLine(_ fired: ReminderFired) -> String {
        let mark = style.unicode ? "⏰" : "reminder:"
        var line = mark + " \"" + displayed(fired.item.title) + "\""
        if let due = fired.item.due { line += ", due " + day.describe(due: due, done: fired.item.done).text }
        if fired.late, let instant = parseInstant(fired.fireAt) {
            line += " (late: it was for " + day.clockTime(ofInstant: instant) + ")"
        }
        return style.bold(line) + style.dim("  (reminders: dismiss or snooze)")
    }

    /// `reminders`: the pending reminders, earliest first, numbered.
    func showReminders() throws(CommandError) {
        let pending = try send(RemindersList()).reminders
        guard !pending.isEmpty else {
            say("No reminders waiting.")
            return
        }
        var lines = [style.bold("Reminders") + " (dismiss N, snooze N 10m)"]
        for (index, reminder) in pending.enumerated() {
            var line = DisplayWidth.paddedLeft(String(index + 1), toWidth: 3) + "  \"" + displayed(reminder.item.title) + "\""
            if let due = reminder.item.due { line += "  due " + day.describe(due: due, done: reminder.item.done).text }
            if let fired = parseInstant(reminder.firedAt) {
                line += style.dim("  fired " + day.date(ofDay: day.dayNumber(ofInstant: fired)) + " " + day.clockTime(ofInstant: fired))
            }
            lines.append(line)
        }
        say(lines)
    }

    /// The pending reminders `words` name: numbers from `reminders` (the same order), or `all`.
    private func pendingReminders(_ words: [Substring], command: String) throws(CommandError) -> [PendingReminder] {
        guard !words.isEmpty else { throw CommandError("\(command) needs reminders: numbers from reminders, or all") }
        let pending = try send(RemindersList()).reminders
        if words.count == 1, words[0].lowercased() == "all" {
            guard !pending.isEmpty else { throw CommandError("no reminders are waiting") }
            return pending
        }
        var picked: [PendingReminder] = []
        for word in words {
            guard let number = Int(word), number >= 1 else { throw CommandError("\(command): '\(displayed(String(word)))' is not a reminder's number (reminders lists them)") }
            guard number <= pending.count else {
                throw CommandError("no reminder number \(number); " + (pending.isEmpty ? "none is waiting" : "reminders lists \(pending.count)"))
            }
            picked.append(pending[number - 1])
        }
        return picked
    }

    /// `dismiss N...|all`.
    func dismissReminders(_ words: [Substring]) throws(CommandError) {
        let picked = try pendingReminders(words, command: "dismiss")
        for reminder in picked { _ = try send(RemindersDismiss(item: reminder.item.id, fireAt: reminder.fireAt)) }
        say("dismissed " + picked.map { "\"" + displayed($0.item.title) + "\"" }.joined(separator: ", "))
    }

    /// `snooze N... [LENGTH]`: LENGTH is minutes, or a number with m, h or d; 10 minutes by default.
    func snoozeReminders(_ words: [Substring]) throws(CommandError) {
        var numbers = words
        var minutes = 10
        if let last = words.last, words.count > 1, let length = Self.snoozeMinutes(last) {
            minutes = length
            numbers = Array(words.dropLast())
        } else if let last = words.last, words.count > 1, Int(last) == nil {
            throw CommandError("snooze: '\(displayed(String(last)))' is not a length; such as 10m, 1h, 2d")
        }
        let picked = try pendingReminders(numbers, command: "snooze")
        var until = ""
        for reminder in picked {
            until = try send(RemindersSnooze(item: reminder.item.id, fireAt: reminder.fireAt, .minutes(minutes))).until
        }
        let again = parseInstant(until).map { " (again at " + day.clockTime(ofInstant: $0) + ")" } ?? ""
        say("snoozed " + picked.map { "\"" + displayed($0.item.title) + "\"" }.joined(separator: ", ") + " for " + Self.lengthWords(minutes) + again)
    }

    /// Minutes a snooze length gives: `10m`, `1h`, `2d` (a bare number is a reminder's number, not a length).
    static func snoozeMinutes(_ word: Substring) -> Int? {
        guard let unit = word.last, let count = Int(word.dropLast()), count > 0 else { return nil }
        switch unit {
        case "m": return count
        case "h": return count * 60
        case "d": return count * 1_440
        default: return nil
        }
    }

    /// `10 minutes`, `1 hour`, `2 days`.
    static func lengthWords(_ minutes: Int) -> String {
        if minutes % 1_440 == 0 { return minutes == 1_440 ? "1 day" : "\(minutes / 1_440) days" }
        if minutes % 60 == 0 { return minutes == 60 ? "1 hour" : "\(minutes / 60) hours" }
        return minutes == 1 ? "1 minute" : "\(minutes) minutes"
    }
}
