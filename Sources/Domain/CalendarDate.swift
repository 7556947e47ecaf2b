// CalendarDate: a proleptic Gregorian date (year, month, day) with validation and day arithmetic.

/// A calendar date without a time or a time zone, such as a task due "on 22 November 2026".
public struct CalendarDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The year, 1 through 9999.
    public let year: Int
    /// The month, 1 through 12.
    public let month: Int
    /// The day of the month, 1 through the length of that month (leap years counted).
    public let day: Int

    /// A date from parts taken from one (`Item` stores its due's this way), not checked again.
    init(uncheckedYear year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Makes a date, or returns nil when it does not exist (2026-02-29, month 13, year 0...).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
              day >= 1, day <= CalendarDate.daysInMonth(year: year, month: month) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date that is `days` days after 1970-01-01 (Howard Hinnant's `civil_from_days`).
    public init(daysSinceEpoch days: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        day = Int(dayOfYear - (153 * monthIndex + 2) / 5 + 1)
        month = Int(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9)
        year = Int(yearOfEra + era * 400 + (month <= 2 ? 1 : 0))
    }

    /// Days from 1970-01-01 to this date (negative before it), Howard Hinnant's `days_from_civil`.
    public var daysSinceEpoch: Int64 {
        let shiftedYear = Int64(month <= 2 ? year - 1 : year)
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let monthIndex = Int64(month > 2 ? month - 3 : month + 9)
        let dayOfYear = (153 * monthIndex + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Whether `year` has a 29 February.
    public static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// The number of days in `month` of `year`.
    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Orders dates chronologically.
    public static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// `YYYY-MM-DD`.
    /// - Complexity: O(1); a year of 0 through 9999 is written digit by digit into a small string (no allocation):
    ///   every row of a window with a due date spells one.
    public var iso8601: String {
        if (0...9999).contains(year) {
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 10) { bytes in
                bytes[0] = UInt8(ascii: "0") + UInt8(year / 1000)
                bytes[1] = UInt8(ascii: "0") + UInt8(year / 100 % 10)
                bytes[2] = UInt8(ascii: "0") + UInt8(year / 10 % 10)
                bytes[3] = UInt8(ascii: "0") + UInt8(year % 10)
                bytes[4] = UInt8(ascii: "-")
                bytes[5] = UInt8(ascii: "0") + UInt8(month / 10)
                bytes[6] = UInt8(ascii: "0") + UInt8(month % 10)
                bytes[7] = UInt8(ascii: "-")
                bytes[8] = UInt8(ascii: "0") + UInt8(day / 10)
                bytes[9] = UInt8(ascii: "0") + UInt8(day % 10)
                return String(decoding: UnsafeBufferPointer(bytes), as: UTF8.self)
            }
        }
        let digits = String(year)
        return String(repeating: "0", count: 4 - digits.count) + digits + "-" + twoDigits(month) + "-" + twoDigits(day)
    }

    /// Same as `iso8601`.
    public var description: String { iso8601 }
}
