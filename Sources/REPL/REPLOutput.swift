/// Where the REPL writes: its output (tables, change lines) and its errors.

#if canImport(Glibc)
import Glibc
#endif

/// A sink for the REPL's text. The process's is stdout and stderr; tests capture both in order.
public protocol REPLOutput: AnyObject {
    /// Writes output text (tables, change lines, results).
    func write(_ text: String)
    /// Writes an error or diagnostic line (errors, `--trace`).
    func writeError(_ text: String)
}

/// Standard output and standard error.
public final class StandardOutput: REPLOutput {
    public init() {}

    public func write(_ text: String) { writeAll(1, text) }

    public func writeError(_ text: String) { writeAll(2, text) }

    private func writeAll(_ descriptor: Int32, _ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            bytes = bytes.dropFirst(written)
        }
    }
}
