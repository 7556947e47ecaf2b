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

/// Why the suite cannot run here (nil when it can): `vim` 9.0 or later with channels, text
/// properties and popups, `timeout` and `mkfifo`.
private let vimMissing: String? = {
    guard let vim = executableOnPath("vim") else { return "vim not installed" }
    for tool in ["timeout", "mkfifo", "awk"] where executableOnPath(tool) == nil {
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

/// Runs `editors/vim/tests/run.sh` with `server` as the taskls the tests start; `filter` runs
/// only the tests whose name contains it.
private func runVimSuite(server: String, filter: String? = nil) throws -> EditorSuiteRun {
    let script = BuildPaths.repositoryRoot + "/editors/vim/tests/run.sh"
    return try runEditorSuite(name: "vim", timeout: executableOnPath("timeout") ?? "timeout", seconds: 650,
                              arguments: ["/bin/sh", script, server], server: server, filter: filter,
                              environment: ["TASKLS_TEST_TIMEOUT": "600"])
}

extension EditorSuites {
    @Test(.enabled("needs vim 9 (the reason is on stderr: vim: skipped)") { vimAvailable() })
    func vimPluginSuitePasses() throws {
        try runVimSuite(server: BuildPaths.taskls).expectPassed(marker: "vim", closing: "vim")
    }

    /// The suite must be able to fail: with a server that cannot start, its test fails and the
    /// suite exits 1.
    @Test(.enabled("needs vim 9 (the reason is on stderr: vim: skipped)") { vimMissing == nil })
    func vimPluginSuiteFailsWithABrokenServer() throws {
        try runVimSuite(server: "/nonexistent/taskls", filter: "Test_a1_").expectOneFailure()
    }
}
