/// The server and its store: where it is, loading it off the loop, views that wait for it, other processes' records,
/// and what requests get while it cannot serve (turns are in `Server+Turn.swift`, compaction in `Server+Compaction.swift`).

#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Domain
import Store
import Wire

/// The methods answered whatever the store's state.
let storeIndependentMethods: Set<String> = [
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
    func publishPendingState() {
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

    func refusal(_ state: ViewState) -> ResponseError {
        if case .failed(let failure, _) = storage { return failure.responseError }
        var progress = 0.0
        if case .loading(let value) = state { progress = value }
        return .requestFailed(reason: "storeLoading",
                              "the store is still loading (\(Int(progress * 100))%); views opened now update when it is ready",
                              data: ["retryable": true])
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

