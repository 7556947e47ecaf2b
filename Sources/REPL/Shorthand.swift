/// Filters and section groupings as the REPL writes them back: a filter in the quick-entry grammar's own words
/// (protocol.md, "Quick entry"), so what the title line shows can be typed again after `filter`.

import TasklsProtocol
import Wire

/// Filters as words of the filter grammar.
enum FilterText {
    /// The filter as words `text/parseFilter` reads back to the same filter: `#home #a|#b !high+ due<2026-11-27
    /// open milk`; empty for everything. Text words the grammar would read as something else are escaped with a
    /// backslash (`\#42`, `\done`).
    static func describe(_ filter: Filter) -> String {
        var parts: [String] = []
        for tag in filter.tagsAllOf { parts.append("#" + tag) }
        if !filter.tagsAnyOf.isEmpty { parts.append(filter.tagsAnyOf.map { "#" + $0 }.joined(separator: "|")) }
        if let priority = filter.priorityAtLeast { parts.append("!" + priority.rawValue + "+") }
        if let due = filter.dueAfter { parts.append("due>" + dayBefore(due)) }
        if let due = filter.dueBefore { parts.append("due<" + due) }
        switch filter.done {
        case .done: parts.append("done")
        case .notDone: parts.append("open")
        case .any: break
        }
        parts += filter.text.split(whereSeparator: \.isWhitespace).map(escaped)
        return parts.joined(separator: " ")
    }

    /// `D` for a `dueAfter` of `DT23:59:59.999Z` (which `due>D` gives), else the due as it is.
    private static func dayBefore(_ due: String) -> String {
        due.hasSuffix("T23:59:59.999Z") && due.count == 24 ? String(due.prefix(10)) : due
    }

    /// A text word as the filter grammar keeps it text: with a backslash before a marker or a keyword.
    static func escaped(_ word: Substring) -> String {
        let lower = word.lowercased()
        let markers: Set<Character> = ["#", "!", "@", "^", "/", "\\"]
        let keyword = ["done", "open", "overdue"].contains(lower)
            || ["due:", "due<", "due>", "due="].contains { lower.hasPrefix($0) }
        if let first = word.first, markers.contains(first) || keyword { return "\\" + word }
        return String(word)
    }
}

/// Section groupings as `group` words and back.
enum SectionsText {
    /// The protocol's `sections` for a word: due, priority, list, done, none.
    static func parse(_ word: String) -> Sections? {
        switch word.lowercased() {
        case "due", "date": .dueBucket
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
    /// The server's `data.reason` when the server refused the request, else nil.
    public let reason: String?
    /// An error saying `message`.
    public init(_ message: String, reason: String? = nil) {
        self.message = message
        self.reason = reason
    }
}
