/// The VS Code extension (`editors/vscode`) tested without VS Code, against the built `taskls`: its
/// extension-host side with `node --test` (`editors/vscode/test/run.js`: framing, the client, the
/// view model, the pane host, `activate()` with a stand-in `vscode` module), and its list pane's page
/// in a real headless Chromium (`editors/vscode/test/webview/run.py`, selenium). Each suite prints
/// `vscode: ran` / `vscode-webview: ran`, or `…: skipped (reason)` when what it needs is missing
/// (`.ci/run` installs it and checks for `ran`), then its closing line `NAME: N passed, N failed`.

#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
import Transcript

/// `node` and `timeout` on $PATH, or nil after saying on stderr that the suite is skipped.
private func nodeTools() -> (node: String, timeout: String)? {
    guard let node = executableOnPath("node"), let timeout = executableOnPath("timeout") else {
        writeToStandardError("vscode: skipped (node not installed)\n")
        return nil
    }
    return (node, timeout)
}

/// `python3` with selenium, `chromium`, `chromedriver`, `node` and `timeout`, or nil after saying
/// on stderr which is missing.
private func webviewTools() -> (python: String, timeout: String, node: String)? {
    var missing: [String] = []
    let python = executableOnPath("python3")
    for name in ["node", "chromium", "chromedriver", "timeout"] where executableOnPath(name) == nil { missing.append(name) }
    if python == nil { missing.append("python3") }
    if let python, missing.isEmpty {
        let probe = try? ServerProcess(executable: python, arguments: ["-c", "import selenium"])
        probe?.closeInput()
        if probe?.waitForExit(timeout: 30_000) != 0 { missing.append("selenium (pip)") }
    }
    guard missing.isEmpty, let python, let timeout = executableOnPath("timeout"), let node = executableOnPath("node") else {
        writeToStandardError("vscode-webview: skipped (\(missing.joined(separator: ", ")) not installed)\n")
        return nil
    }
    return (python, timeout, node)
}

/// What one run of a suite printed, its exit code, and its closing line's counts.
private struct SuiteRun {
    var output: String
    var status: Int32
    var closingLine: String?
    var passed: Int?
    var failed: Int?
}

/// Runs `arguments` under `timeout` with a temporary HOME and `TASKLS_BIN` = `server`, and reads the
/// closing line that starts with `name: `.
private func runSuite(name: String, timeout: String, seconds: Int, arguments: [String], server: String,
                      filter: String?, extra: [String: String] = [:]) throws -> SuiteRun {
    let temporary = makeTemporaryDirectory(prefix: "taskls-\(name)")
    defer { removeTree(temporary) }
    let home = temporary + "/home"
    mkdir(home, 0o700)
    var environment = [
        "HOME": home,
        "XDG_CONFIG_HOME": home + "/.config",
        "XDG_DATA_HOME": home + "/.local/share",
        "XDG_CACHE_HOME": home + "/.cache",
        "TASKLS_BIN": server,
        "TASKLS_TEST_TMP": temporary,
        "TASKLS_TEST_FILTER": filter ?? "",
    ]
    for (key, value) in extra { environment[key] = value }
    let process = try ServerProcess(executable: timeout, arguments: [String(seconds)] + arguments, environment: environment)
    process.closeInput()
    var bytes: [UInt8] = []
    while let chunk = process.receiveRaw(timeout: Int32((seconds + 30) * 1000)) { bytes += chunk }
    let status = process.waitForExit(timeout: 10_000) ?? -1
    let output = String(decoding: bytes, as: UTF8.self) + process.standardError
    var run = SuiteRun(output: output, status: status)
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

private let extensionFolder = BuildPaths.repositoryRoot + "/editors/vscode"

private func runNodeSuite(_ tools: (node: String, timeout: String), server: String, filter: String? = nil) throws -> SuiteRun {
    try runSuite(name: "vscode", timeout: tools.timeout, seconds: 300,
                 arguments: [tools.node, extensionFolder + "/test/run.js"], server: server, filter: filter)
}

/// Where the Chromium suite's screenshots go: `$TASKLS_ARTIFACTS/vscode-webview`, else under `.build`.
private let screenshotDirectory: String = {
    if let root = getenv("TASKLS_ARTIFACTS").map({ String(cString: $0) }), !root.isEmpty { return root + "/vscode-webview" }
    return BuildPaths.repositoryRoot + "/.build/artifacts/vscode-webview"
}()

private func runWebviewSuite(_ tools: (python: String, timeout: String, node: String), server: String,
                             filter: String? = nil, artifacts: String = screenshotDirectory) throws -> SuiteRun {
    try runSuite(name: "vscode-webview", timeout: tools.timeout, seconds: 600,
                 arguments: [tools.python, extensionFolder + "/test/webview/run.py", "--bin", server, "--artifacts", artifacts],
                 server: server, filter: filter)
}

/// One suite at a time: each starts servers and browsers, and the machine's cores are shared.
@Suite(.serialized)
struct VSCodeExtensionSuites {
    @Test(.enabled("needs node (the reason is on stderr: vscode: skipped)") { nodeTools() != nil })
    func vscodeExtensionHostSuitePasses() throws {
        guard let tools = nodeTools() else { return }
        let run = try runNodeSuite(tools, server: BuildPaths.taskls)
        writeToStandardError("vscode: ran\n\(run.closingLine ?? "vscode: no closing line")\n")
        #expect(run.closingLine != nil, "the suite printed no closing line:\n\(run.output)")
        #expect(run.failed == 0, "\(run.output)")
        #expect((run.passed ?? 0) > 0, "\(run.output)")
        #expect(run.status == 0, "node exited with \(run.status):\n\(run.output)")
    }

    @Test(.enabled("needs chromium, chromedriver and selenium (the reason is on stderr: vscode-webview: skipped)") { webviewTools() != nil })
    func vscodeWebviewSuitePasses() throws {
        guard let tools = webviewTools() else { return }
        let run = try runWebviewSuite(tools, server: BuildPaths.taskls)
        writeToStandardError("vscode-webview: ran (screenshots in \(screenshotDirectory))\n\(run.closingLine ?? "vscode-webview: no closing line")\n")
        #expect(run.closingLine != nil, "the suite printed no closing line:\n\(run.output)")
        #expect(run.failed == 0, "\(run.output)")
        #expect((run.passed ?? 0) > 0, "\(run.output)")
        #expect(run.status == 0, "the suite exited with \(run.status):\n\(run.output)")
    }

    /// Both suites must be able to fail: with a server that cannot start, their tests fail and they exit 1.
    @Test(.enabled("needs node (the reason is on stderr: vscode: skipped)") { nodeTools() != nil })
    func vscodeSuitesFailWithABrokenServer() throws {
        guard let tools = nodeTools() else { return }
        let host = try runNodeSuite(tools, server: "/nonexistent/taskls", filter: "errors arrive as one line")
        #expect(host.passed == 0 && host.failed == 1, "\(host.output)")
        #expect(host.status != 0, "\(host.output)")
        guard let webview = webviewTools() else { return }
        let artifacts = makeTemporaryDirectory(prefix: "taskls-vscode-broken")
        defer { removeTree(artifacts) }
        let page = try runWebviewSuite(webview, server: "/nonexistent/taskls", filter: "a version gap", artifacts: artifacts)
        #expect(page.passed == 0 && page.failed == 1, "\(page.output)")
        #expect(page.status != 0, "\(page.output)")
    }
}
