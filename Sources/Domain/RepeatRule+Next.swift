// RepeatRule's next due: the date after the current one by the rule and its anchor, on local dates of the
// client's zone, a time of day kept on the wall clock across daylight saving changes.

extension RepeatRule {
    /// The due after `due` when the item is completed (or skipped) at `completedAt`, or nil when the rule has
    /// ended: COUNT reached (`occurrence` is how many occurrences are used up, the current one included; each
    /// due the item takes counts one, not the dates `dueFuture` or `completion` pass over), the next date after
    /// UNTIL, or no date within the search (400 years, and never past 9999-12-31: the Gregorian calendar repeats
    /// every 400 years, so a rule such as BYMONTH=2;BYMONTHDAY=30 gives nil at once).
    ///
    /// A due date gives a date. A due date-time keeps its wall-clock time in `zone` (9:00 stays 9:00 across a
    /// daylight saving change): the next local date is found, then made an instant with the zone's offsets as
    /// `ZoneOffsets.dateTime(on:at:)` does (a time in a gap moves past it; a time shown twice is the first).
    /// The rule's periods (weeks from WKST, months, years) are counted from the current due, as RFC 5545 counts
    /// them from DTSTART, so INTERVAL=2 skips every other period after the due's own.
    /// - `due`: the first date after the current due's date.
    /// - `dueFuture`: the first date after the due's date and after `today` (for a date-time, the first
    ///   occurrence after `completedAt`: org's `++` looks for the future).
    /// - `completion`: `interval` days, weeks, months (the month's last day when shorter) or years after the
    ///   local date of `completedAt`, then the first day the BY parts allow (taken as limits on single days);
    ///   at the due's time of day for a date-time.
    /// - Complexity: O(1) periods for rules that occur in every period they reach; at most 400 years of periods
    ///   (146,097 days, 20,871 weeks, 4,800 months, 400 years), each O(its dates).
    public func next(after due: Due, completedAt: Timestamp, today: CalendarDate, zone: some ZoneOffsets,
                     occurrence: Int) -> Due? {
        if case .count(let count)? = end, occurrence >= count { return nil }
        switch due {
        case .date(let date):
            let day: CalendarDate?
            switch anchor {
            case .due: day = firstOccurrence(after: date, start: date)
            case .dueFuture: day = firstOccurrence(after: max(date, today), start: date)
            case .completion: day = firstAllowedDay(counting: zone.localReading(of: completedAt).date)
            }
            guard let day, isWithinEnd(day, zone: zone) else { return nil }
            return .date(day)
        case .dateTime(let instant, _):
            let (date, millisecond) = zone.localReading(of: instant)
            var result: Due?
            switch anchor {
            case .due:
                result = firstOccurrence(after: date, start: date).map { zone.dateTime(on: $0, at: millisecond).due }
            case .dueFuture:
                // Days from the completion's eve on: the first whose instant is after the completion (at most the
                // completion's day and the one after it are looked at beyond that).
                let completionDay = zone.localReading(of: completedAt).date
                var threshold = max(date, completionDay.shifted(byDays: -1) ?? completionDay)
                for _ in 0..<3 {
                    guard let day = firstOccurrence(after: threshold, start: date) else { break }
                    let candidate = zone.dateTime(on: day, at: millisecond).due
                    if case .dateTime(let next, _) = candidate, next > completedAt {
                        result = candidate
                        break
                    }
                    threshold = day
                }
            case .completion:
                result = firstAllowedDay(counting: zone.localReading(of: completedAt).date)
                    .map { zone.dateTime(on: $0, at: millisecond).due }
            }
            guard let result, case .dateTime(let next, _) = result else { return nil }
            switch end {
            case .until(.instant(let until))?: return next <= until ? result : nil
            case .until(.date(let until))?: return zone.localReading(of: next).date <= until ? result : nil
            default: return result
            }
        }
    }

    /// The first day on or after `day` the rule gives when it starts then (for a rule with no BY parts, `day`
    /// itself); nil when there is none (BYMONTH=2;BYMONTHDAY=30) within the search. What quick entry makes the due
    /// of a repeat phrase typed without one.
    /// - Complexity: as `next(after:…)`.
    public func firstOccurrence(onOrAfter day: CalendarDate) -> CalendarDate? {
        guard let eve = day.shifted(byDays: -1) else { return nil }
        return firstOccurrence(after: eve, start: day)
    }

    /// The first date of the rule started on `start` that is after `threshold` (not before `start`), in the
    /// periods `start`'s own plus a multiple of `interval`; nil when there is none within `searchDays` of
    /// `threshold` or by 9999-12-31.
    func firstOccurrence(after threshold: CalendarDate, start: CalendarDate) -> CalendarDate? {
        guard canOccur(start: start) else { return nil }
        let origin = period(of: start)
        let from = period(of: threshold)
        let step = Int64(interval)
        var index = from <= origin ? origin : origin + (from - origin + step - 1) / step * step
        let horizon = threshold.daysSinceEpoch + Self.searchDays
        while let first = firstDay(ofPeriod: index), first.daysSinceEpoch <= horizon {
            if let found = occurrences(inPeriod: index, start: start).first(where: { $0 > threshold }) { return found }
            index += step
        }
        return nil
    }

    /// For the `completion` anchor: `interval` units after `day`, then the first day the BY parts allow;
    /// nil when none does within `searchDays` or by 9999-12-31.
    func firstAllowedDay(counting day: CalendarDate) -> CalendarDate? {
        let base: CalendarDate?
        switch frequency {
        case .daily: base = day.shifted(byDays: Int64(interval))
        case .weekly: base = day.shifted(byDays: 7 * Int64(interval))
        case .monthly: base = day.shifted(byMonths: interval)
        case .yearly: base = day.shifted(byMonths: 12 * interval)
        }
        guard var candidate = base else { return nil }
        let numbers = Array(monthDays)
        let reachable = months.isEmpty ? Set(1...12) : months
        guard numbers.isEmpty || reachable.contains(where: { month in
            numbers.contains { abs($0) <= CalendarDate.daysInMonth(year: 2000, month: month) }
        }) else { return nil }
        let horizon = candidate.daysSinceEpoch + Self.searchDays
        while candidate.daysSinceEpoch <= horizon {
            if allows(candidate) { return candidate }
            if !months.contains(candidate.month), !months.isEmpty {
                // Skip to the next month's first day.
                let length = CalendarDate.daysInMonth(year: candidate.year, month: candidate.month)
                guard let next = candidate.shifted(byDays: Int64(length - candidate.day + 1)) else { return nil }
                candidate = next
            } else {
                guard let next = candidate.shifted(byDays: 1) else { return nil }
                candidate = next
            }
        }
        return nil
    }

    /// Whether a date occurrence is within UNTIL (an UNTIL instant is compared as its local date in `zone`).
    private func isWithinEnd(_ day: CalendarDate, zone: some ZoneOffsets) -> Bool {
        switch end {
        case .until(.date(let until))?: day <= until
        case .until(.instant(let until))?: day <= zone.localReading(of: until).date
        default: true
        }
    }
}
