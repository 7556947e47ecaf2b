/// Tab completion at the REPL's prompt: command names and aliases, list names (after `open `, `rmlist ` and `@`),
/// smart groups after `open `, tags after `#` (and `-#`), and the keywords of `add --under`, `fold all` and `mv`.

import TasklsProtocol

extension REPL {
    /// What Tab offers for `line` with the cursor at character offset `cursor`; `tags` are the tags seen so far
    /// in the session's windows.
    ///
    /// - The first word: every command name and alias that starts with what is typed (ignoring case).
    /// - After `open ` or `rmlist `: the list names (and, for `open`, the smart groups) that start with the rest
    ///   of the line, unquoted (those commands take the whole rest of the line).
    /// - A word starting with `@`: `@Name`, or `@"Two words"` for a name with white space (the quote may be typed).
    /// - A word starting with `#` or `-#`: the tags.
    /// - The words of the tree: `--under` first after `add`, `all` after `fold` and `unfold`, `under` and `to` after
    ///   the rows of `mv`, then `top` after its `to`.
    /// List names and tags match ignoring case, and come in the order of the lists and sorted tags.
    func completion(line: String, cursor: Int, tags: Set<String>) -> Completion {
        let typed = Array(line.prefix(cursor))
        let commandStart = typed.firstIndex { !$0.isWhitespace } ?? typed.count
        let wordStart = Self.wordStart(typed)
        let word = String(typed[wordStart...])
        if wordStart <= commandStart {
            let names = Commands.all.flatMap(\.names).filter { $0.hasPrefix(word.lowercased()) }
            return Completion(start: wordStart, candidates: Self.unique(names))
        }
        let commandEnd = typed[commandStart...].firstIndex(where: \.isWhitespace) ?? typed.count
        let typedCommand = String(typed[commandStart..<commandEnd]).lowercased()
        let command = Commands.all.first { $0.names.contains(typedCommand) }?.names.first ?? typedCommand
        let names = lists.map(\.name)
        if command == "open" || command == "rmlist" {
            let argumentStart = typed[commandEnd...].firstIndex { !$0.isWhitespace } ?? typed.count
            let argument = String(typed[argumentStart...]).lowercased()
            let groups = command == "open" ? SmartGroup.allCases.map(\.rawValue) : []
            return Completion(start: argumentStart, candidates: Self.unique((names + groups).filter { $0.lowercased().hasPrefix(argument) }))
        }
        if word.hasPrefix("@") {
            let prefix = word.dropFirst().drop { $0 == "\"" }.lowercased()
            let matches = names.filter { $0.lowercased().hasPrefix(prefix) }.map { "@" + Self.quoted($0) }
            return Completion(start: wordStart, candidates: Self.unique(matches))
        }
        for marker in ["-#", "#"] where word.hasPrefix(marker) {
            let prefix = word.dropFirst(marker.count).lowercased()
            return Completion(start: wordStart, candidates: tags.sorted().filter { $0.lowercased().hasPrefix(prefix) }.map { marker + $0 })
        }
        let previousWords = typed[commandEnd..<wordStart].split(whereSeparator: \.isWhitespace).map { String($0).lowercased() }
        let keywords: [String]
        switch command {
        case "add" where previousWords.isEmpty: keywords = ["--under"]
        case "fold", "unfold": keywords = previousWords.isEmpty ? ["all"] : []
        case "mv" where previousWords.last == "to": keywords = ["top"]
        case "mv" where !previousWords.isEmpty && !["under", "to"].contains(previousWords.last ?? ""): keywords = ["under", "to"]
        default: keywords = []
        }
        let lowered = word.lowercased()
        let matches = keywords.filter { $0.hasPrefix(lowered) && (!lowered.isEmpty || command != "add") }
        return matches.isEmpty ? .none : Completion(start: wordStart, candidates: matches)
    }

    /// The start of the word the cursor ends: after the last white space, unless a quote is open (`@"Two w`),
    /// and then at the word that opened it.
    private static func wordStart(_ typed: [Character]) -> Int {
        let quotes = typed.indices.filter { typed[$0] == "\"" }
        if quotes.count % 2 == 1, let open = quotes.last {
            var start = open
            while start > 0 && !typed[start - 1].isWhitespace { start -= 1 }
            return start
        }
        var start = typed.count
        while start > 0 && !typed[start - 1].isWhitespace { start -= 1 }
        return start
    }

    /// `name` as one word: in double quotes when it has white space.
    private static func quoted(_ name: String) -> String {
        name.contains(where: \.isWhitespace) ? "\"" + name + "\"" : name
    }

    /// `texts` without repeats, in their order.
    private static func unique(_ texts: [String]) -> [String] {
        var seen = Set<String>()
        return texts.filter { seen.insert($0).inserted }
    }
}

/// The tags seen in the session's windows, for completion.
struct SeenTags {
    private(set) var tags = Set<String>()

    /// Adds the tags of the rows `view` shows.
    mutating func collect(from view: ViewModel?) {
        guard let view else { return }
        for row in view.rows { tags.formUnion(row.tags) }
    }
}
