/// The REPL's idea of today, for due dates said relative to it ("tomorrow", "2 days ago") and for
/// reading the `due:` shorthand.

import Foundation

/// The client's clock and time zone, as the REPL told the server in `initialize`.
struct ClientDay {
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
        return dayNumber(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)
    }

    /// The local wall-clock time of an instant, `HH:mm`.
    func clockTime(ofInstant milliseconds: Int64) -> String {
        let parts = calendar.dateComponents([.hour, .minute], from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
        return twoDigits(parts.hour ?? 0) + ":" + twoDigits(parts.minute ?? 0)
    }

    /// A due as the table shows it, relative to today, and whether it is overdue.
    func describe(due: String, done: Bool) -> (text: String, overdue: Bool) {
        if let day = parseDay(due) {
            let text = relative(days: day - today, date: due)
            return (text, !done && day < today)
        }
        guard let instant = parseInstant(due) else { return (due, false) }
        let day = dayNumber(ofInstant: instant)
        let text = relative(days: day - today, date: String(due.prefix(10))) + " " + clockTime(ofInstant: instant)
        return (text, !done && instant < now)
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

    /// The due of a `due:` shorthand value: `today`, `tomorrow`, `yesterday`, `+3` / `3d` / `-2`
    /// (days from today), a weekday (`mon`: the next one), `YYYY-MM-DD`, or an instant with an offset.
    func parseDue(_ text: String) -> String? {
        let word = text.lowercased()
        let weekdays = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]
        switch word {
        case "today", "tod": return date(ofDay: today)
        case "tomorrow", "tom", "tmr": return date(ofDay: today + 1)
        case "yesterday": return date(ofDay: today - 1)
        default: break
        }
        if let index = weekdays.firstIndex(where: { word.hasPrefix($0) && word.count <= 9 }) {
            // 1970-01-01 was a Thursday (index 4).
            let todayIndex = ((today % 7) + 7 + 4) % 7
            let ahead = (index - todayIndex + 7) % 7
            return date(ofDay: today + (ahead == 0 ? 7 : ahead))
        }
        var digits = Substring(word)
        if digits.hasSuffix("d") { digits = digits.dropLast() }
        if digits.hasPrefix("+") { digits = digits.dropFirst() } else if !digits.hasPrefix("-") && !word.hasSuffix("d") { digits = "" }
        if digits.count <= 5, let days = Int(digits) { return date(ofDay: today + days) }
        if parseDay(text) != nil || parseInstant(text) != nil { return text }
        return nil
    }

    /// `YYYY-MM-DD` of a day number.
    func date(ofDay day: Int) -> String {
        // Civil from days (Howard Hinnant's algorithm).
        let z = day + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let dayOfMonth = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return String(year) + "-" + twoDigits(month) + "-" + twoDigits(dayOfMonth)
    }

    /// The day number of a `YYYY-MM-DD` date, or nil.
    func parseDay(_ text: String) -> Int? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.count == 10, parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        return dayNumber(year: year, month: month, day: day)
    }

    /// Days since 1970-01-01 of a civil date.
    func dayNumber(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
