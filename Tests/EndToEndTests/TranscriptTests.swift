/// Replays every transcript under Tests/Transcripts: each in-process (the server on a thread of the test process,
/// over pipes), and a smoke set through the real binary, which includes every transcript only a process can
/// replay (see `TranscriptFile.needsProcess`).

#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
import Transcript

/// Every `.tx` file below `Tests/Transcripts`, relative to that directory.
func transcriptFiles() -> [String] {
    let root = transcriptRoot
    var found: [String] = []
    func walk(_ relative: String) {
        let path = relative.isEmpty ? root : root + "/" + relative
        for name in names(in: path) where !name.hasPrefix(".") {
            let child = relative.isEmpty ? name : relative + "/" + name
            if name.hasSuffix(".tx") { found.append(child) } else { walk(child) }
        }
    }
    walk("")
    return found.sorted()
}

private let transcriptRoot = BuildPaths.repositoryRoot + "/Tests/Transcripts"

/// Whether the transcript `file` can be replayed only against a process; one that does not parse is not (it
/// fails in-process, saying why).
private func needsProcess(_ file: String) -> Bool {
    guard let text = readTextFile(transcriptRoot + "/" + file), let transcript = try? TranscriptFile(text: text) else { return false }
    return transcript.needsProcess
}

/// Transcripts replayed through the binary although they need no process, so that its own stdin, stdout and
/// stderr are exercised on what they carry most: malformed input, what the server logs, arguments only the
/// command line gives, and two processes on one store.
let binarySmokeExtras = [
    "errors/parse-error.tx",
    "errors/stray-response.tx",
    "errors/client-responses-never-answered.tx",
    "store/loading-then-ready.tx",
    "store/error-when-not-a-directory.tx",
    "shared/change-from-another-process.tx",
]

/// The transcripts replayed through the binary: every one that needs a process, and the extras.
func binarySmokeSet() -> [String] {
    transcriptFiles().filter { needsProcess($0) || binarySmokeExtras.contains($0) }
}

@Test func transcriptsExist() {
    let files = transcriptFiles()
    #expect(files.count >= 15, "expected the transcripts under Tests/Transcripts")
    for extra in binarySmokeExtras { #expect(files.contains(extra), "the smoke set names \(extra), which is not a transcript") }
    #expect(files.contains { needsProcess($0) }, "some transcripts expect an exit code: only the binary replays them")
}

@Test(arguments: transcriptFiles().filter { !needsProcess($0) })
func transcriptInProcess(_ file: String) {
    let replayer = Replayer { arguments, store in try InProcessServer(arguments: arguments, store: store) }
    let outcome = replayer.run(path: transcriptRoot + "/" + file)
    #expect(outcome.passed, "\(outcome.report)")
}

@Test(arguments: binarySmokeSet())
func transcriptThroughTheBinary(_ file: String) {
    let outcome = Replayer(executable: BuildPaths.taskls).run(path: transcriptRoot + "/" + file)
    #expect(outcome.passed, "\(outcome.report)")
}

@Test func anInProcessReplayReportsAMismatchAndMalformedInputReachesTheDecoder() throws {
    let transcript = try TranscriptFile(text: """
        --> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}
        <-- {"jsonrpc":"2.0","id":1,"result":"$any"}
        --> raw "Content-Length: 2\\r\\n\\r\\n{]"
        <-- {"jsonrpc":"2.0","id":null,"error":{"code":-32700}}
        --> {"jsonrpc":"2.0","id":2,"method":"server/ping"}
        <-- {"jsonrpc":"2.0","id":2,"result":{"pong":true}}
        """)
    let replayer = Replayer { arguments, store in try InProcessServer(arguments: arguments, store: store) }
    let outcome = replayer.run(transcript, name: "wrong.tx")
    #expect(!outcome.passed)
    #expect(outcome.report.hasPrefix("wrong.tx:6: mismatch at $.result.pong"), "\(outcome.report)")
}
