// Due: when a task is due, a calendar date or a date-time with a UTC offset; ISO 8601 parsing and formatting.

/// When an item is due.
///
/// Either a whole day (`2026-11-22`) or an instant with the UTC offset it was written in
/// (`2026-11-22T09:30:00+01:00`). Sorting uses the wall-clock reading: see `sortValue`.
public enum Due: Hashable, Sendable, CustomStringConvertible {
    /// Due on a day, at no particular time.
    case date(CalendarDate)
    /// Due at an instant, written with an offset from UTC in seconds (`+01:00` is 3600).
    case dateTime(Timestamp, offsetSeconds: Int)

    /// The largest UTC offset accepted, in seconds (18 hours, either way).
    public static let maximumOffsetSeconds = 18 * 3600

    /// Parses ISO 8601: `YYYY-MM-DD`, or `YYYY-MM-DDTHH:MM[:SS[.fff]]` followed by `Z` or `±HH:MM`.
    ///
    /// Refuses dates that do not exist (`2026-02-29`, `2026-13-01`), times out of range,
    /// offsets over 18 hours, more than three fractional digits, and date-times without an offset.
    /// - Throws: `DomainError.invalidField(field:problem:)` naming `field`.
    public init(parsing text: String, field: String = "due") throws(DomainError) {
        var scanner = DueScanner(text: text)
        guard let due = scanner.scan() else {
            throw .invalidField(field: field, problem: scanner.problem ?? DueScanner.formatProblem)
        }
        self = due
    }

    /// The canonical ISO 8601 text: `2026-11-22`, `2026-11-22T09:30:00+01:00`, or `...Z` for offset zero;
    /// milliseconds appear only when they are not zero.
    public var iso8601: String {
        switch self {
        case .date(let date):
            return date.iso8601
        case .dateTime(let instant, let offset):
            let local = instant.milliseconds + Int64(offset) * 1000
            let (days, millisecondOfDay) = local.floorDivided(by: 86_400_000)
            let text = CalendarDate(daysSinceEpoch: days).iso8601 + "T"
                + TimeOfDay(milliseconds: millisecondOfDay).iso8601(alwaysMilliseconds: false)
            guard offset != 0 else { return text + "Z" }
            let magnitude = abs(offset)
            return text + (offset < 0 ? "-" : "+") + twoDigits(magnitude / 3600) + ":" + twoDigits(magnitude / 60 % 60)
        }
    }

    /// Same as `iso8601`.
    public var description: String { iso8601 }

    /// The key a due sort orders by: the wall-clock reading in milliseconds since 1970-01-01 (local to the
    /// offset the time was written in), doubled, plus one for date-times, so a whole-day item comes first on its day.
    var sortValue: Int64 {
        switch self {
        case .date(let date):
            return date.daysSinceEpoch * 86_400_000 * 2
        case .dateTime(let instant, let offset):
            return (instant.milliseconds + Int64(offset) * 1000) * 2 + 1
        }
    }
}

/// A one-pass reader of the ISO 8601 forms `Due` accepts.
private struct DueScanner {
    static let formatProblem = "must be an ISO 8601 date (YYYY-MM-DD) or date-time with offset (YYYY-MM-DDTHH:MM:SS+HH:MM)"

    let bytes: [UInt8]
    var offset = 0
    var problem: String?

    init(text: String) { bytes = Array(text.utf8) }

    mutating func scan() -> Due? {
        guard let year = number(digits: 4), literal("-"), let month = number(digits: 2),
              literal("-"), let day = number(digits: 2) else { return nil }
        guard let date = CalendarDate(year: year, month: month, day: day) else {
            problem = "\(String(decoding: bytes[0..<10], as: UTF8.self)) is not a calendar date"
            return nil
        }
        if offset == bytes.count { return .date(date) }
        guard literal("T") || literal("t"), let time = timeOfDay() else { return nil }
        guard let zone = utcOffset(), offset == bytes.count else { return nil }
        let local = date.daysSinceEpoch * 86_400_000 + time.milliseconds
        return .dateTime(Timestamp(milliseconds: local - Int64(zone) * 1000), offsetSeconds: zone)
    }

    private mutating func timeOfDay() -> TimeOfDay? {
        guard let hour = number(digits: 2), literal(":"), let minute = number(digits: 2) else { return nil }
        var second = 0
        var millisecond = 0
        if literal(":") {
            guard let value = number(digits: 2) else { return nil }
            second = value
            if literal(".") {
                var digits = 0
                while offset < bytes.count, let digit = digitValue(bytes[offset]) {
                    digits += 1
                    guard digits <= 3 else { return refuse("has more than three fractional digits of a second") }
                    millisecond = millisecond * 10 + digit
                    offset += 1
                }
                guard digits > 0 else { return nil }
                for _ in digits..<3 { millisecond *= 10 }
            }
        }
        guard hour < 24, minute < 60, second < 60 else { return refuse("has a time of day out of range") }
        return TimeOfDay(hour: hour, minute: minute, second: second, millisecond: millisecond)
    }

    private mutating func utcOffset() -> Int? {
        if literal("Z") || literal("z") { return 0 }
        let sign: Int
        if literal("+") { sign = 1 } else if literal("-") { sign = -1 } else {
            return refuse("must end with Z or a UTC offset such as +01:00")
        }
        guard let hours = number(digits: 2), literal(":"), let minutes = number(digits: 2) else { return nil }
        let seconds = hours * 3600 + minutes * 60
        guard minutes < 60, seconds <= Due.maximumOffsetSeconds else { return refuse("has a UTC offset out of range") }
        return sign * seconds
    }

    private mutating func refuse<T>(_ reason: String) -> T? {
        problem = "\(String(decoding: bytes, as: UTF8.self)) \(reason)"
        return nil
    }

    private mutating func literal(_ character: Unicode.Scalar) -> Bool {
        guard offset < bytes.count, bytes[offset] == UInt8(character.value) else { return false }
        offset += 1
        return true
    }

    private mutating func number(digits: Int) -> Int? {
        guard offset + digits <= bytes.count else { return nil }
        var value = 0
        for index in offset..<(offset + digits) {
            guard let digit = digitValue(bytes[index]) else { return nil }
            value = value * 10 + digit
        }
        offset += digits
        return value
    }

    private func digitValue(_ byte: UInt8) -> Int? {
        (48...57).contains(byte) ? Int(byte - 48) : nil
    }
}
