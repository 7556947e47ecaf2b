/// The quick-entry grammar of an item: `Buy milk ^fri 5pm !high #home @Groceries // 2 litres`.

import Domain

/// The fields a person meant by a line of quick entry, with the spans and warnings that say how it was read.
public struct ParsedItem: Hashable, Sendable {
    /// The title: the title words, joined by one space; nil when there are none.
    public var title: String?
    /// The due, if one was given (`cleared` for `due:none`); with a repeat phrase and no due phrase, the rule's first
    /// day on or after today (`RepeatRule.firstOccurrence(onOrAfter:)`).
    public var due: DueField?
    /// The priority, if one was given.
    public var priority: Priority?
    /// The tags, in order, without repeats; nil when none was given.
    public var tags: [String]?
    /// The list `@name` named, if one did and was found.
    public var list: ListID?
    /// The notes (after `//`), if `//` was given.
    public var notes: String?
    /// How the item repeats, if a repeat phrase was given (`every 2 weeks`, `+1m`): the rule and its anchor.
    public var `repeat`: RepeatRule?
    /// The alerts the alert phrases gave (`remind 1h before`, `remind fri 9:00`), in order, without repeats; `[]` for
    /// `remind none` (on an update: clear them); nil when no phrase gave any.
    public var alerts: [Alert]?
    /// Every token, in text order: disjoint, and together they hold every character that is not white space.
    public var spans: [ParsedSpan]
    /// What could not be used as it seemed meant, in text order.
    public var warnings: [ParseWarning]
}

/// Reads a line of quick entry into an item's fields.
///
/// Words are separated by white space. A word is read by how it starts:
/// - `//` (the whole word): the notes are the rest of the text, trimmed;
/// - `\` followed by `#`, `!`, `@`, `^`, `/`, `\`, `due:`, `every`, `remind` or a repeater cookie: text, without the
///   backslash;
/// - `due:` (any case) or `^`: a due phrase (`DuePhrase`), which may take the words after it;
/// - `!`: a priority; `#`: a tag (the rest of the word); `@`: a list, by name (`@"two words"` for spaces);
/// - `every` followed by what can start a repeat, or a repeater cookie (`+1w`, `++1m`, `.+3d`): a repeat phrase
///   (`RepeatPhrase`), which may take the words after it;
/// - `remind` followed by what can start an alert: an alert phrase (`AlertPhrase`), which may take the words after it;
/// - anything else is a word of the title (so is a lone `#`, `@` or `^`, and `C#` or `a@b.c`).
/// A due, priority, list or repeat given twice: the last one counts, and the earlier one is warned about.
public enum ItemGrammar {
    /// Reads `text` with the client's clock and lists.
    /// - Complexity: O(length of `text` + lists × name length per `@name`).
    public static func parse(_ text: String, clock: ClientClock, lists: ListsAvailability) -> ParsedItem {
        var reader = TokenReader(text, clock: clock)
        var title: [String] = []
        var due: (field: DueField, span: Int)?
        var priority: (value: Priority, span: Int)?
        var tags: [String]?
        var list: (id: ListID, span: Int)?
        var notes: String?
        var repetition: (rule: RepeatRule, span: Int)?
        var reminders: [AlertPhrase.Phrase] = []
        var index = 0
        let words = reader.words
        while index < words.count {
            let word = words[index]
            let lowered = word.lowered
            var token = Token(first: index, last: index)
            if word.text == "//" {
                let end = words[words.count - 1].end
                let start = index + 1 < words.count ? words[index + 1].start : end
                notes = start < end ? reader.source.text(start, end) : ""
                reader.span(.notes, scalars: word.start, end, .text(notes ?? ""))
                break
            } else if let escaped = TokenReader.escaped(word, isKeyword: {
                $0.hasPrefix("due:") || $0 == "every" || $0 == "remind" || RepeatPhrase.isCookie($0)
            }) {
                title.append(escaped)
                reader.span(.escape, token, .text(escaped))
            } else if lowered.hasPrefix("due:") || (word.text.hasPrefix("^") && word.text.unicodeScalars.count > 1) {
                let read = reader.due(at: index, marker: lowered.hasPrefix("due:") ? 4 : 1)
                token = read.token
                switch read.reading {
                case .success(let field):
                    let span = reader.span(.due, token, .due(field.due))
                    if let note = read.skipped { reader.warn(.skippedTime, note, span: span) }
                    reader.replace(due?.span, by: span)
                    due = (field, span)
                case .failure(let problem):
                    reader.warn(.unknownDue, problem.message, span: reader.span(.due, token, nil))
                }
            } else if word.text.hasPrefix("!") {
                let body = lowered.unicodeScalars.dropFirst()
                if let value = TokenReader.priority(Substring(body)) {
                    let span = reader.span(.priority, token, .priority(value))
                    reader.replace(priority?.span, by: span)
                    priority = (value, span)
                } else {
                    var message = TokenReader.priorityProblem(word.text)
                    if body.last == "+", TokenReader.priority(Substring(body.dropLast())) != nil {
                        message = "\(word.text) is for filters (at least that priority); an item takes \(String(word.text.dropLast()))"
                    }
                    reader.warn(.unknownPriority, message, span: reader.span(.priority, token, nil))
                }
            } else if word.text.hasPrefix("#"), word.text.unicodeScalars.count > 1 {
                let tag = String(word.text.unicodeScalars.dropFirst())
                if !(tags ?? []).contains(tag) { tags = (tags ?? []) + [tag] }
                reader.span(.tag, token, .text(tag))
            } else if word.text.hasPrefix("@"), word.text.unicodeScalars.count > 1 {
                let named = reader.name(at: index)
                token = named.token
                if let found = lookUp(named.name, lists: lists, reader: &reader, token: token) {
                    reader.replace(list?.span, by: found.span)
                    list = found
                }
            } else if let read = RepeatPhrase.read(words, at: index) {
                token = Token(first: index, last: index + read.words - 1)
                switch read.outcome {
                case .success(let rule):
                    let span = reader.span(.repeat, token, .repeat(rule))
                    reader.replace(repetition?.span, by: span)
                    repetition = (rule, span)
                case .failure(let problem):
                    reader.warn(.unknownRepeat, problem.message, span: reader.span(.repeat, token, nil))
                }
            } else if let read = AlertPhrase.read(words, at: index, clock: clock) {
                token = Token(first: index, last: index + read.words - 1)
                switch read.outcome {
                case .success(let meaning):
                    // Its value once the line's due is known (`AlertPhrase.resolve`).
                    let span = reader.span(.alert, token, nil)
                    if let note = read.skipped { reader.warn(.skippedTime, note, span: span) }
                    reminders.append((meaning, span))
                case .failure(let problem):
                    reader.warn(.unknownAlert, problem.message, span: reader.span(.alert, token, nil))
                }
            } else {
                title.append(word.text)
                reader.span(.title, token, .text(word.text))
            }
            index = token.last + 1
        }
        // A repeat needs a due: without a due phrase, the rule's first day on or after today.
        let dueField = due?.field ?? repetition.flatMap { $0.rule.firstOccurrence(onOrAfter: clock.today) }.map { DueField.set(.date($0)) }
        let alerts = AlertPhrase.resolve(reminders, due: dueField, clock: clock, reader: &reader)
        return ParsedItem(title: title.isEmpty ? nil : title.joined(separator: " "), due: dueField,
                          priority: priority?.value, tags: tags, list: list?.id, notes: notes, repeat: repetition?.rule,
                          alerts: alerts, spans: reader.spans, warnings: reader.orderedWarnings)
    }

    /// The list an `@` token names, with its span; or nil, with its span and a warning.
    private static func lookUp(_ name: String?, lists: ListsAvailability, reader: inout TokenReader,
                               token: Token) -> (id: ListID, span: Int)? {
        guard let name else {
            let span = reader.span(.list, token, nil)
            reader.warn(.unclosedQuote, "\(reader.spans[span].text) has no closing quote: write @\"list name\"", span: span)
            return nil
        }
        switch lists {
        case .unavailable(let reason):
            reader.warn(.listsUnavailable, "\(reason): @\(name) was not looked up", span: reader.span(.list, token, nil))
            return nil
        case .known(let directory):
            switch directory.lookup(name) {
            case .found(let id):
                return (id, reader.span(.list, token, .list(id)))
            case .unknown(let nearly):
                var message = "no list named \(name)"
                if !nearly.isEmpty { message += "; did you mean \(ListWords.either(nearly))?" }
                reader.warn(.unknownList, message, span: reader.span(.list, token, nil))
                return nil
            case .ambiguous(let candidates):
                let named = candidates.map { "\($0.name) (\($0.id))" }
                let message = "\(candidates.count) lists are named \(name): \(ListWords.both(named)); rename one to tell them apart"
                reader.warn(.ambiguousList, message, span: reader.span(.list, token, nil))
                return nil
            }
        }
    }
}

/// Lists of names in words.
enum ListWords {
    /// `a`, `a or b`, `a, b or c`.
    static func either(_ names: [String]) -> String { joined(names, "or") }
    /// `a`, `a and b`, `a, b and c`.
    static func both(_ names: [String]) -> String { joined(names, "and") }

    private static func joined(_ names: [String], _ conjunction: String) -> String {
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " \(conjunction) " + names[names.count - 1]
    }
}
