/// Stored text as the REPL prints it: every character that could drive a terminal or reorder what it
/// shows is replaced by a visible escape, so no title, note, tag or list name (which another client may
/// have written) can clear the screen, set the window title or hide text.

/// `text` with each control shown as an escape, ready to print (and to style: escape data before styling it).
///
/// Escaped: the C0 controls U+0000–U+001F (`\n`, `\t`, `\r`, `\e` for ESC, `\u{7}` and so on for the
/// others), DEL U+007F, the C1 controls U+0080–U+009F (`\u{9B}`), and the bidirectional overrides and
/// isolates U+202A–U+202E and U+2066–U+2069 (`\u{202E}`). A newline is escaped too: one stored text
/// prints on one line (`show` splits notes into lines before escaping each).
///
/// A backslash prints as itself (`C:\Users` stays readable) unless what follows it could be read as an
/// escape — a backslash, `e`, `n`, `r`, `t`, `u` or an escaped character — and then it doubles (`\\`),
/// so the printed form always reads back to exactly one stored text. Text with neither controls nor
/// backslashes comes back unchanged.
///
/// - Complexity: O(n) in the text's length; no copy when nothing needs escaping.
func displayed(_ text: String) -> String {
    let scalars = text.unicodeScalars
    guard scalars.contains(where: { $0 == "\\" || needsEscape($0) }) else { return text }
    var result = String.UnicodeScalarView()
    var index = scalars.startIndex
    while index != scalars.endIndex {
        let scalar = scalars[index]
        let next = scalars.index(after: index)
        if scalar == "\\" {
            result.append(scalar)
            if next != scalars.endIndex && readsAsEscape(after: scalars[next]) { result.append(scalar) }
        } else if needsEscape(scalar) {
            result.append(contentsOf: escape(scalar).unicodeScalars)
        } else {
            result.append(scalar)
        }
        index = next
    }
    return String(result)
}

/// Whether `scalar` is a control or a bidi override/isolate that `displayed` escapes.
private func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
}

/// Whether a backslash followed by `scalar` would print like the start of an escape.
private func readsAsEscape(after scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "\\", "e", "n", "r", "t", "u": true
    default: needsEscape(scalar)
    }
}

/// The visible escape for one escaped scalar: `\n`, `\t`, `\r`, `\e`, else `\u{HEX}` in capitals.
private func escape(_ scalar: Unicode.Scalar) -> String {
    switch scalar {
    case "\n": "\\n"
    case "\t": "\\t"
    case "\r": "\\r"
    case "\u{1B}": "\\e"
    default: "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    }
}

/// JSON text (as `raw` and `--trace` print it) with DEL, the C1 controls and the bidi overrides and
/// isolates written as JSON escapes (`\u009b`), so it stays valid JSON that reads back to the same
/// value; the serializer has already escaped the C0 controls, and outside strings JSON has none of these.
///
/// - Complexity: O(n) in the text's length; no copy when nothing needs escaping.
func displayed(json text: String) -> String {
    let scalars = text.unicodeScalars
    guard scalars.contains(where: needsEscape) else { return text }
    var result = String.UnicodeScalarView()
    for scalar in scalars {
        guard needsEscape(scalar) else { result.append(scalar); continue }
        let digits = String(scalar.value, radix: 16)
        result.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - digits.count) + digits).unicodeScalars)
    }
    return String(result)
}
