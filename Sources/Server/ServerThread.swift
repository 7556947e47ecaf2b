/// A server whose message loop runs on a thread of its own: the REPL's embedded server and the in-process tests.

import Foundation
import Wire

/// A `Server` running `run()` on a thread of its own, over a connection handed to it.
///
/// The connection belongs to that thread from then on; the client talks to its other end (an `InMemoryClient`, or
/// the pipes of a `StdioConnection`). The loop ends as `Server.run()` does: at the end of the input (the client
/// closed its side) or on `exit`. `waitForExit` then gives what `run()` returned, the code `taskls serve` exits with.
public final class ServerThread: Sendable {
    private let exitCode = Locked<Int32?>(nil)
    /// Fires once the loop has ended (and again for each waiter that saw it, so every waiter does).
    private let ended = Waker()

    /// Starts `Server(connection: connection, options: options).run()` on a new thread; once `run()` has returned,
    /// that thread calls `whenEnded` (to close the descriptors the connection read and wrote, say) before
    /// `waitForExit` reports the end.
    public init(connection: sending any Connection, options: ServerOptions, whenEnded: @escaping @Sendable () -> Void = {}) {
        let handover = Handover(connection)
        let exitCode = exitCode
        let ended = ended
        let thread = Thread {
            let code = Server(connection: handover.take(), options: options).run()
            whenEnded()
            exitCode.withLock { $0 = code }
            ended.wake()
        }
        thread.name = "taskls server loop"
        thread.start()
    }

    /// Waits up to `timeout` milliseconds (`-1`: no limit) for the loop to end.
    /// - Returns: the code `Server.run()` returned, or nil when the loop is still running.
    public func waitForExit(timeout: Int32) -> Int32? {
        let deadline = timeout < 0 ? Int64.max : monotonicMilliseconds() + Int64(timeout)
        while true {
            if let code = exitCode.withLock({ $0 }) {
                ended.wake()
                return code
            }
            let left = deadline == Int64.max ? -1 : Int32(clamping: max(0, deadline - monotonicMilliseconds()))
            if left == 0 { return nil }
            ended.wait(timeout: left)
        }
    }
}

/// Carries the connection to the loop's thread: filled before the thread starts (which orders it before the
/// thread's first read), taken once on that thread, never touched by two threads at once.
private final class Handover: @unchecked Sendable {
    private var connection: (any Connection)?

    init(_ connection: sending any Connection) { self.connection = connection }

    func take() -> any Connection {
        guard let taken = connection else { preconditionFailure("the connection was taken twice") }
        connection = nil
        return taken
    }
}
