// RepeatRule: how an item repeats, in RFC 5545 RRULE vocabulary (FREQ, INTERVAL, BYDAY, BYMONTHDAY, BYMONTH,
// COUNT, UNTIL, WKST), with org-mode's anchor (`+`, `++`, `.+`) beside it. Validated once, when made.

/// How an item repeats: the dates of the rule (an RFC 5545 `RRULE` value) and what the next date counts from.
///
/// Every value is valid: the initializers refuse what the rule cannot mean. The rule's text is `rrule`
/// (`FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE`); the anchor is not part of it and is written on its own
/// (`Anchor.rawValue`: `due`, `dueFuture`, `completion`).
///
/// Without BYDAY or BYMONTHDAY, a MONTHLY rule repeats the due's day of the month and a YEARLY rule its month
/// and day (RFC 5545: the start gives the missing parts), and a month or year without that day is skipped:
/// monthly on the 31st skips 30-day months and February, yearly on 29 February happens in leap years only.
/// `BYMONTHDAY=-1` is the last day of every month.
public struct RepeatRule: Hashable, Sendable {
    /// The unit the rule repeats in.
    public enum Frequency: String, CaseIterable, Sendable {
        /// Every day (or every `interval` days).
        case daily = "DAILY"
        /// Every week, weeks starting on `weekStart`.
        case weekly = "WEEKLY"
        /// Every month.
        case monthly = "MONTHLY"
        /// Every year.
        case yearly = "YEARLY"
    }

    /// What the next due counts from when the item is completed (org-mode's repeater cookies).
    public enum Anchor: String, CaseIterable, Sendable {
        /// org `+`: the first occurrence after the current due, even if that is still in the past.
        case due
        /// org `++`: the first occurrence in the future (after today for a day, after the completion instant
        /// for a time), and after the current due; on the rule's days, at the due's time of day.
        case dueFuture
        /// org `.+`: `interval` units after the completion day, then the first day the rule's BY parts allow.
        case completion

        /// Reads an anchor's name (`due`, `dueFuture`, `completion`).
        /// - Throws: `DomainError.invalidField` naming `field`.
        public init(parsing text: String, field: String = "repeat.from") throws(DomainError) {
            guard let anchor = Anchor(rawValue: text) else {
                throw .invalidField(field: field, problem: "\(text) is not an anchor: due, dueFuture or completion")
            }
            self = anchor
        }

        /// org-mode's cookie for the anchor: `+`, `++` or `.+`.
        public var orgCookie: String {
            switch self {
            case .due: "+"
            case .dueFuture: "++"
            case .completion: ".+"
            }
        }
    }

    /// A day of the week, as RFC 5545 spells it (`MO` … `SU`).
    public enum Weekday: Int, CaseIterable, Comparable, Sendable {
        case monday, tuesday, wednesday, thursday, friday, saturday, sunday

        /// `MO`, `TU`, `WE`, `TH`, `FR`, `SA`, `SU`.
        public var code: String { ["MO", "TU", "WE", "TH", "FR", "SA", "SU"][rawValue] }

        /// The weekday a two-letter code names (upper case), or nil.
        public init?(code: String) {
            guard let index = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"].firstIndex(of: code) else { return nil }
            self.init(rawValue: index)
        }

        /// The weekday of `date`.
        public init(of date: CalendarDate) {
            self.init(rawValue: date.weekdayIndex)!
        }

        /// Orders Monday first.
        public static func < (lhs: Weekday, rhs: Weekday) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// One BYDAY entry: a weekday, and for MONTHLY and YEARLY rules maybe which one of the month (or year):
    /// `2MO` is the second Monday, `-1FR` the last Friday.
    public struct WeekdayRule: Hashable, Comparable, Sendable {
        /// The weekday.
        public let weekday: Weekday
        /// Which one: 1 the first, -1 the last; nil for every one.
        public let ordinal: Int?

        /// An entry (validated by `RepeatRule.init`).
        public init(_ weekday: Weekday, ordinal: Int? = nil) {
            self.weekday = weekday
            self.ordinal = ordinal
        }

        /// `MO`, `2MO`, `-1FR`.
        public var code: String { (ordinal.map(String.init) ?? "") + weekday.code }

        /// Orders by weekday, then ordinal (none first).
        public static func < (lhs: WeekdayRule, rhs: WeekdayRule) -> Bool {
            (lhs.weekday.rawValue, lhs.ordinal ?? 0) < (rhs.weekday.rawValue, rhs.ordinal ?? 0)
        }
    }

    /// When a rule ends.
    public enum End: Hashable, Sendable {
        /// After this many occurrences in all (COUNT), the first due included.
        case count(Int)
        /// On this day or at this instant at the latest (UNTIL).
        case until(Until)
    }

    /// The last day or instant an occurrence may fall on (UNTIL).
    public enum Until: Hashable, Sendable {
        /// A day (`UNTIL=20261231`): an occurrence's local date may be this day.
        case date(CalendarDate)
        /// A UTC instant in whole seconds (`UNTIL=20261231T235959Z`).
        case instant(Timestamp)
    }

    /// The largest INTERVAL.
    public static let maximumInterval = 1000
    /// The largest COUNT.
    public static let maximumCount = 100_000

    /// FREQ.
    public let frequency: Frequency
    /// INTERVAL: every how many units, 1 through `maximumInterval`.
    public let interval: Int
    /// BYDAY: an expansion for WEEKLY (and MONTHLY or YEARLY without BYMONTHDAY), a limit otherwise.
    public let weekdays: Set<WeekdayRule>
    /// BYMONTHDAY: 1 through 31, or -31 through -1 counted from the month's end (-1 the last day).
    public let monthDays: Set<Int>
    /// BYMONTH: 1 through 12; an expansion for YEARLY, a limit otherwise.
    public let months: Set<Int>
    /// COUNT or UNTIL; nil repeats for ever.
    public let end: End?
    /// WKST: the day weeks start on (only WEEKLY rules with an interval over 1 depend on it).
    public let weekStart: Weekday
    /// What the next due counts from (any anchor suits any rule, so it may be set).
    public var anchor: Anchor

    /// Makes a rule, or refuses what it cannot mean: an interval outside 1…1000, a count outside 1…100000,
    /// an UNTIL instant with milliseconds, month days outside ±1…31, months outside 1…12, BYMONTHDAY with
    /// WEEKLY, a BYDAY ordinal with DAILY or WEEKLY or with BYMONTHDAY, an ordinal of 0 or beyond ±5 within a
    /// month (MONTHLY, or YEARLY with BYMONTH) or ±53 within a year.
    /// - Throws: `DomainError.invalidField(field: "repeat.rule", …)` whose problem names the RRULE part.
    public init(frequency: Frequency, interval: Int = 1, weekdays: Set<WeekdayRule> = [], monthDays: Set<Int> = [],
                months: Set<Int> = [], end: End? = nil, weekStart: Weekday = .monday, anchor: Anchor = .due) throws(DomainError) {
        func refuse(_ problem: String) -> DomainError { .invalidField(field: "repeat.rule", problem: problem) }
        guard (1...Self.maximumInterval).contains(interval) else {
            throw refuse("INTERVAL=\(interval) is out of range: 1 to \(Self.maximumInterval)")
        }
        switch end {
        case .count(let count)? where !(1...Self.maximumCount).contains(count):
            throw refuse("COUNT=\(count) is out of range: 1 to \(Self.maximumCount)")
        case .until(.instant(let instant))? where instant.milliseconds % 1000 != 0:
            throw refuse("UNTIL must be a whole second")
        default:
            break
        }
        if let day = monthDays.sorted().first(where: { $0 == 0 || abs($0) > 31 }) {
            throw refuse("BYMONTHDAY=\(day) is out of range: 1 to 31 or -31 to -1")
        }
        if let month = months.sorted().first(where: { !(1...12).contains($0) }) {
            throw refuse("BYMONTH=\(month) is out of range: 1 to 12")
        }
        if frequency == .weekly, !monthDays.isEmpty {
            throw refuse("BYMONTHDAY cannot be used with FREQ=WEEKLY")
        }
        for entry in weekdays.sorted() {
            guard let ordinal = entry.ordinal else { continue }
            guard frequency == .monthly || frequency == .yearly else {
                throw refuse("BYDAY=\(entry.code): a numbered weekday needs FREQ=MONTHLY or FREQ=YEARLY")
            }
            guard monthDays.isEmpty else {
                throw refuse("BYDAY=\(entry.code) with BYMONTHDAY is not supported: use weekdays without numbers")
            }
            let limit = frequency == .monthly || !months.isEmpty ? 5 : 53
            guard ordinal != 0, abs(ordinal) <= limit else {
                let within = limit == 5 ? "a month" : "a year"
                throw refuse("BYDAY=\(entry.code) is out of range: 1 to \(limit) or -\(limit) to -1 within \(within)")
            }
        }
        self.frequency = frequency
        self.interval = interval
        self.weekdays = weekdays
        self.monthDays = monthDays
        self.months = months
        self.end = end
        self.weekStart = weekStart
        self.anchor = anchor
    }
}
