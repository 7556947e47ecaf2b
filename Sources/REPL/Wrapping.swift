/// Prose broken at word boundaries to the terminal's width, so that a terminal does not break it mid-word.

/// Breaking lines of prose at spaces to a width in terminal cells (`DisplayWidth`; ANSI color sequences take none).
enum Wrapping {
    /// `line` broken at spaces into lines of at most `width` cells. The first line keeps its leading spaces;
    /// the others start with `indent` spaces (a table's second column: a hanging indent), or the first line's
    /// leading spaces when `indent` is nil. An indent of half the width or more falls back to the leading spaces
    /// (at most two). A word wider than a line stays whole on a line of its own. A line that fits is returned
    /// unchanged; the lines returned have no trailing spaces.
    /// - Complexity: O(n) in the length of `line`.
    static func wrap(_ line: String, width: Int, indent: Int? = nil) -> [String] {
        guard cells(line) > width else { return [line] }
        let lead = line.prefix { $0 == " " }.count
        var hanging = indent ?? lead
        if hanging >= width / 2 { hanging = min(lead, 2, width / 2) }
        var lines: [String] = []
        var current = String(repeating: " ", count: lead)
        var used = lead
        var hasWord = false
        var rest = line.dropFirst(lead)
        while !rest.isEmpty {
            let spaces = rest.prefix { $0 == " " }.count
            rest = rest.dropFirst(spaces)
            let word = rest.prefix { $0 != " " }
            rest = rest.dropFirst(word.count)
            guard !word.isEmpty else { break }
            let wordCells = cells(word)
            if hasWord && used + spaces + wordCells > width {
                lines.append(current)
                current = String(repeating: " ", count: hanging)
                used = hanging
            } else if hasWord {
                current += String(repeating: " ", count: spaces)
                used += spaces
            }
            current += word
            used += wordCells
            hasWord = true
        }
        lines.append(current)
        return lines
    }

    /// The cells `text` takes on a terminal: `DisplayWidth`, not counting ANSI escape sequences (`ESC [ … m`).
    /// - Complexity: O(n) in the length of `text`.
    static func cells<Text: StringProtocol>(_ text: Text) -> Int {
        var total = 0
        var inEscape = false
        for character in text {
            if inEscape {
                if character.isLetter { inEscape = false }
            } else if character == "\u{1B}" {
                inEscape = true
            } else {
                total += DisplayWidth.of(character)
            }
        }
        return total
    }
}

extension Style {
    /// `line` as it is printed: unchanged unless `wraps`; then broken at spaces to `width` (`Wrapping.wrap`),
    /// the lines after the first starting at `indent` (a table's second column), else at the line's own indent.
    func wrapped(_ line: String, indent: Int? = nil) -> [String] {
        wraps ? Wrapping.wrap(line, width: width, indent: indent) : [line]
    }

    /// A two-column table row: `key` from `lead` spaces in, padded to `keyWidth`, two spaces, then `text`
    /// (wrapped, when `wraps`, with a hanging indent at the second column).
    func tableRow(_ key: String, _ text: String, keyWidth: Int, lead: Int = 2) -> [String] {
        let start = String(repeating: " ", count: lead) + DisplayWidth.padded(key, toWidth: keyWidth)
        return wrapped(trimTrailing(start + "  " + text), indent: lead + max(keyWidth, Wrapping.cells(key)) + 2)
    }
}
