// ZoneWriter: the VTIMEZONE of a zone taskls writes dues in: the local zone, its offset changes over the years its
// dues span found by scanning and written as yearly rules where they repeat; or a fixed offset (`UTC+05:30`).

import Domain

extension ICalendarFormat {
    /// One change of a zone's offset.
    struct Transition: Hashable {
        /// When (milliseconds since 1970, UTC, whole seconds).
        let instant: Int64
        /// The offset before it and from it on, in seconds.
        let from: Int
        let to: Int

        /// The wall clock's reading just before it (in `from`), as DTSTART and RDATE say an onset.
        var local: (date: CalendarDate, millisecond: Int64) { split(instant + Int64(from) * 1000) }

        /// What makes two years' changes one yearly rule: the month, the weekday (`-1SU`, `2SU`), the time, the offsets.
        var ruleKey: String {
            let (date, millisecond) = local
            let length = CalendarDate.daysInMonth(year: date.year, month: date.month)
            let ordinal = date.day > length - 7 ? -1 : (date.day - 1) / 7 + 1
            return "\(date.month);\(ordinal)\(RepeatRule.Weekday(of: date).code);\(millisecond);\(from);\(to)"
        }
    }

    /// The changes of `zone`'s offset from the start of `years` to their end (UTC), with the offset at the start.
    /// The offset is sampled once a day and each change found to the second, so a zone must not change its offset
    /// twice within a day.
    /// - Complexity: O(days in `years` + changes × log(seconds in a day)) offset lookups.
    static func transitions(of zone: any ZoneOffsets, years: ClosedRange<Int>) -> (initial: Int, changes: [Transition]) {
        let day = millisecondsPerDay
        let start = CalendarDate(year: years.lowerBound, month: 1, day: 1)!.daysSinceEpoch * day
        let end = (CalendarDate(year: years.upperBound, month: 12, day: 31)!.daysSinceEpoch + 1) * day
        func offset(_ milliseconds: Int64) -> Int { zone.offsetSeconds(at: Timestamp(milliseconds: milliseconds)) }
        let initial = offset(start)
        var current = initial
        var changes: [Transition] = []
        var instant = start
        while instant < end {
            let next = min(instant + day, end)
            guard offset(next) != current else {
                instant = next
                continue
            }
            var low = instant / 1000
            var high = next / 1000
            while high - low > 1 {
                let middle = low + (high - low) / 2
                if offset(middle * 1000) == current { low = middle } else { high = middle }
            }
            let to = offset(high * 1000)
            changes.append(Transition(instant: high * 1000, from: current, to: to))
            current = to
            instant = high * 1000
        }
        return (initial, changes)
    }

    /// The lines of a VTIMEZONE for `zone` named `tzid`, exact over `years`: an observance from the start of the
    /// years at the offset then, and one for each change, where changes in consecutive years share a month, weekday,
    /// time and offsets written as one `RRULE:FREQ=YEARLY;BYMONTH=…;BYDAY=…`, ended by UNTIL unless it still holds
    /// in the last year (then it goes on, the zone's rule as far as the file can tell). UNTIL is a day after the last
    /// change: the rule has no date in between, and readers that compare UNTIL (UTC) with local times (Python's
    /// icalendar and vobject do) still count the last change.
    static func zoneLines(tzid: String, zone: any ZoneOffsets, years: ClosedRange<Int>) -> [String] {
        let (initial, changes) = transitions(of: zone, years: years)
        var runs: [[Transition]] = []
        var open: [String: Int] = [:]
        for change in changes {
            let key = change.ruleKey
            if let index = open[key], runs[index].last!.local.date.year == change.local.date.year - 1 {
                runs[index].append(change)
            } else {
                open[key] = runs.count
                runs.append([change])
            }
        }
        var lines = ["BEGIN:VTIMEZONE", "TZID:" + tzid]
        let start = CalendarDate(year: years.lowerBound, month: 1, day: 1)!.daysSinceEpoch * millisecondsPerDay
        let startLocal = split(start + Int64(initial) * 1000)
        let initialKind = (changes.first.map { $0.from < $0.to } ?? true) ? "STANDARD" : "DAYLIGHT"
        lines += observance(initialKind, start: startLocal, from: initial, to: initial, rule: nil)
        for run in runs.sorted(by: { $0[0].instant < $1[0].instant }) {
            let first = run[0]
            var rule: String?
            if run.count > 1 {
                let (date, _) = first.local
                let key = first.ruleKey.split(separator: ";")
                rule = "FREQ=YEARLY;BYMONTH=\(date.month);BYDAY=\(key[1])"
                if run.last!.local.date.year < years.upperBound {
                    rule! += ";UNTIL=" + compactUTC(Timestamp(milliseconds: run.last!.instant + millisecondsPerDay))
                }
            }
            lines += observance(first.to > first.from ? "DAYLIGHT" : "STANDARD", start: first.local, from: first.from,
                                to: first.to, rule: rule)
        }
        lines.append("END:VTIMEZONE")
        return lines
    }

    /// The name taskls gives a fixed offset's zone: `UTC` and the offset as UTC-OFFSET writes it (`UTC+0530`,
    /// `UTC-0300`, `UTC+005328`), without a colon, which a parameter value would have to quote; offset zero is `UTC`
    /// (vobject reads a zone of offset zero by another name as no zone).
    static func fixedZoneName(_ offset: Int) -> String {
        offset == 0 ? "UTC" : "UTC" + offsetText(offset)
    }

    /// The lines of a VTIMEZONE whose offset is always `offset`.
    static func fixedZoneLines(_ offset: Int) -> [String] {
        let start = CalendarDate(year: 1970, month: 1, day: 1)!
        return ["BEGIN:VTIMEZONE", "TZID:" + fixedZoneName(offset)]
            + observance("STANDARD", start: (start, 0), from: offset, to: offset, rule: nil) + ["END:VTIMEZONE"]
    }

    /// One STANDARD or DAYLIGHT observance's lines.
    private static func observance(_ kind: String, start: (date: CalendarDate, millisecond: Int64), from: Int, to: Int,
                                   rule: String?) -> [String] {
        ["BEGIN:" + kind, "DTSTART:" + compact(start.date, millisecond: start.millisecond),
         "TZOFFSETFROM:" + offsetText(from), "TZOFFSETTO:" + offsetText(to)]
            + (rule.map { ["RRULE:" + $0] } ?? []) + ["END:" + kind]
    }

    /// The zone a VTIMEZONE's lines define (as a reader of the file will see it), or nil.
    static func definedZone(lines: [String]) -> (tzid: String, zone: DefinedZone)? {
        let logical = lines.enumerated().map { LogicalLine(text: $0.element, line: $0.offset + 1) }
        let structure = structure(of: logical, top: "VTIMEZONE")
        guard structure.problems.isEmpty, let component = structure.components.first,
              let tzid = component.property("TZID"), let zone = DefinedZone(component) else { return nil }
        return (String(tzid.trimmedValue), zone)
    }
}
