/// The connection over a pair of file descriptors (stdin and stdout), with raw read(2)/write(2).

#if canImport(Glibc)
import Glibc
#endif

/// A connection over an input and an output file descriptor, LSP-framed.
///
/// Reads with `read(2)` into the frame decoder (no `FileHandle`), and writes everything queued
/// since the last flush (or since `flushThreshold` bytes were last written) with as few `write(2)` calls as the
/// pipe accepts.
public final class StdioConnection: Connection {
    /// Wakes `receive` from other threads (background work finishing).
    public let waker = Waker()
    private let input: Int32
    private let output: Int32
    private var decoder: FrameDecoder
    /// The framed messages sent since the last flush, serialized in place (no copy between them and `write(2)`).
    private var outgoing = ByteSink(capacity: 1 << 16)
    private var readBuffer: [UInt8]
    private var ended = false
    /// Set when the output is gone (the client closed its end); further writes are dropped.
    public private(set) var outputFailed = false

    /// A connection on `input` and `output`; bodies over `maximumContentLength` are skipped.
    public init(input: Int32 = 0, output: Int32 = 1, maximumContentLength: Int = 64 << 20, readSize: Int = 1 << 16) {
        self.input = input
        self.output = output
        decoder = FrameDecoder(maximumContentLength: maximumContentLength)
        readBuffer = [UInt8](repeating: 0, count: readSize)
    }

    /// How long `receive` keeps polling without sleeping before it blocks, in nanoseconds.
    ///
    /// A client usually sends its next message within microseconds of reading an answer (an
    /// editor scrolling, a script); waking a sleeping thread costs tens of microseconds on a
    /// virtual machine, several times the cost of handling the message. Spinning this briefly
    /// after each batch keeps those replies fast and costs nothing once the client goes quiet.
    public static let spinBeforeSleeping: UInt64 = 50_000

    /// Waits for input (or the waker), reads once, and returns every message and framing
    /// error the bytes read so far complete.
    public func receive(timeout: Int32) -> [Incoming] {
        if ended { return [] }
        var descriptors = [
            pollfd(fd: input, events: Int16(POLLIN), revents: 0),
            pollfd(fd: waker.fileDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        var ready = poll(&descriptors, 2, 0)
        if ready == 0 && timeout != 0 {
            let start = monotonicNanoseconds()
            while ready == 0 && monotonicNanoseconds() - start < Self.spinBeforeSleeping {
                ready = poll(&descriptors, 2, 0)
            }
            if ready == 0 { ready = poll(&descriptors, 2, timeout) }
        }
        if ready < 0 { return [] }
        if descriptors[1].revents != 0 { waker.reset() }
        if descriptors[0].revents == 0 { return [] }
        let count = readBuffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
        if count < 0 {
            if errno == EINTR || errno == EAGAIN { return [] }
            ended = true
            return [.end(detail: "read failed: errno \(errno)")]
        }
        if count == 0 {
            ended = true
            return [.end(detail: decoder.unfinishedMessage())]
        }
        readBuffer.withUnsafeBytes { decoder.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        var incoming: [Incoming] = []
        while let next = decoder.nextIncoming() { incoming.append(next) }
        return incoming
    }

    /// How many bytes of framed messages may wait in the output buffer: once `send` has put this many there, it
    /// writes them at once instead of waiting for the turn's `flush`.
    ///
    /// A client that pipelines requests reads the first answers of a long batch while the server makes the rest,
    /// instead of waiting for the whole batch: pipelined `server/ping` went from 0.95M to 1.24M requests a second
    /// (`taskls-bench wire`), for one more `write(2)` per 4 KB of answers. The order of the messages is unchanged.
    public static let flushThreshold = 4096

    /// Frames `message` into the output buffer; `flush` writes it, or this call itself once `flushThreshold` bytes
    /// are waiting.
    public func send(_ message: Message) {
        FrameEncoder.append(message, to: &outgoing)
        if outgoing.count >= Self.flushThreshold { flush() }
    }

    /// Frames `body`, a message written already, into the output buffer, as `send(_:)` frames a message.
    public func send(body: [UInt8]) {
        body.withUnsafeBufferPointer { FrameEncoder.append(body: $0, to: &outgoing) }
        if outgoing.count >= Self.flushThreshold { flush() }
    }

    /// Writes everything sent since the last flush, in order, blocking while the pipe is full.
    public func flush() {
        defer { outgoing.removeAll(keepingAtMost: 1 << 20) }
        if outputFailed { return }
        let bytes = outgoing.bytes
        var written = 0
        while written < bytes.count {
            let result = write(output, bytes.baseAddress.unsafelyUnwrapped + written, bytes.count - written)
            if result < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN {
                    var descriptor = pollfd(fd: output, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&descriptor, 1, -1)
                    continue
                }
                outputFailed = true
                return
            }
            written += result
        }
    }
}

