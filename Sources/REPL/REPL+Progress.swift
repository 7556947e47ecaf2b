/// Loading progress at a terminal: one line, rewritten in place while nothing was printed after it.

extension REPL {
    /// The output's line count, when it counts them (a terminal: `LineCountingOutput`); nil otherwise.
    var outputLines: Int? { (output as? LineCountingOutput)?.lines }

    /// Notes that the line just printed is a progress line (the store's or the open view's loading line), so
    /// that the next progress replaces it. Does nothing when the output is not a terminal's.
    func markProgressLine() {
        progressLineEnd = outputLines
        if let current = view, current.state.isLoading { shownProgress = Int(current.progress * 10) }
    }

    /// Moves up over the last progress line, clearing it, when nothing was printed after it (the caller then
    /// prints in its place). The cursor must be at the start of an empty row.
    func replaceProgressLine() {
        if let end = progressLineEnd, end == outputLines { output.write("\u{1B}[1A\r\u{1B}[K") }
        progressLineEnd = nil
    }

    /// Prints a progress line: over the previous one when nothing came after it (at a terminal), else below.
    func sayProgress(_ line: String) {
        replaceProgressLine()
        say(line)
        markProgressLine()
    }
}
