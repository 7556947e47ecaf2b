/// A connection is a pair of message streams; the server's loop reads one and writes the other.

/// What a connection delivered, in arrival order.
public enum Incoming: Sendable, Equatable {
    /// A well-formed message.
    case message(Message)
    /// Input that could not be a message; answer it (unless it was a response) and go on.
    case malformed(MessageDecodingFailure)
    /// The input stream ended; `detail` describes a message it ended inside of.
    case end(detail: String?)
}

extension Connection {
    /// Queues the message `body` holds, read back as a `Message`: for a connection that has no way of its own to
    /// send bytes written already. A body that is not a message is a bug of the writer (it traps).
    public func send(body: [UInt8]) {
        switch body.withUnsafeBytes({ Message.decode($0) }) {
        case .success(let message): send(message)
        case .failure(let failure): preconditionFailure("a written message does not decode: \(failure.error.message)")
        }
    }
}

/// The server side of a connection. Used by one thread, the message loop; `waker` may be used
/// from any thread to make a blocked `receive` return.
public protocol Connection: AnyObject {
    /// Waits until input arrives, the waker fires, or `timeout` milliseconds pass (`-1`: no
    /// limit), and returns everything that arrived, in order (possibly nothing).
    func receive(timeout: Int32) -> [Incoming]
    /// Queues a message; messages leave in the order they were queued.
    func send(_ message: Message)
    /// Queues a message whose body was written already (by a typed writer: `JSONWriter`, `JSONWritable`), in the
    /// same order as `send(_:)`. `body` must be one JSON-RPC message, compact JSON, as `JSONSerializer` writes one.
    func send(body: [UInt8])
    /// Writes every queued message, in as few system calls as it can.
    func flush()
    /// Wakes a blocked `receive` from any thread.
    var waker: Waker { get }
    /// Whether writing failed (the client is gone): nothing sent from then on can arrive.
    var outputFailed: Bool { get }
}
