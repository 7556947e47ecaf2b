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

private let extensionFolder = BuildPaths.repositoryRoot + "/editors/vscode"

private func runNodeSuite(_ tools: (node: String, timeout: String), server: String, filter: String? = nil) throws -> EditorSuiteRun {
    try runEditorSuite(name: "vscode", timeout: tools.timeout, seconds: 300,
                 arguments: [tools.node, extensionFolder + "/test/run.js"], server: server, filter: filter)
}

/// Where the Chromium suite's screenshots go: `$TASKLS_ARTIFACTS/vscode-webview`, else under `.build`.
private let screenshotDirectory: String = {
    if let root = getenv("TASKLS_ARTIFACTS").map({ String(cString: $0) }), !root.isEmpty { return root + "/vscode-webview" }
    return BuildPaths.repositoryRoot + "/.build/artifacts/vscode-webview"
}()

private func runWebviewSuite(_ tools: (python: String, timeout: String, node: String), server: String,
                             filter: String? = nil, artifacts: String = screenshotDirectory) throws -> EditorSuiteRun {
    try runEditorSuite(name: "vscode-webview", timeout: tools.timeout, seconds: 600,
                 arguments: [tools.python, extensionFolder + "/test/webview/run.py", "--bin", server, "--artifacts", artifacts],
                 server: server, filter: filter)
}

extension EditorSuites {
    @Test(.enabled("needs node (the reason is on stderr: vscode: skipped)") { nodeTools() != nil })
    func vscodeExtensionHostSuitePasses() throws {
        guard let tools = nodeTools() else { return }
        try runNodeSuite(tools, server: BuildPaths.taskls).expectPassed(marker: "vscode", closing: "vscode")
    }

    @Test(.enabled("needs chromium, chromedriver and selenium (the reason is on stderr: vscode-webview: skipped)") { webviewTools() != nil })
    func vscodeWebviewSuitePasses() throws {
        guard let tools = webviewTools() else { return }
        writeToStandardError("vscode-webview: screenshots in \(screenshotDirectory)\n")
        try runWebviewSuite(tools, server: BuildPaths.taskls).expectPassed(marker: "vscode-webview", closing: "vscode-webview")
    }

    /// Both suites must be able to fail: with a server that cannot start, their tests fail and they exit 1.
    @Test(.enabled("needs node (the reason is on stderr: vscode: skipped)") { nodeTools() != nil })
    func vscodeSuitesFailWithABrokenServer() throws {
        guard let tools = nodeTools() else { return }
        try runNodeSuite(tools, server: "/nonexistent/taskls", filter: "errors arrive as one line").expectOneFailure()
        guard let webview = webviewTools() else { return }
        let artifacts = makeTemporaryDirectory(prefix: "taskls-vscode-broken")
        defer { removeTree(artifacts) }
        try runWebviewSuite(webview, server: "/nonexistent/taskls", filter: "a version gap", artifacts: artifacts).expectOneFailure()
    }
}
