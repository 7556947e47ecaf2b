// DateValue: iCalendar's DATE (`20261124`), DATE-TIME (`20261124T093000`, `…Z`), UTC-OFFSET (`+0100`) and DURATION
// (`-PT15M`) values, read strictly and written canonically.

import Domain

extension ICalendarFormat {
    /// A DATE or DATE-TIME value as written: a day, a wall-clock reading (floating, or in the zone a `TZID` names),
    /// or a UTC instant.
    enum DateValue: Equatable {
        /// A day (`20261124`).
        case date(CalendarDate)
        /// A wall-clock reading without `Z` (`20261124T093000`): milliseconds since the day's midnight.
        case local(CalendarDate, millisecond: Int64)
        /// A UTC instant (`20261124T083000Z`).
        case utc(Timestamp)
    }

    /// Why a value could not be read, in words.
    struct ValueProblem: Error {
        /// What is wrong (`20260230 is not a calendar date`).
        let message: String
    }

    static let millisecondsPerDay: Int64 = 86_400_000

    /// Reads a DATE or DATE-TIME value; `dateOnly` (`VALUE=DATE`) accepts a DATE alone.
    /// - Throws: `ValueProblem` for another shape, a day that does not exist or a time out of range.
    static func dateValue(_ text: Substring, dateOnly: Bool = false) throws(ValueProblem) -> DateValue {
        let bytes = Array(text.utf8)
        func digits(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count, bytes[range].allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            return bytes[range].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        if dateOnly, bytes.count != 8 {
            throw ValueProblem(message: "VALUE=DATE needs a date (YYYYMMDD), not \(quoted(text))")
        }
        guard bytes.count == 8 || bytes.count == 15 || bytes.count == 16,
              let year = digits(0..<4), let month = digits(4..<6), let day = digits(6..<8) else {
            throw ValueProblem(message: "\(quoted(text)) is not a date (YYYYMMDD) or a date-time (YYYYMMDDTHHMMSS, with Z for UTC)")
        }
        guard let date = CalendarDate(year: year, month: month, day: day) else {
            throw ValueProblem(message: "\(text.prefix(8)) is not a calendar date")
        }
        guard bytes.count > 8 else { return .date(date) }
        guard bytes[8] == UInt8(ascii: "T") || bytes[8] == UInt8(ascii: "t"), let hour = digits(9..<11),
              let minute = digits(11..<13), let second = digits(13..<15),
              bytes.count == 15 || bytes[15] == UInt8(ascii: "Z") || bytes[15] == UInt8(ascii: "z") else {
            throw ValueProblem(message: "\(quoted(text)) is not a date (YYYYMMDD) or a date-time (YYYYMMDDTHHMMSS, with Z for UTC)")
        }
        guard hour < 24, minute < 60, second < 60 else {
            throw ValueProblem(message: "\(text) has a time of day out of range")
        }
        let millisecond = Int64(hour * 3600 + minute * 60 + second) * 1000
        guard bytes.count == 16 else { return .local(date, millisecond: millisecond) }
        return .utc(Timestamp(milliseconds: date.daysSinceEpoch * millisecondsPerDay + millisecond))
    }

    /// Reads a UTC-OFFSET (`+0100`, `-0530`, `+005328`) as seconds east of Greenwich, or nil.
    static func utcOffset(_ text: Substring) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count == 5 || bytes.count == 7, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-"),
              bytes.dropFirst().allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        func pair(_ at: Int) -> Int { Int(bytes[at] - 0x30) * 10 + Int(bytes[at + 1] - 0x30) }
        let seconds = pair(1) * 3600 + pair(3) * 60 + (bytes.count == 7 ? pair(5) : 0)
        guard pair(3) < 60, bytes.count == 5 || pair(5) < 60, seconds <= Due.maximumOffsetSeconds else { return nil }
        return bytes[0] == UInt8(ascii: "-") ? -seconds : seconds
    }

    /// Reads a DURATION (`-PT15M`, `P1D`, `PT1H30M`, `P2W`, `-P1DT2H`) as seconds, or nil.
    static func duration(_ text: Substring) -> Int64? {
        var bytes = Array(text.utf8)[...]
        var sign: Int64 = 1
        if let first = bytes.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
            sign = first == UInt8(ascii: "-") ? -1 : 1
            bytes = bytes.dropFirst()
        }
        guard bytes.first == UInt8(ascii: "P") || bytes.first == UInt8(ascii: "p") else { return nil }
        bytes = bytes.dropFirst()
        var total: Int64 = 0
        var inTime = false
        var parts = 0
        var order = 0
        while let first = bytes.first {
            if first == UInt8(ascii: "T") || first == UInt8(ascii: "t") {
                guard !inTime else { return nil }
                inTime = true
                bytes = bytes.dropFirst()
                continue
            }
            var number: Int64 = 0
            var digits = 0
            while let digit = bytes.first, (0x30...0x39).contains(digit) {
                number = number * 10 + Int64(digit - 0x30)
                digits += 1
                bytes = bytes.dropFirst()
                guard digits <= 9 else { return nil }
            }
            guard digits > 0, let unit = bytes.first else { return nil }
            bytes = bytes.dropFirst()
            let (rank, seconds): (Int, Int64)
            switch (unit | 0x20, inTime) {
            case (UInt8(ascii: "w"), false): (rank, seconds) = (1, 604_800)
            case (UInt8(ascii: "d"), false): (rank, seconds) = (2, 86_400)
            case (UInt8(ascii: "h"), true): (rank, seconds) = (3, 3600)
            case (UInt8(ascii: "m"), true): (rank, seconds) = (4, 60)
            case (UInt8(ascii: "s"), true): (rank, seconds) = (5, 1)
            default: return nil
            }
            guard rank > order else { return nil }
            order = rank
            total += number * seconds
            parts += 1
        }
        guard parts > 0 else { return nil }
        return sign * total
    }

    // MARK: Writing

    /// The day and the milliseconds since its midnight of a number of milliseconds since 1970-01-01 (local or UTC).
    static func split(_ milliseconds: Int64) -> (date: CalendarDate, millisecond: Int64) {
        var days = milliseconds / millisecondsPerDay
        var remainder = milliseconds % millisecondsPerDay
        if remainder < 0 {
            days -= 1
            remainder += millisecondsPerDay
        }
        return (CalendarDate(daysSinceEpoch: days), remainder)
    }

    /// `YYYYMMDD`.
    static func compact(_ date: CalendarDate) -> String {
        digits(date.year, 4) + digits(date.month, 2) + digits(date.day, 2)
    }

    /// `YYYYMMDDTHHMMSS` (a wall-clock reading; milliseconds dropped).
    static func compact(_ date: CalendarDate, millisecond: Int64) -> String {
        let seconds = Int(millisecond / 1000)
        return compact(date) + "T" + digits(seconds / 3600, 2) + digits(seconds / 60 % 60, 2) + digits(seconds % 60, 2)
    }

    /// `YYYYMMDDTHHMMSSZ` (milliseconds dropped).
    static func compactUTC(_ instant: Timestamp) -> String {
        let (date, millisecond) = split(instant.milliseconds)
        return compact(date, millisecond: millisecond) + "Z"
    }

    /// `+HHMM`, or `+HHMMSS` when the offset is not whole minutes.
    static func offsetText(_ seconds: Int) -> String {
        let magnitude = abs(seconds)
        let text = (seconds < 0 ? "-" : "+") + digits(magnitude / 3600, 2) + digits(magnitude / 60 % 60, 2)
        return magnitude % 60 == 0 ? text : text + digits(magnitude % 60, 2)
    }

    /// A DURATION of whole minutes: `-PT15M`, `PT9H`, `-P1D`, `P1DT2H30M`, `PT0S`.
    static func durationText(minutes: Int) -> String {
        guard minutes != 0 else { return "PT0S" }
        let magnitude = abs(minutes)
        var text = minutes < 0 ? "-P" : "P"
        if magnitude >= 1440 { text += "\(magnitude / 1440)D" }
        let hours = magnitude % 1440 / 60
        let rest = magnitude % 60
        if hours > 0 || rest > 0 { text += "T" }
        if hours > 0 { text += "\(hours)H" }
        if rest > 0 { text += "\(rest)M" }
        return text
    }

    /// `number` with leading zeros to `width` digits.
    static func digits(_ number: Int, _ width: Int) -> String {
        let text = String(number)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
