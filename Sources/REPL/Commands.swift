/// The REPL's commands: one entry each, with its usage, what it does and an example, which
/// `help` lists.

import Wire

/// The words of a command line after the command's name.
struct Arguments {
    /// The words, split on white space.
    let words: [Substring]
    /// The text after the command's name, as typed (for `raw`).
    let text: Substring
}

/// One command.
struct Command: Sendable {
    /// Its name and aliases; the first is the one `help` shows.
    let names: [String]
    /// Its arguments, as `help` shows them.
    let usage: String
    /// What it does, in one line.
    let summary: String
    /// An example line.
    let example: String
    /// What `help` groups it under.
    let area: String
    let run: @Sendable (REPL, Arguments) throws(CommandError) -> Void
}

/// Every command, and the dispatch by name.
enum Commands {
    static let all: [Command] = viewCommands + itemCommands + listCommands + sessionCommands

    /// Runs `line` in `repl`.
    static func run(_ line: Substring, in repl: REPL) throws(CommandError) {
        let name = line.prefix { !$0.isWhitespace }
        let text = line.dropFirst(name.count).drop { $0.isWhitespace }
        guard let command = all.first(where: { $0.names.contains(name.lowercased()) }) else {
            throw CommandError("unknown command '\(name)'; type help for the list")
        }
        try command.run(repl, Arguments(words: text.split(whereSeparator: \.isWhitespace), text: text))
    }

    /// The help text: every command with its usage, what it does and an example; or one command's.
    static func help(_ name: String?, style: Style) throws(CommandError) -> [String] {
        if let name {
            guard let command = all.first(where: { $0.names.contains(name.lowercased()) }) else {
                throw CommandError("no command '\(name)'; type help for the list")
            }
            var lines = [style.bold(command.names[0] + (command.usage.isEmpty ? "" : " " + command.usage)), "  " + command.summary]
            if command.names.count > 1 { lines.append("  also: " + command.names.dropFirst().joined(separator: ", ")) }
            lines.append("  example: " + command.example)
            return lines
        }
        var lines: [String] = []
        var area = ""
        for command in all {
            if command.area != area {
                area = command.area
                lines.append((lines.isEmpty ? "" : "\n") + style.bold(area))
            }
            let usage = command.names[0] + (command.usage.isEmpty ? "" : " " + command.usage)
            if usage.count > 30 {
                lines.append("  " + usage)
                lines.append("  " + pad("", 30) + " " + command.summary)
            } else {
                lines.append("  " + pad(usage, 30) + " " + command.summary)
            }
            lines.append("  " + pad("", 30) + " " + style.dim("e.g. " + command.example))
        }
        lines.append("")
        lines.append("ROW is a row number of the window (3), a range (3-5) or an item id (i42).")
        return lines
    }
}
