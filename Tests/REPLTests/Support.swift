/// Runs REPL sessions in-process for the tests.

#if canImport(Glibc)
import Glibc
#endif
import Foundation
@testable import REPL
import Server
import TestSupport
import Transcript

/// Output and errors captured in the order they were written.
final class CapturedOutput: REPLOutput {
    private(set) var text = ""
    func write(_ text: String) { self.text += text }
    func writeError(_ text: String) { self.text += text }

    /// Takes what was written so far.
    func take() -> String {
        defer { text = "" }
        return text
    }
}

/// A REPL in this process on a fresh temporary store (unless `arguments` name one), in plain
/// style, 80 columns wide, in UTC unless told otherwise.
func startREPL(_ arguments: [String], output: CapturedOutput) throws -> (REPL, store: String) {
    var options = try REPLOptions(arguments: arguments)
    if options.timeZone == nil { options.timeZone = "UTC" }
    let store = options.store ?? makeTemporaryDirectory(prefix: "taskls-repl-test")
    let repl = try REPL(options: options, output: output, style: .plain(width: 80), storeSetting: .directory(store))
    return (repl, store)
}
