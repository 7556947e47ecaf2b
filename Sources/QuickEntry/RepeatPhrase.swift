/// The item grammar's repeat phrase: `every day`, `every 2 weeks`, `every other week on fri`, `every mon,wed`,
/// `every weekday`, `every month on the 15th`, `every month on the last fri`, `every year on dec 25`, each maybe
/// followed by `after done`; and org-mode's repeater cookies `+1w`, `++1m`, `.+3d`.

import Domain

/// Reads repeat phrases into `RepeatRule`s.
///
/// `every` starts a phrase only when the word after it can begin one (a count, `other`, a unit, a weekday, `weekday`,
/// `weekend`); otherwise it is a word of the title (`Read every book`). A phrase takes as many words as make one of
/// its forms: an `on …` or `after …` that does not continue it is left to the title. A phrase that starts like a
/// repeat and breaks (`every 3 fortnights`, `every month on the 32nd`) is a problem, said in words.
enum RepeatPhrase {
    /// How a phrase read: its rule or why none, and how many words it took (at least 1).
    struct Reading {
        var outcome: Result<RepeatRule, Problem>
        var words: Int
    }

    /// What a repeat phrase may be, for messages.
    static let examples = "every day, every 2 weeks, every mon,wed, every weekday, every month on the 15th, "
        + "every month on the last fri, every year on dec 25, every 3 days after done, +1w, ++1m, .+3d"

    /// Reads the phrase at `words[index]`: an `every …` phrase or a repeater cookie; nil when none starts there.
    /// - Complexity: O(words it takes).
    static func read(_ words: [Word], at index: Int) -> Reading? {
        let lowered = words[index...].prefix(16).map(\.lowered)
        if let cookie = cookie(lowered[0]) { return Reading(outcome: cookie, words: 1) }
        guard lowered[0] == "every", lowered.count > 1 else { return nil }
        var reader = EveryReader(words: Array(lowered), spelled: words[index...].prefix(16).map(\.text))
        return reader.read()
    }

    /// Whether `word` (lowercased) is shaped like a repeater cookie: `+`, `++` or `.+`, digits, then `d`, `w`, `m`
    /// or `y` (so `\+1w` escapes it).
    static func isCookie(_ word: String) -> Bool { cookie(word) != nil }

    /// org-mode's repeater cookie: `+3d` (from the due), `++1w` (the first one in the future), `.+1m` (from
    /// completion); units `d`, `w`, `m`, `y`. Nil when `word` is not shaped so.
    private static func cookie(_ word: String) -> Result<RepeatRule, Problem>? {
        var rest = Substring(word)
        let anchor: RepeatRule.Anchor
        if rest.hasPrefix("++") { anchor = .dueFuture; rest = rest.dropFirst(2) }
        else if rest.hasPrefix(".+") { anchor = .completion; rest = rest.dropFirst(2) }
        else if rest.hasPrefix("+") { anchor = .due; rest = rest.dropFirst() }
        else { return nil }
        guard let unit = rest.last, let frequency = frequency(String(unit)),
              let count = DuePhrase.digits(rest.dropLast(), 1...4) else { return nil }
        return rule(frequency, interval: count, anchor: anchor, spelled: word)
    }

    /// The frequency a unit names: `d`/`day`/`days`, `w`/`week`/`weeks`, `m`/`month`/`months`, `y`/`year`/`years`.
    static func frequency(_ word: String) -> RepeatRule.Frequency? {
        switch word {
        case "d", "day", "days": .daily
        case "w", "week", "weeks": .weekly
        case "m", "month", "months": .monthly
        case "y", "year", "years": .yearly
        default: nil
        }
    }

    /// A rule without BY parts, its interval checked in words.
    static func rule(_ frequency: RepeatRule.Frequency, interval: Int, anchor: RepeatRule.Anchor,
                     spelled: String) -> Result<RepeatRule, Problem> {
        guard (1...RepeatRule.maximumInterval).contains(interval) else {
            return .failure(Problem("\(spelled): repeat every 1 to \(RepeatRule.maximumInterval) units"))
        }
        return build { () throws(DomainError) in try RepeatRule(frequency: frequency, interval: interval, anchor: anchor) }
    }

    /// A rule the domain makes, or its refusal as a problem.
    static func build(_ make: () throws(DomainError) -> RepeatRule) -> Result<RepeatRule, Problem> {
        do {
            return .success(try make())
        } catch {
            return .failure(Problem(error.problem))
        }
    }
}

/// Reads one `every …` phrase from lowercased words (the first is `every`).
private struct EveryReader {
    let words: [String]
    let spelled: [String]
    /// The next word to read.
    var position = 1

    typealias WeekdayRule = RepeatRule.WeekdayRule

    init(words: [String], spelled: [String]) {
        self.words = words
        self.spelled = spelled
    }

    private var current: String? { position < words.count ? words[position] : nil }
    private func word(_ offset: Int) -> String? { position + offset < words.count ? words[position + offset] : nil }

    /// The phrase, or nil when the word after `every` cannot begin one.
    mutating func read() -> RepeatPhrase.Reading? {
        var interval = 1
        var counted = false
        if current == "other" {
            (interval, counted) = (2, true)
            position += 1
        } else if let text = current, let count = DuePhrase.digits(Substring(text), 1...5) {
            (interval, counted) = (count, true)
            position += 1
        }
        let frequency: RepeatRule.Frequency
        var weekdays: Set<WeekdayRule> = []
        var monthDays: Set<Int> = []
        var months: Set<Int> = []
        guard let unit = current else {
            return counted ? problem("\(spelling) needs a unit: days, weeks, months or years") : nil
        }
        if let named = RepeatPhrase.frequency(unit), unit.count > 1 {
            frequency = named
            position += 1
        } else if let group = Self.weekdayGroup(unit) {
            frequency = .weekly
            weekdays = Set(group.map { WeekdayRule($0) })
            position += 1
        } else if let list = weekdayList() {
            switch list {
            case .success(let days): weekdays = Set(days.map { WeekdayRule($0) })
            case .failure(let problem): return failed(problem)
            }
            frequency = .weekly
        } else if ["hour", "hours", "minute", "minutes", "second", "seconds"].contains(unit) {
            position += 1
            return problem("\(spelling): repeats by \(unit.hasSuffix("s") ? unit : unit + "s") are not supported; the shortest is every day")
        } else if counted {
            return problem("\(spelling) needs a unit: days, weeks, months or years")
        } else {
            return nil
        }
        // `on …`: weekdays for weeks, days of the month for months, a date for years.
        if current == "on", let next = word(1) {
            let mark = position
            position += 1
            switch frequency {
            case .weekly where weekdays.isEmpty:
                switch weekdayList() {
                case .success(let days)?: weekdays = Set(days.map { WeekdayRule($0) })
                case .failure(let problem)?: return failed(problem)
                case nil: position = mark
                }
            case .monthly:
                switch monthDaysList() {
                case .success(let picked)?: (monthDays, weekdays) = picked
                case .failure(let problem)?: return failed(problem)
                case nil: position = mark
                }
            case .yearly:
                if let month = DuePhrase.month(next), let day = word(1).flatMap(DuePhrase.dayNumber) {
                    (months, monthDays) = ([month], [day])
                    position += 2
                } else if let day = DuePhrase.dayNumber(next), let month = word(1).flatMap(DuePhrase.month) {
                    (months, monthDays) = ([month], [day])
                    position += 2
                } else if DuePhrase.month(next) != nil {
                    position += 1
                    return problem("\(spelling) needs a day of the month: on dec 25")
                } else {
                    position = mark
                }
                if let month = months.first, let day = monthDays.first,
                   day < 1 || day > CalendarDate.daysInMonth(year: 2000, month: month) {
                    return problem("\(spelling) is not a date")
                }
            default:
                position = mark
            }
        }
        var anchor = RepeatRule.Anchor.due
        if current == "after", let next = word(1), ["done", "completion", "completing", "completed"].contains(next) {
            anchor = .completion
            position += 2
        }
        let (days, parts, rulesMonths) = (weekdays, monthDays, months)
        guard (1...RepeatRule.maximumInterval).contains(interval) else {
            return problem("\(spelling): repeat every 1 to \(RepeatRule.maximumInterval) units")
        }
        let outcome = RepeatPhrase.build { () throws(DomainError) in
            try RepeatRule(frequency: frequency, interval: interval, weekdays: days, monthDays: parts, months: rulesMonths,
                           anchor: anchor)
        }
        return RepeatPhrase.Reading(outcome: outcome, words: position)
    }

    /// The words read so far, as written.
    private var spelling: String { spelled[0..<min(position, spelled.count)].joined(separator: " ") }

    private func problem(_ message: String) -> RepeatPhrase.Reading {
        RepeatPhrase.Reading(outcome: .failure(Problem(message)), words: min(position, words.count))
    }

    private func failed(_ problem: Problem) -> RepeatPhrase.Reading {
        RepeatPhrase.Reading(outcome: .failure(problem), words: min(position, words.count))
    }

    // MARK: Weekdays

    /// `weekday`/`weekdays` (Monday to Friday), `weekend`/`weekends` (Saturday and Sunday).
    private static func weekdayGroup(_ word: String) -> [RepeatRule.Weekday]? {
        switch word {
        case "weekday", "weekdays": [.monday, .tuesday, .wednesday, .thursday, .friday]
        case "weekend", "weekends": [.saturday, .sunday]
        default: nil
        }
    }

    /// A weekday name, singular or plural (`mon`, `monday`, `mondays`).
    private static func weekday(_ word: Substring) -> RepeatRule.Weekday? {
        let name = String(word)
        let singular = name.hasSuffix("s") && name.count > 3 ? String(name.dropLast()) : name
        guard let found = DuePhrase.weekdays.first(where: { $0.names.contains(name) || $0.names.contains(singular) }) else {
            return nil
        }
        return RepeatRule.Weekday(rawValue: found.index)
    }

    /// Weekdays from `position`: names joined by commas (in a word or between words) or `and`. Nil, taking
    /// nothing, when the first word starts with no weekday; a failure when a name in a comma list is none.
    private mutating func weekdayList() -> Result<[RepeatRule.Weekday], Problem>? {
        guard let first = current, let head = first.split(separator: ",").first, Self.weekday(head) != nil else { return nil }
        var days: [RepeatRule.Weekday] = []
        while let text = current {
            for piece in text.split(separator: ",") {
                guard let day = Self.weekday(piece) else {
                    position += 1
                    return .failure(Problem("\(piece) is not a weekday (in \(spelling))"))
                }
                days.append(day)
            }
            position += 1
            if text.hasSuffix(","), let next = current, let head = next.split(separator: ",").first, Self.weekday(head) != nil {
                continue
            }
            if current == "and", let next = word(1), let head = next.split(separator: ",").first, Self.weekday(head) != nil {
                position += 1
                continue
            }
            break
        }
        return .success(days)
    }

    // MARK: Days of the month

    /// Ordinal words for numbered weekdays.
    private static let ordinals: [String: Int] = [
        "first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "fifth": 5, "5th": 5,
        "last": -1,
    ]

    /// Days of the month from `position` (after `on`): items joined by commas or `and`, each maybe after `the`:
    /// a day (`15th`, `15`), `last day`, or a numbered weekday (`last fri`, `2nd mon`, `first monday`). Nil,
    /// taking nothing, when the first item starts with none of these.
    private mutating func monthDaysList() -> Result<(Set<Int>, Set<WeekdayRule>), Problem>? {
        var tokens: [(text: Substring, word: Int)] = []
        for index in position..<words.count {
            let pieces = words[index].split(separator: ",", omittingEmptySubsequences: false)
            for (offset, piece) in pieces.enumerated() {
                if offset > 0 { tokens.append((",", index)) }
                if !piece.isEmpty { tokens.append((piece, index)) }
            }
        }
        var cursor = 0
        func peek(_ ahead: Int = 0) -> Substring? { cursor + ahead < tokens.count ? tokens[cursor + ahead].text : nil }
        var days: Set<Int> = []
        var weekdays: Set<WeekdayRule> = []
        var lastWord = position - 1
        while true {
            if peek() == "the" { cursor += 1 }
            guard let head = peek() else { break }
            // Numbered weekdays: ordinals joined by commas or `and`, then a weekday (`first and third tue`).
            var chain: [Int] = []
            var ahead = 0
            while let word = peek(ahead), let ordinal = Self.ordinals[String(word)] {
                chain.append(ordinal)
                guard let joint = peek(ahead + 1), joint == "," || joint == "and",
                      let following = peek(ahead + 2), Self.ordinals[String(following)] != nil else { break }
                ahead += 2
            }
            if !chain.isEmpty, let next = peek(ahead + 1), let day = Self.weekday(next) {
                for ordinal in chain { weekdays.insert(WeekdayRule(day, ordinal: ordinal)) }
                cursor += ahead + 2
            } else if head == "last", peek(1) == "day" {
                days.insert(-1)
                cursor += 2
            } else if let number = DuePhrase.dayNumber(String(head)) {
                guard (1...31).contains(number) else {
                    position = tokens[cursor].word + 1
                    return .failure(Problem("\(head) is not a day of the month (1st to 31st, or last day)"))
                }
                days.insert(number)
                cursor += 1
            } else if head == "last" {
                position = tokens[cursor].word + 1
                return .failure(Problem("last needs day or a weekday: the last day, the last fri"))
            } else {
                // Not a day: nothing taken when it is the first item, else the list ends before it.
                if days.isEmpty && weekdays.isEmpty { return nil }
                break
            }
            lastWord = tokens[cursor - 1].word
            if peek() == "," || peek() == "and" {
                cursor += 1
                continue
            }
            break
        }
        guard !(days.isEmpty && weekdays.isEmpty) else { return nil }
        position = lastWord + 1
        if !days.isEmpty, !weekdays.isEmpty {
            return .failure(Problem("\(spelling): days of the month and numbered weekdays cannot be mixed in one repeat"))
        }
        return .success((days, weekdays))
    }
}
