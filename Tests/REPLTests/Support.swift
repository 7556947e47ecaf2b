/// Runs REPL sessions in-process for the tests, and finds the built `taskls` for the others.

#if canImport(Glibc)
import Glibc
#endif
import Foundation
@testable import REPL
import Server
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

/// Paths of the repository and the built binary.
enum Paths {
    /// The repository root.
    static let repositoryRoot: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path
    }()

    /// The `taskls` executable `swift test` built beside the test bundle.
    static let binary: String = {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        var directory = String(decoding: buffer[0..<max(0, count)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        while let slash = directory.lastIndex(of: "/") {
            directory = String(directory[..<slash])
            let candidate = directory + "/taskls"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return "taskls"
    }()
}
