/// The server's turns on a durable store: journaling each request's mutations before acknowledging them,
/// holding what a turn produces until its one `fdatasync`, and what follows a failed write or sync (every view
/// to `error`, refused answers, `store/retry`).

#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Domain
import Store
import Wire

extension Server {
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
}
