/// How output looks: colors and Unicode on a terminal, plain ASCII otherwise, and the width to fit.

#if canImport(Glibc)
import Glibc
#endif

/// The look of the REPL's output.
public struct Style: Sendable {
    /// Whether to use ANSI colors.
    public var color: Bool
    /// Whether to use Unicode symbols (checkboxes, ellipsis, arrows) rather than ASCII.
    public var unicode: Bool
    /// The width of the output in columns.
    public var width: Int
    /// Whether prose (help, warnings, errors) is broken at spaces to `width`: on a terminal, which would
    /// otherwise break it mid-word. Pipes and files get one line per message.
    public var wraps: Bool

    /// A style with these settings.
    public init(color: Bool, unicode: Bool, width: Int, wraps: Bool = false) {
        self.color = color
        self.unicode = unicode
        self.width = width
        self.wraps = wraps
    }

    /// Plain ASCII, no colors, `width` columns, no wrapping: for pipes, files and golden tests.
    public static func plain(width: Int = 80) -> Style { Style(color: false, unicode: false, width: width) }

    /// The style for standard output: colors and Unicode on a terminal unless `NO_COLOR` is
    /// set; the width from `COLUMNS`, else the terminal, else 80; prose wrapped on a terminal.
    public static func forStandardOutput(environment: (String) -> String?) -> Style {
        let terminal = isatty(1) == 1
        let fancy = terminal && (environment("NO_COLOR") ?? "").isEmpty && environment("TERM") != "dumb"
        return Style(color: fancy, unicode: fancy, width: terminalWidth(environment: environment), wraps: terminal)
    }

    /// `COLUMNS` when set, else the terminal's width (`TIOCGWINSZ`), else 80; at least 40.
    static func terminalWidth(environment: (String) -> String?) -> Int {
        if let text = environment("COLUMNS"), let columns = Int(text), columns > 0 { return max(40, columns) }
        var size = winsize()
        if ioctl(1, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 { return max(40, Int(size.ws_col)) }
        return 80
    }

    func paint(_ text: String, _ code: String) -> String { color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
    func bold(_ text: String) -> String { paint(text, "1") }
    func dim(_ text: String) -> String { paint(text, "2") }
    func red(_ text: String) -> String { paint(text, "31") }
    func green(_ text: String) -> String { paint(text, "32") }
    func yellow(_ text: String) -> String { paint(text, "33") }
    func cyan(_ text: String) -> String { paint(text, "36") }

    var ellipsis: String { unicode ? "…" : "..." }
    var arrow: String { unicode ? "→" : "->" }
    var dash: String { unicode ? "—" : "-" }
    var dot: String { unicode ? "·" : "|" }
    /// Marks a repeating task's due: ↻ (plain: `(r)`).
    var repeatMark: String { unicode ? "↻" : "(r)" }
    var rule: Character { unicode ? "─" : "-" }
    func checkbox(_ done: Bool) -> String { unicode ? (done ? "☑" : "☐") : (done ? "[x]" : "[ ]") }
    /// The marker of a task whose subtasks show (`▾`, `-`) or are folded away (`▸`, `+`): one cell.
    func foldMark(collapsed: Bool) -> String { unicode ? (collapsed ? "▸" : "▾") : (collapsed ? "+" : "-") }

    /// `text` cut to at most `columns` terminal cells (`DisplayWidth`), ending in the ellipsis when cut.
    /// - Complexity: O(n) in the length of `text`.
    func truncate(_ text: String, to columns: Int) -> String {
        if unicode { return DisplayWidth.truncated(text, toWidth: columns) }
        guard DisplayWidth.of(text) > columns else { return text }
        var kept = ""
        var cells = 0
        for character in text {
            let width = DisplayWidth.of(character)
            if cells + width > columns - ellipsis.count { break }
            kept.append(character)
            cells += width
        }
        return kept + String(ellipsis.prefix(max(0, columns)))
    }

    /// `text` cut to `columns` cells and padded with spaces to exactly that many.
    func fitted(_ text: String, to columns: Int) -> String {
        DisplayWidth.padded(truncate(text, to: columns), toWidth: columns)
    }
}
