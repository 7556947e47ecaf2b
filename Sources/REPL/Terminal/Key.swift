/// The keys a person presses at the REPL's prompt, as the key decoder reads them from the terminal's bytes.

/// One key press (or one run of typed or pasted text).
enum Key: Equatable, Sendable {
    /// Printable text: one or more characters typed or pasted (never a control character).
    case text(String)
    /// Return or Enter (`\r` or `\n`).
    case enter
    case tab
    /// Backspace (DEL, `0x7F`) or Ctrl-H.
    case backspace
    /// The Delete key (`ESC[3~`).
    case delete
    case left, right, up, down
    case home, end
    /// A word left: Alt-B (`ESC b`), Ctrl-← or Alt-←.
    case wordLeft
    /// A word right: Alt-F (`ESC f`), Ctrl-→ or Alt-→.
    case wordRight
    /// Alt-D: delete the word after the cursor.
    case deleteWordRight
    /// Alt-Backspace: delete the word before the cursor.
    case deleteWordLeft
    /// Ctrl and a letter, as the lowercase letter (`.control("a")` for Ctrl-A); Ctrl-H, Ctrl-I, Ctrl-J and
    /// Ctrl-M come as `.backspace`, `.tab` and `.enter` instead.
    case control(Character)
    /// ESC alone (nothing followed it in time).
    case escape
}
