/// The due phrase of both grammars (after `due:` or `^`, or a filter's `due<`): a day (`today`, `fri`,
/// `next week`, `+3`, `in 2 weeks`, `dec 1`, `2026-12-01`), a time (`5pm`, `17:30`), or both (`fri 5pm`).

import Domain

/// What a due phrase means, before the client's zone makes an instant of a local time.
enum DueMeaning: Equatable {
    /// No due (`none`): clears it.
    case cleared
    /// A whole day.
    case day(CalendarDate)
    /// A wall-clock reading on a day in the client's zone (milliseconds since midnight).
    case local(CalendarDate, millisecond: Int64)
    /// An instant written with its offset (`2026-12-01T17:00+01:00`), kept as written.
    case written(Due)
}

/// How a phrase read: what it means, or why it means nothing, and how many words it took either way.
struct PhraseReading: Equatable {
    enum Outcome: Equatable {
        case meaning(DueMeaning)
        case problem(String)
    }
    var outcome: Outcome
    /// Words taken, at least 1.
    var words: Int
}

/// The words a phrase is read from: as written (for messages) and lowercased (for matching).
struct PhraseWords {
    var spelled: [String]
    var lowered: [String]

    var count: Int { lowered.count }
    subscript(_ index: Int) -> String { lowered[index] }

    /// The words `range` as written, joined by one space.
    func spelling(_ range: Range<Int>) -> String { spelled[range].joined(separator: " ") }
}

/// Reads due phrases relative to the client's day.
///
/// A phrase takes as many words as make one of its forms, and no more: `fri 5 apples` is `fri`, then two
/// words of something else. A word shaped like a part of a form that fits none (`25:00`, `dec 32`) is taken
/// and is a problem.
struct DuePhrase {
    let clock: ClientClock

    static let weekdays: [(names: [String], index: Int)] = [
        (["mon", "monday"], 0), (["tue", "tues", "tuesday"], 1), (["wed", "wednesday"], 2),
        (["thu", "thur", "thurs", "thursday"], 3), (["fri", "friday"], 4), (["sat", "saturday"], 5),
        (["sun", "sunday"], 6),
    ]
    static let months: [(names: [String], month: Int)] = [
        (["jan", "january"], 1), (["feb", "february"], 2), (["mar", "march"], 3), (["apr", "april"], 4),
        (["may"], 5), (["jun", "june"], 6), (["jul", "july"], 7), (["aug", "august"], 8),
        (["sep", "sept", "september"], 9), (["oct", "october"], 10), (["nov", "november"], 11),
        (["dec", "december"], 12),
    ]
    /// The words that clear a due.
    static let clearing: Set<String> = ["none", "clear", "-"]
    /// The words a phrase may start with, for "did you mean" (numbers and dates aside).
    static let vocabulary: [String] = ["today", "tomorrow", "yesterday", "next", "in", "none"]
        + weekdays.flatMap(\.names) + months.flatMap(\.names)
    /// What a phrase may be, for messages.
    static let examples = "today, tomorrow, fri, next week, +3, in 2 weeks, dec 1, 2026-12-01, 5pm or fri 5pm"

    /// Reads the phrase at the start of `words` (the first is what follows the marker, maybe empty).
    func read(_ words: PhraseWords) -> PhraseReading {
        guard words.count > 0, !words[0].isEmpty else {
            return PhraseReading(outcome: .problem("a due needs a date: \(Self.examples)"), words: 1)
        }
        if let reading = readStarted(words) { return reading }
        var message = "\(words.spelled[0]) is not a date"
        if let near = Suggestion.nearest(to: words[0], among: Self.vocabulary) {
            message += "; did you mean \(near)?"
        } else {
            message += "; write \(Self.examples)"
        }
        return PhraseReading(outcome: .problem(message), words: 1)
    }

    /// Reads the phrase at the start of `words` (not empty) when one of the forms starts there; nil when the first
    /// word starts none (an alert phrase then leaves `remind` to the title).
    func readStarted(_ words: PhraseWords) -> PhraseReading? {
        let first = words[0]
        if Self.clearing.contains(first) { return PhraseReading(outcome: .meaning(.cleared), words: 1) }
        if let written = readDateTime(words) { return PhraseReading(outcome: written, words: 1) }
        if let day = readDay(words, at: 0) {
            guard case .meaning(.day(let date)) = day.outcome, day.words < words.count,
                  let time = readTime(words, at: day.words) else { return day }
            var reading = PhraseReading(outcome: time.outcome, words: day.words + time.words)
            if case .meaning(.local(_, let millisecond)) = time.outcome {
                reading.outcome = .meaning(.local(date, millisecond: millisecond))
            }
            return reading
        }
        if var time = readTime(words, at: 0) {
            if case .meaning(.local(_, let millisecond)) = time.outcome {
                // A time alone is the next time the clock reads it: today if it is still ahead, else tomorrow.
                let today = clock.today
                let date = millisecond > clock.millisecondOfDay ? today : today.adding(days: 1)
                time.outcome = date.map { .meaning(.local($0, millisecond: millisecond)) } ?? .problem(Self.tooFar)
            }
            return time
        }
        return nil
    }

    static let tooFar = "that date is past 9999-12-31"

    // MARK: Days

    /// A day at `words[index]`, or nil when no day phrase starts there.
    private func readDay(_ words: PhraseWords, at index: Int) -> PhraseReading? {
        let word = words[index]
        let today = clock.today
        switch word {
        case "today", "tod": return day(today, 1)
        case "tomorrow", "tom", "tmr": return day(today.adding(days: 1), 1)
        case "yesterday": return day(today.adding(days: -1), 1)
        default: break
        }
        if let weekday = Self.weekdays.first(where: { $0.names.contains(word) }) {
            // The next one, never today.
            let ahead = (weekday.index - today.weekday + 7) % 7
            return day(today.adding(days: ahead == 0 ? 7 : ahead), 1)
        }
        if word == "next" {
            guard index + 1 < words.count, words[index + 1] == "week" else {
                return PhraseReading(outcome: .problem("next needs week: next week is next Monday"), words: 1)
            }
            let ahead = (7 - today.weekday) % 7
            return day(today.adding(days: ahead == 0 ? 7 : ahead), 2)
        }
        if word == "in" { return readIn(words, at: index) }
        if let relative = readRelative(word) { return relative }
        if word.utf8.count == 10, word.utf8.allSatisfy({ $0 == 0x2D || (0x30...0x39).contains($0) }) {
            do {
                guard case .date(let date) = try Due(parsing: word) else { return nil }
                return day(date, 1)
            } catch {
                return PhraseReading(outcome: .problem(error.problem), words: 1)
            }
        }
        if let month = Self.month(word) {
            guard index + 1 < words.count, let dayNumber = Self.dayNumber(words[index + 1]) else {
                return PhraseReading(outcome: .problem("\(words.spelled[index]) needs a day of the month: \(word) 1"), words: 1)
            }
            return monthDay(month: month, day: dayNumber, spelled: words.spelling(index..<(index + 2)))
        }
        if let dayNumber = Self.dayNumber(word), index + 1 < words.count, let month = Self.month(words[index + 1]) {
            return monthDay(month: month, day: dayNumber, spelled: words.spelling(index..<(index + 2)))
        }
        return nil
    }

    private func day(_ date: CalendarDate?, _ words: Int) -> PhraseReading {
        PhraseReading(outcome: date.map { .meaning(.day($0)) } ?? .problem(Self.tooFar), words: words)
    }

    /// `in N days`, `in N weeks`, `in N months` (singular too).
    private func readIn(_ words: PhraseWords, at index: Int) -> PhraseReading {
        guard index + 1 < words.count, let count = Self.count(words[index + 1]) else {
            return PhraseReading(outcome: .problem("in needs a number and a unit: in 3 days, in 2 weeks, in 1 month"), words: 1)
        }
        guard index + 2 < words.count, let unit = Self.unit(words[index + 2]) else {
            return PhraseReading(outcome: .problem("\(words.spelling(index..<(index + 2))) needs a unit: days, weeks or months"),
                                 words: 2)
        }
        return day(offset(count, unit), 3)
    }

    /// `+3`, `+2w`, `+1m`, `-2`, `3d`, `2w`: days (weeks, months) from today.
    private func readRelative(_ word: String) -> PhraseReading? {
        var rest = Substring(word)
        var sign: Int? = nil
        if rest.hasPrefix("+") { sign = 1 } else if rest.hasPrefix("-") { sign = -1 }
        if sign != nil { rest = rest.dropFirst() }
        var unit = Unit.days
        if let last = rest.last, last.isLetter, let suffix = Self.unit(String(last)) {
            unit = suffix
            rest = rest.dropLast()
        } else if sign == nil {
            return nil
        }
        guard let count = Self.count(String(rest)) else { return nil }
        return day(offset((sign ?? 1) * count, unit), 1)
    }

    private func offset(_ count: Int, _ unit: Unit) -> CalendarDate? {
        switch unit {
        case .days: clock.today.adding(days: count)
        case .weeks: clock.today.adding(days: 7 * count)
        case .months: clock.today.adding(months: count)
        }
    }

    /// Month and day: this year's, or the next year's once it has passed (for 29 February, the next one).
    private func monthDay(month: Int, day: Int, spelled: String) -> PhraseReading {
        let today = clock.today
        guard day >= 1, day <= CalendarDate.daysInMonth(year: 2000, month: month) else {
            return PhraseReading(outcome: .problem("\(spelled) is not a date"), words: 2)
        }
        for year in today.year...(today.year + 8) {
            if let date = CalendarDate(year: year, month: month, day: day), date >= today {
                return PhraseReading(outcome: .meaning(.day(date)), words: 2)
            }
        }
        return PhraseReading(outcome: .problem(Self.tooFar), words: 2)
    }

    // MARK: Times

    /// A time at `words[index]` (`5pm`, `5:30pm`, `17:30`, `5 pm`), on today's date, or nil when none starts
    /// there. A word shaped like a time that is none (`25:00`, `13pm`) is a problem.
    func readTime(_ words: PhraseWords, at index: Int) -> PhraseReading? {
        var body = Substring(words[index])
        var half: Int? = nil
        var taken = 1
        if body.hasSuffix("am") || body.hasSuffix("pm") {
            half = body.hasSuffix("pm") ? 12 : 0
            body = body.dropLast(2)
        } else if index + 1 < words.count, words[index + 1] == "am" || words[index + 1] == "pm",
                  Self.digits(body, 1...2) != nil {
            half = words[index + 1] == "pm" ? 12 : 0
            taken = 2
        }
        let parts = body.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let hour = Self.digits(parts[0], 1...2) else { return nil }
        var minute = 0
        if parts.count == 2 {
            guard let value = Self.digits(parts[1], 2...2) else { return nil }
            minute = value
        } else if half == nil {
            return nil
        }
        let spelled = words.spelling(index..<(index + taken))
        var hours = hour
        if let half {
            guard (1...12).contains(hour), minute < 60 else {
                return PhraseReading(outcome: .problem("\(spelled) is not a time: 1 to 12 come before am or pm"), words: taken)
            }
            hours = hour % 12 + half
        } else {
            guard hour < 24, minute < 60 else {
                return PhraseReading(outcome: .problem("\(spelled) is not a time of day (00:00 to 23:59)"), words: taken)
            }
        }
        let millisecond = Int64(hours * 60 + minute) * 60_000
        return PhraseReading(outcome: .meaning(.local(clock.today, millisecond: millisecond)), words: taken)
    }

    /// A date-time in one word: `2026-12-01T17:30`, with seconds and an offset if given. With an offset it is
    /// that instant as written; without one, a wall-clock time in the client's zone. Nil when the word does not
    /// start with a date and `T`.
    private func readDateTime(_ words: PhraseWords) -> PhraseReading.Outcome? {
        let word = words[0]
        let bytes = Array(word.utf8)
        guard bytes.count > 11, bytes[10] == 0x74 /* t */, bytes[4] == 0x2D, bytes[7] == 0x2D else { return nil }
        let date = String(decoding: bytes[0..<10], as: UTF8.self)
        do {
            _ = try Due(parsing: date)
        } catch {
            return .problem(error.problem)
        }
        let time = bytes[11...]
        let hasOffset = time.contains(0x7A /* z */) || time.contains(0x2B /* + */) || time.contains(0x2D /* - */)
        guard let due = try? Due(parsing: hasOffset ? word : word + "z") else {
            return .problem("\(words.spelled[0]) is not a date and time such as 2026-12-01T17:30 or 2026-12-01T17:30+01:00")
        }
        guard hasOffset else {
            guard case .dateTime(let instant, _) = due else { return nil }
            let (days, millisecond) = instant.milliseconds.dividedFloor(by: 86_400_000)
            return .meaning(.local(CalendarDate(daysSinceEpoch: days), millisecond: millisecond))
        }
        return .meaning(.written(due))
    }

    // MARK: Words

    /// What `+3` and `in 3 …` count in.
    enum Unit { case days, weeks, months }

    static func unit(_ word: String) -> Unit? {
        switch word {
        case "d", "day", "days": .days
        case "w", "week", "weeks": .weeks
        case "m", "month", "months": .months
        default: nil
        }
    }

    static func month(_ word: String) -> Int? { months.first { $0.names.contains(word) }?.month }

    /// A day of the month as written: one or two digits, with or without `st`, `nd`, `rd`, `th` (`monthDay`
    /// says whether the month has it).
    static func dayNumber(_ word: String) -> Int? {
        var body = Substring(word)
        for suffix in ["st", "nd", "rd", "th"] where body.hasSuffix(suffix) {
            body = body.dropLast(2)
            break
        }
        return digits(body, 1...2)
    }

    /// A count of days, weeks or months: 1 to 5 digits.
    static func count(_ word: String) -> Int? { digits(Substring(word), 1...5) }

    /// The decimal number `text` spells with a digit count in `lengths`, or nil.
    static func digits(_ text: Substring, _ lengths: ClosedRange<Int>) -> Int? {
        guard lengths.contains(text.utf8.count), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return text.utf8.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }
}

extension CalendarDate {
    /// Monday 0 through Sunday 6 (1970-01-01 was a Thursday).
    var weekday: Int { Int(((daysSinceEpoch + 3) % 7 + 7) % 7) }

    /// The date `days` later (earlier when negative), or nil outside the years 1 to 9999.
    func adding(days: Int) -> CalendarDate? {
        let date = CalendarDate(daysSinceEpoch: daysSinceEpoch + Int64(days))
        return (1...9999).contains(date.year) ? date : nil
    }

    /// The same day `months` later (the month's last day when it is shorter), or nil outside the years 1 to 9999.
    func adding(months: Int) -> CalendarDate? {
        let index = year * 12 + (month - 1) + months
        let (newYear, newMonth) = (index / 12, index % 12 + 1)
        guard index >= 0, (1...9999).contains(newYear) else { return nil }
        return CalendarDate(year: newYear, month: newMonth,
                            day: min(day, CalendarDate.daysInMonth(year: newYear, month: newMonth)))
    }
}

extension DomainError {
    /// The problem a refused due states (`2026-02-30 is not a calendar date`).
    var problem: String {
        if case .invalidField(_, let problem) = self { return problem }
        return "not a date"
    }
}
