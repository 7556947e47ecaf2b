/// The quick-entry grammar of a filter: `#home !high+ due<fri open milk`.

import Domain

/// The filter a person meant, with the spans and warnings that say how it was read.
public struct ParsedFilter: Hashable, Sendable {
    /// The filter.
    public var filter: Filter
    /// Every token, in text order: disjoint, and together they hold every character that is not white space.
    public var spans: [ParsedSpan]
    /// What could not be used as it seemed meant, in text order.
    public var warnings: [ParseWarning]
}

/// Reads a line of filter words into a filter.
///
/// A word is read by how it starts:
/// - `\` followed by `#`, `!`, `@`, `^`, `/`, `\`, a `due` operator or a keyword: text, without the backslash;
/// - `#tag`: items with that tag (several: all of them); `#a|#b`: items with at least one of them;
/// - `!p` or `!p+`: items of at least priority p (the filter has no exact priority);
/// - `due<D`, `due<=D`, `due>D`, `due>=D`, `due:D` or `due=D` (on D), `^D` (on D): a due phrase D compared with
///   items' dues as the due sort compares them (a day: the whole day; a time: that instant);
/// - `done`, `open` (any case): done items, items not done;
/// - `overdue`, `@list`, `due:none`, `!none`: what a filter cannot say; warned about, and left out;
/// - anything else is text: the text words, joined by one space, must occur in the title or notes.
/// A priority, completion or due bound given twice: the last one counts, and the earlier one is warned about.
public enum FilterGrammar {
    /// The words a filter reads as keywords, not text.
    static let keywords: Set<String> = ["done", "open", "overdue"]
    /// The due comparisons, longest first so `due<=` is not read as `due<`.
    static let operators: [(marker: String, comparison: Comparison)] = [
        ("due<=", .atMost), ("due>=", .atLeast), ("due<", .before), ("due>", .after), ("due=", .on), ("due:", .on),
    ]

    enum Comparison { case before, atMost, after, atLeast, on }

    /// Whether a word (lowercased) would be read as something other than text.
    static func isKeyword(_ word: String) -> Bool {
        keywords.contains(word) || operators.contains { word.hasPrefix($0.marker) }
    }

    /// Reads `text` with the client's clock.
    /// - Complexity: O(length of `text`).
    public static func parse(_ text: String, clock: ClientClock) -> ParsedFilter {
        var reader = TokenReader(text, clock: clock)
        var filter = Filter()
        var words: [String] = []
        var allOf: [String] = []
        var anyOf: (tags: [String], span: Int)?
        var priority: Int?
        var completion: Int?
        var before: Int?
        var after: Int?
        var index = 0
        let all = reader.words
        while index < all.count {
            let word = all[index]
            let lowered = word.lowered
            var token = Token(first: index, last: index)
            let comparison = operators.first { lowered.hasPrefix($0.marker) }
                ?? (word.text.hasPrefix("^") && word.text.unicodeScalars.count > 1 ? ("^", .on) : nil)
            if let escaped = TokenReader.escaped(word, isKeyword: isKeyword) {
                words.append(escaped)
                reader.span(.escape, token, .text(escaped))
            } else if lowered == "done" || lowered == "open" {
                let value: Filter.Completion = lowered == "done" ? .done : .notDone
                let span = reader.span(.done, token, .completion(value))
                reader.replace(completion, by: span)
                (filter.done, completion) = (value, span)
            } else if lowered == "overdue" {
                let span = reader.span(.due, token, nil)
                reader.warn(.notAFilter, "overdue is a smart group, not a filter: open the Overdue group", span: span)
            } else if let comparison {
                let read = reader.due(at: index, marker: comparison.marker.unicodeScalars.count)
                token = read.token
                switch read.reading {
                case .failure(let problem):
                    reader.warn(.unknownDue, problem.message, span: reader.span(.due, token, nil))
                case .success(.cleared):
                    let span = reader.span(.due, token, nil)
                    reader.warn(.notAFilter, "a filter cannot ask for items without a due", span: span)
                case .success(.set(let due)):
                    let span = reader.span(.due, token, .due(due))
                    if let note = read.skipped { reader.warn(.skippedTime, note, span: span) }
                    let bounds = Self.bounds(comparison.comparison, due)
                    var replaced: Set<Int> = []
                    if let bound = bounds.before {
                        if let before { replaced.insert(before) }
                        (filter.dueBefore, before) = (bound, span)
                    }
                    if let bound = bounds.after {
                        if let after { replaced.insert(after) }
                        (filter.dueAfter, after) = (bound, span)
                    }
                    for earlier in replaced.sorted() { reader.replace(earlier, by: span) }
                }
            } else if word.text.hasPrefix("!") {
                var body = Substring(String(lowered.unicodeScalars.dropFirst()))
                if body.hasSuffix("+") { body = body.dropLast() }
                if let value = TokenReader.priority(body) {
                    let span = reader.span(.priority, token, .priority(value))
                    if value == .none {
                        reader.warn(.notAFilter, "every item has at least priority none: \(word.text) is no condition", span: span)
                    } else {
                        reader.replace(priority, by: span)
                        (filter.priorityAtLeast, priority) = (value, span)
                    }
                } else {
                    reader.warn(.unknownPriority, TokenReader.priorityProblem(word.text), span: reader.span(.priority, token, nil))
                }
            } else if word.text.hasPrefix("#"), word.text.unicodeScalars.count > 1 {
                if let group = Self.anyOf(word.text) {
                    let span = reader.span(.tag, token, .tags(group))
                    reader.replace(anyOf?.span, by: span)
                    anyOf = (group, span)
                } else {
                    let tag = String(word.text.unicodeScalars.dropFirst())
                    if !allOf.contains(tag) { allOf.append(tag) }
                    reader.span(.tag, token, .text(tag))
                }
            } else if word.text.hasPrefix("@"), word.text.unicodeScalars.count > 1 {
                token = reader.name(at: index).token
                let span = reader.span(.list, token, nil)
                reader.warn(.notAFilter, "a filter cannot pick a list: open the list instead", span: span)
            } else {
                words.append(word.text)
                reader.span(.text, token, .text(word.text))
            }
            index = token.last + 1
        }
        filter.text = words.joined(separator: " ")
        filter.tagsAllOf = allOf
        filter.tagsAnyOf = anyOf?.tags ?? []
        return ParsedFilter(filter: filter, spans: reader.spans, warnings: reader.orderedWarnings)
    }

    /// `#a|#b|#c`: the tags of an any-of group, or nil when the word is not one (one tag, or a part that is not
    /// `#` and a name).
    static func anyOf(_ word: String) -> [String]? {
        let parts = word.split(separator: "|", omittingEmptySubsequences: false)
        guard parts.count > 1 else { return nil }
        var tags: [String] = []
        for part in parts {
            guard part.hasPrefix("#"), part.unicodeScalars.count > 1 else { return nil }
            let tag = String(part.unicodeScalars.dropFirst())
            if !tags.contains(tag) { tags.append(tag) }
        }
        return tags
    }

    /// The filter's bounds (`dueBefore`, `dueAfter`, both exclusive, compared as the due sort compares) that
    /// make `comparison` with `due`. A day D stands for all of it: before D is `dueBefore` D; after D is
    /// `dueAfter` D at 23:59:59.999 (later than every time on D); at most D is before D + 1, at least D after
    /// D - 1 at 23:59:59.999. A time stands for its instant: at most and at least are one millisecond wider.
    /// A bound past the years 1 to 9999 is left out (`due<=9999-12-31` bounds nothing).
    static func bounds(_ comparison: Comparison, _ due: Due) -> (before: Due?, after: Due?) {
        switch comparison {
        case .before: (due, nil)
        case .after: (nil, due.lastOfItsDay)
        case .atMost: (due.next, nil)
        case .atLeast: (nil, due.previous)
        case .on: (due.next, due.previous)
        }
    }
}

extension Due {
    /// For a day: the day after it. For a time: the millisecond after it, in its offset. Nil past 9999-12-31.
    var next: Due? {
        switch self {
        case .date(let date): Due.day(date.daysSinceEpoch + 1)
        case .dateTime(let instant, let offset): Due.time(instant.milliseconds + 1, offset)
        }
    }

    /// For a day: 23:59:59.999 the day before (every due on the day is after it). For a time: the millisecond
    /// before it, in its offset. Nil before 0001-01-01.
    var previous: Due? {
        switch self {
        case .date(let date): Due.time(date.daysSinceEpoch * 86_400_000 - 1, 0)
        case .dateTime(let instant, let offset): Due.time(instant.milliseconds - 1, offset)
        }
    }

    /// For a day: 23:59:59.999 on it (later than every due on it). For a time: itself.
    var lastOfItsDay: Due? {
        switch self {
        case .date(let date): Due.time((date.daysSinceEpoch + 1) * 86_400_000 - 1, 0)
        case .dateTime: self
        }
    }

    /// The day `days` after 1970-01-01, if it falls in the years 1 to 9999.
    private static func day(_ days: Int64) -> Due? {
        let date = CalendarDate(daysSinceEpoch: days)
        return (1...9999).contains(date.year) ? .date(date) : nil
    }

    /// The instant `milliseconds` written in `offset`, if its wall-clock date falls in the years 1 to 9999.
    private static func time(_ milliseconds: Int64, _ offset: Int) -> Due? {
        let (days, _) = (milliseconds + Int64(offset) * 1000).dividedFloor(by: 86_400_000)
        guard (1...9999).contains(CalendarDate(daysSinceEpoch: days).year) else { return nil }
        return .dateTime(Timestamp(milliseconds: milliseconds), offsetSeconds: offset)
    }
}
