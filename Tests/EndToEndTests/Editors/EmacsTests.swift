/// The Emacs package (`editors/emacs`) tested with the real editor: runs its ERT suite
/// (`editors/emacs/tests/run.el`, in batch mode) against the built `taskls`, in a temporary HOME with
/// temporary stores, and fails when any of its tests failed. Without `emacs` on PATH it says so and
/// passes (`.ci/run` installs `emacs-nox` and checks for `emacs: ran`).

#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
import Transcript

/// `emacs` and `timeout` on $PATH, or nil after saying on stderr that the suite is skipped.
private func emacsTools() -> (emacs: String, timeout: String)? {
    guard let emacs = executableOnPath("emacs"), let timeout = executableOnPath("timeout") else {
        writeToStandardError("emacs: skipped (emacs not installed)\n")
        return nil
    }
    return (emacs, timeout)
}

/// What one run of the ERT suite printed, its exit code, and its closing line's counts.
private struct EmacsSuiteRun {
    var output: String
    var status: Int32
    var closingLine: String?
    var passed: Int?
    var failed: Int?
}

/// Runs the suite with `emacs --batch` under `timeout`; `server` is the taskls the tests start and
/// `selector` a regexp of test names (empty: every test).
private func runEmacsSuite(emacs: String, timeout: String, server: String, selector: String = "") throws -> EmacsSuiteRun {
    let temporary = makeTemporaryDirectory(prefix: "taskls-emacs")
    defer { removeTree(temporary) }
    let home = temporary + "/home"
    mkdir(home, 0o700)
    let environment = [
        "HOME": home,
        "XDG_CONFIG_HOME": home + "/.config",
        "XDG_DATA_HOME": home + "/.local/share",
        "XDG_CACHE_HOME": home + "/.cache",
        "XDG_STATE_HOME": home + "/.local/state",
        "TASKLS_BIN": server,
        "TASKLS_TEST_TMP": temporary,
        "TASKLS_STORE": temporary + "/unused-store",
        "TASKLS_TEST_SELECTOR": selector,
    ]
    let package = BuildPaths.repositoryRoot + "/editors/emacs"
    let process = try ServerProcess(
        executable: timeout,
        arguments: ["900", emacs, "-Q", "--batch", "-L", package, "-L", package + "/tests",
                    "-l", package + "/tests/run.el"],
        environment: environment)
    process.closeInput()
    var bytes: [UInt8] = []
    while let chunk = process.receiveRaw(timeout: 960_000) { bytes += chunk }
    let status = process.waitForExit(timeout: 10_000) ?? -1
    let output = String(decoding: bytes, as: UTF8.self) + process.standardError
    var run = EmacsSuiteRun(output: output, status: status)
    for line in output.split(separator: "\n").reversed() where line.hasPrefix("emacs: ") && line.contains(" passed, ") {
        run.closingLine = String(line)
        let words = line.split(separator: " ")
        if words.count >= 4 {
            run.passed = Int(words[1])
            run.failed = Int(words[3].filter { $0 != "," })
        }
        break
    }
    return run
}

@Test(.enabled("needs emacs (the reason is on stderr: emacs: skipped)") { emacsTools() != nil })
func emacsPackageSuitePasses() throws {
    guard let tools = emacsTools() else { return }
    let run = try runEmacsSuite(emacs: tools.emacs, timeout: tools.timeout, server: BuildPaths.taskls)
    writeToStandardError("emacs: ran\n\(run.closingLine ?? "emacs: no closing line")\n")
    #expect(run.closingLine != nil, "the suite printed no closing line:\n\(run.output)")
    #expect(run.failed == 0, "\(run.output)")
    #expect((run.passed ?? 0) > 0, "\(run.output)")
    #expect(run.status == 0, "emacs exited with \(run.status):\n\(run.output)")
}

/// The suite must be able to fail: with a server that cannot start, its test fails and emacs exits 1.
@Test(.enabled("needs emacs (the reason is on stderr: emacs: skipped)") { emacsTools() != nil })
func emacsPackageSuiteFailsWithABrokenServer() throws {
    guard let tools = emacsTools() else { return }
    let run = try runEmacsSuite(emacs: tools.emacs, timeout: tools.timeout, server: "/nonexistent/taskls",
                                selector: "taskls-overview-shows-groups-and-lists-live")
    #expect(run.passed == 0 && run.failed == 1, "\(run.output)")
    #expect(run.status != 0, "\(run.output)")
}
