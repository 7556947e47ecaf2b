/// The REPL's output at a terminal, counting the lines it ended: the line editor's loop rewrites a progress
/// line in place only while no other line came after it.

/// An output that passes everything on to another and counts the newlines written to either stream.
final class LineCountingOutput: REPLOutput {
    private let base: REPLOutput
    /// Newlines written so far.
    private(set) var lines = 0

    /// An output that writes to `base`.
    init(_ base: REPLOutput) { self.base = base }

    func write(_ text: String) {
        lines += text.utf8.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        base.write(text)
    }

    func writeError(_ text: String) {
        lines += text.utf8.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        base.writeError(text)
    }
}
