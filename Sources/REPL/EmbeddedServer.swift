/// A taskls server run inside the REPL's process, on its own thread, over an in-memory connection.

#if canImport(Glibc)
import Glibc
#endif
// Domain only for `Timestamp`, which a manual clock (`--clock`) is built from.
import Domain
import Foundation
import Server
import Synchronization
import Wire

/// The server end of the REPL: starts a `Server` on a thread and hands out the client end.
///
/// Messages from the server are forwarded by a second thread into `inbox`, whose waker's file
/// descriptor the REPL can poll together with its terminal.
final class EmbeddedServer {
    /// What the server sent, in order; its waker fires when something arrives.
    let inbox = Inbox()
    private let client: InMemoryClient
    private let loop: ServerThread

    /// Starts a server with `options` and a thread that forwards its messages to `inbox`.
    init(options: ServerOptions) {
        let (serverEnd, clientEnd) = InMemoryConnection.pair()
        client = clientEnd
        loop = ServerThread(connection: serverEnd, options: options)
        let client = clientEnd
        let inbox = inbox
        Thread {
            while let message = client.receive(timeout: -1) { inbox.push(message) }
            inbox.close()
        }.start()
    }

    /// Sends one message to the server.
    func send(_ message: Message) { client.send(message) }

    /// Closes the client's side and waits (at most `timeout` milliseconds) for the server's loop to end.
    func stop(timeout: Int) {
        client.close()
        _ = loop.waitForExit(timeout: Int32(clamping: timeout))
    }

    /// A manual clock stopped at `instant` (ISO 8601, such as `2026-11-22T10:00:00Z`), or nil when it is not one.
    static func manualClock(_ instant: String) -> ManualClock? {
        guard let milliseconds = parseInstant(instant) else { return nil }
        return ManualClock(Timestamp(milliseconds: milliseconds))
    }
}

/// Messages from the server waiting for the REPL, and the waker that says some arrived.
final class Inbox: Sendable {
    private let state = Mutex<(messages: [Message], closed: Bool)>(([], false))
    /// Fires when a message arrives or the server has gone.
    let waker = Waker()

    func push(_ message: Message) {
        state.withLock { $0.messages.append(message) }
        waker.wake()
    }

    func close() {
        state.withLock { $0.closed = true }
        waker.wake()
    }

    /// The oldest message, waiting up to `timeout` milliseconds (`-1`: no limit); nil on timeout
    /// or when the server has gone and everything it sent was taken.
    func next(timeout: Int32) -> Message? {
        let deadline = timeout < 0 ? Int64.max : monotonicMilliseconds() + Int64(timeout)
        while true {
            waker.reset()
            let (message, closed) = state.withLock { state -> (Message?, Bool) in
                state.messages.isEmpty ? (nil, state.closed) : (state.messages.removeFirst(), state.closed)
            }
            if let message { return message }
            if closed { return nil }
            let left = deadline == Int64.max ? -1 : Int32(clamping: max(0, deadline - monotonicMilliseconds()))
            if left == 0 && timeout >= 0 { return nil }
            _ = waker.wait(timeout: left)
        }
    }

    /// Whether a message is waiting.
    var hasMessages: Bool { state.withLock { !$0.messages.isEmpty } }
}
