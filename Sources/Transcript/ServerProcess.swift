/// A taskls server running as a child process, driven over pipes: for replay, tests and benchmarks.

#if canImport(Glibc)
import Glibc
#endif
import TestSupport
import Wire

/// A child process whose stdin and stdout are pipes to this process and whose stderr goes to a file.
public final class ServerProcess {
    /// The child's process id.
    public let processID: pid_t
    private let input: Int32
    private let output: Int32
    private let stderrPath: String
    private var decoder = FrameDecoder(maximumContentLength: 1 << 30)
    private var readBuffer = [UInt8](repeating: 0, count: 1 << 16)
    private var received: [[UInt8]] = []
    private var inputClosed = false
    private var outputEnded = false
    private var status: Int32?
    /// The child's peak resident memory in bytes, known once it has exited.
    public private(set) var peakResidentBytes: Int?

    /// Starts `executable` with `arguments` and `environment` added to this process's environment.
    public init(executable: String, arguments: [String], environment: [String: String] = [:]) throws(ProcessError) {
        // A child that exits early must turn our writes into errors, not kill this process.
        signal(SIGPIPE, SIG_IGN)
        var toChild: [Int32] = [0, 0]
        var fromChild: [Int32] = [0, 0]
        // Glibc here has no pipe2: between pipe() and FD_CLOEXEC, a child spawned by another thread would
        // inherit these ends (and keep our child's pipes open after it exits). Pipes are made and children
        // spawned under one lock.
        spawning.lock()
        defer { spawning.unlock() }
        guard pipe(&toChild) == 0, pipe(&fromChild) == 0 else {
            throw ProcessError("pipe failed: errno \(errno)")
        }
        for descriptor in toChild + fromChild { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        stderrPath = makeTemporaryPath(prefix: "taskls-stderr")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
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
        close(toChild[0])
        close(fromChild[1])
        guard result == 0 else {
            close(toChild[1])
            close(fromChild[0])
            throw ProcessError("cannot start \(executable): \(String(cString: strerror(result)))")
        }
        processID = pid
        input = toChild[1]
        output = fromChild[0]
    }

    deinit {
        if !inputClosed { close(input) }
        close(output)
        if status == nil {
            kill(processID, SIGKILL)
            var raw: Int32 = 0
            waitpid(processID, &raw, 0)
        }
        unlink(stderrPath)
    }

    /// Writes bytes to the child's stdin, all of them (blocking while the pipe is full).
    /// Returns `false` when the child has closed its stdin.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        if inputClosed { return false }
        var offset = 0
        return bytes.withUnsafeBytes { buffer in
            while offset < buffer.count {
                let written = Glibc.write(input, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }
    }

    /// Sends one message, framed.
    @discardableResult
    public func send(_ message: JSON) -> Bool {
        var body: [UInt8] = []
        JSONSerializer.write(message, into: &body)
        return write(FrameEncoder.frame(body: body))
    }

    /// Closes the child's stdin (it sees end of input).
    public func closeInput() {
        guard !inputClosed else { return }
        inputClosed = true
        close(input)
    }

    /// The next message body the child wrote, waiting up to `timeout` milliseconds; `nil` on
    /// timeout or when the child closed its stdout.
    /// With `spinning`, it polls without sleeping until the answer arrives (for latency
    /// measurements, so this process's own wake-up time is not counted).
    public func receiveBody(timeout: Int32, spinning: Bool = false) -> [UInt8]? {
        let deadline = monotonicMilliseconds() + Int64(timeout)
        while received.isEmpty {
            if outputEnded { return nil }
            let remaining = Int32(clamping: max(0, deadline - monotonicMilliseconds()))
            var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, spinning && remaining > 0 ? 0 : remaining)
            if spinning && ready == 0 && remaining > 0 { continue }
            if ready < 0 && errno == EINTR { continue }
            if ready <= 0 { return nil }
            let count = readBuffer.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            if count <= 0 {
                if count < 0 && errno == EINTR { continue }
                outputEnded = true
                continue
            }
            readBuffer.withUnsafeBytes { decoder.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            while let event = decoder.next() {
                switch event {
                case .message(let body): received.append(body)
                case .error(let error): received.append(Array("{\"taskls-replay-framing-error\":\"\(error.message)\"}".utf8))
                }
            }
        }
        return received.removeFirst()
    }

    /// The next bytes the child wrote to stdout, unframed (for commands that are not the
    /// server); `nil` on timeout or at the end of its output.
    public func receiveRaw(timeout: Int32) -> [UInt8]? {
        if outputEnded { return nil }
        var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, timeout) > 0 else { return nil }
        let count = readBuffer.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
        if count <= 0 {
            outputEnded = true
            return nil
        }
        return Array(readBuffer[0..<count])
    }

    /// The next message, parsed; a body that is not JSON is reported as a string describing it.
    public func receive(timeout: Int32) -> JSON? {
        guard let body = receiveBody(timeout: timeout) else { return nil }
        do {
            return try JSONParser.parse(body)
        } catch {
            return .string("unparsable message from the server: \(error)")
        }
    }

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
    public func terminate(signal: Int32 = SIGKILL) {
        guard status == nil else { return }
        kill(processID, signal)
        _ = waitForExit(timeout: 10_000)
    }

    /// Everything the child wrote to stderr so far.
    public var standardError: String {
        guard let file = fopen(stderrPath, "r") else { return "" }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count <= 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A child process could not be started or driven.
public struct ProcessError: Error, CustomStringConvertible {
    /// What went wrong.
    public var description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}


/// Held while a child is spawned (see `ServerProcess.init`).
private let spawning = SpawnLock()

/// A mutex that can be held across a throwing scope.
private final class SpawnLock: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    init() { pthread_mutex_init(&mutex, nil) }
    func lock() { pthread_mutex_lock(&mutex) }
    func unlock() { pthread_mutex_unlock(&mutex) }
}
