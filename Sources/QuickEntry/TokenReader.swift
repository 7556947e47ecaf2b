/// What both grammars share: walking the words, recording spans and warnings, and reading the tokens both have
/// (escapes, dues, priorities, `@` names).

import Domain

/// A token's words: `words[first ... last]`.
struct Token {
    var first: Int
    var last: Int
}

/// Walks a text's words for one grammar, collecting spans and warnings in text order.
struct TokenReader {
    let source: SourceText
    let clock: ClientClock
    private(set) var spans: [ParsedSpan] = []
    private(set) var warnings: [ParseWarning] = []

    init(_ text: String, clock: ClientClock) {
        source = SourceText(text)
        self.clock = clock
    }

    var words: [Word] { source.words }

    // MARK: Spans and warnings

    /// Records the span of `token` and returns its index among the spans.
    @discardableResult
    mutating func span(_ kind: SpanKind, _ token: Token, _ value: SpanValue?) -> Int {
        let (start, end) = (words[token.first].start, words[token.last].end)
        spans.append(ParsedSpan(kind: kind, range: source.range(start, end), text: source.text(start, end), value: value))
        return spans.count - 1
    }

    /// Records the span from scalar `start` to `end` (the notes).
    mutating func span(_ kind: SpanKind, scalars start: Int, _ end: Int, _ value: SpanValue?) {
        spans.append(ParsedSpan(kind: kind, range: source.range(start, end), text: source.text(start, end), value: value))
    }

    /// Gives the span at `index` its value, once it is known (an alert phrase's, once the line's due is).
    mutating func setValue(_ value: SpanValue, span index: Int) {
        spans[index].value = value
    }

    /// Warns about the span at `index`.
    mutating func warn(_ reason: WarningReason, _ message: String, span index: Int) {
        let span = spans[index]
        warnings.append(ParseWarning(reason: reason, message: message, range: span.range, text: span.text))
    }

    /// Records that the span at `later` replaces the one at `earlier` (a field given twice): a warning on the
    /// earlier one.
    mutating func replace(_ earlier: Int?, by later: Int) {
        guard let earlier else { return }
        warn(.replaced, "replaced by \(spans[later].text), later in the text", span: earlier)
    }

    /// The warnings in text order (a replacement is found after the token it warns about).
    var orderedWarnings: [ParseWarning] {
        warnings.enumerated().sorted { ($0.element.range.start.scalars, $0.offset) < ($1.element.range.start.scalars, $1.offset) }
            .map(\.element)
    }

    // MARK: Escapes

    /// The text an escaped word stands for (the word without its backslash), or nil when `word` is no escape:
    /// a backslash starts it and is followed by `#`, `!`, `@`, `^`, `/` or `\`, or by a word `isKeyword` says
    /// the grammar would read as something other than text.
    static func escaped(_ word: Word, isKeyword: (String) -> Bool) -> String? {
        guard word.text.unicodeScalars.first == "\\", word.text.unicodeScalars.count > 1 else { return nil }
        let rest = String(word.text.unicodeScalars.dropFirst())
        let marker = rest.unicodeScalars.first.map { "#!@^/\\".unicodeScalars.contains($0) } ?? false
        return marker || isKeyword(rest.lowercased()) ? rest : nil
    }

    // MARK: Dues

    /// Reads the due phrase of the token at word `index` whose marker is its first `marker` characters
    /// (`due:` 4, `^` 1, `due<=` 5): the rest of the word, then as many following words as the phrase takes.
    /// Returns the token and what it means, or a problem in words.
    func due(at index: Int, marker: Int) -> (token: Token, reading: Result<DueField, Problem>, skipped: String?) {
        let word = words[index]
        let rest = String(word.text.unicodeScalars.dropFirst(marker))
        guard !rest.isEmpty else {
            let example = String(word.text.unicodeScalars.prefix(marker)) + "fri"
            return (Token(first: index, last: index),
                    .failure(Problem("write the date right after \(word.text), as in \(example)")), nil)
        }
        let following = words[(index + 1)..<min(words.count, index + 6)]
        let phrase = PhraseWords(spelled: [rest] + following.map(\.text), lowered: [rest.lowercased()] + following.map(\.lowered))
        let reading = DuePhrase(clock: clock).read(phrase)
        let token = Token(first: index, last: index + reading.words - 1)
        switch reading.outcome {
        case .problem(let message):
            return (token, .failure(Problem(message)), nil)
        case .meaning(.cleared):
            return (token, .success(.cleared), nil)
        case .meaning(.day(let date)):
            return (token, .success(.set(.date(date))), nil)
        case .meaning(.written(let due)):
            return (token, .success(.set(due)), nil)
        case .meaning(.local(let date, let millisecond)):
            let (due, note) = clock.instantNoting(on: date, at: millisecond)
            return (token, .success(.set(due)), note)
        }
    }

    // MARK: Priorities

    /// The priority `!word` names (`word` lowercased, after the `!`): `` (low), `!` (medium), `!!` (high),
    /// `none`, `low`, `medium`, `med`, `high`, and their first letters.
    static func priority(_ word: Substring) -> Priority? {
        switch word {
        case "", "low", "l": .low
        case "!", "medium", "med", "m": .medium
        case "!!", "high", "h": .high
        case "none", "n": Priority.none
        default: nil
        }
    }

    /// What to say about a `!` word that names no priority.
    static func priorityProblem(_ spelled: String) -> String {
        let body = String(spelled.unicodeScalars.dropFirst()).lowercased()
        var message = "\(spelled) is not a priority"
        if let near = Suggestion.nearest(to: body, among: ["none", "low", "medium", "high"]) { message += "; did you mean !\(near)?" }
        return message + " (!, !!, !!!, !low, !medium, !high, !none; \\\(spelled) keeps the text)"
    }

    // MARK: Names

    /// The `@` token at word `index`: `@name` (one word), or `@"two words"` up to the quote that ends a word.
    /// The name, or nil when the quote is never closed (the token is then the first word alone).
    func name(at index: Int) -> (token: Token, name: String?) {
        let word = words[index]
        let scalars = source.scalars
        guard word.end - word.start > 1, scalars[word.start + 1] == "\"" else {
            return (Token(first: index, last: index), String(word.text.unicodeScalars.dropFirst()))
        }
        var last = index
        var position = word.start + 2
        while last < words.count {
            let end = words[last].end
            while position < end {
                if scalars[position] == "\"", position + 1 == end {
                    return (Token(first: index, last: last), source.text(word.start + 2, position))
                }
                position += 1
            }
            last += 1
            if last < words.count { position = words[last].start }
        }
        return (Token(first: index, last: index), nil)
    }
}

extension ClientClock {
    /// The instant at which the wall clock reads `millisecond` on `date` (`instant(on:at:)`), and when the clocks
    /// skip that reading, what to warn (`skippedTime`): "02:30 does not exist on … (the clocks go forward); 03:30 is
    /// used".
    func instantNoting(on date: CalendarDate, at millisecond: Int64) -> (due: Due, skipped: String?) {
        let (due, skipped) = instant(on: date, at: millisecond)
        guard skipped else { return (due, nil) }
        let asked = twoDigits(Int(millisecond / 3_600_000)) + ":" + twoDigits(Int(millisecond / 60_000 % 60))
        return (due, "\(asked) does not exist on \(date.iso8601) in \(zone.identifier) (the clocks go forward); \(due.clockText) is used")
    }
}

/// What a grammar could not make of a token, in words.
struct Problem: Error, Equatable {
    let message: String
    init(_ message: String) { self.message = message }
}

/// A due as a field: set, or cleared (`due:none`).
public enum DueField: Hashable, Sendable {
    /// Due then.
    case set(Due)
    /// No due (on an update: clear it).
    case cleared

    /// The due, nil when cleared.
    public var due: Due? {
        if case .set(let due) = self { return due }
        return nil
    }
}
