// DefinedZone: a time zone as a file's VTIMEZONE defines it: STANDARD and DAYLIGHT observances, each with its onset
// (DTSTART, in local time before it), TZOFFSETFROM, TZOFFSETTO, and more onsets by a yearly RRULE or RDATEs.

import Domain

extension ICalendarFormat {
    /// The zone a `VTIMEZONE` defines: at an instant, the offset of the observance whose latest onset is the latest
    /// at or before it (of two at one instant, the one written first); before every onset, the TZOFFSETFROM of the
    /// observance that starts first.
    struct DefinedZone: ZoneOffsets {
        /// The `STANDARD` and `DAYLIGHT` observances.
        let observances: [Observance]
        /// Every onset up to `tableEnd`, sorted, with the offset from it on.
        private let table: [(onset: Int64, offset: Int)]
        /// The start of the year the table runs to (2200); later instants are worked out from the rules.
        private static let tableEnd = CalendarDate(year: 2200, month: 1, day: 1)!.daysSinceEpoch * millisecondsPerDay

        /// The zone a `VTIMEZONE` component defines, or nil when it defines none taskls can read (no observance,
        /// an observance without DTSTART, TZOFFSETFROM or TZOFFSETTO, or with an RRULE other than a yearly rule by
        /// BYMONTH, BYDAY, BYMONTHDAY, UNTIL, COUNT and INTERVAL).
        init?(_ component: Component) {
            var observances: [Observance] = []
            for child in component.components where child.name == "STANDARD" || child.name == "DAYLIGHT" {
                guard let observance = Observance(child) else { return nil }
                observances.append(observance)
            }
            guard !observances.isEmpty else { return nil }
            self.observances = observances
            var table: [(onset: Int64, offset: Int)] = []
            for observance in observances {
                table += observance.onsets.filter { $0 < Self.tableEnd }.map { ($0, observance.to) }
                guard let rule = observance.openRule else { continue }
                var year = observance.startDate.year
                while year < 2200, table.count < 100_000 {
                    for onset in rule.onsets(in: year, startDate: observance.startDate,
                                             startMillisecond: observance.startMillisecond, from: observance.from)
                    where onset > observance.firstOnset && onset < Self.tableEnd {
                        table.append((onset, observance.to))
                    }
                    year += rule.interval
                }
            }
            // Onsets in order; of two at one instant the earlier observance's last, so it wins as below.
            self.table = table.enumerated().sorted { ($0.element.onset, $1.offset) < ($1.element.onset, $0.offset) }
                .map(\.element)
        }

        /// - Complexity: O(log onsets) before 2200; after, O(observances × (log RDATEs + a few years' rule dates)).
        func offsetSeconds(at instant: Timestamp) -> Int {
            if instant.milliseconds < Self.tableEnd {
                var low = 0
                var high = table.count
                while low < high {
                    let middle = (low + high) / 2
                    if table[middle].onset <= instant.milliseconds { low = middle + 1 } else { high = middle }
                }
                if low > 0 { return table[low - 1].offset }
                return observances.min { $0.firstOnset < $1.firstOnset }!.from
            }
            var best: (onset: Int64, offset: Int)?
            for observance in observances {
                guard let onset = observance.latestOnset(atOrBefore: instant.milliseconds) else { continue }
                if best == nil || onset > best!.onset { best = (onset, observance.to) }
            }
            if let best { return best.offset }
            return observances.min { $0.firstOnset < $1.firstOnset }!.from
        }
    }

    /// One `STANDARD` or `DAYLIGHT` observance: from each onset on, the zone is `to` seconds east of UTC.
    struct Observance {
        /// TZOFFSETFROM: the offset before its onsets, in which its DTSTART and RDATEs are written.
        let from: Int
        /// TZOFFSETTO: the offset from each onset on.
        let to: Int
        /// Its DTSTART as an instant (milliseconds since 1970, UTC).
        let firstOnset: Int64
        /// The onsets known in full (DTSTART, RDATEs, the dates of a rule that ends), sorted.
        let onsets: [Int64]
        /// A yearly rule without an end, its dates computed near the instant asked about.
        let openRule: YearlyRule?
        /// The day of DTSTART (an open rule's dates start in its year).
        let startDate: CalendarDate
        /// DTSTART's time of day in milliseconds (every date of its rule has it).
        let startMillisecond: Int64

        /// The most onsets a rule that ends is expanded to.
        static let onsetLimit = 20_000

        init?(_ component: Component) {
            guard let fromText = component.property("TZOFFSETFROM")?.trimmedValue, let from = utcOffset(fromText),
                  let toText = component.property("TZOFFSETTO")?.trimmedValue, let to = utcOffset(toText),
                  let startLine = component.property("DTSTART"),
                  let start = try? dateValue(startLine.trimmedValue) else { return nil }
            self.from = from
            self.to = to
            let startLocal: Int64
            switch start {
            case .date(let date): startLocal = date.daysSinceEpoch * millisecondsPerDay
            case .local(let date, let millisecond): startLocal = date.daysSinceEpoch * millisecondsPerDay + millisecond
            case .utc(let instant): startLocal = instant.milliseconds + Int64(from) * 1000
            }
            (startDate, startMillisecond) = split(startLocal)
            firstOnset = startLocal - Int64(from) * 1000
            var onsets = [firstOnset]
            for line in component.properties where line.name == "RDATE" {
                for text in line.trimmedValue.split(separator: ",") {
                    switch try? dateValue(text.prefix { $0 != "/" }) {
                    case .date(let date)?:
                        onsets.append(date.daysSinceEpoch * millisecondsPerDay + startMillisecond - Int64(from) * 1000)
                    case .local(let date, let millisecond)?:
                        onsets.append(date.daysSinceEpoch * millisecondsPerDay + millisecond - Int64(from) * 1000)
                    case .utc(let instant)?:
                        onsets.append(instant.milliseconds)
                    case nil:
                        return nil
                    }
                }
            }
            var openRule: YearlyRule?
            if let ruleLine = component.property("RRULE") {
                guard let rule = YearlyRule(ruleLine.trimmedValue, from: from) else { return nil }
                if rule.until == nil, rule.count == nil {
                    openRule = rule
                } else {
                    onsets += Self.expand(rule, startDate: startDate, startMillisecond: startMillisecond, from: from,
                                          firstOnset: firstOnset)
                }
            }
            self.openRule = openRule
            self.onsets = onsets.sorted()
        }

        /// The onsets of a rule that ends (UNTIL or COUNT, DTSTART counted as the first), after DTSTART.
        private static func expand(_ rule: YearlyRule, startDate: CalendarDate, startMillisecond: Int64, from: Int,
                                   firstOnset: Int64) -> [Int64] {
            var onsets: [Int64] = []
            var year = startDate.year
            while year <= 9999, onsets.count < onsetLimit {
                for onset in rule.onsets(in: year, startDate: startDate, startMillisecond: startMillisecond, from: from)
                where onset > firstOnset {
                    if let until = rule.until, onset > until { return onsets }
                    if let count = rule.count, onsets.count + 1 >= count { return onsets }
                    onsets.append(onset)
                }
                year += rule.interval
            }
            return onsets
        }

        /// The latest onset at or before `instant`, or nil when there is none.
        func latestOnset(atOrBefore instant: Int64) -> Int64? {
            var best: Int64?
            var low = 0
            var high = onsets.count
            while low < high {
                let middle = (low + high) / 2
                if onsets[middle] <= instant { low = middle + 1 } else { high = middle }
            }
            if low > 0 { best = onsets[low - 1] }
            guard let rule = openRule, instant > firstOnset else { return best }
            let year = split(instant).date.year
            var candidate = min(year + 1, 9999)
            let lowest = max(startDate.year, year - 2 * rule.interval - 2)
            while candidate >= lowest {
                if (candidate - startDate.year) % rule.interval == 0 {
                    let found = rule.onsets(in: candidate, startDate: startDate, startMillisecond: startMillisecond,
                                            from: from).filter { $0 > firstOnset && $0 <= instant }.max()
                    if let found {
                        return max(best ?? found, found)
                    }
                }
                candidate -= 1
            }
            return best
        }
    }

    /// A VTIMEZONE observance's RRULE: `FREQ=YEARLY` with BYMONTH, BYDAY (`-1SU`, `2SU`, `SU`), BYMONTHDAY,
    /// INTERVAL, and UNTIL or COUNT.
    struct YearlyRule {
        /// One BYDAY entry: a weekday (0 Monday … 6 Sunday) and maybe which one of the month (1 first, -1 last).
        struct Weekday {
            let day: Int
            let ordinal: Int?
        }

        let interval: Int
        /// BYMONTH; empty: DTSTART's month.
        let months: [Int]
        let weekdays: [Weekday]
        let monthDays: [Int]
        /// The latest onset the rule allows (UNTIL), milliseconds since 1970 UTC.
        let until: Int64?
        /// COUNT.
        let count: Int?

        /// Reads the rule, or nil for anything but a yearly rule of the parts above.
        init?(_ text: Substring, from: Int) {
            var interval = 1
            var months: [Int] = []
            var weekdays: [Weekday] = []
            var monthDays: [Int] = []
            var until: Int64?
            var count: Int?
            var yearly = false
            for part in text.split(separator: ";") {
                let pieces = part.split(separator: "=", maxSplits: 1)
                guard pieces.count == 2 else { return nil }
                let value = pieces[1]
                switch pieces[0].uppercased() {
                case "FREQ": yearly = value.uppercased() == "YEARLY"
                case "INTERVAL":
                    guard let number = Int(value), number > 0 else { return nil }
                    interval = number
                case "BYMONTH":
                    let values = value.split(separator: ",").compactMap { Int($0) }
                    guard values.count == value.split(separator: ",").count, values.allSatisfy((1...12).contains) else { return nil }
                    months = values.sorted()
                case "BYMONTHDAY":
                    let values = value.split(separator: ",").compactMap { Int($0) }
                    guard values.count == value.split(separator: ",").count,
                          values.allSatisfy({ $0 != 0 && abs($0) <= 31 }) else { return nil }
                    monthDays = values
                case "BYDAY":
                    for entry in value.split(separator: ",") {
                        let upper = entry.uppercased()
                        guard upper.count >= 2,
                              let day = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"].firstIndex(of: String(upper.suffix(2)))
                        else { return nil }
                        let prefix = upper.dropLast(2)
                        if prefix.isEmpty {
                            weekdays.append(Weekday(day: day, ordinal: nil))
                        } else {
                            guard let ordinal = Int(prefix), ordinal != 0, abs(ordinal) <= 5 else { return nil }
                            weekdays.append(Weekday(day: day, ordinal: ordinal))
                        }
                    }
                case "UNTIL":
                    switch try? dateValue(value) {
                    case .utc(let instant)?: until = instant.milliseconds
                    case .local(let date, let millisecond)?:
                        until = date.daysSinceEpoch * millisecondsPerDay + millisecond - Int64(from) * 1000
                    case .date(let date)?:
                        until = (date.daysSinceEpoch + 1) * millisecondsPerDay - 1 - Int64(from) * 1000
                    case nil: return nil
                    }
                case "COUNT":
                    guard let number = Int(value), number > 0 else { return nil }
                    count = number
                case "WKST":
                    continue
                default:
                    return nil
                }
            }
            guard yearly else { return nil }
            self.interval = interval
            self.months = months
            self.weekdays = weekdays
            self.monthDays = monthDays
            self.until = until
            self.count = count
        }

        /// The rule's onsets in `year`, sorted: its days at DTSTART's time of day, written in offset `from`.
        func onsets(in year: Int, startDate: CalendarDate, startMillisecond: Int64, from: Int) -> [Int64] {
            guard (1...9999).contains(year) else { return [] }
            var result: [Int64] = []
            for month in months.isEmpty ? [startDate.month] : months {
                let length = CalendarDate.daysInMonth(year: year, month: month)
                var days: [Int]
                if !monthDays.isEmpty {
                    days = monthDays.map { $0 > 0 ? $0 : length + 1 + $0 }.filter { (1...length).contains($0) }
                } else if weekdays.isEmpty {
                    days = startDate.day <= length ? [startDate.day] : []
                } else {
                    days = Array(1...length)
                }
                for day in Set(days).sorted() {
                    let date = CalendarDate(year: year, month: month, day: day)!
                    if !weekdays.isEmpty {
                        let weekday = RepeatRule.Weekday(of: date).rawValue
                        let matches = weekdays.contains { entry in
                            guard entry.day == weekday else { return false }
                            guard let ordinal = entry.ordinal else { return true }
                            return ordinal > 0 ? (day - 1) / 7 + 1 == ordinal : (length - day) / 7 + 1 == -ordinal
                        }
                        guard matches else { continue }
                    }
                    result.append(date.daysSinceEpoch * millisecondsPerDay + startMillisecond - Int64(from) * 1000)
                }
            }
            return result.sorted()
        }
    }
}
