/// The executable's command line: --help, --version, unknown flags, and `replay` itself.

#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
import Transcript
import Wire

/// Runs `taskls` with `arguments` and no input; returns exit code (-1 when it hung and was killed), stdout and stderr.
func runTaskls(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
    let run = try ServerProcess.run(BuildPaths.taskls, arguments, timeout: 10_000)
    return (run.status ?? -1, run.output, run.error)
}

@Test func helpPrintsUsage() throws {
    let run = try runTaskls(["--help"])
    #expect(run.status == 0)
    #expect(run.output.contains("usage: taskls"))
    #expect(run.output.contains("replay FILE"))
}

@Test func versionPrintsTheVersion() throws {
    let run = try runTaskls(["--version"])
    #expect(run.status == 0)
    #expect(run.output == "taskls 0.1.0\n")
}

@Test func schemaPrintsTheCheckedInProtocolJSON() throws {
    let run = try runTaskls(["schema"])
    #expect(run.status == 0)
    #expect(run.output == readTextFile(BuildPaths.repositoryRoot + "/protocol.json"), "regenerate: TASKLS_WRITE_PROTOCOL_JSON=1 swift test --filter protocolJSON")
    #expect(run.output.contains("\"items/duplicate\""))
}

@Test(arguments: [["--frobnicate"], ["serve", "--nope"], ["--log-level", "loud"], ["--log-level"], ["bogus-command"], ["--max-message-bytes", "-5"], ["replay"], ["schema", "extra"]])
func badCommandLinesExitWithTwo(_ arguments: [String]) throws {
    let run = try runTaskls(arguments)
    #expect(run.status == 2, "\(arguments)")
    #expect(run.error.hasPrefix("taskls: "), "\(run.error)")
    #expect(run.output.isEmpty, "nothing may reach stdout: it is the protocol")
}

@Test func replayReportsAMismatchWithItsPath() throws {
    let path = makeTemporaryDirectory(prefix: "taskls-replay-test") + "/wrong.tx"
    let text = """
        --> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}
        <-- {"jsonrpc":"2.0","id":1,"result":{"serverInfo":{"name":"not-taskls"}}}

        """
    try writeTextFile(path, text)
    let run = try runTaskls(["replay", path])
    #expect(run.status == 1)
    #expect(run.output.contains("mismatch at $.result.serverInfo.name"), "\(run.output)")
    #expect(run.output.contains("expected \"not-taskls\", got \"taskls\""), "\(run.output)")
    #expect(run.output.contains("wrong.tx:2"), "\(run.output)")
}

@Test func replayCapturesAndReusesValues() throws {
    let path = makeTemporaryDirectory(prefix: "taskls-replay-test") + "/capture.tx"
    let text = """
        --> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}
        <-- {"jsonrpc":"2.0","id":1,"result":{"serverInfo":{"version":"$bind:version"}}}
        --> {"jsonrpc":"2.0","id":"$version","method":"server/ping"}
        <-- {"jsonrpc":"2.0","id":"$version","result":{},"error":"$absent"}

        """
    try writeTextFile(path, text)
    let run = try runTaskls(["replay", path])
    #expect(run.status == 0, "\(run.output)")
    #expect(run.output.contains("1 passed, 0 failed"))
}
