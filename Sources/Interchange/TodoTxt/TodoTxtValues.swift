// TodoTxtValues: the values of todo.txt's fields both ways: days, priority letters, `rec:` (Simpletask's and
// topydo's recurrence), taskls's `rrule:`, and the percent-encoding of `uid:` and `parent:`.

import Domain

/// Reading and writing the values of todo.txt's fields. A reader returns the value or the words of its problem.
enum TodoTxtValues {
    // MARK: Days

    /// A `YYYY-MM-DD` day, or the problem (`2026-02-30 is not a day`).
    static func day(_ text: Substring) -> Result<CalendarDate, TodoTxtProblem> {
        guard TodoTxtLine.isDateShaped(text.utf8) else {
            return .failure(TodoTxtProblem("\"\(text)\" is not a day (YYYY-MM-DD)"))
        }
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int { bytes[range].reduce(0) { $0 * 10 + Int($1 - 0x30) } }
        guard let date = CalendarDate(year: number(0..<4), month: number(5..<7), day: number(8..<10)) else {
            return .failure(TodoTxtProblem("\(text) is not a day"))
        }
        return .success(date)
    }

    /// The instant a day's local midnight is in `zone` (how a creation or completion date is kept).
    static func midnight(of date: CalendarDate, in zone: any ZoneOffsets) -> Timestamp {
        guard case .dateTime(let instant, _) = zone.dateTime(on: date, at: 0).due else {
            preconditionFailure("dateTime(on:at:) always answers an instant")
        }
        return instant
    }

    // MARK: Priority

    /// The priority a letter reads as: A high, B medium, C through Z low.
    static func priority(letter: Character) -> Priority {
        switch letter {
        case "A": .high
        case "B": .medium
        default: .low
        }
    }

    /// The letter a priority is written as: high A, medium B, low C, unless `kept` (a letter D–Z read from a
    /// file, the extra `todotxt:pri`) says which low letter it was.
    static func letter(for priority: Priority, kept: String?) -> Character? {
        switch priority {
        case .none: nil
        case .high: "A"
        case .medium: "B"
        case .low:
            if let kept, kept.count == 1, let letter = kept.first, ("D"..."Z").contains(letter) { letter } else { "C" }
        }
    }

    /// A `pri:` value: one letter A–Z.
    static func priorityLetter(_ text: Substring) -> Result<Character, TodoTxtProblem> {
        guard text.utf8.count == 1, let byte = text.utf8.first, (0x41...0x5A).contains(byte) else {
            return .failure(TodoTxtProblem("\"\(text)\" is not a priority letter (A to Z)"))
        }
        return .success(Character(Unicode.Scalar(byte)))
    }

    // MARK: Repeats

    /// How `rec:` reads: a rule, or a repeat taskls has no rule for (every N business days, N over 1).
    enum Recurrence: Equatable {
        /// A rule taskls repeats by.
        case rule(RepeatRule)
        /// Every `days` business days: kept as text.
        case businessDays(Int)
    }

    /// A `rec:` value, `[+]N[d|w|m|y|b]` (Simpletask, topydo): N days, weeks, months, years or business days
    /// (Monday to Friday), counted from the completion day, or with `+` from the due. Without a unit, days.
    static func recurrence(_ text: Substring) -> Result<Recurrence, TodoTxtProblem> {
        var digits = text
        let fromDue = digits.first == "+"
        if fromDue { digits = digits.dropFirst() }
        var unit: Character = "d"
        if let last = digits.last, "dwmyb".contains(last) {
            unit = last
            digits = digits.dropLast()
        }
        guard (1...7).contains(digits.utf8.count), digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            return .failure(TodoTxtProblem("\"\(text)\" is not a recurrence such as 1w or +1m (a number, then d, w, m, "
                + "y or b; + counts from the due)"))
        }
        let count = Int(digits)!
        guard (1...RepeatRule.maximumInterval).contains(count) else {
            return .failure(TodoTxtProblem("\"\(text)\" is out of range: 1 to \(RepeatRule.maximumInterval)"))
        }
        let anchor: RepeatRule.Anchor = fromDue ? .due : .completion
        let frequency: RepeatRule.Frequency
        switch unit {
        case "w": frequency = .weekly
        case "m": frequency = .monthly
        case "y": frequency = .yearly
        case "b":
            guard count == 1 else { return .success(.businessDays(count)) }
            return rule { () throws(DomainError) in try RepeatRule(frequency: .daily, weekdays: workdays, anchor: anchor) }
        default: frequency = .daily
        }
        return rule { () throws(DomainError) in try RepeatRule(frequency: frequency, interval: count, anchor: anchor) }
    }

    /// A rule the checks above make valid; should the domain still refuse it, its words are the problem.
    private static func rule(_ make: () throws(DomainError) -> RepeatRule) -> Result<Recurrence, TodoTxtProblem> {
        do throws(DomainError) {
            return .success(.rule(try make()))
        } catch {
            return .failure(TodoTxtProblem(error.message))
        }
    }

    /// Monday to Friday, the days of `rec:1b`.
    static let workdays: Set<RepeatRule.WeekdayRule> = Set(
        [RepeatRule.Weekday.monday, .tuesday, .wednesday, .thursday, .friday].map { RepeatRule.WeekdayRule($0) })

    /// The `rec:` value that says `rule` exactly, or nil when only `rrule:` can: a plain DAILY, WEEKLY, MONTHLY or
    /// YEARLY rule with an interval (or every weekday), from the completion or from the due.
    static func recurrence(of rule: RepeatRule) -> String? {
        let prefix: String
        switch rule.anchor {
        case .completion: prefix = ""
        case .due: prefix = "+"
        case .dueFuture: return nil
        }
        if rule.frequency == .daily, rule.weekdays == workdays, rule.interval == 1, rule.monthDays.isEmpty,
           rule.months.isEmpty, rule.end == nil, rule.weekStart == .monday {
            return prefix + "1b"
        }
        guard rule.weekdays.isEmpty, rule.monthDays.isEmpty, rule.months.isEmpty, rule.end == nil,
              rule.weekStart == .monday else { return nil }
        let unit = switch rule.frequency {
        case .daily: "d"
        case .weekly: "w"
        case .monthly: "m"
        case .yearly: "y"
        }
        return prefix + String(rule.interval) + unit
    }

    /// An `rrule:` value (taskls's own key): the anchor's org-mode cookie (`+` from the due, `++` the next due in
    /// the future, `.+` from the completion), then the RRULE (`rrule:+FREQ=MONTHLY;BYDAY=-1FR`).
    static func rule(_ text: Substring) -> Result<RepeatRule, TodoTxtProblem> {
        let anchor: RepeatRule.Anchor
        let rest: Substring
        if text.hasPrefix("++") {
            (anchor, rest) = (.dueFuture, text.dropFirst(2))
        } else if text.hasPrefix(".+") {
            (anchor, rest) = (.completion, text.dropFirst(2))
        } else if text.hasPrefix("+") {
            (anchor, rest) = (.due, text.dropFirst())
        } else {
            return .failure(TodoTxtProblem("\"\(text)\" must start with +, ++ or .+ (what the next due counts from), "
                + "then an RRULE such as FREQ=WEEKLY;BYDAY=MO"))
        }
        do {
            return .success(try RepeatRule(rrule: String(rest), anchor: anchor))
        } catch {
            guard case .invalidField(_, let problem) = error else { return .failure(TodoTxtProblem(error.message)) }
            return .failure(TodoTxtProblem(problem))
        }
    }

    /// The `rrule:` value of `rule`.
    static func ruleText(of rule: RepeatRule) -> String { rule.anchor.orgCookie + rule.rrule }

    // MARK: Identities

    /// A uid as written after `uid:` or `parent:`: `%`, `:` and white space percent-encoded (`%25`, `%3A`, `%20`),
    /// since a todo.txt value has neither colons nor white space, and a `/` first (`%2F`: a value starting with `//`
    /// is a URL's).
    static func encoded(_ uid: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(uid.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for (offset, byte) in uid.utf8.enumerated() {
            if byte == 0x25 || byte == 0x3A || TodoTxtLine.isSpace(byte) || byte == 0x0A || (offset == 0 && byte == 0x2F) {
                bytes.append(0x25)
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A uid read from after `uid:` or `parent:`, its `%XX` decoded.
    static func decoded(_ text: Substring) -> Result<String, TodoTxtProblem> {
        guard text.utf8.contains(0x25) else { return .success(String(text)) }
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        func hexValue(_ byte: UInt8?) -> UInt8? {
            switch byte {
            case let digit? where (0x30...0x39).contains(digit): digit - 0x30
            case let upper? where (0x41...0x46).contains(upper): upper - 0x41 + 10
            case let lower? where (0x61...0x66).contains(lower): lower - 0x61 + 10
            default: nil
            }
        }
        while let byte = iterator.next() {
            guard byte == 0x25 else {
                bytes.append(byte)
                continue
            }
            guard let high = hexValue(iterator.next()), let low = hexValue(iterator.next()) else {
                return .failure(TodoTxtProblem("\"\(text)\" has a % not followed by two hexadecimal digits"))
            }
            bytes.append(high << 4 | low)
        }
        guard let uid = String(validating: bytes, as: UTF8.self) else {
            return .failure(TodoTxtProblem("\"\(text)\" decodes to bytes that are not UTF-8"))
        }
        return .success(uid)
    }

    /// The 64-bit FNV-1a hash (Fowler, Noll, Vo), fed byte by byte.
    struct FNV1a {
        /// The hash so far.
        var value: UInt64 = 0xCBF2_9CE4_8422_2325

        /// Feeds one byte.
        mutating func add(_ byte: UInt8) {
            value ^= UInt64(byte)
            value &*= 0x0000_0100_0000_01B3
        }

        /// The hash as 16 lower-case hexadecimal digits.
        var hex: String {
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
    }
}

/// What was wrong with a value, in words that complete "field: …".
struct TodoTxtProblem: Error, Equatable {
    /// The words.
    var message: String

    /// Makes a problem.
    init(_ message: String) { self.message = message }
}
