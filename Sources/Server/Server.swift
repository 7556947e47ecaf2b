/// The server: one serial loop that reads messages in arrival order and answers each in turn.

#if canImport(Glibc)
import Glibc
#endif
import Domain
import Wire

/// Settings the executable, the REPL and the tests choose.
public struct ServerOptions: Sendable {
    public var logger: Logger
    /// The wall clock, read once per mutation (tests pass a fixed one).
    public var clock: @Sendable () -> Timestamp
    /// Orders over more items than this are indexed off the message loop (views show `loading`).
    public var backgroundIndexThreshold: Int

    public init(
        logger: Logger = Logger(), clock: @escaping @Sendable () -> Timestamp = systemClock,
        backgroundIndexThreshold: Int = 50_000
    ) {
        self.logger = logger
        self.clock = clock
        self.backgroundIndexThreshold = backgroundIndexThreshold
    }
}

/// The system's real-time clock.
public let systemClock: @Sendable () -> Timestamp = {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return Timestamp(milliseconds: Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000)
}

/// Where the server is in the LSP lifecycle.
enum Lifecycle: Equatable {
    case waitingForInitialize
    case running
    case shutDown
}

/// A taskls server bound to one connection.
///
/// Not `Sendable`: it lives on the thread that calls `run()`, and everything it does happens
/// there, one message at a time, in the order the messages arrived.
public final class Server {
    let connection: Connection
    let options: ServerOptions
    let methods = MethodTable.standard
    var lifecycle = Lifecycle.waitingForInitialize
    /// Set when the loop must stop; the process exit code.
    var exitCode: Int32?
    var logger: Logger { options.logger }
    /// The lists, items and open views.
    var engine: Engine
    let mailbox: Mailbox
    let indexBuilder = IndexBuilder()

    public init(connection: Connection, options: ServerOptions = ServerOptions()) {
        self.connection = connection
        self.options = options
        engine = Engine(backgroundBuildThreshold: options.backgroundIndexThreshold)
        mailbox = Mailbox(waker: connection.waker)
    }

    /// Serves until `exit` or the end of input; returns the exit code LSP prescribes
    /// (0 after `shutdown`, 1 otherwise).
    public func run() -> Int32 {
        while exitCode == nil {
            handle(connection.receive(timeout: -1))
            if exitCode == nil { handle(mailbox.take()) }
            connection.flush()
        }
        connection.flush()
        return exitCode ?? 1
    }

    /// Handles one batch of input, in order.
    ///
    /// A `$/cancelRequest` later in the same batch cancels a request that has not been handled
    /// yet: it is answered with `-32800` instead of being run.
    func handle(_ batch: [Incoming]) {
        var cancelled: [RequestID: Int] = [:]
        for (position, incoming) in batch.enumerated() {
            if case .message(.notification("$/cancelRequest", let params)) = incoming,
                let id = params?["id"].flatMap(RequestID.init)
            {
                cancelled[id] = position
            }
        }
        for (position, incoming) in batch.enumerated() {
            guard exitCode == nil else { return }
            switch incoming {
            case .message(.request(let id, let method, let params)):
                if let cancelPosition = cancelled[id], cancelPosition > position {
                    connection.send(.error(id: id, ResponseError(.requestCancelled, "\(method): cancelled by the client")))
                } else {
                    handleRequest(id: id, method: method, params: params)
                }
            case .message(.notification(let method, let params)):
                handleNotification(method: method, params: params)
            case .message(.response(let id, _)), .message(.error(let id?, _)):
                logger.log(.warning, "ignored a response to request \(id), which the server never sent")
            case .message(.error(nil, let error)):
                logger.log(.warning, "ignored an error from the client with no id: \(error.message)")
            case .malformed(let failure):
                if failure.isResponse {
                    logger.log(.warning, "ignored a malformed response: \(failure.error.message)")
                } else {
                    logger.log(.info, "malformed input: \(failure.error.message)")
                    connection.send(.error(id: failure.id, failure.error))
                }
            case .end(let detail):
                if let detail { logger.log(.warning, detail) }
                logger.log(.info, "input closed; exiting")
                exitCode = lifecycle == .shutDown ? 0 : 1
            }
        }
    }

    /// Applies what background work reported, after the messages that arrived before it.
    func handle(_ events: [BackgroundEvent]) {
        for event in events {
            switch event {
            case .progress(let build, let progress): publish(engine.reportProgress(build, progress))
            case .built(let built): publish(engine.install(built))
            }
        }
    }

    /// Sends the notification of each view change, in order.
    func publish(_ changes: [ViewChange]) {
        for change in changes { connection.send(change.notification) }
    }

    /// Applies `mutations` as one group, publishes every view's change, and returns the new
    /// revision for the response (which the caller sends after these notifications).
    func apply(_ mutations: [Mutation]) throws(ResponseError) -> Applied {
        do {
            let applied = try engine.apply(mutations)
            publish(applied.viewChanges)
            return applied
        } catch {
            throw error.responseError
        }
    }

    /// Runs a domain call, converting its refusal to a JSON-RPC error.
    func domain<Value>(_ body: () throws(DomainError) -> Value) throws(ResponseError) -> Value {
        do {
            return try body()
        } catch {
            throw error.responseError
        }
    }

    /// A fresh identifier for a list or item created by this request (`offset` for the second, …).
    func freshIdentifier(offset: UInt64 = 0) -> UInt64 { engine.state.nextIdentifier + offset }

    private func handleRequest(id: RequestID, method: String, params: JSON?) {
        switch lifecycle {
        case .waitingForInitialize where method != "initialize":
            connection.send(.error(id: id, ResponseError(.serverNotInitialized, "\(method): the server is not initialized; send initialize first")))
            return
        case .shutDown:
            connection.send(.error(id: id, ResponseError(.invalidRequest, "\(method): the server is shut down; only exit is accepted")))
            return
        default:
            break
        }
        guard let handler = methods.requests[method] else {
            connection.send(.error(id: id, ResponseError(.methodNotFound, "unknown method '\(method)'")))
            return
        }
        do {
            let result = try handler(self, params)
            connection.send(.response(id: id, result: result))
        } catch let error as ResponseError {
            connection.send(.error(id: id, error))
        } catch {
            logger.log(.error, "\(method): unexpected failure: \(error)")
            connection.send(.error(id: id, ResponseError(.internalError, "\(method): internal error: \(error)")))
        }
    }

    private func handleNotification(method: String, params: JSON?) {
        if lifecycle == .waitingForInitialize && method != "exit" {
            logger.log(.info, "dropped notification \(method) before initialize")
            return
        }
        guard let handler = methods.notifications[method] else {
            logger.log(method.hasPrefix("$/") ? .debug : .info, "ignored unknown notification \(method)")
            return
        }
        do {
            try handler(self, params)
        } catch {
            logger.log(.warning, "\(method): \(error)")
        }
    }
}
