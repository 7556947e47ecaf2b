/// A connection inside one process: two queues of messages, no framing, no serialization.

/// A queue of messages one thread writes and another waits on.
final class MessageQueue: Sendable {
    private let state = Locked<(messages: [Message], closed: Bool)>(([], false))
    let waker = Waker()

    func push(_ messages: [Message]) {
        guard !messages.isEmpty else { return }
        state.withLock { $0.messages.append(contentsOf: messages) }
        waker.wake()
    }

    func close() {
        state.withLock { $0.closed = true }
        waker.wake()
    }

    func take() -> (messages: [Message], closed: Bool) {
        state.withLock { state in
            let taken = (state.messages, state.closed)
            state.messages.removeAll()
            return taken
        }
    }
}

/// The server end of an in-memory connection; make one with `InMemoryConnection.pair()`.
public final class InMemoryConnection: Connection {
    private let incoming: MessageQueue
    private let outgoing: MessageQueue
    private var pending: [Message] = []
    private var ended = false
    /// Wakes `receive`; the client's sends use it too.
    public var waker: Waker { incoming.waker }
    /// An in-memory client cannot go away mid-write.
    public let outputFailed = false

    init(incoming: MessageQueue, outgoing: MessageQueue) {
        self.incoming = incoming
        self.outgoing = outgoing
    }

    /// A connected pair: the server end for the loop, the client end for a test or the REPL.
    public static func pair() -> (server: InMemoryConnection, client: InMemoryClient) {
        let toServer = MessageQueue()
        let toClient = MessageQueue()
        return (InMemoryConnection(incoming: toServer, outgoing: toClient), InMemoryClient(incoming: toClient, outgoing: toServer))
    }

    /// Everything the client sent since the last call, waiting up to `timeout` for something.
    public func receive(timeout: Int32) -> [Incoming] {
        if ended { return [] }
        var taken = incoming.take()
        if taken.messages.isEmpty && !taken.closed {
            incoming.waker.wait(timeout: timeout)
            taken = incoming.take()
        }
        var result = taken.messages.map(Incoming.message)
        if taken.closed {
            ended = true
            result.append(.end(detail: nil))
        }
        return result
    }

    /// Queues `message` for the client; `flush` hands it over.
    public func send(_ message: Message) { pending.append(message) }

    /// Hands every queued message to the client, in order.
    public func flush() {
        outgoing.push(pending)
        pending.removeAll(keepingCapacity: true)
    }

    deinit { outgoing.close() }
}

/// The client end of an in-memory connection. Safe to use from any one thread.
public final class InMemoryClient: Sendable {
    private let incoming: MessageQueue
    private let outgoing: MessageQueue
    private let buffered = Locked<[Message]>([])

    init(incoming: MessageQueue, outgoing: MessageQueue) {
        self.incoming = incoming
        self.outgoing = outgoing
    }

    /// Sends a message to the server.
    public func send(_ message: Message) { outgoing.push([message]) }

    /// Sends messages that arrive together, as one read of a pipe would deliver them.
    public func send(_ messages: [Message]) { outgoing.push(messages) }

    /// Closes the client's side: the server sees the end of its input.
    public func close() { outgoing.close() }

    /// The next message from the server, waiting up to `timeout` milliseconds; `nil` on timeout
    /// or when the server has gone.
    public func receive(timeout: Int32) -> Message? {
        while true {
            if let message = buffered.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { return message }
            let taken = incoming.take()
            if !taken.messages.isEmpty {
                buffered.withLock { $0.append(contentsOf: taken.messages) }
                continue
            }
            if taken.closed { return nil }
            if !incoming.waker.wait(timeout: timeout) { return nil }
        }
    }
}
