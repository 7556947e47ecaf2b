/// The item grammar's alert phrase: `remind 1h before`, `remind 2 days before at 18:00`, `remind at 9:00`,
/// `remind the day before at 18:00`, `remind fri 9:00`, `remind none`.

import Domain

/// Reads alert phrases into `Alert`s.
///
/// `remind` starts a phrase only when the words after it can begin one: `none` or `off`; `at` and a word shaped like
/// a time; `the day`; a count with a unit (`1h`, `30 min`, `2 days`); a due phrase (`fri 9:00`, `tomorrow 8:30`).
/// Otherwise it is a word of the title (`Remind Bob`). A phrase that starts like an alert and breaks (`remind 1h`,
/// `remind fri`, `remind at 25:00`) is a problem, said in words.
///
/// An alert relative to the due is known only once the line's due is, which may come later in the line: a phrase
/// reads into a `Meaning`, and `resolve` makes the alerts of all of them once the due is known.
enum AlertPhrase {
    /// What a phrase says, before the line's due is known.
    enum Meaning: Equatable {
        /// `remind none`, `remind off`: no alerts (on an update, clear them).
        case clear
        /// `remind 1h before`: that many minutes before the due.
        case before(minutes: Int)
        /// `remind at 9:00`, `remind the day before at 18:00`: that wall-clock time, `daysBefore` days before the due's
        /// day (`minute` since midnight).
        case onDay(daysBefore: Int, minute: Int)
        /// `remind fri 9:00`: at that instant, whatever the due.
        case instant(Timestamp)
    }

    /// How a phrase read: what it says or why nothing, how many words it took (at least 2, `remind` included), and
    /// for a time the clocks skip, what to warn.
    struct Reading {
        var outcome: Result<Meaning, Problem>
        var words: Int
        var skipped: String?
    }

    /// One phrase of a line, read: what it says and the index of its span.
    typealias Phrase = (meaning: Meaning, span: Int)

    /// Reads the phrase at `words[index]`, which starts with `remind`; nil when none starts there.
    /// - Complexity: O(words it takes).
    static func read(_ words: [Word], at index: Int, clock: ClientClock) -> Reading? {
        guard words[index].lowered == "remind", index + 1 < words.count else { return nil }
        let following = words[index...].prefix(10)
        let reader = RemindReader(words: PhraseWords(spelled: following.map(\.text), lowered: following.map(\.lowered)),
                                  clock: clock)
        return reader.read()
    }

    /// The alerts of a line's phrases, in order, duplicates dropped (the first kept), once its due is known (`nil`
    /// when it has none, a day, or an instant); nil when no phrase gave any (none was given, or all broke). Gives
    /// each span its value; warns about a phrase that means no alert with this due (`unknownAlert`) and about alerts
    /// a later `remind none` drops (`replaced`).
    /// - Complexity: O(phrases²) (duplicates are looked for among at most a few).
    static func resolve(_ phrases: [Phrase], due: DueField?, clock: ClientClock, reader: inout TokenReader) -> [Alert]? {
        var alerts: [Alert] = []
        var given = false
        var since: [Int] = []
        for phrase in phrases {
            guard phrase.meaning != .clear else {
                for span in since { reader.replace(span, by: phrase.span) }
                (alerts, since, given) = ([], [], true)
                reader.setValue(.alerts([]), span: phrase.span)
                continue
            }
            switch alert(phrase.meaning, due: due?.due, clock: clock, spelled: reader.spans[phrase.span].text) {
            case .success(let alert):
                reader.setValue(.alerts([alert]), span: phrase.span)
                if !alerts.contains(alert) { alerts.append(alert) }
                since.append(phrase.span)
                given = true
            case .failure(let problem):
                reader.warn(.unknownAlert, problem.message, span: phrase.span)
            }
        }
        return given ? alerts : nil
    }

    /// The alert `meaning` (not `clear`) gives an item due `due`. A wall-clock time is relative to a due day's
    /// midnight (`remind at 9:00`: 540), and for a due instant, that time on the instant's day in the client's zone,
    /// relative to the instant (due Friday 17:00, `remind at 9:00`: -480).
    static func alert(_ meaning: Meaning, due: Due?, clock: ClientClock, spelled: String) -> Result<Alert, Problem> {
        let minutes: Int
        switch (meaning, due) {
        case (.clear, _):
            preconditionFailure("remind none gives no alert")
        case (.instant(let instant), _):
            return .success(.at(instant))
        case (.before(let before), _):
            minutes = -before
        case (.onDay(let days, let minute), .dateTime(let instant, _)?):
            let local = instant.milliseconds + Int64(clock.zone.offsetSeconds(at: instant)) * 1000
            let day = CalendarDate(daysSinceEpoch: local.dividedFloor(by: 86_400_000).quotient)
            guard let date = day.adding(days: -days),
                  case .dateTime(let target, _) = clock.instant(on: date, at: Int64(minute) * 60_000).due else {
                return .failure(Problem("\(spelled): that day is before 0001-01-01"))
            }
            minutes = Int((target.milliseconds - instant.milliseconds).dividedFloor(by: 60_000).quotient)
        case (.onDay(let days, let minute), _):
            minutes = minute - days * 1440
        }
        guard abs(minutes) <= Alert.maximumOffsetMinutes else {
            return .failure(Problem("\(spelled): an alert is at most 366 days from the due"))
        }
        return .success(.offset(minutes: minutes))
    }

    /// What an alert phrase may be, for messages.
    static let examples = "remind 1h before, remind 2 days before at 18:00, remind at 9:00, remind the day before at 18:00, "
        + "remind fri 9:00, remind none"
}

/// Reads one `remind …` phrase from its words (the first is `remind`).
private struct RemindReader {
    let words: PhraseWords
    let clock: ClientClock

    private func word(_ index: Int) -> String? { index < words.count ? words[index] : nil }

    /// The phrase, or nil when the words after `remind` cannot begin one.
    func read() -> AlertPhrase.Reading? {
        guard let first = word(1) else { return nil }
        switch first {
        case "none", "off":
            return reading(.clear, 2)
        case "at":
            return time(at: 2).map { time in time.map { .onDay(daysBefore: 0, minute: $0) } }
        case "the":
            guard word(2) == "day" else { return nil }
            guard word(3) == "before" else {
                return problem("\(spelling(3)) needs before: remind the day before at 18:00", 3)
            }
            return before(count: 1, unit: .day, spelled: "the day", position: 4)
        default:
            break
        }
        if let amount = amount() {
            if word(amount.words + 1) == "before" {
                return before(count: amount.count, unit: amount.unit, spelled: words.spelling(1..<(amount.words + 1)),
                              position: amount.words + 2)
            }
            // `remind 3d 9:00` is a due phrase with a time; `remind 3d` and `remind 1h` lack their `before`.
            if let due = dueReading(), case .success = due.outcome { return due }
            let spelled = spelling(amount.words + 1)
            return problem("\(spelled) needs before: \(spelled) before", amount.words + 1)
        }
        return dueReading()
    }

    // MARK: Before the due

    /// What a count before the due counts.
    enum Unit {
        case minute, hour, day, week

        /// Its length in minutes.
        var minutes: Int {
            switch self {
            case .minute: 1
            case .hour: 60
            case .day: 1440
            case .week: 10_080
            }
        }

        /// The unit a word names: `m`, `min`, `mins`, `minute`, `minutes`; `h`, `hr`, `hrs`, `hour`, `hours`; `d`,
        /// `day`, `days`; `w`, `week`, `weeks`.
        init?(_ word: Substring) {
            switch word {
            case "m", "min", "mins", "minute", "minutes": self = .minute
            case "h", "hr", "hrs", "hour", "hours": self = .hour
            case "d", "day", "days": self = .day
            case "w", "week", "weeks": self = .week
            default: return nil
            }
        }
    }

    /// A count and its unit after `remind`: in one word (`1h`, `30min`) or two (`30 min`, `2 days`); nil when
    /// none is there.
    private func amount() -> (count: Int, unit: Unit, words: Int)? {
        guard let first = word(1) else { return nil }
        let digits = first.prefix { $0.isASCII && $0.isNumber }
        guard let count = DuePhrase.digits(digits, 1...6) else { return nil }
        let rest = first.dropFirst(digits.count)
        if !rest.isEmpty { return Unit(rest).map { (count, $0, 1) } }
        return word(2).flatMap { Unit(Substring($0)) }.map { (count, $0, 2) }
    }

    /// The rest of a phrase `COUNT UNIT before` (`position` is the word after `before`): that long before the due,
    /// or with `at TIME` after days or weeks, that time on the day so many days before the due's.
    private func before(count: Int, unit: Unit, spelled: String, position: Int) -> AlertPhrase.Reading {
        let minutes = count * unit.minutes
        if word(position) == "at", let time = time(at: position + 1) {
            let minute: Int
            switch time.outcome {
            case .success(let read): minute = read
            case .failure(let problem): return AlertPhrase.Reading(outcome: .failure(problem), words: time.words, skipped: nil)
            }
            guard unit == .day || unit == .week else {
                return problem("\(spelling(time.words)): only days or weeks before take a time, as in remind 1 day before at 18:00",
                               time.words)
            }
            return reading(.onDay(daysBefore: minutes / 1440, minute: minute), time.words)
        }
        guard minutes <= Alert.maximumOffsetMinutes else {
            return problem("remind \(spelled) before: an alert is at most 366 days from the due", position)
        }
        return reading(.before(minutes: minutes), position)
    }

    // MARK: Times and dues

    /// A time at word `index` (`9:00`, `9am`, `9 am`, `18:00`) as minutes since midnight, its reading taking the
    /// words up to it; nil when no word shaped like a time is there.
    private func time(at index: Int) -> TimeReading? {
        guard index < words.count, let time = DuePhrase(clock: clock).readTime(words, at: index) else { return nil }
        let taken = index + time.words
        switch time.outcome {
        case .meaning(.local(_, let millisecond)):
            return TimeReading(outcome: .success(Int(millisecond / 60_000)), words: taken)
        case .meaning:
            return nil
        case .problem(let message):
            return TimeReading(outcome: .failure(Problem(message)), words: taken)
        }
    }

    /// The due phrase after `remind`, which must have a time: that instant. Nil when no due phrase starts there
    /// (or it is a clearing word other than `none`: `remind -`).
    private func dueReading() -> AlertPhrase.Reading? {
        let phrase = PhraseWords(spelled: Array(words.spelled.dropFirst()), lowered: Array(words.lowered.dropFirst()))
        guard let due = DuePhrase(clock: clock).readStarted(phrase) else { return nil }
        let taken = due.words + 1
        switch due.outcome {
        case .problem(let message):
            return problem(message, taken)
        case .meaning(.cleared):
            return nil
        case .meaning(.day), .meaning(.written(.date)):
            return problem("\(spelling(taken)) needs a time: \(spelling(taken)) 9:00", taken)
        case .meaning(.written(.dateTime(let instant, _))):
            return reading(.instant(instant), taken)
        case .meaning(.local(let date, let millisecond)):
            let (instant, skipped) = clock.instantNoting(on: date, at: millisecond)
            guard case .dateTime(let at, _) = instant else { return nil }
            var reading = reading(.instant(at), taken)
            reading.skipped = skipped
            return reading
        }
    }

    // MARK: Readings

    /// The first `count` words as written.
    private func spelling(_ count: Int) -> String { words.spelling(0..<min(count, words.count)) }

    private func reading(_ meaning: AlertPhrase.Meaning, _ taken: Int) -> AlertPhrase.Reading {
        AlertPhrase.Reading(outcome: .success(meaning), words: taken, skipped: nil)
    }

    private func problem(_ message: String, _ taken: Int) -> AlertPhrase.Reading {
        AlertPhrase.Reading(outcome: .failure(Problem(message)), words: min(taken, words.count), skipped: nil)
    }
}

/// A time of day read in a phrase: minutes since midnight, or why none, and the phrase's words up to it.
private struct TimeReading {
    var outcome: Result<Int, Problem>
    var words: Int

    /// The phrase reading that says what `transform` makes of the time.
    func map(_ transform: (Int) -> AlertPhrase.Meaning) -> AlertPhrase.Reading {
        AlertPhrase.Reading(outcome: outcome.map(transform), words: words, skipped: nil)
    }
}
