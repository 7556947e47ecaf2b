/// The Emacs package (`editors/emacs`) tested with the real editor: runs its ERT suite
/// (`editors/emacs/tests/run.el`, in batch mode) against the built `taskls`, in a temporary HOME with
/// temporary stores, and fails when any of its tests failed. Without `emacs` on PATH it says so and
/// passes (`.ci/run` installs `emacs-nox` and checks for `emacs: ran`).

import Testing
import TestSupport

/// `emacs` and `timeout` on $PATH, or nil after saying on stderr that the suite is skipped.
private func emacsTools() -> (emacs: String, timeout: String)? {
    guard let tools = editorTools(["emacs", "timeout"], marker: "emacs") else { return nil }
    return (tools[0], tools[1])
}

/// Runs the suite with `emacs --batch`; `server` is the taskls the tests start and `selector` a regexp of test
/// names (empty: every test).
private func runEmacsSuite(emacs: String, timeout: String, server: String, selector: String = "") throws -> EditorSuiteRun {
    let package = BuildPaths.repositoryRoot + "/editors/emacs"
    return try runEditorSuite(name: "emacs", timeout: timeout, seconds: 900,
                              arguments: [emacs, "-Q", "--batch", "-L", package, "-L", package + "/tests",
                                          "-l", package + "/tests/run.el"],
                              server: server, environment: ["TASKLS_TEST_SELECTOR": selector])
}

extension EditorSuites {
    @Test(.enabled("needs emacs (the reason is on stderr: emacs: skipped)") { emacsTools() != nil })
    func emacsPackageSuitePasses() throws {
        guard let tools = emacsTools() else { return }
        try runEmacsSuite(emacs: tools.emacs, timeout: tools.timeout, server: BuildPaths.taskls)
            .expectPassed(marker: "emacs", closing: "emacs")
    }

    /// The suite must be able to fail: with a server that cannot start, its test fails and emacs exits 1.
    @Test(.enabled("needs emacs (the reason is on stderr: emacs: skipped)") { emacsTools() != nil })
    func emacsPackageSuiteFailsWithABrokenServer() throws {
        guard let tools = emacsTools() else { return }
        try runEmacsSuite(emacs: tools.emacs, timeout: tools.timeout, server: "/nonexistent/taskls",
                          selector: "taskls-overview-shows-groups-and-lists-live").expectOneFailure()
    }
}
