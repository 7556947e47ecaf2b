/// The REPL's calendar: its idea of today, for due dates said relative to it ("tomorrow", "2 days ago"); what
/// a user types is read by the server (`text/parseItem`, `text/parseFilter`). Days are counted and written with the domain's `CalendarDate`, dues and
/// instants read with its `Due` (as the server reads them); only the time zone's rules come from Foundation.

import Domain
import Foundation

/// The client's clock and time zone, as the REPL told the server in `initialize`.
struct REPLCalendar {
    /// The IANA time zone name sent to the server.
    let timeZoneName: String
    private let calendar: Calendar
    /// The instant the manual clock shows (milliseconds since 1970), or nil for the real clock.
    var manualNow: Int64?

    init(timeZoneName: String, manualNow: Int64?) {
        self.timeZoneName = timeZoneName
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: timeZoneName) ?? TimeZone(identifier: "UTC")!
        self.calendar = calendar
        self.manualNow = manualNow
    }

    /// The local time zone's IANA name: `TZ`, else the `/etc/localtime` link, else UTC.
    static func localTimeZoneName(environment: (String) -> String?) -> String {
        if var name = environment("TZ"), !name.isEmpty {
            if name.hasPrefix(":") { name.removeFirst() }
            if TimeZone(identifier: name) != nil { return name }
        }
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/etc/localtime"),
            let range = target.range(of: "zoneinfo/")
        {
            let name = String(target[range.upperBound...])
            if TimeZone(identifier: name) != nil { return name }
        }
        return "UTC"
    }

    /// Milliseconds since 1970, now.
    var now: Int64 { manualNow ?? Int64((Date().timeIntervalSince1970 * 1000).rounded()) }

    /// The day number (days since 1970-01-01) of today in the client's zone.
    var today: Int { dayNumber(ofInstant: now) }

    /// The local day number of an instant.
    func dayNumber(ofInstant milliseconds: Int64) -> Int {
        let parts = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
        let date = CalendarDate(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)
        return Int(date?.daysSinceEpoch ?? 0)
    }

    /// The local wall-clock time of an instant, `HH:mm`.
    func clockTime(ofInstant milliseconds: Int64) -> String {
        let parts = calendar.dateComponents([.hour, .minute], from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
        return twoDigits(parts.hour ?? 0) + ":" + twoDigits(parts.minute ?? 0)
    }

    /// A due as the table shows it, relative to today (a time after the day: "tomorrow 09:30"), and whether it is
    /// overdue: never for a done item.
    func describe(due: String, done: Bool) -> (text: String, overdue: Bool) {
        switch try? Due(parsing: due) {
        case .date(let date)?:
            let day = Int(date.daysSinceEpoch)
            return (relative(days: day - today, date: due), !done && day < today)
        case .dateTime(let instant, _)?:
            let day = dayNumber(ofInstant: instant.milliseconds)
            let text = relative(days: day - today, date: String(due.prefix(10))) + " " + clockTime(ofInstant: instant.milliseconds)
            return (text, !done && instant.milliseconds < now)
        case nil:
            return (due, false)
        }
    }

    /// "today", "tomorrow", "yesterday", "in 3 days", "2 days ago", or the date beyond two weeks.
    func relative(days: Int, date: String) -> String {
        switch days {
        case 0: "today"
        case 1: "tomorrow"
        case -1: "yesterday"
        case 2...13: "in \(days) days"
        case -13 ... -2: "\(-days) days ago"
        default: date
        }
    }

    /// `YYYY-MM-DD` of a day number.
    func date(ofDay day: Int) -> String { CalendarDate(daysSinceEpoch: Int64(day)).iso8601 }
}

/// Milliseconds since 1970 of an instant written as the protocol writes one (`2026-11-22T10:00:00Z`, an offset
/// instead of `Z`, seconds and milliseconds optional), or nil.
func parseInstant(_ text: String) -> Int64? {
    guard case .dateTime(let instant, _)? = try? Due(parsing: text) else { return nil }
    return instant.milliseconds
}

func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
