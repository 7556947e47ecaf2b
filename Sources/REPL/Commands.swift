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
    static let all: [Command] = viewCommands + itemCommands + treeCommands + listCommands + smartListCommands + reminderCommands + exchangeCommands + syncCommands
        + sessionCommands

    /// Runs `line` in `repl`.
    static func run(_ line: Substring, in repl: REPL) throws(CommandError) {
        let name = line.prefix { !$0.isWhitespace }
        let text = line.dropFirst(name.count).drop { $0.isWhitespace }
        guard let command = all.first(where: { $0.names.contains(name.lowercased()) }) else {
            throw CommandError("unknown command '\(name)'; type help for the list")
        }
        try command.run(repl, Arguments(words: text.split(whereSeparator: \.isWhitespace), text: text))
    }

    /// The command named `name` (or one of its aliases), ignoring case.
    static func named(_ name: String) -> Command? {
        all.first { $0.names.contains(name.lowercased()) }
    }

    /// The help text: nothing asked, a short index; a command, its usage, what it does, its aliases and an
    /// example; a topic (`dates`, `filters`, `entry`, `keys`), that topic; `all`, every command in full.
    static func help(_ name: String?, style: Style) throws(CommandError) -> [String] {
        guard let name else { return HelpText.index(style: style) }
        if let topic = HelpText.topic(name.lowercased(), style: style) { return topic }
        if name.lowercased() == "all" { return everyCommand(style: style) }
        guard let command = named(name) else {
            throw CommandError("no command or topic '\(displayed(name))'; help lists the commands, help all explains each")
        }
        var lines = style.wrapped(style.bold(command.names[0] + (command.usage.isEmpty ? "" : " " + command.usage)), indent: 2)
            + style.wrapped("  " + command.summary)
        if command.names.count > 1 { lines += style.wrapped("  also: " + command.names.dropFirst().joined(separator: ", "), indent: 8) }
        lines += style.wrapped("  example: " + command.example, indent: 11)
        return lines
    }

    /// Every command with its usage, what it does, its aliases and an example, by area (on a terminal, each
    /// wrapped with a hanging indent at the second column).
    static func everyCommand(style: Style) -> [String] {
        var lines: [String] = []
        var area = ""
        for command in all {
            if command.area != area {
                area = command.area
                lines.append((lines.isEmpty ? "" : "\n") + style.bold(area))
            }
            let usage = command.names[0] + (command.usage.isEmpty ? "" : " " + command.usage)
            let indent = String(repeating: " ", count: 31)
            if DisplayWidth.of(usage) > 30 {
                lines += style.wrapped("  " + usage, indent: 4)
                lines += style.wrapped("  " + indent + command.summary)
            } else {
                lines += style.wrapped("  " + DisplayWidth.padded(usage, toWidth: 30) + " " + command.summary, indent: 33)
            }
            if command.names.count > 1 { lines += style.wrapped("  " + indent + style.dim("also: " + command.names.dropFirst().joined(separator: ", "))) }
            lines += style.wrapped("  " + indent + style.dim("e.g. " + command.example))
        }
        lines.append("")
        lines += style.wrapped(HelpText.rowLine)
        return lines
    }
}
