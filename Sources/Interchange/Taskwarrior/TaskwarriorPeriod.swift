// A Taskwarrior recurrence period (`recur`), read and stepped exactly as Taskwarrior 2.6 does it
// (src/recur.cpp `getNextRecurrence`, libshared's `Duration`): calendar months and years for a few names, a
// number of seconds for every other duration.

import Domain

/// How Taskwarrior 2.6 moves from one instance's due to the next for a `recur` value.
enum TaskwarriorPeriod: Hashable {
    /// Calendar months: `monthly`, `P1M`, `2m`, `quarterly`, `2q`, `semiannual`, `bimonthly`, `P2M`…; the day is
    /// moved back to the month's last when the month is shorter, and stays there. `PnM` with n over 1 also
    /// drops the time of day (`keepsTime` false), as Taskwarrior does.
    case months(Int, keepsTime: Bool)
    /// Calendar years: `yearly`, `annual`, `P1Y` (29 February moves to the 28th), `biannual`, `biyearly`, `P2Y`.
    case years(Int)
    /// `weekdays`: the next Monday to Friday.
    case weekdays
    /// Any other duration, as seconds added to the instant (`weekly` is 604,800 s; `1mo` 30 days, `1y` 365);
    /// `inWeeks` when its unit is a week (`2w`, `weekly`, `fortnight`, `P2W`), so it reads as a weekly rule.
    case seconds(Int64, inWeeks: Bool)

    /// The period a `recur` value names, or nil when Taskwarrior 2.6 would refuse it (`sennight`, `0d`).
    init?(recur: String) {
        switch recur {
        case "monthly", "P1M": self = .months(1, keepsTime: true); return
        case "weekdays": self = .weekdays; return
        default: break
        }
        guard let (seconds, inWeeks) = Self.durationSeconds(recur) else { return nil }
        let first = recur.utf8.first ?? 0
        let last = recur.utf8.last ?? 0
        let isDigit: (UInt8) -> Bool = { (48...57).contains($0) }
        if isDigit(first), last == UInt8(ascii: "m") {
            guard let count = Self.leadingNumber(recur), count > 0 else { return nil }
            self = .months(count, keepsTime: true)
        } else if first == UInt8(ascii: "P"), last == UInt8(ascii: "M"), recur.utf8.count > 2,
                  recur.utf8.dropFirst().dropLast().allSatisfy(isDigit) {
            guard let count = Int(recur.dropFirst().dropLast()), count > 0 else { return nil }
            self = .months(count, keepsTime: false)
        } else if recur == "quarterly" {
            self = .months(3, keepsTime: true)
        } else if isDigit(first), last == UInt8(ascii: "q") {
            guard let count = Self.leadingNumber(recur), count > 0 else { return nil }
            self = .months(3 * count, keepsTime: true)
        } else if recur == "semiannual" {
            self = .months(6, keepsTime: true)
        } else if recur == "bimonthly" {
            self = .months(2, keepsTime: true)
        } else if ["biannual", "biyearly", "P2Y"].contains(recur) {
            self = .years(2)
        } else if ["annual", "yearly", "P1Y"].contains(recur) {
            self = .years(1)
        } else {
            guard seconds > 0 else { return nil }
            self = .seconds(seconds, inWeeks: inWeeks)
        }
    }

    /// The due after `instant`, reading the calendar in `zone` (Taskwarrior's local time).
    /// - Complexity: O(1).
    func next(after instant: Timestamp, zone: some ZoneOffsets) -> Timestamp {
        switch self {
        case .seconds(let seconds, _):
            return Timestamp(milliseconds: instant.milliseconds + seconds * 1000)
        case .weekdays:
            let weekday = RepeatRule.Weekday(of: zone.localReading(of: instant).date)
            let days: Int64 = weekday == .friday ? 3 : weekday == .saturday ? 2 : 1
            return Timestamp(milliseconds: instant.milliseconds + days * 86_400_000)
        case .months(let count, let keepsTime):
            let (date, millisecond) = zone.localReading(of: instant)
            let months = date.month - 1 + count
            let year = date.year + months / 12
            let month = months % 12 + 1
            let day = min(date.day, CalendarDate.daysInMonth(year: year, month: month))
            return local(year: year, month: month, day: day, millisecond: keepsTime ? millisecond : 0, zone: zone)
                ?? instant
        case .years(let count):
            let (date, millisecond) = zone.localReading(of: instant)
            let year = date.year + count
            // `yearly` moves 29 February to the 28th; `biannual` lands on a leap year again.
            let day = min(date.day, CalendarDate.daysInMonth(year: year, month: date.month))
            return local(year: year, month: date.month, day: day, millisecond: millisecond, zone: zone) ?? instant
        }
    }

    /// The taskls rule with the same dates, when there is one: months and years as MONTHLY and YEARLY, weekdays as
    /// WEEKLY on Monday to Friday, whole weeks in a week unit as WEEKLY, other whole days as DAILY; nil for hours,
    /// minutes, seconds, parts of a day and intervals over 1000.
    func rule(until: RepeatRule.Until?) -> RepeatRule? {
        let end = until.map(RepeatRule.End.until)
        switch self {
        case .months(let count, _):
            return try? RepeatRule(frequency: .monthly, interval: count, end: end)
        case .years(let count):
            return try? RepeatRule(frequency: .yearly, interval: count, end: end)
        case .weekdays:
            return try? RepeatRule(frequency: .weekly, weekdays: Self.workdays, end: end)
        case .seconds(let seconds, let inWeeks):
            guard seconds % 86_400 == 0 else { return nil }
            let days = Int(seconds / 86_400)
            if inWeeks, days % 7 == 0 { return try? RepeatRule(frequency: .weekly, interval: days / 7, end: end) }
            return try? RepeatRule(frequency: .daily, interval: days, end: end)
        }
    }

    /// Monday to Friday, as BYDAY entries.
    static let workdays: Set<RepeatRule.WeekdayRule> = [.init(.monday), .init(.tuesday), .init(.wednesday),
                                                        .init(.thursday), .init(.friday)]

    /// The `recur` value Taskwarrior reads as `rule`'s dates from a due on `dueDate`, when there is one (its end
    /// and anchor aside): `daily`, `3d`, `weekly`, `2w`, `weekdays`, `monthly`, `2m`, `yearly`, `biannual`, `36m`.
    static func recur(for rule: RepeatRule, dueDate: CalendarDate) -> String? {
        let count = rule.interval
        let weekday = RepeatRule.Weekday(of: dueDate)
        let plainWeekdays = rule.weekdays.allSatisfy { $0.ordinal == nil }
        switch rule.frequency {
        case .daily:
            guard rule.monthDays.isEmpty, rule.months.isEmpty else { return nil }
            if rule.weekdays == workdays, count == 1 { return "weekdays" }
            guard rule.weekdays.isEmpty else { return nil }
            return count == 1 ? "daily" : "\(count)d"
        case .weekly:
            guard rule.months.isEmpty, plainWeekdays else { return nil }
            if rule.weekdays == workdays, count == 1 { return "weekdays" }
            guard rule.weekdays.isEmpty || rule.weekdays == [.init(weekday)] else { return nil }
            return count == 1 ? "weekly" : "\(count)w"
        case .monthly:
            guard rule.weekdays.isEmpty, rule.months.isEmpty,
                  rule.monthDays.isEmpty || rule.monthDays == [dueDate.day] else { return nil }
            return count == 1 ? "monthly" : "\(count)m"
        case .yearly:
            guard rule.weekdays.isEmpty, rule.months.isEmpty || rule.months == [dueDate.month],
                  rule.monthDays.isEmpty || rule.monthDays == [dueDate.day] else { return nil }
            return count == 1 ? "yearly" : count == 2 ? "biannual" : "\(12 * count)m"
        }
    }

    /// Whether taskls's rule and Taskwarrior's steps part ways from a due on `dueDate`: calendar months from the
    /// 29th to the 31st, or years from 29 February (Taskwarrior moves to the month's last day and stays there;
    /// taskls skips the months without the day).
    func movesDay(from dueDate: CalendarDate) -> Bool {
        switch self {
        case .months: dueDate.day > 28
        case .years: dueDate.month == 2 && dueDate.day == 29
        case .weekdays, .seconds: false
        }
    }

    private func local(year: Int, month: Int, day: Int, millisecond: Int64, zone: some ZoneOffsets) -> Timestamp? {
        guard let date = CalendarDate(year: year, month: month, day: day),
              case .dateTime(let instant, _) = zone.dateTime(on: date, at: millisecond).due else { return nil }
        return instant
    }

    /// The number a value starts with (`2` of `2m`), as C's `strtol` reads it.
    private static func leadingNumber(_ text: String) -> Int? {
        Int(String(text.prefix { $0.isASCII && $0.isNumber }.prefix(9)))
    }
}
