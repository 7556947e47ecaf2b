/// Runs a transcript against a fresh taskls child process and reports the first difference.

#if canImport(Glibc)
import Glibc
#endif
import Wire

/// The outcome of replaying one transcript.
public struct ReplayOutcome: Sendable {
    /// Whether every expectation held.
    public var passed: Bool
    /// A readable account of the first failure (empty when passed).
    public var report: String
}

/// Replays transcripts against a server executable.
public struct Replayer: Sendable {
    /// The taskls executable to start (normally this very binary).
    public var executable: String

    /// A replayer starting `executable` for each transcript.
    public init(executable: String) { self.executable = executable }

    /// Replays `transcript` (named `name` in the report) on a fresh server with a fresh temporary store.
    public func run(_ transcript: TranscriptFile, name: String) -> ReplayOutcome {
        let store = makeTemporaryDirectory(prefix: "taskls-replay-store")
        defer { removeTree(store) }
        let server: ServerProcess
        do {
            server = try ServerProcess(
                executable: executable, arguments: ["serve"] + transcript.serverArguments,
                environment: ["TASKLS_STORE": store])
        } catch {
            return ReplayOutcome(passed: false, report: "\(name): \(error)")
        }
        var matcher = Matcher()
        var outgoing: [UInt8] = []
        var stderrChecks: [(line: Int, text: String)] = []
        func fail(_ line: Int, _ message: String) -> ReplayOutcome {
            server.terminate()
            return ReplayOutcome(passed: false, report: "\(name):\(line): \(message)")
        }
        func flush() {
            if !outgoing.isEmpty { server.write(outgoing) }
            outgoing.removeAll()
        }
        for (line, step) in transcript.steps {
            switch step {
            case .send(let message):
                do {
                    var body: [UInt8] = []
                    JSONSerializer.write(try matcher.substitute(message), into: &body)
                    outgoing += FrameEncoder.frame(body: body)
                } catch {
                    return fail(line, error.description)
                }
            case .sendRaw(let bytes):
                outgoing += bytes
            case .sendFramed(let body):
                outgoing += FrameEncoder.frame(body: body)
            case .expect(let pattern):
                flush()
                guard let actual = server.receive(timeout: transcript.timeout) else {
                    let exit = server.waitForExit(timeout: 0).map { " (it exited with code \($0))" } ?? ""
                    return fail(line, "expected \(pattern.text)\n  but the server sent nothing within \(transcript.timeout) ms\(exit)")
                }
                if let mismatch = matcher.match(pattern, actual) {
                    return fail(line, "mismatch at \(mismatch.path): \(mismatch.problem)\n  expected: \(pattern.text)\n  actual:   \(actual.text)")
                }
            case .closeInput:
                flush()
                server.closeInput()
            case .expectExit(let code):
                flush()
                guard let status = server.waitForExit(timeout: transcript.timeout) else {
                    return fail(line, "expected the server to exit with code \(code), but it is still running")
                }
                if status != code { return fail(line, "expected exit code \(code), got \(status)") }
            case .expectStandardError(let text):
                stderrChecks.append((line, text))
            }
        }
        flush()
        server.closeInput()
        if let extra = server.receive(timeout: transcript.timeout) {
            return fail(transcript.steps.last?.line ?? 0, "unexpected message after the last expectation: \(extra.text)")
        }
        if server.waitForExit(timeout: transcript.timeout) == nil {
            return fail(transcript.steps.last?.line ?? 0, "the server did not exit after its input was closed")
        }
        let standardError = server.standardError
        for check in stderrChecks where !standardError.contains(check.text) {
            return fail(check.line, "stderr does not contain \(JSON.string(check.text).text); it was:\n\(standardError)")
        }
        return ReplayOutcome(passed: true, report: "")
    }

    /// Reads and replays the transcript at `path`.
    public func run(path: String) -> ReplayOutcome {
        guard let text = readTextFile(path) else {
            return ReplayOutcome(passed: false, report: "\(path): cannot read the file")
        }
        do {
            return run(try TranscriptFile(text: text), name: path)
        } catch {
            return ReplayOutcome(passed: false, report: "\(path):\(error.line): \(error.message)")
        }
    }
}

/// The contents of a text file, or `nil` if it cannot be read.
public func readTextFile(_ path: String) -> String? {
    guard let file = fopen(path, "r") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = fread(&chunk, 1, chunk.count, file)
        if count <= 0 { break }
        bytes.append(contentsOf: chunk[0..<count])
    }
    return String(decoding: bytes, as: UTF8.self)
}
