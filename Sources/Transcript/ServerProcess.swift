/// A taskls server running as a child process, driven over pipes: for replay, tests and benchmarks.

#if canImport(Glibc)
import Glibc
#endif
import TestSupport
import Wire

/// A child process whose stdin and stdout are pipes to this process and whose stderr goes to a file.
public final class ServerProcess: TranscriptServer {
    /// The child's process id.
    public let processID: pid_t
    /// The child's stdin and stdout.
    public let pipes: ServerPipes
    private let stderrPath: String
    private var status: Int32?
    /// The child's peak resident memory in bytes, known once it has exited.
    public private(set) var peakResidentBytes: Int?

    /// Starts `executable` with `arguments` and `environment` added to this process's environment.
    public init(executable: String, arguments: [String], environment: [String: String] = [:]) throws(ProcessError) {
        // A child that exits early must turn our writes into errors, not kill this process.
        signal(SIGPIPE, SIG_IGN)
        // Pipes are made and children spawned under one lock (see `spawning`).
        spawning.lock()
        defer { spawning.unlock() }
        let toChild = try makePipeWhileSpawningIsLocked()
        let fromChild: (read: Int32, write: Int32)
        do {
            fromChild = try makePipeWhileSpawningIsLocked()
        } catch {
            close(toChild.read)
            close(toChild.write)
            throw error
        }
        stderrPath = makeTemporaryPath(prefix: "taskls-stderr")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild.read, 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild.write, 1)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var merged: [String: String] = [:]
        var index = 0
        while let entry = environ[index] {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                merged[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            index += 1
        }
        for (key, value) in environment { merged[key] = value }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        close(toChild.read)
        close(fromChild.write)
        pipes = ServerPipes(input: toChild.write, output: fromChild.read)
        guard result == 0 else {
            unlink(stderrPath)
            throw ProcessError("cannot start \(executable): \(String(cString: strerror(result)))")
        }
        processID = pid
    }

    deinit {
        if status == nil {
            kill(processID, SIGKILL)
            var raw: Int32 = 0
            waitpid(processID, &raw, 0)
        }
        unlink(stderrPath)
    }

    /// Writes bytes to the child's stdin (see `ServerPipes.write`).
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool { pipes.write(bytes) }

    /// Sends one message, framed.
    @discardableResult
    public func send(_ message: JSON) -> Bool { pipes.send(message) }

    /// Closes the child's stdin (it sees end of input).
    public func closeInput() { pipes.closeInput() }

    /// The next message body the child wrote (see `ServerPipes.receiveBody`).
    public func receiveBody(timeout: Int32, spinning: Bool = false) -> [UInt8]? { pipes.receiveBody(timeout: timeout, spinning: spinning) }

    /// The next bytes the child wrote to stdout, unframed (see `ServerPipes.receiveRaw`).
    public func receiveRaw(timeout: Int32) -> [UInt8]? { pipes.receiveRaw(timeout: timeout) }

    /// The next message, parsed (see `ServerPipes.receive`).
    public func receive(timeout: Int32) -> JSON? { pipes.receive(timeout: timeout) }

    /// Waits up to `timeout` milliseconds for the child to exit; returns its exit code
    /// (128 + signal number when a signal ended it), or `nil` if it is still running.
    public func waitForExit(timeout: Int32) -> Int32? {
        if let status { return status }
        let deadline = monotonicMilliseconds() + Int64(timeout)
        while true {
            var raw: Int32 = 0
            var usage = rusage()
            let result = wait4(processID, &raw, WNOHANG, &usage)
            if result == processID {
                peakResidentBytes = Int(usage.ru_maxrss) * 1024
                let signal = raw & 0x7f
                status = signal == 0 ? (raw >> 8) & 0xff : 128 + signal
                return status
            }
            if monotonicMilliseconds() >= deadline { return nil }
            usleep(1000)
        }
    }

    /// Kills the child with `signal` and reaps it.
    public func terminate(signal: Int32) {
        guard status == nil else { return }
        kill(processID, signal)
        _ = waitForExit(timeout: 10_000)
    }

    /// Kills the child and reaps it.
    public func terminate() { terminate(signal: SIGKILL) }

    /// Everything the child wrote to stderr so far.
    public var standardError: String { readTextFile(stderrPath) ?? "" }

    /// Runs `executable` to its end with `input` on its stdin (then closed), waiting at most `timeout` milliseconds
    /// for its output to end and for it to exit; one that does not is killed.
    /// - Returns: its exit code (nil when it was killed for taking too long), stdout and stderr.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], input: [UInt8] = [], timeout: Int32
    ) throws(ProcessError) -> (status: Int32?, output: String, error: String) {
        let process = try ServerProcess(executable: executable, arguments: arguments, environment: environment)
        process.write(input)
        process.closeInput()
        var output: [UInt8] = []
        while let chunk = process.receiveRaw(timeout: timeout) { output += chunk }
        let status = process.waitForExit(timeout: timeout)
        if status == nil { process.terminate() }
        return (status, String(decoding: output, as: UTF8.self), process.standardError)
    }
}

/// A child process could not be started or driven.
public struct ProcessError: Error, CustomStringConvertible {
    /// What went wrong.
    public var description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
