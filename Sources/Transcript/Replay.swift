/// Runs a transcript against fresh taskls servers (child processes, or threads of this process) and reports the
/// first difference.

#if canImport(Glibc)
import Glibc
#endif
import TestSupport
import Wire

/// The outcome of replaying one transcript.
public struct ReplayOutcome: Sendable {
    /// Whether every expectation held.
    public var passed: Bool
    /// A readable account of the first failure (empty when passed).
    public var report: String
}

/// One server a transcript drives: framed messages to its stdin and from its stdout, how it ended, what it logged.
/// A child process (`ServerProcess`) or a server on a thread of this process.
public protocol TranscriptServer: AnyObject {
    /// Writes bytes to the server's stdin; `false` when it no longer reads them.
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool
    /// The next message from the server's stdout, waiting up to `timeout` milliseconds; nil on timeout or at its end.
    func receive(timeout: Int32) -> JSON?
    /// Closes the server's stdin: it sees the end of its input.
    func closeInput()
    /// Waits up to `timeout` milliseconds for the server to end; its exit code, or nil while it runs.
    func waitForExit(timeout: Int32) -> Int32?
    /// Ends the server now (a transcript failed) and waits for it.
    func terminate()
    /// What the server logged so far (its stderr).
    var standardError: String { get }
}

/// Replays transcripts against servers it starts, one per session of a transcript, all on one fresh store.
public struct Replayer: Sendable {
    /// Starts one server of a transcript, given the transcript's server arguments (`== args`, the words after
    /// `taskls serve`) and the store directory every server of the transcript shares (as `TASKLS_STORE`).
    public typealias Launch = @Sendable (_ arguments: [String], _ store: String) throws -> any TranscriptServer

    private let launch: Launch

    /// A replayer starting `executable serve ARGUMENTS` as a child process for each server.
    public init(executable: String) {
        launch = { arguments, store in
            try ServerProcess(executable: executable, arguments: ["serve"] + arguments, environment: ["TASKLS_STORE": store])
        }
    }

    /// A replayer starting each server with `launch`.
    public init(launch: @escaping Launch) { self.launch = launch }

    /// Replays `transcript` (named `name` in the report) on fresh servers with a fresh temporary store.
    public func run(_ transcript: TranscriptFile, name: String) -> ReplayOutcome {
        let store = makeTemporaryDirectory(prefix: "taskls-replay-store")
        defer { removeTree(store) }
        var servers: [String: any TranscriptServer] = [:]
        /// The server of `session`, started on the same store when first named.
        func server(_ session: String) throws -> any TranscriptServer {
            if let running = servers[session] { return running }
            let started = try launch(transcript.serverArguments, store)
            servers[session] = started
            return started
        }
        func label(_ session: String) -> String { session.isEmpty ? "the server" : "server @\(session)" }
        do {
            _ = try server("")
        } catch {
            return ReplayOutcome(passed: false, report: "\(name): \(error)")
        }
        var matcher = Matcher()
        var outgoing: [String: [UInt8]] = [:]
        var stderrChecks: [(line: Int, text: String)] = []
        func fail(_ line: Int, _ message: String) -> ReplayOutcome {
            for running in servers.values { running.terminate() }
            return ReplayOutcome(passed: false, report: "\(name):\(line): \(message)")
        }
        /// Sends what was written for each server.
        func flush() {
            for (session, bytes) in outgoing where !bytes.isEmpty { servers[session]?.write(bytes) }
            outgoing.removeAll()
        }
        for (line, session, step) in transcript.steps {
            let process: any TranscriptServer
            do {
                process = try server(session)
            } catch {
                return fail(line, "cannot start \(label(session)): \(error)")
            }
            switch step {
            case .send(let message):
                do {
                    var body: [UInt8] = []
                    JSONSerializer.write(try matcher.substitute(message), into: &body)
                    outgoing[session, default: []] += FrameEncoder.frame(body: body)
                } catch {
                    return fail(line, error.description)
                }
            case .sendRaw(let bytes):
                outgoing[session, default: []] += bytes
            case .sendFramed(let body):
                outgoing[session, default: []] += FrameEncoder.frame(body: body)
            case .expect(let pattern):
                flush()
                guard let actual = process.receive(timeout: transcript.timeout) else {
                    let exit = process.waitForExit(timeout: 0).map { " (it exited with code \($0))" } ?? ""
                    return fail(line, "expected \(pattern.text)\n  but \(label(session)) sent nothing within \(transcript.timeout) ms\(exit)")
                }
                if let mismatch = matcher.match(pattern, actual) {
                    return fail(line, "mismatch at \(mismatch.path): \(mismatch.problem)\n  expected: \(pattern.text)\n  actual:   \(actual.text)")
                }
            case .closeInput:
                flush()
                process.closeInput()
            case .expectExit(let code):
                flush()
                guard let status = process.waitForExit(timeout: transcript.timeout) else {
                    return fail(line, "expected \(label(session)) to exit with code \(code), but it is still running")
                }
                if status != code { return fail(line, "expected exit code \(code) from \(label(session)), got \(status)") }
            case .expectStandardError(let text):
                stderrChecks.append((line, text))
            }
        }
        flush()
        let last = transcript.steps.last?.line ?? 0
        for (session, process) in servers.sorted(by: { $0.key < $1.key }) {
            process.closeInput()
            if let extra = process.receive(timeout: transcript.timeout) {
                return fail(last, "unexpected message from \(label(session)) after the last expectation: \(extra.text)")
            }
            if process.waitForExit(timeout: transcript.timeout) == nil {
                return fail(last, "\(label(session)) did not exit after its input was closed")
            }
        }
        let standardError = servers[""]!.standardError
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
