/// The REPL's command line: `taskls repl [--store DIR] [--demo] [--keep-going] [--trace] ...`.

/// Settings for one REPL session.
public struct REPLOptions: Sendable {
    /// `--store DIR`; nil for the default store (`TASKLS_STORE`, else the XDG data directory).
    public var store: String?
    /// `--demo`: a throwaway store seeded with sample lists and a 100,000-item list.
    public var demo = false
    /// `--keep-going`: in a script, carry on after a failed command (the exit code is still 1).
    public var keepGoing = false
    /// `--trace`: print every message both ways on stderr.
    public var trace = false
    /// `--record FILE`: write the session as a transcript `taskls replay` runs.
    public var record: String?
    /// `--clock INSTANT`: run the server (and the REPL's "today") on a clock stopped at INSTANT.
    public var clock: String?
    /// `--time-zone NAME`: the IANA zone sent in `initialize` (default: `TZ`, `/etc/localtime`, UTC).
    public var timeZone: String?
    /// `--hold-load`: the store is read only after `debug/continueLoading` (to see `loading`).
    public var holdLoad = false
    /// `--page N`: rows per window (default: the terminal's height, or 20 in a script).
    public var page: Int?
    /// Whether commands come from a person at a terminal (a prompt, tables redrawn after changes)
    /// rather than a script.
    public var interactive = false

    /// Options with every default.
    public init() {}

    /// The usage lines of `taskls repl`, for `taskls --help`.
    public static let usage = """
        taskls repl [--store DIR] [--demo] [--keep-going] [--trace] [--record FILE]
                    [--clock INSTANT] [--time-zone NAME] [--page N]
        """

    /// Reads `arguments` (after `repl`); throws a readable message for a bad one.
    public init(arguments: [String]) throws(CommandError) {
        var rest = arguments[...]
        func value(_ flag: String) throws(CommandError) -> String {
            guard let value = rest.popFirst(), !value.isEmpty else { throw CommandError("\(flag) needs a value") }
            return value
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--store": store = try value(argument)
            case "--demo": demo = true
            case "--keep-going": keepGoing = true
            case "--trace": trace = true
            case "--record": record = try value(argument)
            case "--clock":
                let text = try value(argument)
                guard parseInstant(text) != nil else { throw CommandError("--clock: '\(text)' is not an instant such as 2026-11-22T10:00:00Z") }
                clock = text
            case "--time-zone": timeZone = try value(argument)
            case "--hold-load": holdLoad = true
            case "--page":
                let text = try value(argument)
                guard let rows = Int(text), (1...1000).contains(rows) else { throw CommandError("--page: '\(text)' is not a number of rows from 1 to 1000") }
                page = rows
            default: throw CommandError("unknown option '\(argument)' for repl")
            }
        }
        if demo && store != nil { throw CommandError("--demo uses a throwaway store of its own; leave out --store") }
    }
}
