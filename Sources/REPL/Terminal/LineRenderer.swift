/// How the prompt and the line are drawn on one terminal row, in terminal cells: a line wider than the
/// terminal scrolls sideways so the cursor always shows.

/// Draws a prompt and a line on the current terminal row.
enum LineRenderer {
    /// The bytes that redraw the row: back to its start, the prompt, the part of the line that fits, erase to
    /// the end of the row, and the cursor put back under its character.
    ///
    /// `prompt` may hold color escapes; `promptWidth` is the cells it takes. Each character of the line is drawn
    /// as `displayed` shows it (a control character as `\e`, never raw) and measured with `DisplayWidth`, so the
    /// cursor lands right after wide CJK characters and emoji. The line uses at most `width - 1` cells after
    /// the prompt (the last column stays free, so the terminal never wraps); when it is wider, the window of it
    /// shown is the one that ends at the cursor, or starts at the line's start when the cursor fits there.
    /// - Complexity: O(n) in the line's length.
    static func draw(prompt: String, promptWidth: Int, line: [Character], cursor: Int, width: Int) -> String {
        let pieces = line.map { character -> (text: String, cells: Int) in
            let text = displayed(String(character))
            return (text, DisplayWidth.of(text))
        }
        let window = visibleRange(cells: pieces.map(\.cells), cursor: cursor, room: max(1, width - promptWidth - 1))
        var row = "\r" + prompt
        for piece in pieces[window] { row += piece.text }
        row += "\u{1B}[0K\r"
        let column = promptWidth + pieces[window.lowerBound..<min(cursor, window.upperBound)].reduce(0) { $0 + $1.cells }
        if column > 0 { row += "\u{1B}[\(column)C" }
        return row
    }

    /// The characters to show of a line whose characters take `cells`, so that the cursor shows and they take at
    /// most `room` cells: from the line's start when the cursor fits there, else the window ending at the cursor.
    /// - Complexity: O(n) in the number of characters.
    static func visibleRange(cells: [Int], cursor: Int, room: Int) -> Range<Int> {
        var start = 0
        var used = cells[..<cursor].reduce(0, +)
        // The cursor's own cell must fit too (the character under it, or the blank after the line).
        let cursorCells = cursor < cells.count ? max(1, cells[cursor]) : 1
        while start < cursor && used + cursorCells > room {
            used -= cells[start]
            start += 1
        }
        var end = start
        var taken = 0
        while end < cells.count && taken + cells[end] <= room {
            taken += cells[end]
            end += 1
        }
        return start..<max(end, min(cursor, cells.count))
    }
}
