/// Running an editor's own test suite (Neovim's, Vim's, Emacs's, the VS Code extension's) from `swift test`: in a
/// temporary HOME with temporary stores, under `timeout`, against a given `taskls`; reading the suite's closing line
/// (`NAME: N passed, N failed`); and saying `NAME: ran` or `NAME: skipped (REASON)` on stderr, the markers
/// `.ci/run` requires.

#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
import Transcript

/// Every editor's suite, one at a time: each builds a 100,000-item store and starts servers and editors (or a
/// browser), and on two cores several at once slow each other past their timeouts. The tests are in extensions
/// of this suite, one file per editor.
@Suite(.serialized)
struct EditorSuites {}

/// The first executable called `name` on $PATH.
func executableOnPath(_ name: String) -> String? {
    guard let path = getenv("PATH").map({ String(cString: $0) }) else { return nil }
    for directory in path.split(separator: ":") where !directory.isEmpty {
        let candidate = "\(directory)/\(name)"
        if access(candidate, X_OK) == 0 { return candidate }
    }
    return nil
}

/// The executables `names` on $PATH, in that order, or nil after saying on stderr that the suite `marker` is skipped
/// and which are missing.
func editorTools(_ names: [String], marker: String) -> [String]? {
    let found = names.map(executableOnPath)
    let missing = zip(names, found).filter { $0.1 == nil }.map(\.0)
    guard missing.isEmpty else {
        writeToStandardError("\(marker): skipped (\(missing.joined(separator: ", ")) not installed)\n")
        return nil
    }
    return found.compactMap { $0 }
}

/// What one run of an editor's suite printed, its exit code, and its closing line's counts.
struct EditorSuiteRun {
    var output: String
    var status: Int32
    /// The last `NAME: N passed, N failed` line.
    var closingLine: String?
    var passed: Int?
    var failed: Int?

    /// Expects a run that passed: a closing line, no failure, at least one pass, exit code 0; says `marker: ran` and
    /// the closing line (renamed to `marker`) on stderr.
    func expectPassed(marker: String, closing name: String) {
        let closing = closingLine.map { marker + $0.dropFirst(name.count) } ?? "\(marker): no closing line"
        writeToStandardError("\(marker): ran\n\(closing)\n")
        #expect(closingLine != nil, "the suite printed no closing line:\n\(output)")
        #expect(failed == 0, "\(output)")
        #expect((passed ?? 0) > 0, "\(output)")
        #expect(status == 0, "the suite exited with \(status):\n\(output)")
    }

    /// Expects the run of one test against a server that cannot start: that test failed and the suite said so.
    func expectOneFailure() {
        #expect(passed == 0 && failed == 1, "\(output)")
        #expect(status != 0, "\(output)")
    }
}

/// Runs `arguments` under `timeout SECONDS`, with a temporary HOME (and XDG directories in it), `TASKLS_BIN` =
/// `server`, `TASKLS_TEST_TMP` a temporary directory, `TASKLS_STORE` a store no test should touch,
/// `TASKLS_TEST_FILTER` = `filter` and `TASKLS_TEST_BIG_STORE` the shared 100,000-item store (`SharedBigStore`, for
/// the suite to copy), plus `environment`; returns what it printed, read for the closing line that
/// starts with `name: `.
func runEditorSuite(name: String, timeout: String, seconds: Int, arguments: [String], server: String,
                    filter: String? = nil, environment extra: [String: String] = [:]) throws -> EditorSuiteRun {
    let temporary = makeTemporaryDirectory(prefix: "taskls-\(name)")
    defer { removeTree(temporary) }
    let home = temporary + "/home"
    mkdir(home, 0o700)
    var environment = [
        "HOME": home,
        "XDG_CONFIG_HOME": home + "/.config",
        "XDG_DATA_HOME": home + "/.local/share",
        "XDG_CACHE_HOME": home + "/.cache",
        "XDG_STATE_HOME": home + "/.local/state",
        "TASKLS_BIN": server,
        "TASKLS_TEST_TMP": temporary,
        "TASKLS_STORE": temporary + "/unused-store",
        "TASKLS_TEST_FILTER": filter ?? "",
        "TMPDIR": temporary,
        "TASKLS_TEST_BIG_STORE": SharedBigStore.path ?? "",
    ]
    for (key, value) in extra { environment[key] = value }
    let process = try ServerProcess(executable: timeout, arguments: [String(seconds)] + arguments, environment: environment)
    process.closeInput()
    var bytes: [UInt8] = []
    while let chunk = process.receiveRaw(timeout: Int32((seconds + 30) * 1000)) { bytes += chunk }
    let status = process.waitForExit(timeout: 10_000) ?? -1
    let output = String(decoding: bytes, as: UTF8.self) + process.standardError
    var run = EditorSuiteRun(output: output, status: status)
    for line in output.split(separator: "\n").reversed() where line.hasPrefix("\(name): ") && line.contains(" passed, ") {
        run.closingLine = String(line)
        let words = line.split(separator: " ")
        if words.count >= 4 {
            run.passed = Int(words[1])
            run.failed = Int(words[3].filter(\.isNumber))
        }
        break
    }
    return run
}
