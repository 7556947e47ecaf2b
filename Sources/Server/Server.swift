/// The server: one serial loop that reads messages in arrival order and answers each in turn.

#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Domain
import Store
import Wire

/// Settings the executable, the REPL and the tests choose.
public struct ServerOptions: Sendable {
    /// Where the server logs (stderr by default).
    public var logger: Logger
    /// The wall clock, read once per mutation (tests pass a fixed one).
    public var clock: @Sendable () -> Timestamp
    /// Orders over more items than this are indexed off the message loop (views show `loading`).
    public var backgroundIndexThreshold: Int
    /// A clock moved only by `debug/setClock` (for tests); `clock` reads it when set.
    public var manualClock: ManualClock?
    /// The most items one step of re-evaluating dates may look at before the loop serves
    /// requests again (when the day changes, or a due time passes).
    public var timeBudget: Int
    /// Where the lists live (in memory only, by default).
    public var store: StoreSetting
    /// The journal size (bytes) past which a new snapshot is written, when it is also larger than the last one.
    public var compactionThreshold: Int
    /// Stores of at most this many bytes are read during `initialize`; larger ones off the loop.
    public var inlineLoadBytes: Int
    /// For tests: when set, loading the store waits until `debug/continueLoading` opens the gate, so a
    /// transcript can see views in `loading`.
    public var loadGate: LoadGate?
    /// For tests: compactions are written and installed on the loop, at the end of the turn that starts them,
    /// before its answers leave (`taskls serve --compact-on-loop`), so an answer proves the compaction done.
    public var compactOnLoop: Bool

    public init(
        logger: Logger = Logger(), clock: @escaping @Sendable () -> Timestamp = systemClock,
        backgroundIndexThreshold: Int = 50_000, manualClock: ManualClock? = nil, timeBudget: Int = Engine.defaultTimeBudget,
        store: StoreSetting = .memory, compactionThreshold: Int = 8 << 20, inlineLoadBytes: Int = 1 << 20,
        loadGate: LoadGate? = nil, compactOnLoop: Bool = false
    ) {
        self.compactOnLoop = compactOnLoop
        self.inlineLoadBytes = inlineLoadBytes
        self.loadGate = loadGate
        self.logger = logger
        self.store = store
        self.compactionThreshold = compactionThreshold
        if let manualClock {
            self.clock = { @Sendable in manualClock.now }
        } else {
            self.clock = clock
        }
        self.backgroundIndexThreshold = backgroundIndexThreshold
        self.manualClock = manualClock
        self.timeBudget = timeBudget
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
    /// The client's undo and redo steps.
    var history = UndoHistory()
    /// The method of the request being handled, under which its changes are recorded.
    private var currentMethod = ""
    /// The overview as the client last saw it, once it has asked for it (`lists/list`); the
    /// server pushes `lists/changed` whenever it changes.
    var watchedOverview: Overview?
    /// The client's calendar (its time zone is set by `initialize`).
    var calendar = ClientCalendar(timeZone: .current)
    /// Whether a re-evaluation of dates is under way (it runs in steps between requests).
    var advancing = false
    /// The store as the loop sees it.
    var storage = Storage.memory
    /// The store's directory, once chosen (at `initialize`).
    var storePath: String?
    /// Which load the loop waits for (a retry starts a new one; an older one's result is ignored).
    var loadGeneration = 0
    /// Views opened, or kept, while the store cannot serve them; opened in the engine once it can.
    var pendingViews: [ViewID: DetachedView] = [:]
    /// Messages produced since this turn's first journaled record, sent once it is on disk.
    var held: [HeldMessage]?
    /// Per view, the version the client last saw before the held notifications (to resume after a failed sync).
    var heldVersions: [ViewID: UInt64] = [:]
    /// Whether the request being handled journaled a record.
    var requestWrote = false
    /// A write failure (other than a full disk) to turn into a failed store at the end of the turn.
    var pendingFailure: StoreFailure?
    /// A snapshot being written off the loop.
    var compaction: CompactionTicket?
    /// A snapshot written off the loop, to install once the turn's records are committed.
    var writtenSnapshot: CompactionTicket?
    /// Watches the store's directory for other processes' appends (nil without a store, or where inotify is
    /// missing: the loop then looks every `pollingInterval` milliseconds).
    var watcher: JournalWatcher?
    /// When the loop last looked for other processes' records (monotonic milliseconds), when polling.
    var lastLook: Int64 = 0
    /// Whether the loop must look for other processes' records again soon (a writer was mid-turn).
    var lookAgain = false
    /// Where the store is read and snapshots are written, off the loop.
    let storeQueue = DispatchQueue(label: "taskls.store", qos: .userInitiated)

    /// A server for `connection`; call `run()` on the thread that is to own it.
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
            handle(connection.receive(timeout: millisecondsUntilTimeChange()))
            if exitCode == nil { handle(mailbox.take()) }
            if exitCode == nil && lifecycle == .running { stepTime() }
            if exitCode == nil { pollForOthers() }
            indexBuilder.keep(only: engine.pendingBuilds)
            commitTurn()
            finishCompaction()
            connection.flush()
            if connection.outputFailed && exitCode == nil {
                logger.log(.error, "the client closed its end of the output; exiting")
                exitCode = 1
            }
        }
        connection.flush()
        voidBeforeExiting()
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
                let isCancelled = cancelled[id].map { $0 > position } ?? false
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
                    send(.error(id: failure.id, failure.error))
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
        var othersWrote = false
        defer { if othersWrote { catchUpWithOthers(waiting: false) } }
        for event in events {
            switch event {
            case .progress(let build, let progress): publish(engine.reportProgress(build, progress))
            case .built(let built): publish(engine.install(built))
            case .storeProgress(let generation, let progress): storeProgressed(generation, progress)
            case .storeOpened(let generation, let result): storeOpened(generation, result)
            case .snapshotWritten(let ticket, let failure): snapshotWritten(ticket, failure)
            case .storeChanged: othersWrote = true
            }
        }
    }

    /// Sends the notification of each view change, in order, then `lists/changed` if the
    /// overview the client watches changed.
    func publish(_ changes: [ViewChange]) {
        for change in changes {
            if held != nil, heldVersions[change.view] == nil { heldVersions[change.view] = change.version - 1 }
            send(change.notification)
        }
        guard let watched = watchedOverview, storage.isUsable else { return }
        let overview = engine.overview()
        if !overview.isIdentical(to: watched) {
            watchedOverview = overview
            send(.notification(method: "lists/changed", params: overview.json(revision: engine.revision)))
        }
    }

    /// How long the loop may wait for input before dates must be re-evaluated: 0 while a
    /// re-evaluation is under way, until the next time change by the real clock, and without
    /// limit for a manual clock (it moves only on request) or before `initialize`.
    private func millisecondsUntilTimeChange() -> Int32 {
        if advancing { return 0 }
        let polling: Int32 = lookAgain ? 1 : storage.store != nil && !(watcher?.isWatching ?? false) ? Int32(Server.pollingInterval) : -1
        guard lifecycle == .running, options.manualClock == nil, let next = engine.nextTimeChange else { return polling }
        let wait = Int32(clamping: max(0, min(next.milliseconds - options.clock().milliseconds, 3_600_000)))
        return polling < 0 ? wait : min(wait, polling)
    }

    /// Re-evaluates dates when time has reached the next change: one bounded step per loop
    /// turn, so requests keep being answered while a large store catches up with midnight.
    func stepTime() {
        if !advancing {
            guard let next = engine.nextTimeChange, options.clock() >= next else { return }
        }
        let step = engine.advance(to: calendar.today(at: options.clock()), budget: options.timeBudget)
        advancing = !step.finished
        publish(step.changes)
    }

    /// Moves time to `now` at once, every step in this turn (for `initialize` and `debug/setClock`).
    func advanceTime() {
        repeat {
            let step = engine.advance(to: calendar.today(at: options.clock()), budget: options.timeBudget)
            advancing = !step.finished
            publish(step.changes)
        } while advancing
    }

    /// Applies `mutations` as one group (one undo step of the request being handled),
    /// publishes every view's change, and returns what was applied, for the response (which
    /// the caller sends after these notifications).
    func apply(_ mutations: [Mutation]) throws(ResponseError) -> Applied {
        let applied = try applyDurably(mutations)
        publish(applied.viewChanges)
        history.record(applied.changes, method: currentMethod)
        return applied
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
    /// Catches up with the store first (other processes may have taken ids).
    func freshIdentifier(offset: UInt64 = 0) throws(ResponseError) -> UInt64 {
        try prepareToWrite()
        return engine.state.nextIdentifier + offset
    }

    /// Answers one request: the lifecycle comes first, then cancellation, then the method.
    private func handleRequest(id: RequestID, method: String, params: JSON?, cancelled: Bool) {
        switch lifecycle {
        case .waitingForInitialize where method != "initialize":
            send(.error(id: id, ResponseError(.serverNotInitialized, "\(method): the server is not initialized; send initialize first")))
            return
        case .shutDown:
            send(.error(id: id, ResponseError(.invalidRequest, "\(method): the server is shut down; only exit is accepted")))
            return
        case .running where method == "initialize":
            send(.error(id: id, ResponseError(.invalidRequest, "initialize: the server is already initialized")))
            return
        default:
            break
        }
        if cancelled {
            send(.error(id: id, ResponseError(.requestCancelled, "\(method): cancelled by the client")))
            return
        }
        guard let handler = methods.requests[method] else {
            send(.error(id: id, ResponseError(.methodNotFound, "unknown method '\(method)'")))
            return
        }
        commitBeforeReading(method)
        currentMethod = method
        requestWrote = false
        defer { requestWrote = false }
        do {
            if Server.writingMethods.contains(method) && storage.isUsable {
                try prepareToWrite()
            } else if Server.readsStore(method) {
                // A request sees every change other processes made durable before it arrived.
                try catchUpBeforeReading()
            }
            let result = try answerWithoutStore(method, params) ?? handler(self, params)
            send(.response(id: id, result: result))
        } catch let error as ResponseError {
            send(.error(id: id, error))
        } catch {
            logger.log(.error, "\(method): unexpected failure: \(error)")
            send(.error(id: id, ResponseError(.internalError, "\(method): internal error: \(error)")))
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
