/// The Vim 9 plugin (`editors/vim`) tested with the real editor: runs its headless suite
/// (`editors/vim/tests/run.sh`, which drives `vim --not-a-term -S tests/run.vim`) against the built
/// `taskls`, in a temporary HOME with temporary stores, and fails when any of its tests failed.
/// Without a Vim 9 on PATH it says so and passes (`.ci/run` installs Vim and checks for `vim: ran`).

#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
import Transcript

/// The first executable called `name` on $PATH.
private func vimToolOnPath(_ name: String) -> String? {
    guard let path = getenv("PATH").map({ String(cString: $0) }) else { return nil }
    for directory in path.split(separator: ":") where !directory.isEmpty {
        let candidate = "\(directory)/\(name)"
        if access(candidate, X_OK) == 0 { return candidate }
    }
    return nil
}

/// Why the suite cannot run here (nil when it can): `vim` 9.0 or later with channels, text
/// properties and popups, `timeout` and `mkfifo`.
private let vimMissing: String? = {
    guard let vim = vimToolOnPath("vim") else { return "vim not installed" }
    for tool in ["timeout", "mkfifo", "awk"] where vimToolOnPath(tool) == nil {
        return "\(tool) not installed"
    }
    guard let process = try? ServerProcess(executable: vim, arguments: ["--version"]) else {
        return "\(vim) --version cannot run"
    }
    process.closeInput()
    var bytes: [UInt8] = []
    while let chunk = process.receiveRaw(timeout: 10_000) { bytes += chunk }
    _ = process.waitForExit(timeout: 10_000)
    let version = String(decoding: bytes, as: UTF8.self)
    let firstLine = version.split(separator: "\n").first.map(String.init) ?? ""
    // "VIM - Vi IMproved 9.0 (2022 Jun 28, compiled …)": the word after "IMproved".
    let words = firstLine.split(separator: " ")
    guard let improved = words.firstIndex(of: "IMproved"), improved + 1 < words.count,
          let major = Int(words[improved + 1].prefix { $0.isNumber }) else {
        return "cannot read the version of \(vim)"
    }
    if major < 9 { return "\(vim) is older than Vim 9.0" }
    for feature in ["+channel", "+textprop", "+popupwin", "+timers"] where !version.contains(feature) {
        return "\(vim) lacks \(feature)"
    }
    return nil
}()

/// Whether the suite can run; when not, says why on stderr (`vim: skipped (reason)`).
private func vimAvailable() -> Bool {
    if let reason = vimMissing {
        writeToStandardError("vim: skipped (\(reason))\n")
        return false
    }
    return true
}

/// What one run of the suite printed, its exit code, and its closing line's counts.
private struct VimSuiteRun {
    var output: String
    var status: Int32
    var closingLine: String?
    var passed: Int?
    var failed: Int?
}

/// Runs `editors/vim/tests/run.sh` with `server` as the taskls the tests start; `filter` runs
/// only the tests whose name contains it.
private func runVimSuite(server: String, filter: String? = nil) throws -> VimSuiteRun {
    let temporary = makeTemporaryDirectory(prefix: "taskls-vim")
    defer { removeTree(temporary) }
    let script = BuildPaths.repositoryRoot + "/editors/vim/tests/run.sh"
    let process = try ServerProcess(
        executable: "/bin/sh",
        arguments: [script, server],
        environment: ["TMPDIR": temporary, "TASKLS_TEST_FILTER": filter ?? "", "TASKLS_TEST_TIMEOUT": "600"])
    process.closeInput()
    var bytes: [UInt8] = []
    while let chunk = process.receiveRaw(timeout: 650_000) { bytes += chunk }
    let status = process.waitForExit(timeout: 10_000) ?? -1
    let output = String(decoding: bytes, as: UTF8.self) + process.standardError
    var run = VimSuiteRun(output: output, status: status)
    for line in output.split(separator: "\n").reversed() where line.hasPrefix("vim: ") && line.contains(" passed, ") {
        run.closingLine = String(line)
        let words = line.split(separator: " ")
        if words.count >= 4 {
            run.passed = Int(words[1])
            run.failed = Int(words[3].filter { $0.isNumber })
        }
        break
    }
    return run
}

@Test(.enabled("needs vim 9 (the reason is on stderr: vim: skipped)") { vimAvailable() })
func vimPluginSuitePasses() throws {
    let run = try runVimSuite(server: BuildPaths.taskls)
    writeToStandardError("vim: ran\n\(run.closingLine ?? "vim: no closing line")\n")
    #expect(run.closingLine != nil, "the suite printed no closing line:\n\(run.output)")
    #expect(run.failed == 0, "\(run.output)")
    #expect((run.passed ?? 0) > 0, "\(run.output)")
    #expect(run.status == 0, "the suite exited with \(run.status):\n\(run.output)")
}

/// The suite must be able to fail: with a server that cannot start, its test fails and the
/// suite exits 1.
@Test(.enabled("needs vim 9 (the reason is on stderr: vim: skipped)") { vimMissing == nil })
func vimPluginSuiteFailsWithABrokenServer() throws {
    let run = try runVimSuite(server: "/nonexistent/taskls", filter: "Test_a1_")
    #expect(run.passed == 0 && run.failed == 1, "\(run.output)")
    #expect(run.status != 0, "\(run.output)")
}
