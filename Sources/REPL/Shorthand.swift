/// The shorthands of `add`, `edit` and `filter`: `due:`, `!priority`, `#tag`, and the words left over.

import TasklsProtocol
import Wire

/// What a line of `add` or `edit` words asks for.
struct ItemShorthand {
    /// The words that are not shorthands, joined: the title (nil when there are none).
    var title: String?
    /// The due to set, to clear (`due:none`), or to leave.
    var due: Patch<String> = .unchanged
    var priority: Priority?
    /// Tags to add and to remove (`-#tag`).
    var addTags: [String] = []
    var removeTags: [String] = []

    /// Reads `words`; throws a readable message for a shorthand it cannot read.
    init(_ words: [Substring], day: REPLCalendar) throws(CommandError) {
        var titleWords: [Substring] = []
        for word in words {
            if word.hasPrefix("due:") {
                let value = String(word.dropFirst(4))
                if ["none", "clear", "-"].contains(value) {
                    due = .cleared
                } else if let parsed = day.parseDue(value) {
                    due = .set(parsed)
                } else {
                    throw CommandError("due:\(value): expected today, tomorrow, +3, a weekday (mon), YYYY-MM-DD or none")
                }
            } else if word.hasPrefix("!"), word.count > 1, let level = PriorityWord.word(word.dropFirst()) {
                priority = level
            } else if word.hasPrefix("-#"), word.count > 2 {
                removeTags.append(String(word.dropFirst(2)))
            } else if word.hasPrefix("#"), word.count > 1 {
                addTags.append(String(word.dropFirst()))
            } else {
                titleWords.append(word)
            }
        }
        title = titleWords.isEmpty ? nil : titleWords.joined(separator: " ")
    }
}

/// Priority words: `!high`, `!h`, `!3`, `!!!`.
enum PriorityWord {
    /// The protocol's priority for a shorthand after its `!`, or nil.
    static func word(_ text: Substring) -> Priority? {
        switch text.lowercased() {
        case "high", "h", "3", "!!": .high
        case "medium", "med", "m", "2", "!": .medium
        case "low", "l", "1": .low
        case "none", "n", "0": Priority.none
        default: nil
        }
    }
}

/// Filters as `filter` words and back.
enum FilterText {
    /// The filter that `words` ask for: `#tag` (all of them), `!priority` (at least), `done`,
    /// `open`, `before:DUE`, `after:DUE`, and any other words as text; nil (`off`) for everything.
    static func parse(_ words: [Substring], day: REPLCalendar) throws(CommandError) -> Filter? {
        var filter = Filter()
        var text: [Substring] = []
        for word in words {
            let lower = word.lowercased()
            if lower == "off" || lower == "none" || lower == "clear" {
                return nil
            } else if lower == "done" {
                filter.done = .done
            } else if lower == "open" || lower == "notdone" {
                filter.done = .notDone
            } else if word.hasPrefix("#"), word.count > 1 {
                filter.tagsAllOf.append(String(word.dropFirst()))
            } else if word.hasPrefix("!"), word.count > 1, let level = PriorityWord.word(word.dropFirst()) {
                filter.priorityAtLeast = level
            } else if lower.hasPrefix("before:") || lower.hasPrefix("after:") {
                let isBefore = lower.hasPrefix("before:")
                let value = String(word.drop { $0 != ":" }.dropFirst())
                guard let due = day.parseDue(value) else { throw CommandError("\(word): expected a date such as tomorrow or 2026-12-01") }
                if isBefore { filter.dueBefore = due } else { filter.dueAfter = due }
            } else {
                text.append(word)
            }
        }
        filter.text = text.joined(separator: " ")
        return filter
    }

    /// The filter as words again: `"milk" #home !high done`; empty for everything.
    static func describe(_ filter: Filter) -> String {
        var parts: [String] = []
        if !filter.text.isEmpty { parts.append("\"\(filter.text)\"") }
        for tag in filter.tagsAllOf { parts.append("#" + tag) }
        if !filter.tagsAnyOf.isEmpty { parts.append(filter.tagsAnyOf.map { "#" + $0 }.joined(separator: "|")) }
        if let priority = filter.priorityAtLeast { parts.append("!" + priority.rawValue + "+") }
        switch filter.done {
        case .done: parts.append("done")
        case .notDone: parts.append("open")
        case .any: break
        }
        if let due = filter.dueBefore { parts.append("before:" + due) }
        if let due = filter.dueAfter { parts.append("after:" + due) }
        return parts.joined(separator: " ")
    }
}

/// Section groupings as `group` words and back.
enum SectionsText {
    /// The protocol's `sections` for a word: due, priority, list, done, none.
    static func parse(_ word: String) -> Sections? {
        switch word.lowercased() {
        case "due", "duebucket", "date": .dueBucket
        case "priority", "prio": .priority
        case "list", "lists": .list
        case "done", "status": .done
        case "none", "off", "": Sections.none
        default: nil
        }
    }

    /// The word for a grouping.
    static func word(_ sections: Sections) -> String { sections == .dueBucket ? "due" : sections.rawValue }
}

/// A command that could not be carried out, as one readable line.
public struct CommandError: Error, Sendable {
    /// What went wrong, in one line.
    public let message: String
    /// An error saying `message`.
    public init(_ message: String) { self.message = message }
}
