// Timestamp: an instant in milliseconds since the Unix epoch, passed in by the caller (never read from a clock).

/// An instant, in milliseconds since 1970-01-01T00:00:00Z.
///
/// The domain never reads a clock: every mutation that records a time carries it,
/// so replaying a mutation anywhere gives the same state.
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Milliseconds since the Unix epoch (negative before 1970).
    public var milliseconds: Int64

    /// Wraps a number of milliseconds since the Unix epoch.
    public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    /// Orders instants in time.
    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.milliseconds < rhs.milliseconds }

    /// The instant in UTC as ISO 8601, with milliseconds: `2026-11-22T09:30:00.000Z`.
    public var iso8601: String {
        let (days, millisecondOfDay) = milliseconds.floorDivided(by: 86_400_000)
        let date = CalendarDate(daysSinceEpoch: days)
        return date.iso8601 + "T" + TimeOfDay(milliseconds: millisecondOfDay).iso8601(alwaysMilliseconds: true) + "Z"
    }

    /// Same as `iso8601`.
    public var description: String { iso8601 }
}

extension Int64 {
    /// Floor division and the matching non-negative remainder.
    func floorDivided(by divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let remainder = self % divisor
        return remainder < 0 ? (self / divisor - 1, remainder + divisor) : (self / divisor, remainder)
    }
}

/// A wall-clock time within a day, used to format and parse date-times.
struct TimeOfDay: Equatable {
    var hour: Int
    var minute: Int
    var second: Int
    var millisecond: Int

    init(hour: Int, minute: Int, second: Int, millisecond: Int) {
        self.hour = hour
        self.minute = minute
        self.second = second
        self.millisecond = millisecond
    }

    init(milliseconds: Int64) {
        let value = Int(milliseconds)
        hour = value / 3_600_000
        minute = value / 60_000 % 60
        second = value / 1000 % 60
        millisecond = value % 1000
    }

    var milliseconds: Int64 {
        Int64(hour) * 3_600_000 + Int64(minute) * 60_000 + Int64(second) * 1000 + Int64(millisecond)
    }

    /// `HH:MM:SS`, followed by `.mmm` when the milliseconds are not zero or `alwaysMilliseconds`.
    func iso8601(alwaysMilliseconds: Bool) -> String {
        var text = twoDigits(hour) + ":" + twoDigits(minute) + ":" + twoDigits(second)
        if alwaysMilliseconds || millisecond != 0 {
            let digits = String(millisecond)
            text += "." + String(repeating: "0", count: 3 - digits.count) + digits
        }
        return text
    }
}

/// `n` with a leading zero when it has one digit.
func twoDigits(_ number: Int) -> String {
    number < 10 ? "0" + String(number) : String(number)
}
