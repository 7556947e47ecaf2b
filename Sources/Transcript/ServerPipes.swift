/// The client's ends of a server's stdin and stdout: framed messages written to one and read from the other.

#if canImport(Glibc)
import Glibc
#endif
import Wire

/// The write end of a server's stdin and the read end of its stdout, whatever runs the server: a child process
/// (`ServerProcess`) or a thread of this process. Owns both descriptors and closes them.
public final class ServerPipes {
    private let input: Int32
    private let output: Int32
    private var decoder = FrameDecoder(maximumContentLength: 1 << 30)
    private var readBuffer = [UInt8](repeating: 0, count: 1 << 16)
    private var received: [[UInt8]] = []
    private var inputClosed = false
    private var outputEnded = false

    /// Takes `input` (written to reach the server's stdin) and `output` (read for the server's stdout).
    public init(input: Int32, output: Int32) {
        self.input = input
        self.output = output
    }

    deinit {
        if !inputClosed { close(input) }
        close(output)
    }

    /// Writes bytes to the server's stdin, all of them (blocking while the pipe is full).
    /// Returns `false` when the server no longer reads its stdin, or it was closed here.
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

    /// Closes the server's stdin (it sees the end of its input).
    public func closeInput() {
        guard !inputClosed else { return }
        inputClosed = true
        close(input)
    }

    /// The next message body the server wrote, waiting up to `timeout` milliseconds; `nil` on timeout or when
    /// the server closed its stdout. A framing error is given as a body `{"taskls-replay-framing-error": …}`.
    /// With `spinning`, it polls without sleeping until the answer arrives (for latency measurements, so this
    /// process's own wake-up time is not counted).
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

    /// The next bytes the server wrote to stdout, unframed (for commands that are not the server); `nil` on
    /// timeout or at the end of its output.
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

    /// The next message, parsed; a body that is not JSON is given as a string describing it.
    public func receive(timeout: Int32) -> JSON? {
        guard let body = receiveBody(timeout: timeout) else { return nil }
        do {
            return try JSONParser.parse(body)
        } catch {
            return .string("unparsable message from the server: \(error)")
        }
    }
}

/// A pipe whose ends are closed on `exec`, so no child another thread spawns keeps either end open.
/// - Throws: `ProcessError` when the system has no descriptors left.
public func makePipe() throws(ProcessError) -> (read: Int32, write: Int32) {
    spawning.lock()
    defer { spawning.unlock() }
    return try makePipeWhileSpawningIsLocked()
}

/// `makePipe` for a caller that holds `spawning`.
func makePipeWhileSpawningIsLocked() throws(ProcessError) -> (read: Int32, write: Int32) {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { throw ProcessError("pipe failed: errno \(errno)") }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    return (ends[0], ends[1])
}

/// Held while pipes are made and children spawned: Glibc here has no `pipe2`, so between `pipe()` and `FD_CLOEXEC`
/// a child spawned by another thread would inherit the new ends (and keep a server's pipe open after it ended).
let spawning = SpawnLock()

/// A mutex that can be held across a throwing scope.
final class SpawnLock: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    init() { pthread_mutex_init(&mutex, nil) }
    func lock() { pthread_mutex_lock(&mutex) }
    func unlock() { pthread_mutex_unlock(&mutex) }
}
