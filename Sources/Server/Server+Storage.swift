/// The server and its store: loading off the loop, views that wait for it, journaling before acknowledging,
/// group commit at the end of each turn, failures, retry and compaction.

#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Domain
import Store
import Wire

/// The methods answered whatever the store's state.
private let storeIndependentMethods: Set<String> = [
    "initialize", "shutdown", "server/ping", "debug/setClock", "debug/continueLoading", "store/retry", "store/status",
    "lists/list",
]

extension Server {
    // MARK: Loading

    /// Starts reading the store at `path` off the loop; views opened meanwhile wait in `loading`.
    func startLoading(_ path: String) {
        storePath = path
        storage = .loading(progress: 0)
        loadGeneration += 1
        let generation = loadGeneration
        let today = calendar.today(at: options.clock())
        let threshold = options.backgroundIndexThreshold
        let mailbox = self.mailbox
        let gate = options.loadGate
        let load = { @Sendable (report: @escaping @Sendable (Double) -> Void) -> Result<LoadedStore, StoreFailure> in
            gate?.wait()
            do throws(StoreFailure) {
                let (store, state) = try DurableStore.open(path, progress: report)
                return .success(LoadedStore(store: store, engine: Engine(state: state, today: today, backgroundBuildThreshold: threshold)))
            } catch {
                return .failure(error)
            }
        }
        // A small store is read at once (a few milliseconds): no request waits noticeably, and no pane
        // flashes "Loading…". A larger one is read off the loop.
        if gate == nil && DurableStore.bytesToRead(at: path) <= options.inlineLoadBytes {
            storeOpened(generation, load { _ in })
            return
        }
        storeQueue.async {
            let reported = Locked<Double>(-1)
            let result = load { progress in
                let due = reported.withLock { last in
                    guard progress >= last + 0.1 || (progress >= 1 && last < 1) else { return false }
                    last = progress
                    return true
                }
                if due { mailbox.post(.storeProgress(generation, progress)) }
            }
            mailbox.post(.storeOpened(generation, result))
        }
    }

    /// Shows the load's progress in every waiting view.
    func storeProgressed(_ generation: Int, _ progress: Double) {
        guard generation == loadGeneration, case .loading = storage else { return }
        storage = .loading(progress: progress)
        publishPendingState()
    }

    /// Installs what the loader read, or shows why it could not.
    func storeOpened(_ generation: Int, _ result: Result<LoadedStore, StoreFailure>) {
        guard generation == loadGeneration else { return }
        switch result {
        case .failure(let failure):
            logger.log(.error, "store: \(failure.message)")
            storage = .failed(failure)
            publishPendingState()
        case .success(let loaded):
            for note in loaded.store.notes { logger.log(.warning, "store: \(note)") }
            logger.log(.info, "store: opened \(loaded.store.path) at record \(loaded.store.sequence), \(loaded.engine.state.itemCount) items")
            var engine = loaded.engine
            engine.continueViewIDs(after: self.engine)
            self.engine = engine
            storage = .ready(loaded.store)
            watch(loaded.store.path)
            compaction = nil
            writtenSnapshot = nil
            history = UndoHistory()
            openPendingViews()
        }
    }

    /// Opens every waiting view in the engine under its id: each gets one `reset` (or closes when its list is gone).
    private func openPendingViews() {
        let waiting = pendingViews.values.sorted { $0.id < $1.id }
        pendingViews = [:]
        reopen(waiting)
    }

    /// Opens `views` in the engine under their ids, one version on: each gets one `reset` (or closes when its
    /// list is gone).
    private func reopen(_ views: [DetachedView]) {
        var changes: [ViewChange] = []
        for view in views {
            do {
                let opened = try engine.openView(reserved: view.id, version: view.version + 1, source: view.source, sort: view.sort,
                                                 filter: view.filter, grouping: view.grouping, window: view.window)
                if let build = opened.build { indexBuilder.start(build, reportingTo: mailbox) }
                let snapshot = opened.snapshot
                changes.append(ViewChange(view: view.id, version: snapshot.version, count: snapshot.count, window: snapshot.window,
                                          state: snapshot.state, operations: [.reset(rows: snapshot.rows)], empty: snapshot.empty))
            } catch {
                changes.append(ViewChange(view: view.id, version: view.version + 1, count: nil, window: view.window,
                                          state: .closed(reason: "notFound"), operations: []))
            }
        }
        publish(changes)
    }

    /// One change per waiting view to the store's state (loading with progress, or error).
    private func publishPendingState() {
        guard let state = storage.viewState else { return }
        var changes: [ViewChange] = []
        for id in pendingViews.keys.sorted() {
            pendingViews[id]!.version += 1
            let view = pendingViews[id]!
            changes.append(ViewChange(view: id, version: view.version, count: nil, window: view.window, state: state, operations: []))
        }
        publish(changes)
    }

    // MARK: Other processes

    /// How often the loop looks for other processes' records where inotify is not available (milliseconds).
    static let pollingInterval = 100

    /// Starts watching the store's directory, so that other processes' changes reach this client while
    /// it is idle.
    private func watch(_ path: String) {
        watcher?.stop()
        let mailbox = self.mailbox
        watcher = JournalWatcher(directory: path) { mailbox.post(.storeChanged) }
        if watcher?.isWatching == false { logger.log(.info, "store: inotify is not available; looking for other processes' changes every \(Server.pollingInterval) ms") }
    }

    /// Applies what other processes made durable since this one last looked, and publishes it as ordinary
    /// changes. While idle (`waiting` false) a writer in the middle of its turn is not waited for: the loop
    /// looks again a millisecond later (its unlock makes no inotify event).
    /// - Returns: the `.busy` failure when another process kept the lock past `DurableStore.lockPatience`
    ///   (nothing was read; the store stays as it is and the loop looks again shortly), else nil.
    @discardableResult
    func catchUpWithOthers(waiting: Bool = true) -> StoreFailure? {
        guard case .ready(let store) = storage, !store.isLocked else { return nil }
        lastLook = monotonicMilliseconds()
        do {
            guard let groups = try store.readNewRecords(waiting: waiting) else {
                lookAgain = true
                return nil
            }
            lookAgain = false
            applyFromOthers(groups)
        } catch {
            if error.kind == .overtaken {
                do throws(StoreFailure) {
                    try catchUpFromSnapshot()
                    return nil
                } catch {
                    return failWhileReading(error)
                }
            }
            return failWhileReading(error)
        }
        return nil
    }

    /// Before a request that reads lists, items or views: applies what others made durable, refusing the
    /// request (`storeBusy`) when another process kept the store's lock too long.
    func catchUpBeforeReading() throws(ResponseError) {
        if let busy = catchUpWithOthers() { throw busy.responseError }
    }

    /// A failure met while applying other processes' records; returns it when it is `.busy` (which changes
    /// nothing: the loop looks again shortly), else nil.
    private func failWhileReading(_ error: StoreFailure) -> StoreFailure? {
        if error.kind == .busy {
            logger.log(.warning, "store: \(error.message)")
            lookAgain = true
            return error
        }
        logger.log(.error, "store: \(error.message)")
        if held != nil {
            // A turn with records of its own is under way: it ends in the failure (commitTurn).
            pendingFailure = error
        } else {
            fail(with: error)
        }
        return nil
    }

    /// Catches up with a store that other processes compacted past what this process had read (the records
    /// in between are only in their snapshot): reads the store again here, on the loop, and moves every open
    /// view to the new state with one `reset` each. Being overtaken is normal: the request under way then
    /// goes on as usual. The client's undo steps are kept (the state only moved on by others' records, as
    /// when they are applied one by one).
    func catchUpFromSnapshot() throws(StoreFailure) {
        guard let path = storePath, storage.store != nil else { return }
        let (store, state) = try DurableStore.open(path, lockPatience: DurableStore.lockPatience)
        for note in store.takeNotes() { logger.log(.warning, "store: \(note)") }
        logger.log(.info, "store: other processes compacted past record \(storage.store?.sequence ?? 0); read the store again at record \(store.sequence)")
        var engine = Engine(state: state, today: calendar.today(at: options.clock()), backgroundBuildThreshold: options.backgroundIndexThreshold)
        engine.continueViewIDs(after: self.engine)
        let views = self.engine.detachViews()
        self.engine = engine
        storage = .ready(store)
        watch(path)
        reopen(views)
    }

    /// Where inotify is missing: looks for other processes' records every `pollingInterval` milliseconds.
    func pollForOthers() {
        if lookAgain {
            catchUpWithOthers(waiting: false)
            return
        }
        guard let watcher, !watcher.isWatching, monotonicMilliseconds() - lastLook >= Int64(Server.pollingInterval) else { return }
        catchUpWithOthers(waiting: false)
    }

    // MARK: Requests while the store is not usable

    /// Answers `method` when the store cannot serve it (loading or failed): views wait, data requests are
    /// refused with a retryable error. Returns nil when the method should run as usual.
    func answerWithoutStore(_ method: String, _ params: JSON?) throws(ResponseError) -> JSON? {
        guard let state = storage.viewState, !storeIndependentMethods.contains(method) else { return nil }
        let fields = try Fields(json: params ?? .object([:]), path: "params")
        switch method {
        case "lists/open":
            let spec = try ViewMethods.openParams(fields)
            let id = engine.reserveViewID()
            let view = DetachedView(id: id, version: 1, source: spec.source, sort: spec.sort, filter: spec.filter,
                                    grouping: spec.grouping, window: spec.window)
            pendingViews[id] = view
            return pendingSnapshot(view, state: state)
        case "view/setWindow", "view/snapshot", "view/close", "view/sort", "view/filter", "view/sections":
            let id: ViewID = try fields.required("view")
            guard var view = pendingViews[id] else { throw .requestFailed(reason: "unknownView", "no open view \(id)") }
            switch method {
            case "view/setWindow":
                try fields.rejectUnknown(["view", "window"])
                let window: Window = try fields.required("window")
                guard window.start >= 0, window.end >= window.start, window.end - window.start <= Limits.windowRows else {
                    throw .invalidParams("params.window: must have 0 <= start <= end and span at most \(Limits.windowRows) rows")
                }
                view.window = window
            case "view/snapshot": try fields.rejectUnknown(["view"])
            case "view/close":
                try fields.rejectUnknown(["view"])
                pendingViews[id] = nil
                return .null
            default:
                let change = try ViewMethods.reconfiguration(method, fields)
                view.sort = change.sort ?? view.sort
                view.filter = change.filter ?? view.filter
                view.grouping = change.grouping ?? view.grouping
                view.version += 1
                pendingViews[id] = view
                publish([ViewChange(view: id, version: view.version, count: nil, window: view.window, state: state, operations: [.reset(rows: [])])])
                return ["view": WireID.view(id), "version": .integer(Int64(view.version))]
            }
            pendingViews[id] = view
            return pendingSnapshot(view, state: state)
        default:
            throw refusal(state)
        }
    }

    private func pendingSnapshot(_ view: DetachedView, state: ViewState) -> JSON {
        ViewSnapshot(view: view.id, version: view.version, state: state, count: nil, window: view.window, rows: [],
                     source: view.source, sort: view.sort, filter: view.filter, grouping: view.grouping).json
    }

    private func refusal(_ state: ViewState) -> ResponseError {
        if case .failed(let failure, _) = storage { return failure.responseError }
        var progress = 0.0
        if case .loading(let value) = state { progress = value }
        return .requestFailed(reason: "storeLoading",
                              "the store is still loading (\(Int(progress * 100))%); views opened now update when it is ready",
                              data: ["retryable": true])
    }

    // MARK: Writing

    /// Journals `mutations` (applied as one group) in the store, if there is one: takes the lock and applies
    /// what other processes appended first; holds every message from here to the turn's sync.
    func applyDurably(_ mutations: [Mutation]) throws(ResponseError) -> Applied {
        guard case .ready(let store) = storage else {
            if case .memory = storage { return try domain { () throws(DomainError) in try engine.apply(mutations) } }
            throw refusal(storage.viewState ?? .ready)
        }
        try prepareToWrite()
        var failure: StoreFailure?
        let applied = try domain { () throws(DomainError) in
            try engine.apply(mutations) { changes in
                if changes.isEmpty { return true }
                do throws(StoreFailure) {
                    try store.append(mutations)
                    return true
                } catch {
                    failure = error
                    return false
                }
            }
        }
        guard let applied else {
            let failure = failure!
            if failure.kind != .full { pendingFailure = failure }
            logger.log(.error, "store: \(failure.message)")
            for note in store.takeNotes() { logger.log(.error, "store: \(note)") }
            throw failure.responseError
        }
        if !applied.changes.isEmpty { requestWrote = true }
        return applied
    }

    /// The requests that change the store: each catches up with other processes' records before it
    /// reads what it will change (ids, view versions, the undo step).
    static let writingMethods: Set<String> = [
        "lists/create", "lists/update", "lists/delete", "lists/move",
        "items/create", "items/update", "items/delete", "items/move", "undo", "redo",
    ]

    /// Whether `method` reads lists, items or views (so it first applies what other processes appended).
    static func readsStore(_ method: String) -> Bool {
        method == "lists/list" || !storeIndependentMethods.contains(method)
    }

    /// Before a request picks ids or reads what it will change: takes the store's lock (until the turn's sync)
    /// and applies what other processes appended since, publishing their changes. Nothing to do without a store.
    func prepareToWrite() throws(ResponseError) {
        guard case .ready(let store) = storage, !store.isLocked else {
            if !storage.isUsable { throw refusal(storage.viewState ?? .ready) }
            return
        }
        var others: [DurableStore.Group] = []
        do {
            do {
                others = try store.lockForWriting()
            } catch where error.kind == .overtaken {
                try catchUpFromSnapshot()
                try prepareToWriteAfterCatchingUp()
                return
            }
        } catch {
            // Another process kept the lock (`storeBusy`): only this request is refused; nothing changed.
            if error.kind == .busy {
                logger.log(.warning, "store: \(error.message)")
                throw error.responseError
            }
            // The store cannot be written any more as it is (damage, an I/O error, or overtaken again while
            // catching up): views wait in `error` until `store/retry` reopens it.
            if error.kind != .full {
                pendingFailure = error
                if held == nil { held = [] }
            }
            throw error.responseError
        }
        if held == nil { held = [] }
        applyFromOthers(others)
    }

    /// `prepareToWrite` on the store read again: overtaken again (two more compactions meanwhile) is a failure.
    private func prepareToWriteAfterCatchingUp() throws(StoreFailure) {
        guard let store = storage.store else { return }
        let others = try store.lockForWriting()
        if held == nil { held = [] }
        applyFromOthers(others)
    }

    /// Applies records other processes appended, in log order, publishing them as ordinary changes (unrecorded
    /// in this client's history).
    func applyFromOthers(_ groups: [DurableStore.Group]) {
        for group in groups {
            do {
                publish(try engine.apply(group.mutations).viewChanges)
            } catch {
                logger.log(.error, "store: record \(group.sequence) from another process does not apply here: \(error)")
            }
        }
    }

    /// Sends a message now, or holds it until this turn's records are on disk.
    func send(_ message: Message) {
        if held != nil {
            let afterWrite = requestWrote || pendingFailure != nil || storage.store?.hasUnsyncedRecords == true
            held!.append(HeldMessage(message: message, afterWrite: afterWrite))
        } else {
            connection.send(message)
        }
    }

    /// Before a request that does not write: when this turn has journaled records, commits them first, so the
    /// request reads only what is durable. Were it answered from memory and the sync then failed, its answer
    /// would show refused changes, and versions no notification announced (the turn's notifications are
    /// dropped); committed first, a failure has switched every view to `error` (one notification each) before
    /// the request is handled, and the request sees the failed store as any later one would.
    /// `server/ping` reads nothing and does not wait.
    func commitBeforeReading(_ method: String) {
        guard held != nil, !Server.writingMethods.contains(method), method != "server/ping" else { return }
        commitTurn()
    }

    /// Ends a turn: one `fdatasync` for every record the turn appended, then the held messages go out.
    /// When the sync fails, no request of the turn answered after its first record is acknowledged (they all
    /// wrote, or were refused against a state holding refused records: `commitBeforeReading`): each gets an
    /// error, the change notifications are dropped, and every view switches to `error` (one `view/changed`
    /// each, one version on from the last one the client saw) until `store/retry`.
    func commitTurn() {
        guard let messages = held else { return }
        held = nil
        var failure = pendingFailure
        if let store = storage.store {
            do {
                try store.commit()
            } catch {
                failure = error
            }
        }
        guard let failure else {
            for held in messages { connection.send(held.message) }
            heldVersions = [:]
            maybeCompact()
            return
        }
        logger.log(.error, "store: \(failure.message)")
        for note in storage.store?.takeNotes() ?? [] { logger.log(.error, "store: \(note)") }
        pendingFailure = nil
        for held in messages {
            switch held.message {
            case .response(let id, _) where held.afterWrite, .error(let id?, _) where held.afterWrite:
                connection.send(.error(id: id, failure.responseError))
            case .notification("view/changed", _), .notification("view/closed", _), .notification("lists/changed", _):
                break
            default:
                connection.send(held.message)
            }
        }
        fail(with: failure)
    }

    /// Switches to `failed`: the engine's views wait (in `error`) for a reloaded store.
    func fail(with failure: StoreFailure) {
        guard storage.isUsable else { return }
        if failure.kind == .overtaken, let path = storePath {
            // Nothing is wrong with the store: read it again at once, as a retry would.
            logger.log(.info, "store: \(failure.message)")
            storage = .loading(progress: 0)
            waitForStore()
            startLoading(path)
            return
        }
        let store = storage.store
        storage = .failed(failure, unvoided: store?.mustVoid == true ? store : nil)
        waitForStore()
    }

    /// Moves the engine's views to waiting (in the storage's state: error or loading), telling the client.
    private func waitForStore() {
        if watchedOverview != nil {
            watchedOverview = Overview(lists: [], groups: [])
            connection.send(.notification(method: "lists/changed", params: unusableOverview()))
        }
        for view in engine.detachViews() {
            var waiting = view
            if let seen = heldVersions[view.id] { waiting.version = seen }
            pendingViews[view.id] = waiting
        }
        heldVersions = [:]
        history = UndoHistory()
        publishPendingState()
    }

    /// `store/retry`: reopens a store that failed (views go back to `loading`, then `reset`).
    func retryStore() -> Bool {
        guard case .failed(_, let unvoided) = storage, let path = storePath else { return false }
        if let unvoided {
            // The refused records must be void before anything reads the journal (this process included).
            let voided = unvoided.retryVoiding()
            for note in unvoided.takeNotes() { logger.log(voided ? .info : .error, "store: \(note)") }
            // Still not void: the store stays as it is (nothing a client sees changes).
            guard voided else { return true }
        }
        storage = .loading(progress: 0)
        publishPendingState()
        startLoading(path)
        return true
    }

    /// Before the process ends: a last attempt to void the records of a refused turn the store could not void
    /// (it keeps the lock meanwhile). When that fails too, says so: the kernel drops the lock with the process,
    /// and the next process to open the store reads the refused records (a residual risk, ARCHITECTURE.md).
    func voidBeforeExiting() {
        guard case .failed(_, let unvoided?) = storage else { return }
        let voided = unvoided.retryVoiding()
        for note in unvoided.takeNotes() { logger.log(voided ? .info : .error, "store: \(note)") }
        if !voided {
            logger.log(.error, "store: exiting with the records of a refused turn still readable in \(unvoided.path)/journal (they could be neither cut nor overwritten); the next process to open the store will show them")
        }
    }

    // MARK: Compaction

    /// Starts writing a snapshot off the loop when the journal has grown past the threshold (with
    /// `compactOnLoop`, writes and installs it at once).
    func maybeCompact() {
        guard compaction == nil, let store = storage.store, store.wantsCompaction(threshold: options.compactionThreshold) else { return }
        let ticket = store.beginCompaction()
        compaction = ticket
        let state = engine.state.stored
        if options.compactOnLoop {
            // For tests: written and installed now, before this turn's answers leave.
            var failure: StoreFailure?
            do throws(StoreFailure) {
                try ticket.writeSnapshot(of: state)
            } catch {
                failure = error
            }
            snapshotWritten(ticket, failure)
            finishCompaction()
            return
        }
        let mailbox = self.mailbox
        storeQueue.async {
            var failure: StoreFailure?
            do throws(StoreFailure) {
                try ticket.writeSnapshot(of: state)
            } catch {
                failure = error
            }
            mailbox.post(.snapshotWritten(ticket, failure))
        }
    }

    /// Notes a snapshot written off the loop; it is installed at the end of the turn, once the turn's own
    /// records are committed (`finishCompaction`).
    func snapshotWritten(_ ticket: CompactionTicket, _ failure: StoreFailure?) {
        guard let store = storage.store else {
            compaction = nil
            return
        }
        if let failure {
            compaction = nil
            logger.log(.warning, "store: compaction skipped: \(failure.message)")
            store.abandonCompaction(ticket)
            return
        }
        writtenSnapshot = ticket
    }

    /// Installs a written snapshot (under the lock) and restarts the journal after it.
    func finishCompaction() {
        guard let ticket = writtenSnapshot, let store = storage.store, !store.isLocked else { return }
        writtenSnapshot = nil
        compaction = nil
        do {
            let others = try store.finishCompaction(ticket)
            applyFromOthers(others)
            logger.log(.info, "store: compacted through record \(ticket.sequence)")
        } catch {
            logger.log(.warning, "store: compaction stopped: \(error.message)")
        }
    }

    /// The overview while the store cannot serve: no lists, the smart groups at 0, and the store's state.
    func unusableOverview() -> JSON {
        let empty = Overview(lists: [], groups: SmartGroup.allCases.map { GroupSummary(group: $0, count: 0) })
        guard case .object(var object) = empty.json(revision: 0) else { return .null }
        object["store"] = storeStatus()
        return .object(object)
    }

    /// What `store/status` answers.
    func storeStatus() -> JSON {
        var object: JSONObject = [:]
        switch storage {
        case .memory: object["state"] = "memory"
        case .loading(let progress):
            object["state"] = "loading"
            object["progress"] = .double((progress * 1000).rounded() / 1000)
        case .ready(let store):
            object["state"] = "ready"
            object["sequence"] = .integer(Int64(store.sequence))
            object["journalBytes"] = .integer(Int64(store.journalBytes))
            object["snapshotSequence"] = .integer(Int64(store.snapshotSequence))
            object["compacting"] = .bool(compaction != nil)
        case .failed(let failure, _):
            object["state"] = "error"
            object["error"] = failure.responseError.data ?? .null
            object["message"] = .string(failure.message)
        }
        if let storePath { object["path"] = .string(storePath) }
        return .object(object)
    }
}

/// A store opened off the loop, with an engine built around its state.
struct LoadedStore: @unchecked Sendable {
    let store: DurableStore
    let engine: Engine
}

