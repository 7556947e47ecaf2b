/// Alerts and reminders between the wire and the domain: alerts with their params' paths, instants, the zone
/// alerts are read in, and the values `reminder/fired` and `reminders/list` carry.

import Foundation
import Domain
import TasklsProtocol
import Wire

extension Domain.Alert {
    /// The alert `wire` describes; its instant is parsed (`params.alerts[2].at: ...`).
    init(_ wire: TasklsProtocol.Alert, path: String) throws(ResponseError) {
        switch wire {
        case .at(let text): self = .at(try Timestamp(wire: text, path: path + ".at"))
        case .offset(let minutes): self = .offset(minutes: minutes)
        }
    }

    /// The alerts of `wire`, each parsed with its path (`params.alerts[2]`); the domain checks their ranges.
    static func list(_ wire: [TasklsProtocol.Alert]?, path: String = "params.alerts") throws(ResponseError) -> [Domain.Alert]? {
        guard let wire else { return nil }
        var alerts: [Domain.Alert] = []
        for (index, alert) in wire.enumerated() { alerts.append(try Domain.Alert(alert, path: "\(path)[\(index)]")) }
        return alerts
    }
}

extension TasklsProtocol.Alert {
    /// `alert` as the wire writes it (an instant in UTC with milliseconds).
    init(_ alert: Domain.Alert) {
        switch alert {
        case .at(let instant): self = .at(instant.iso8601)
        case .offset(let minutes): self = .offset(minutes)
        }
    }
}

extension Timestamp {
    /// The instant `text` names: `-32602` naming `path` unless it is an instant with its offset.
    init(wire text: String, path: String) throws(ResponseError) {
        guard case .dateTime(let instant, _) = try Due(wire: text, path: path) else {
            throw .invalidParams("\(path): expected an instant with its offset such as 2026-11-22T09:00:00Z, got a day")
        }
        self = instant
    }
}

extension ClientCalendar {
    /// The client's zone as the alert schedule reads day-relative alerts in it.
    var alertZone: any AlertZone { FoundationAlertZone(timeZone: timeZone) }
}

/// A Foundation time zone's offsets, for the alert schedule.
private struct FoundationAlertZone: AlertZone {
    let timeZone: TimeZone

    func offsetSeconds(at instant: Timestamp) -> Int {
        timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant.milliseconds) / 1000))
    }
}

extension ReminderFired {
    /// The notification of `due`, fired at `now`: late when more than 60 seconds after it was due.
    init(_ due: DueReminder, item: Domain.Item, subtasks: SubtaskCount, now: Timestamp, in calendar: ClientCalendar) {
        self.init(item: TasklsProtocol.Item(item, subtasks: subtasks, in: calendar), alert: TasklsProtocol.Alert(due.fired.alert),
                  fireAt: due.fired.key.fireAt.iso8601, late: now.milliseconds - due.dueAt.milliseconds > 60_000)
    }
}

extension PendingReminder {
    /// A pending reminder's record, with its item.
    init(_ reminder: Reminder, item: Domain.Item, subtasks: SubtaskCount, in calendar: ClientCalendar) {
        self.init(item: TasklsProtocol.Item(item, subtasks: subtasks, in: calendar), alert: TasklsProtocol.Alert(reminder.alert),
                  fireAt: reminder.key.fireAt.iso8601, firedAt: reminder.firedAt.iso8601)
    }
}
