/// The server: one serial loop that reads messages in arrival order and answers each in turn.

import Domain
import Store
import TasklsProtocol
import Wire

/// A taskls server bound to one connection: the message loop.
///
/// Each turn it reads what arrived, answers it in order (each request through its method's description), applies
/// what background work reported, steps time, looks for other processes' records, commits the turn, and flushes.
/// Not `Sendable`: it lives on the thread that calls `run()`, and everything it does happens there, one message at
/// a time, in the order the messages arrived.
public final class Server {
    private let connection: Connection
    private let options: ServerOptions
    private let session: Session
    private let mailbox: Mailbox
    private let outbox: Outbox
    private let workspace: Workspace
    private let persistence: Persistence
    private let log: ClientLog
    private let progress: WorkDoneProgress
    /// The environment requests are answered in, built once: each request sets its id and token in place, so
    /// answering one copies none of the server's parts (a copy retains each of them).
    private let requestEnvironment: Environment
    /// The last request method looked up and its description: a client sending one method many times in a row
    /// (pings, a scroll's `view/window` calls) finds it by one comparison of the name instead of hashing it.
    private var lastRequestMethod: (name: String, description: MethodDescription)?
    private var logger: Logger { options.logger }

    /// A server for `connection`; call `run()` on the thread that is to own it.
    public init(connection: Connection, options: ServerOptions = ServerOptions()) {
        self.connection = connection
        self.options = options
        session = Session(methods: MethodTable.standard())
        mailbox = Mailbox(waker: connection.waker)
        outbox = Outbox(connection: connection)
        log = ClientLog(logger: options.logger, outbox: outbox)
        progress = WorkDoneProgress(outbox: outbox)
        workspace = Workspace(outbox: outbox, mailbox: mailbox, options: options, progress: progress)
        persistence = Persistence(workspace: workspace, outbox: outbox, mailbox: mailbox, options: options, log: log, progress: progress)
        requestEnvironment = Environment(
            session: session, workspace: workspace, persistence: persistence, options: options, log: log, progress: progress)
    }

    /// The environment notifications and background work are handled in: the requests' one, outside a request
    /// (no id, no token).
    private var environment: Environment { requestEnvironment }

    /// Serves until `exit` or the end of input; returns the exit code LSP prescribes
    /// (0 after `shutdown`, 1 otherwise).
    public func run() -> Int32 {
        while session.exitCode == nil {
            handle(connection.receive(timeout: millisecondsUntilTimeChange()))
            if session.exitCode == nil { handle(mailbox.take()) }
            if session.exitCode == nil && session.lifecycle == .running {
                workspace.stepTime()
                persistence.fireDueReminders()
                persistence.startDueSync()
            }
            if session.exitCode == nil { persistence.pollForOthers() }
            workspace.dropUnwantedBuilds()
            persistence.commitTurn()
            persistence.finishCompaction()
            outbox.flush()
            if outbox.outputFailed && session.exitCode == nil {
                logger.log(.error, "the client closed its end of the output; exiting")
                session.exitCode = 1
            }
        }
        outbox.flush()
        persistence.voidBeforeExiting()
        return session.exitCode ?? 1
    }

    /// Handles one batch of input, in order.
    ///
    /// A `$/cancelRequest` later in the same batch cancels a request that has not been handled
    /// yet: it is answered with `-32800` instead of being run.
    private func handle(_ batch: [Incoming]) {
        // By index, not `enumerated()`: an element is matched in place, not copied whole first.
        var cancelled: [RequestID: Int] = [:]
        for position in batch.indices {
            if case .message(.notification(let method, let params)) = batch[position], method == CancelRequest.method,
                let id = params?["id"].flatMap(RequestID.init)
            {
                cancelled[id] = position
            }
        }
        for position in batch.indices {
            guard session.exitCode == nil else { return }
            switch batch[position] {
            case .message(.request(let id, let method, let params)):
                let isCancelled = !cancelled.isEmpty && cancelled[id].map { $0 > position } ?? false
                handleRequest(id: id, method: method, params: params, cancelled: isCancelled)
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
                    outbox.send(.error(id: failure.id, failure.error))
                }
            case .end(let detail):
                if let detail { logger.log(.warning, detail) }
                logger.log(.info, "input closed; exiting")
                session.exitCode = session.lifecycle == .shutDown ? 0 : 1
            }
        }
    }

    /// Applies what background work reported, after the messages that arrived before it.
    private func handle(_ events: [BackgroundEvent]) {
        var othersWrote = false
        defer {
            if othersWrote {
                persistence.catchUpWithOthers(waiting: false)
                persistence.reloadSyncStates()
            }
        }
        for event in events {
            switch event {
            case .progress(let build, let fraction): workspace.buildProgressed(build, fraction)
            case .built(let built): workspace.buildFinished(built)
            case .storeProgress(let generation, let progress): persistence.storeProgressed(generation, progress)
            case .storeOpened(let generation, let result): persistence.storeOpened(generation, result)
            case .snapshotWritten(let ticket, let failure): persistence.snapshotWritten(ticket, failure)
            case .storeChanged: othersWrote = true
            case .exchangeFinished(let job, let outcome): workspace.exchange.finish(job, outcome, in: environment)
            }
        }
    }

    /// How long the loop may wait for input before dates must be re-evaluated: 0 while a
    /// re-evaluation is under way, until the next time change by the real clock, and without
    /// limit for a manual clock (it moves only on request) or before `initialize`; shorter when other processes'
    /// records must be looked for, or a reminder is due.
    private func millisecondsUntilTimeChange() -> Int32 {
        if workspace.advancing { return 0 }
        // Reminders are fired only while running (`fireDueReminders` is not called before `initialize` or after `shutdown`).
        let reminder = session.lifecycle == .running ? persistence.millisecondsUntilReminder : -1
        let sync = session.lifecycle == .running ? persistence.millisecondsUntilSync : -1
        let polling: Int32 = [persistence.millisecondsUntilLooking, reminder, sync].filter { $0 >= 0 }.min() ?? -1
        guard session.lifecycle == .running, options.manualClock == nil, let next = workspace.engine.nextTimeChange else { return polling }
        let wait = Int32(clamping: max(0, min(next.milliseconds - options.clock().milliseconds, 3_600_000)))
        return polling < 0 ? wait : min(wait, polling)
    }

    /// Answers one request: the lifecycle comes first, then cancellation, then the method's description.
    private func handleRequest(id: RequestID, method: String, params: JSON?, cancelled: Bool) {
        switch session.lifecycle {
        case .waitingForInitialize where method != Initialize.method:
            outbox.send(.error(id: id, ResponseError(.serverNotInitialized, "\(method): the server is not initialized; send initialize first")))
            return
        case .shutDown:
            outbox.send(.error(id: id, ResponseError(.invalidRequest, "\(method): the server is shut down; only exit is accepted")))
            return
        case .running where method == Initialize.method:
            outbox.send(.error(id: id, ResponseError(.invalidRequest, "initialize: the server is already initialized")))
            return
        default:
            break
        }
        if cancelled {
            outbox.send(.error(id: id, ResponseError(.requestCancelled, "\(method): cancelled by the client")))
            return
        }
        guard let description = requestDescription(method) else {
            outbox.send(.error(id: id, ResponseError(.methodNotFound, "unknown method '\(method)'")))
            return
        }
        if description.store.commitsFirst { persistence.commitBeforeReading() }
        persistence.requestWrote = false
        defer { persistence.requestWrote = false }
        requestEnvironment.requestID = id
        defer {
            requestEnvironment.requestID = nil
            requestEnvironment.requestedWorkDoneToken = nil
        }
        do {
            switch try description.answer(params, in: requestEnvironment) {
            case .result(let result)?: outbox.send(.response(id: id, result: result))
            case .written(let body)?: outbox.send(body: body, answering: id)
            case nil: break
            }
        } catch {
            outbox.send(.error(id: id, error))
        }
    }

    /// The description of request method `method`, or nil for an unknown method.
    /// - Complexity: O(1): the last method found is compared first, else the table is looked in.
    private func requestDescription(_ method: String) -> MethodDescription? {
        if let last = lastRequestMethod, last.name == method { return last.description }
        guard let description = session.methods.requests[method] else { return nil }
        lastRequestMethod = (method, description)
        return description
    }

    private func handleNotification(method: String, params: JSON?) {
        if session.lifecycle == .waitingForInitialize && method != Exit.method {
            logger.log(.info, "dropped notification \(method) before initialize")
            return
        }
        guard let description = session.methods.notifications[method] else {
            logger.log(method.hasPrefix("$/") ? .debug : .info, "ignored unknown notification \(method)")
            return
        }
        do {
            try description.run(environment, params)
        } catch {
            logger.log(.warning, "\(method): \(error)")
        }
    }
}
