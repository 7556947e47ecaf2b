/// What a handler may do, by the kind of its method: a handler gets one of these, never the server.

import Domain
import Store
import TasklsProtocol
import Wire

/// For the lifecycle (`initialize`, `shutdown`, `exit`, `$/cancelRequest`): the session, and starting the store.
struct LifecycleContext {
    fileprivate let environment: Environment

    init(environment: Environment) { self.environment = environment }

    var lifecycle: Lifecycle {
        get { environment.session.lifecycle }
        nonmutating set { environment.session.lifecycle = newValue }
    }
    var options: ServerOptions { environment.options }
    var logger: Logger { environment.options.logger }
    var methods: MethodTable { environment.session.methods }

    /// Ends the loop with `code` once this message is handled.
    func exit(_ code: Int32) { environment.session.exitCode = code }

    /// Sets the client's time zone.
    func setTimeZone(_ zone: ClientCalendar) { environment.workspace.calendar = zone }

    /// Re-evaluates dates now, to the end.
    func advanceTime() { environment.workspace.advanceTime() }

    /// Starts loading the store at `path` (views wait in `loading` until it is read), reporting its progress on
    /// the request's `workDoneToken`.
    func startLoading(_ path: String) { environment.persistence.startLoading(path, reportingOn: environment.workDoneToken) }

    /// What the client said it can do and wants, from `initialize`: progress reports, and how much of the
    /// server's log it sees (`trace`). From now on the server may send it notifications.
    func configureClient(workDoneProgress: Bool, trace: Trace) {
        environment.progress.clientSupportsIt = workDoneProgress
        environment.log.trace = trace
        environment.log.reachesClient = true
    }

    /// `$/setTrace`.
    func setTrace(_ trace: Trace) { environment.log.trace = trace }

    /// Cancels a request whose work runs off the loop (`store/import`, `store/export`); false when none is.
    func cancelPendingWork(_ request: RequestID) -> Bool { environment.workspace.exchange.cancel(request) }
}

/// For methods about the server and the store's state (`StoreUse.none`, `.state`).
struct StateContext {
    fileprivate let environment: Environment
    fileprivate let workDoneToken: ProgressToken?

    init(environment: Environment, workDoneToken: ProgressToken?) {
        self.environment = environment
        self.workDoneToken = workDoneToken
    }

    fileprivate var persistence: Persistence { environment.persistence }
    fileprivate var workspace: Workspace { environment.workspace }
    var options: ServerOptions { environment.options }

    /// What `store/status` answers.
    func storeStatus() -> StoreStatusResult { persistence.status() }

    /// Reopens a failed store; false when there is nothing to retry.
    func retryStore() -> Bool { persistence.retry(reportingOn: workDoneToken) }

    /// Re-evaluates dates now, to the end.
    func advanceTime() { workspace.advanceTime() }

    /// The client's calendar (its time zone).
    var calendar: ClientCalendar { workspace.calendar }

    /// The wall clock now.
    var now: Timestamp { options.clock() }

    /// Whether this client is sent `reminder/fired`; setting it to true fires the reminders due at once.
    var watchesReminders: Bool {
        get { workspace.remindersWatched }
        nonmutating set {
            workspace.remindersWatched = newValue
            workspace.reminderRetry = 0
            fireDueReminders()
        }
    }

    /// Fires the reminders due now, if the client watches them (`Persistence.fireDueReminders`).
    func fireDueReminders() { persistence.fireDueReminders() }
}

/// For methods that read lists, items and views (`StoreUse.reads`) while the store can serve: the engine to read,
/// and the view operations (which change only what this client sees, never the store). It cannot apply mutations.
struct ReadingContext {
    fileprivate let environment: Environment
    /// Where index builds this request starts are reported.
    fileprivate let workDoneToken: ProgressToken?

    init(environment: Environment, workDoneToken: ProgressToken?) {
        self.environment = environment
        self.workDoneToken = workDoneToken
    }

    fileprivate var workspace: Workspace { environment.workspace }
    var options: ServerOptions { environment.options }

    /// The lists, items and views, to read.
    var engine: Engine { workspace.engine }

    /// The wall clock now.
    var now: Timestamp { options.clock() }

    /// The client's calendar (its time zone).
    var calendar: ClientCalendar { workspace.calendar }

    /// The shared lists' sync states (nil: none is shared).
    var syncStates: [TasklsProtocol.ListSyncState]? { workspace.syncStates }

    /// The store's directory, when the lists live in one (not in memory).
    var storeDirectory: String? { environment.persistence.phase.store?.path }

    /// Runs the sync program off the loop for this request (`Persistence.startSync`).
    func startSync(answering request: RequestID, _ work: @escaping @Sendable () -> Result<SyncNowResult, ResponseError>,
                   finish: @escaping (Result<SyncNowResult, ResponseError>, Environment) -> Void) {
        environment.persistence.startSync(answering: request, work, finish: finish)
    }

    /// Runs a domain call, converting its refusal to a JSON-RPC error.
    func domain<Value>(_ body: () throws(DomainError) -> Value) throws(ResponseError) -> Value {
        do {
            return try body()
        } catch {
            throw error.responseError
        }
    }

    /// Opens a view (starting its index's build when it is large and new).
    func openView(source: ViewSource, sort: Sort, filter: Filter, grouping: Grouping, window: Window) throws(ResponseError) -> ViewSnapshot {
        let opened = try domain { () throws(DomainError) in
            try workspace.engine.openView(source: source, sort: sort, filter: filter, grouping: grouping, window: window)
        }
        workspace.startBuild(opened.build, reportingOn: workDoneToken)
        return opened.snapshot
    }

    /// Moves a view's window.
    func setWindow(_ view: ViewID, _ window: Window) throws(ResponseError) -> ViewSnapshot {
        try domain { () throws(DomainError) in try workspace.engine.setWindow(view, window) }
    }

    /// A new generation of a view (sort, filter or sections changed): publishes its `reset`, returns the new version.
    func reconfigure(_ view: ViewID, sort: Sort?, filter: Filter?, grouping: Grouping?) throws(ResponseError) -> UInt64 {
        let changed = try domain { () throws(DomainError) in
            try workspace.engine.reconfigure(view, sort: sort, filter: filter, grouping: grouping)
        }
        workspace.startBuild(changed.build, reportingOn: workDoneToken)
        workspace.publish([changed.change])
        return changed.change.version
    }

    /// Collapses or expands items of a view (nil: all); publishes the view's change.
    /// - Returns: whether the view's rows changed.
    func setCollapsed(_ view: ViewID, ids: [ItemID]?, collapse: Bool) throws(ResponseError) -> Bool {
        let change = try domain { () throws(DomainError) in
            try workspace.engine.setCollapsed(view, ids: ids, collapse: collapse)
        }
        guard let change else { return false }
        workspace.publish([change])
        return true
    }

    /// A view's snapshot.
    func snapshot(_ view: ViewID) throws(ResponseError) -> ViewSnapshot {
        try domain { () throws(DomainError) in try workspace.engine.snapshot(view) }
    }

    /// Where an item's row is in a view (`Engine.locate`).
    func locate(_ item: ItemID, in view: ViewID) throws(ResponseError) -> (location: Location?, version: UInt64) {
        try domain { () throws(DomainError) in try workspace.engine.locate(item, in: view) }
    }

    /// Closes a view.
    func closeView(_ view: ViewID) throws(ResponseError) {
        try domain { () throws(DomainError) in try workspace.engine.closeView(view) }
    }

    /// The overview; `watch` true starts `lists/changed`, false stops it, nil leaves it as it is.
    /// Runs `work` off the loop for the request `request` (answered later); `finish` runs on the loop with its
    /// outcome (`ExchangeJobs`).
    func offLoop(answering request: RequestID, waitsForNetwork: Bool = false, _ work: @escaping @Sendable () -> ExchangeOutcome,
                 finish: @escaping (ExchangeOutcome, Environment) -> Void) {
        workspace.exchange.start(for: request, waitsForNetwork: waitsForNetwork, work, finish: finish)
    }

    /// Begins `$/progress` on the request's `workDoneToken` (nil: the client wants none).
    func beginProgress(title: String) -> ProgressToken? {
        guard let workDoneToken else { return nil }
        workspace.progress.begin(workDoneToken, title: title)
        return workDoneToken
    }

    func overview(watch: Bool?) -> Overview {
        let overview = workspace.engine.overview()
        switch watch {
        case true?: workspace.watchedOverview = overview
        case false?: workspace.watchedOverview = nil
        case nil: if workspace.watchedOverview != nil { workspace.watchedOverview = overview }
        }
        return overview
    }
}

/// For reading methods while the store loads or has failed (`StoreUse.reads`, their `waiting` handler): views
/// wait, without rows, in the store's state, and open in the engine once it can serve.
struct WaitingContext {
    fileprivate let environment: Environment

    init(environment: Environment) { self.environment = environment }

    fileprivate var workspace: Workspace { environment.workspace }
    fileprivate var persistence: Persistence { environment.persistence }

    /// The state waiting views are in (loading with progress, or error).
    var state: ViewState { persistence.phase.viewState ?? .ready }

    /// The client's calendar (its time zone).
    var calendar: ClientCalendar { workspace.calendar }

    /// The wall clock now.
    var now: Timestamp { workspace.options.clock() }

    /// The refusal of a request that needs the store.
    var refusal: ResponseError { persistence.refusal() }

    /// The overview while the store cannot serve (no lists; the store's state). `watch` as for `ReadingContext`.
    func overview(watch: Bool?) -> TasklsProtocol.Overview {
        switch watch {
        case true?: workspace.watchedOverview = Overview.unseen
        case false?: workspace.watchedOverview = nil
        case nil: break
        }
        return persistence.unusableOverview()
    }

    /// Opens a waiting view; it opens in the engine once the store is read.
    func openView(source: ViewSource, sort: Sort, filter: Filter, grouping: Grouping, window: Window) -> DetachedView {
        let view = DetachedView(id: workspace.engine.reserveViewID(), version: 1, source: source, sort: sort, filter: filter,
                                grouping: grouping, window: window)
        workspace.pendingViews[view.id] = view
        return view
    }

    /// The waiting view `id`, or `unknownView`.
    func view(_ id: ViewID) throws(ResponseError) -> DetachedView {
        guard let view = workspace.pendingViews[id] else { throw .requestFailed(reason: "unknownView", "no open view \(id)") }
        return view
    }

    /// Replaces a waiting view (its window or configuration changed).
    func update(_ view: DetachedView) { workspace.pendingViews[view.id] = view }

    /// Closes a waiting view.
    func close(_ id: ViewID) { workspace.pendingViews[id] = nil }

    /// Publishes a change of a waiting view.
    func publish(_ change: ViewChange) { workspace.publish([change]) }
}

/// For methods that change lists or items (`StoreUse.writes`): everything a reading method may do, plus applying
/// mutations (journaled before they are acknowledged) and the undo history. The loop has taken the store's lock
/// and applied other processes' records before the handler runs.
struct WritingContext {
    let reading: ReadingContext
    /// The method, under which its changes are recorded in the undo history.
    let method: String

    init(reading: ReadingContext, method: String) {
        self.reading = reading
        self.method = method
    }

    fileprivate var persistence: Persistence { reading.environment.persistence }

    /// The lists, items and views, to read.
    var engine: Engine { reading.engine }

    /// The wall clock now.
    var now: Timestamp { reading.now }

    /// The client's calendar (its time zone).
    var calendar: ClientCalendar { reading.calendar }

    /// A fresh identifier for a list or item created by this request (`offset` for the second, …).
    func freshIdentifier(offset: UInt64 = 0) -> UInt64 {
        engine.state.nextIdentifier + offset
    }

    /// Applies `mutations` as one group (one undo step of this request), publishes every view's change, and
    /// returns what was applied, for the response (which goes out after these notifications).
    func apply(_ mutations: [Mutation]) throws(ResponseError) -> Applied {
        let applied = try persistence.applyDurably(mutations)
        persistence.workspace.publish(applied.viewChanges)
        persistence.workspace.history.record(applied.changes, method: method)
        return applied
    }

    /// Applies `mutations` as one group without recording an undo step (undo and redo record their own).
    func applyUnrecorded(_ mutations: [Mutation]) throws(ResponseError) -> Applied {
        let applied = try persistence.applyDurably(mutations)
        persistence.workspace.publish(applied.viewChanges)
        return applied
    }

    /// The client's undo and redo steps.
    var history: UndoHistory {
        get { persistence.workspace.history }
        nonmutating set { persistence.workspace.history = newValue }
    }
}
