// RepeatRule's calendar: the periods a rule repeats in (days, weeks, months, years) and the dates each one holds,
// expanded from the BY parts as RFC 5545 §3.3.10 says (an expansion or a limit, by frequency).

extension CalendarDate {
    /// Monday 0 through Sunday 6 (1970-01-01 was a Thursday).
    var weekdayIndex: Int { Int(((daysSinceEpoch + 3) % 7 + 7) % 7) }

    /// The date `days` later, or nil past 9999-12-31 or before 0001-01-01.
    func shifted(byDays days: Int64) -> CalendarDate? {
        let date = CalendarDate(daysSinceEpoch: daysSinceEpoch + days)
        return (1...9999).contains(date.year) ? date : nil
    }

    /// The same day `months` later, the month's last day when it is shorter; nil past 9999.
    func shifted(byMonths months: Int) -> CalendarDate? {
        let index = year * 12 + (month - 1) + months
        let (newYear, newMonth) = (index / 12, index % 12 + 1)
        guard (1...9999).contains(newYear) else { return nil }
        return CalendarDate(year: newYear, month: newMonth, day: min(day, CalendarDate.daysInMonth(year: newYear, month: newMonth)))
    }
}

extension RepeatRule {
    /// How far a search for the next date looks: 146,097 days, 400 Gregorian years, after which the calendar
    /// repeats itself (the same dates on the same weekdays). Searches also stop at 9999-12-31.
    static let searchDays: Int64 = 146_097

    /// The index of the period (day, week from `weekStart`, month, year) that holds `date`; consecutive periods
    /// have consecutive indexes.
    func period(of date: CalendarDate) -> Int64 {
        switch frequency {
        case .daily:
            return date.daysSinceEpoch
        case .weekly:
            let back = Int64((date.weekdayIndex - weekStart.rawValue + 7) % 7)
            return (date.daysSinceEpoch - back).floorDivided(by: 7).quotient
        case .monthly:
            return Int64(date.year) * 12 + Int64(date.month - 1)
        case .yearly:
            return Int64(date.year)
        }
    }

    /// The first day of period `index`, or nil when it starts after 9999-12-31.
    func firstDay(ofPeriod index: Int64) -> CalendarDate? {
        let date: CalendarDate
        switch frequency {
        case .daily:
            date = CalendarDate(daysSinceEpoch: index)
        case .weekly:
            // Week starts are the days whose weekday is `weekStart`: 7 × index plus that weekday's residue.
            date = CalendarDate(daysSinceEpoch: index * 7 + Int64((weekStart.rawValue - 3 + 7) % 7))
        case .monthly:
            let (year, month) = index.floorDivided(by: 12)
            guard year <= 9999 else { return nil }
            date = CalendarDate(year: Int(year), month: Int(month) + 1, day: 1) ?? CalendarDate(daysSinceEpoch: 0)
        case .yearly:
            guard index <= 9999 else { return nil }
            date = CalendarDate(year: Int(index), month: 1, day: 1) ?? CalendarDate(daysSinceEpoch: 0)
        }
        return date.year <= 9999 ? date : nil
    }

    /// The dates of period `index`, ascending, for a rule that started on `start` (which gives the weekday of a
    /// WEEKLY rule without BYDAY, and the day of a MONTHLY or YEARLY rule without BYDAY or BYMONTHDAY).
    /// - Complexity: O(dates in the period).
    func occurrences(inPeriod index: Int64, start: CalendarDate) -> [CalendarDate] {
        guard let first = firstDay(ofPeriod: index) else { return [] }
        switch frequency {
        case .daily:
            return passesLimits(first) ? [first] : []
        case .weekly:
            let days = weekdays.isEmpty ? [Weekday(of: start)] : weekdays.map(\.weekday)
            return days.map { Int64(($0.rawValue - weekStart.rawValue + 7) % 7) }.sorted()
                .compactMap { first.shifted(byDays: $0) }
                .filter { months.isEmpty || months.contains($0.month) }
        case .monthly:
            guard months.isEmpty || months.contains(first.month) else { return [] }
            return days(year: first.year, month: first.month, start: start)
        case .yearly:
            if !months.isEmpty {
                return months.sorted().flatMap { days(year: first.year, month: $0, start: start) }
            }
            if !monthDays.isEmpty { return (1...12).flatMap { days(year: first.year, month: $0, start: start) } }
            if !weekdays.isEmpty { return weekdaysOfYear(first.year) }
            return CalendarDate(year: first.year, month: start.month, day: start.day).map { [$0] } ?? []
        }
    }

    /// A DAILY rule's limits: BYMONTH, BYMONTHDAY and BYDAY (weekdays only) all allow `date`.
    func passesLimits(_ date: CalendarDate) -> Bool {
        guard months.isEmpty || months.contains(date.month) else { return false }
        let length = CalendarDate.daysInMonth(year: date.year, month: date.month)
        guard monthDays.isEmpty || monthDays.contains(where: { Self.resolve($0, length: length) == date.day }) else { return false }
        return weekdays.isEmpty || weekdays.contains { $0.weekday.rawValue == date.weekdayIndex }
    }

    /// The dates of one month for a MONTHLY rule, or a YEARLY one with BYMONTH or BYMONTHDAY: BYMONTHDAY's days
    /// (BYDAY then limits them by weekday), else BYDAY's weekdays of the month (numbered ones counted within the
    /// month), else `start`'s day if the month has it. Ascending.
    private func days(year: Int, month: Int, start: CalendarDate) -> [CalendarDate] {
        let length = CalendarDate.daysInMonth(year: year, month: month)
        guard let first = CalendarDate(year: year, month: month, day: 1) else { return [] }
        var numbers: [Int]
        if !monthDays.isEmpty {
            numbers = monthDays.compactMap { Self.resolve($0, length: length) }
            if !weekdays.isEmpty {
                numbers = numbers.filter { day in weekdays.contains { $0.weekday.rawValue == (first.weekdayIndex + day - 1) % 7 } }
            }
        } else if !weekdays.isEmpty {
            numbers = weekdays.flatMap { Self.pick($0, firstWeekday: first.weekdayIndex, length: length) }
        } else {
            numbers = start.day <= length ? [start.day] : []
        }
        return Set(numbers).sorted().compactMap { CalendarDate(year: year, month: month, day: $0) }
    }

    /// A YEARLY rule's BYDAY without BYMONTH or BYMONTHDAY: weekdays of the year, numbered ones counted within it.
    private func weekdaysOfYear(_ year: Int) -> [CalendarDate] {
        guard let first = CalendarDate(year: year, month: 1, day: 1) else { return [] }
        let length = CalendarDate.isLeapYear(year) ? 366 : 365
        let numbers = Set(weekdays.flatMap { Self.pick($0, firstWeekday: first.weekdayIndex, length: length) })
        return numbers.sorted().compactMap { first.shifted(byDays: Int64($0 - 1)) }
    }

    /// The day numbers (1-based) in a stretch of `length` days starting on weekday `firstWeekday` that `entry`
    /// picks: all of its weekday, or the numbered one (from the end when negative), if there is one.
    private static func pick(_ entry: WeekdayRule, firstWeekday: Int, length: Int) -> [Int] {
        let all = Array(stride(from: 1 + (entry.weekday.rawValue - firstWeekday + 7) % 7, through: length, by: 7))
        guard let ordinal = entry.ordinal else { return all }
        let index = ordinal > 0 ? ordinal - 1 : all.count + ordinal
        return all.indices.contains(index) ? [all[index]] : []
    }

    /// The day a BYMONTHDAY value names in a month of `length` days (-1 the last), or nil when it has none.
    static func resolve(_ monthDay: Int, length: Int) -> Int? {
        let day = monthDay > 0 ? monthDay : length + 1 + monthDay
        return (1...length).contains(day) ? day : nil
    }

    /// Whether the rule, started on `start`, can have a date at all: false when BYMONTHDAY (or the start's day
    /// for a MONTHLY or YEARLY rule without BYDAY or BYMONTHDAY) is in none of the months it can reach
    /// (BYMONTH=2;BYMONTHDAY=30), or when a DAILY rule's interval, a multiple of 7, never lands on BYDAY.
    func canOccur(start: CalendarDate) -> Bool {
        var reachable = months.isEmpty ? Set(1...12) : months
        if frequency == .monthly {
            let stepped = Set((0..<12).map { (start.month - 1 + $0 * interval) % 12 + 1 })
            reachable.formIntersection(stepped)
        }
        let implied = monthDays.isEmpty && weekdays.isEmpty && (frequency == .monthly || frequency == .yearly)
        if frequency == .yearly, implied, months.isEmpty { return true }
        let numbers = implied ? [start.day] : Array(monthDays)
        if !numbers.isEmpty {
            // 2000 is a leap year: every month at its longest.
            return reachable.contains { month in
                numbers.contains { abs($0) <= CalendarDate.daysInMonth(year: 2000, month: month) }
            }
        }
        if frequency == .daily, interval % 7 == 0, !weekdays.isEmpty {
            return weekdays.contains { $0.weekday.rawValue == start.weekdayIndex } && !reachable.isEmpty
        }
        return !reachable.isEmpty
    }

    /// Whether `date` passes the rule's BY parts taken as limits on single days (for the `completion` anchor):
    /// BYMONTH, BYMONTHDAY, and BYDAY, a numbered weekday counted within the month for a MONTHLY rule or one with
    /// BYMONTH, within the year otherwise.
    func allows(_ date: CalendarDate) -> Bool {
        guard months.isEmpty || months.contains(date.month) else { return false }
        let length = CalendarDate.daysInMonth(year: date.year, month: date.month)
        guard monthDays.isEmpty || monthDays.contains(where: { Self.resolve($0, length: length) == date.day }) else { return false }
        guard !weekdays.isEmpty else { return true }
        let withinMonth = frequency == .monthly || !months.isEmpty
        let (number, stretch): (Int, Int) = withinMonth
            ? (date.day, length)
            : (Int(date.daysSinceEpoch - (CalendarDate(year: date.year, month: 1, day: 1)?.daysSinceEpoch ?? 0)) + 1,
               CalendarDate.isLeapYear(date.year) ? 366 : 365)
        return weekdays.contains { entry in
            guard entry.weekday.rawValue == date.weekdayIndex else { return false }
            guard let ordinal = entry.ordinal else { return true }
            return ordinal > 0 ? (number - 1) / 7 + 1 == ordinal : (stretch - number) / 7 + 1 == -ordinal
        }
    }
}
