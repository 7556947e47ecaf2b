// RepeatRule.next against a brute-force oracle: random rules and dues, the oracle walking day by day from the
// due and testing each day against the rule's parts read as plain conditions (RFC 5545's expansions and limits
// restated per day), the rule's periods counted from the due.

import Testing
import TestSupport
@testable import Domain

/// A zone that is UTC all year (the oracle is about dates; daylight saving has its own tables).
private struct UTCZone: ZoneOffsets {
    func offsetSeconds(at instant: Timestamp) -> Int { 0 }
}

/// Whether `day` is an occurrence of `rule` started on `start`, decided from the day alone.
private func oracleAccepts(_ rule: RepeatRule, _ day: CalendarDate, start: CalendarDate) -> Bool {
    let weekday = Int(((day.daysSinceEpoch % 7) + 7 + 3) % 7)  // Monday 0; 1970-01-01 was a Thursday
    let startWeekday = Int(((start.daysSinceEpoch % 7) + 7 + 3) % 7)
    // The period offset from the start's period, which must be a multiple of the interval.
    let offset: Int64
    switch rule.frequency {
    case .daily:
        offset = day.daysSinceEpoch - start.daysSinceEpoch
    case .weekly:
        func weekBegin(_ date: CalendarDate, _ weekdayIndex: Int) -> Int64 {
            var begin = date.daysSinceEpoch
            var index = weekdayIndex
            while index != rule.weekStart.rawValue {
                begin -= 1
                index = (index + 6) % 7
            }
            return begin
        }
        offset = (weekBegin(day, weekday) - weekBegin(start, startWeekday)) / 7
    case .monthly:
        offset = Int64((day.year - start.year) * 12 + day.month - start.month)
    case .yearly:
        offset = Int64(day.year - start.year)
    }
    guard offset >= 0, offset % Int64(rule.interval) == 0 else { return false }
    guard rule.months.isEmpty || rule.months.contains(day.month) else { return false }
    let monthLength = CalendarDate.daysInMonth(year: day.year, month: day.month)
    let yearLength = CalendarDate.isLeapYear(day.year) ? 366 : 365
    let dayOfYear = Int(day.daysSinceEpoch - CalendarDate(year: day.year, month: 1, day: 1)!.daysSinceEpoch) + 1
    let monthDayOK = rule.monthDays.contains { $0 > 0 ? $0 == day.day : monthLength + 1 + $0 == day.day }
    func weekdayOK(withinMonth: Bool) -> Bool {
        rule.weekdays.contains { entry in
            guard entry.weekday.rawValue == weekday else { return false }
            guard let ordinal = entry.ordinal else { return true }
            let (number, length) = withinMonth ? (day.day, monthLength) : (dayOfYear, yearLength)
            // The n-th one has n - 1 of its kind before it in the stretch; the -n-th has n - 1 after it.
            let before = (number - 1) / 7
            let after = (length - number) / 7
            return ordinal > 0 ? before == ordinal - 1 : after == -ordinal - 1
        }
    }
    switch rule.frequency {
    case .daily:
        return (rule.monthDays.isEmpty || monthDayOK) && (rule.weekdays.isEmpty || weekdayOK(withinMonth: true))
    case .weekly:
        return rule.weekdays.isEmpty ? weekday == startWeekday : weekdayOK(withinMonth: true)
    case .monthly:
        if !rule.monthDays.isEmpty { return monthDayOK && (rule.weekdays.isEmpty || weekdayOK(withinMonth: true)) }
        if !rule.weekdays.isEmpty { return weekdayOK(withinMonth: true) }
        return day.day == start.day
    case .yearly:
        if !rule.monthDays.isEmpty { return monthDayOK && (rule.weekdays.isEmpty || weekdayOK(withinMonth: true)) }
        if !rule.weekdays.isEmpty { return weekdayOK(withinMonth: !rule.months.isEmpty) }
        if !rule.months.isEmpty { return day.day == start.day }
        return day.month == start.month && day.day == start.day
    }
}

/// A random rule: mostly small intervals, BY parts about half the time, valid or not (the initializer decides).
private func randomRule(_ random: inout SplitMix64) -> RepeatRule? {
    let frequency = random.pick(RepeatRule.Frequency.allCases)
    let interval = random.chance(70) ? random.int(in: 1...3) : random.int(in: 4...14)
    var weekdays: Set<RepeatRule.WeekdayRule> = []
    var monthDays: Set<Int> = []
    var months: Set<Int> = []
    if random.chance(45) {
        for _ in 0..<random.int(in: 1...3) {
            let weekday = random.pick(RepeatRule.Weekday.allCases)
            var ordinal: Int? = nil
            if frequency == .monthly || frequency == .yearly, random.chance(50) {
                ordinal = random.pick([1, 2, 3, 4, 5, -1, -2, -5, 20, -30, 53])
            }
            weekdays.insert(.init(weekday, ordinal: ordinal))
        }
    }
    if frequency != .weekly, random.chance(30) {
        for _ in 0..<random.int(in: 1...2) { monthDays.insert(random.pick([1, 2, 13, 15, 28, 29, 30, 31, -1, -2, -29, -31])) }
    }
    if random.chance(25) {
        for _ in 0..<random.int(in: 1...3) { months.insert(random.int(in: 1...12)) }
    }
    return try? RepeatRule(frequency: frequency, interval: interval, weekdays: weekdays, monthDays: monthDays, months: months)
}

@Test func nextAgreesWithADayByDayOracle() {
    var random = SplitMix64(seed: 0x5EED_2026_1125)
    let horizon: Int64 = 12_000  // days the oracle walks (about 33 years)
    var checked = 0
    var withParts = 0
    var found = 0
    var refused = 0
    while checked < 6000 {
        guard let rule = randomRule(&random) else {
            refused += 1
            continue
        }
        let start = CalendarDate(daysSinceEpoch: Int64(random.int(in: 7000...26000)))  // 1989 to 2041
        let anchor: RepeatRule.Anchor = random.chance(70) ? .due : .dueFuture
        let today = CalendarDate(daysSinceEpoch: start.daysSinceEpoch + Int64(random.int(in: -30...400)))
        let threshold = anchor == .due ? start : max(start, today)
        var rule2 = rule
        rule2.anchor = anchor
        let next = rule2.next(after: .date(start), completedAt: Timestamp(milliseconds: 0), today: today, zone: UTCZone(),
                              occurrence: 1)
        var expected: CalendarDate?
        var day = threshold.daysSinceEpoch + 1
        while day <= threshold.daysSinceEpoch + horizon {
            let date = CalendarDate(daysSinceEpoch: day)
            if oracleAccepts(rule, date, start: start) {
                expected = date
                break
            }
            day += 1
        }
        if let expected {
            #expect(next == .date(expected), "\(rule.rrule) from \(start) (\(anchor), today \(today)): \(String(describing: next))")
            found += 1
        } else if case .date(let far)? = next {
            // Past the oracle's walk: it must still be an occurrence, and beyond the walk.
            #expect(far.daysSinceEpoch > threshold.daysSinceEpoch + horizon && oracleAccepts(rule, far, start: start),
                    "\(rule.rrule) from \(start): \(far), the oracle found nothing")
        }
        checked += 1
        if !rule.weekdays.isEmpty || !rule.monthDays.isEmpty || !rule.months.isEmpty { withParts += 1 }
    }
    #expect(checked >= 5000)
    #expect(withParts * 100 >= checked * 30, "only \(withParts) of \(checked) rules had BY parts")
    #expect(found * 100 >= checked * 80, "only \(found) of \(checked) had a next date within the oracle's walk")
    #expect(refused > 100, "the generator should also make rules the initializer refuses (\(refused))")
}
