/// `taskls serve` on a thread of the test process, set up as the binary sets itself up, for replaying transcripts
/// without starting a process for each.

#if canImport(Glibc)
import Glibc
#endif
import Server
@testable import taskls
import TestSupport
import Transcript
import Wire

/// A server run as `taskls serve ARGUMENTS` runs one, but on a thread of this process: its options read from the
/// same words by the binary's own `ServeCommand`, a `StdioConnection` over two pipes (so framing, raw bytes and
/// malformed input go through the same decoder), and its log written to a file that stands for its stderr.
final class InProcessServer: TranscriptServer {
    private let pipes: ServerPipes
    private let loop: ServerThread
    private let logPath: String

    /// Starts the server `taskls serve arguments` would run with `TASKLS_STORE` set to `store`.
    /// - Throws: `UsageError` for arguments the binary would refuse, `ProcessError` or `FileError` when pipes or
    ///   the log file cannot be made.
    init(arguments: [String], store: String) throws {
        let command = try ServeCommand(arguments: arguments) { name in
            name == "TASKLS_STORE" ? store : StoreLocation.processEnvironment(name)
        }
        // As the binary does: a client that goes away turns writes into errors.
        signal(SIGPIPE, SIG_IGN)
        logPath = makeTemporaryPath(prefix: "taskls-log")
        let log = open(logPath, O_WRONLY | O_APPEND | O_CLOEXEC)
        guard log >= 0 else { throw FileError("open \(logPath): errno \(errno)") }
        let toServer: (read: Int32, write: Int32)
        let fromServer: (read: Int32, write: Int32)
        do {
            toServer = try makePipe()
            do {
                fromServer = try makePipe()
            } catch {
                close(toServer.read)
                close(toServer.write)
                throw error
            }
        } catch {
            close(log)
            unlink(logPath)
            throw error
        }
        var options = command.options
        options.logger.fileDescriptor = log
        let connection = StdioConnection(input: toServer.read, output: fromServer.write,
                                         maximumContentLength: command.maximumContentLength)
        // The server's ends close when its loop ends, so its stdout ends as a process's would.
        loop = ServerThread(connection: connection, options: options) {
            close(toServer.read)
            close(fromServer.write)
            close(log)
        }
        pipes = ServerPipes(input: toServer.write, output: fromServer.read)
    }

    deinit {
        terminate()
        unlink(logPath)
    }

    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool { pipes.write(bytes) }

    func receive(timeout: Int32) -> JSON? { pipes.receive(timeout: timeout) }

    func closeInput() { pipes.closeInput() }

    /// What `Server.run()` returned, the code the binary exits with; nil while the loop runs.
    func waitForExit(timeout: Int32) -> Int32? { loop.waitForExit(timeout: timeout) }

    /// Closes the server's input, the one way to end a thread's loop, and waits for it (ten seconds at most).
    func terminate() {
        pipes.closeInput()
        _ = loop.waitForExit(timeout: 10_000)
    }

    /// Everything the server logged so far.
    var standardError: String { readTextFile(logPath) ?? "" }
}
