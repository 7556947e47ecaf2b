// RepeatRule's text: the RFC 5545 RRULE value (`FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE`), read strictly and
// written canonically, so reading what was written gives the same rule.

extension RepeatRule {
    /// The parts a rule may have, in the order `rrule` writes them.
    static let supportedParts = ["FREQ", "INTERVAL", "BYMONTH", "BYMONTHDAY", "BYDAY", "WKST", "COUNT", "UNTIL"]
    /// RFC 5545 parts taskls does not repeat by.
    static let unsupportedParts = ["BYSECOND", "BYMINUTE", "BYHOUR", "BYWEEKNO", "BYYEARDAY", "BYSETPOS"]

    /// Reads an RRULE value: `;`-separated `NAME=VALUE` parts in any order, FREQ required, names and values in
    /// any case. Refused, with the part named: an empty text or part, an unknown part, a part given twice,
    /// COUNT with UNTIL, the unsupported parts (BYSECOND, BYMINUTE, BYHOUR, BYWEEKNO, BYYEARDAY, BYSETPOS) and
    /// frequencies (SECONDLY, MINUTELY, HOURLY), a list with an empty or repeated entry, an UNTIL that is not
    /// `YYYYMMDD` or `YYYYMMDDTHHMMSSZ`, and whatever `init(frequency:…)` refuses.
    /// - Throws: `DomainError.invalidField(field: "repeat.rule", problem:)`.
    /// - Complexity: O(length of `rrule`).
    public init(rrule: String, anchor: Anchor = .due) throws(DomainError) {
        func refuse(_ problem: String) -> DomainError { .invalidField(field: "repeat.rule", problem: problem) }
        guard !rrule.isEmpty else { throw refuse("is empty: write an RRULE such as FREQ=WEEKLY;BYDAY=MO") }
        var values: [String: Substring] = [:]
        for part in rrule.split(separator: ";", omittingEmptySubsequences: false) {
            guard !part.isEmpty else { throw refuse("has an empty part (two ; in a row, or one at an end)") }
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = pieces[0].uppercased()
            guard pieces.count == 2 else { throw refuse("\(part) is not a NAME=VALUE part") }
            if Self.unsupportedParts.contains(name) {
                throw refuse("\(name) is not supported: taskls repeats by " + Self.supportedParts.joined(separator: ", "))
            }
            guard Self.supportedParts.contains(name) else {
                throw refuse(name.hasPrefix("RRULE:") ? "write the value without RRULE:"
                    : "\(pieces[0]) is not an RRULE part: " + Self.supportedParts.joined(separator: ", "))
            }
            guard values[name] == nil else { throw refuse("\(name) is given twice") }
            guard !pieces[1].isEmpty else { throw refuse("\(name) has no value") }
            values[name] = pieces[1]
        }
        guard let frequencyText = values["FREQ"] else {
            throw refuse("FREQ is missing: FREQ=DAILY, WEEKLY, MONTHLY or YEARLY")
        }
        guard let frequency = Frequency(rawValue: frequencyText.uppercased()) else {
            let known = ["SECONDLY", "MINUTELY", "HOURLY"].contains(frequencyText.uppercased())
            throw refuse("FREQ=\(frequencyText) is " + (known ? "not supported" : "not a frequency")
                + ": DAILY, WEEKLY, MONTHLY or YEARLY")
        }
        if values["COUNT"] != nil, values["UNTIL"] != nil { throw refuse("COUNT and UNTIL cannot both be given") }
        var end: End?
        if let text = values["COUNT"] { end = .count(try Self.number(text, part: "COUNT", signed: false)) }
        if let text = values["UNTIL"] { end = .until(try Self.until(text)) }
        let interval = try values["INTERVAL"].map { (text) throws(DomainError) in
            try Self.number(text, part: "INTERVAL", signed: false)
        } ?? 1
        let months = try Self.list(values["BYMONTH"], part: "BYMONTH") { (text) throws(DomainError) in
            try Self.number(text, part: "BYMONTH", signed: false)
        }
        let monthDays = try Self.list(values["BYMONTHDAY"], part: "BYMONTHDAY") { (text) throws(DomainError) in
            try Self.number(text, part: "BYMONTHDAY", signed: true)
        }
        let weekdays = try Self.list(values["BYDAY"], part: "BYDAY") { (text) throws(DomainError) in
            try Self.weekdayRule(text)
        }
        var weekStart = Weekday.monday
        if let text = values["WKST"] {
            guard let day = Weekday(code: text.uppercased()) else {
                throw refuse("WKST=\(text) is not a weekday: MO, TU, WE, TH, FR, SA or SU")
            }
            weekStart = day
        }
        try self.init(frequency: frequency, interval: interval, weekdays: weekdays, monthDays: monthDays, months: months,
                      end: end, weekStart: weekStart, anchor: anchor)
    }

    /// The canonical RRULE value: FREQ, then INTERVAL (when not 1), BYMONTH, BYMONTHDAY, BYDAY (each sorted),
    /// WKST (when not MO), COUNT or UNTIL; upper case. `RepeatRule(rrule: rule.rrule, anchor: rule.anchor) == rule`.
    public var rrule: String {
        var parts = ["FREQ=" + frequency.rawValue]
        if interval != 1 { parts.append("INTERVAL=\(interval)") }
        if !months.isEmpty { parts.append("BYMONTH=" + months.sorted().map(String.init).joined(separator: ",")) }
        if !monthDays.isEmpty { parts.append("BYMONTHDAY=" + monthDays.sorted().map(String.init).joined(separator: ",")) }
        if !weekdays.isEmpty { parts.append("BYDAY=" + weekdays.sorted().map(\.code).joined(separator: ",")) }
        if weekStart != .monday { parts.append("WKST=" + weekStart.code) }
        switch end {
        case nil: break
        case .count(let count)?: parts.append("COUNT=\(count)")
        case .until(.date(let date))?: parts.append("UNTIL=" + Self.compact(date))
        case .until(.instant(let instant))?:
            let (days, millisecond) = instant.milliseconds.floorDivided(by: 86_400_000)
            let time = TimeOfDay(milliseconds: millisecond)
            parts.append("UNTIL=" + Self.compact(CalendarDate(daysSinceEpoch: days)) + "T" + twoDigits(time.hour)
                         + twoDigits(time.minute) + twoDigits(time.second) + "Z")
        }
        return parts.joined(separator: ";")
    }

    // MARK: Values

    /// A decimal number of at most 7 digits, with a sign when `signed`.
    private static func number(_ text: Substring, part: String, signed: Bool) throws(DomainError) -> Int {
        var digits = text
        var sign = 1
        if signed, let first = digits.first, first == "+" || first == "-" {
            sign = first == "-" ? -1 : 1
            digits = digits.dropFirst()
        }
        guard (1...7).contains(digits.utf8.count), digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            throw .invalidField(field: "repeat.rule", problem: "\(part)=\(text) is not " + (signed ? "a number" : "a whole number"))
        }
        return sign * digits.utf8.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// A `,`-separated list without empty or repeated entries, as a set.
    private static func list<Value: Hashable>(_ text: Substring?, part: String,
                                              _ read: (Substring) throws(DomainError) -> Value) throws(DomainError) -> Set<Value> {
        guard let text else { return [] }
        var values: Set<Value> = []
        for entry in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard !entry.isEmpty else { throw .invalidField(field: "repeat.rule", problem: "\(part)=\(text) has an empty entry") }
            guard values.insert(try read(entry)).inserted else {
                throw .invalidField(field: "repeat.rule", problem: "\(part)=\(text) has \(entry) twice")
            }
        }
        return values
    }

    /// A BYDAY entry: an optional signed ordinal, then a two-letter weekday (`MO`, `+2TU`, `-1FR`).
    private static func weekdayRule(_ text: Substring) throws(DomainError) -> WeekdayRule {
        let upper = text.uppercased()
        guard upper.count >= 2, let weekday = Weekday(code: String(upper.suffix(2))) else {
            throw .invalidField(field: "repeat.rule", problem: "BYDAY=\(text) is not a weekday such as MO, 2MO or -1FR")
        }
        let prefix = upper.dropLast(2)
        guard !prefix.isEmpty else { return WeekdayRule(weekday) }
        guard prefix.utf8.count <= 3, let ordinal = try? number(prefix, part: "BYDAY", signed: true) else {
            throw .invalidField(field: "repeat.rule", problem: "BYDAY=\(text) is not a weekday such as MO, 2MO or -1FR")
        }
        return WeekdayRule(weekday, ordinal: ordinal)
    }

    /// `YYYYMMDD` (a day) or `YYYYMMDDTHHMMSSZ` (a UTC instant).
    private static func until(_ text: Substring) throws(DomainError) -> Until {
        let bytes = Array(text.utf8)
        let shape = "UNTIL=\(text) is not a date (YYYYMMDD) or a UTC date-time (YYYYMMDDTHHMMSSZ)"
        func digits(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count, bytes[range].allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            return bytes[range].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        guard bytes.count == 8 || bytes.count == 16 || bytes.count == 15,
              let year = digits(0..<4), let month = digits(4..<6), let day = digits(6..<8) else {
            throw .invalidField(field: "repeat.rule", problem: shape)
        }
        guard let date = CalendarDate(year: year, month: month, day: day) else {
            throw .invalidField(field: "repeat.rule", problem: "UNTIL=\(text) is not a calendar date")
        }
        guard bytes.count > 8 else { return .date(date) }
        guard bytes[8] == 0x54 || bytes[8] == 0x74, let hour = digits(9..<11), let minute = digits(11..<13),
              let second = digits(13..<15) else {
            throw .invalidField(field: "repeat.rule", problem: shape)
        }
        guard bytes.count == 16, bytes[15] == 0x5A || bytes[15] == 0x7A else {
            throw .invalidField(field: "repeat.rule", problem: "UNTIL=\(text) must be in UTC: end it with Z")
        }
        guard hour < 24, minute < 60, second < 60 else {
            throw .invalidField(field: "repeat.rule", problem: "UNTIL=\(text) has a time of day out of range")
        }
        let time = TimeOfDay(hour: hour, minute: minute, second: second, millisecond: 0)
        return .instant(Timestamp(milliseconds: date.daysSinceEpoch * 86_400_000 + time.milliseconds))
    }

    /// `YYYYMMDD`.
    private static func compact(_ date: CalendarDate) -> String {
        date.iso8601.split(separator: "-").joined()
    }
}
