/// A typed LSP client in another language (Python's pygls on lsprotocol, `Tests/Clients/lsprotocol_client.py`)
/// against the real binary: it must find taskls's capabilities (typed clients drop unknown members of
/// `ServerCapabilities`; taskls repeats them under `experimental.taskls`), send `workDoneToken` with `initialize`
/// and with taskls requests, and receive `$/progress` and `window/logMessage`. Without `python3` and pygls it says
/// so and passes (`.ci/run` installs pygls and checks for `lsprotocol: ran`).

#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
import Transcript

/// `python3` with pygls importable, or nil after saying on stderr that the test is skipped.
private func typedClientPython() -> String? {
    guard let python = executableOnPath("python3") else {
        writeToStandardError("lsprotocol: skipped (python3 not installed)\n")
        return nil
    }
    guard let probe = try? ServerProcess(executable: python, arguments: ["-c", "import pygls.lsp.client, lsprotocol.types"]),
          probe.waitForExit(timeout: 30_000) == 0
    else {
        writeToStandardError("lsprotocol: skipped (python3 cannot import pygls and lsprotocol; pip install pygls)\n")
        return nil
    }
    return python
}

/// Runs the client against `server` on a fresh store; its output and exit code.
private func runTypedClient(python: String, server: String) throws -> (output: String, status: Int32) {
    let store = makeTemporaryDirectory(prefix: "taskls-typed-client")
    defer { removeTree(store) }
    let process = try ServerProcess(
        executable: python, arguments: [BuildPaths.repositoryRoot + "/Tests/Clients/lsprotocol_client.py", server, store + "/store"])
    process.closeInput()
    var bytes: [UInt8] = []
    while let chunk = process.receiveRaw(timeout: 60_000) { bytes += chunk }
    let status = process.waitForExit(timeout: 10_000) ?? -1
    return (String(decoding: bytes, as: UTF8.self) + process.standardError, status)
}

@Test(.enabled("needs python3 with pygls (the reason is on stderr: lsprotocol: skipped)") { typedClientPython() != nil })
func aTypedLSPClientFindsTheCapabilitiesAndSendsWorkDoneTokens() throws {
    guard let python = typedClientPython() else { return }
    let run = try runTypedClient(python: python, server: BuildPaths.taskls)
    writeToStandardError("lsprotocol: ran\n")
    #expect(run.status == 0, "\(run.output)")
    #expect(!run.output.contains("FAIL"), "\(run.output)")
    #expect(run.output.split(separator: "\n").filter { $0.hasPrefix("ok   ") }.count >= 12, "\(run.output)")
}

/// The client must be able to fail: with a server that cannot start, it exits non-zero.
@Test(.enabled("needs python3 with pygls (the reason is on stderr: lsprotocol: skipped)") { typedClientPython() != nil })
func theTypedClientFailsWhenTheServerCannotStart() throws {
    guard let python = typedClientPython() else { return }
    let run = try runTypedClient(python: python, server: "/nonexistent/taskls")
    #expect(run.status != 0, "\(run.output)")
}
