/// Other processes on the same store: applying what they made durable, while idle and before each request.

import Domain
import Store
import Wire

extension Persistence {
    /// How often the loop looks for other processes' records where inotify is not available (milliseconds).
    static let pollingInterval = 100

    /// Starts watching the store's directory, so that other processes' changes reach this client while
    /// it is idle.
    func watch(_ path: String) {
        watcher?.stop()
        let mailbox = self.mailbox
        watcher = JournalWatcher(directory: path) { mailbox.post(.storeChanged) }
        if watcher?.isWatching == false { logger.tell(.info, "store: inotify is not available; looking for other processes' changes every \(Persistence.pollingInterval) ms") }
    }

    /// How long the loop may sleep before it must look for other processes' records (milliseconds; -1: no limit).
    var millisecondsUntilLooking: Int32 {
        if lookAgain { return 1 }
        return phase.store != nil && !(watcher?.isWatching ?? false) ? Int32(Persistence.pollingInterval) : -1
    }

    /// Applies what other processes made durable since this one last looked, and publishes it as ordinary
    /// changes. While idle (`waiting` false) a writer in the middle of its turn is not waited for: the loop
    /// looks again a millisecond later (its unlock makes no inotify event).
    /// - Returns: the `.busy` failure when another process kept the lock past `DurableStore.lockPatience`
    ///   (nothing was read; the store stays as it is and the loop looks again shortly), else nil.
    @discardableResult
    func catchUpWithOthers(waiting: Bool = true) -> StoreFailure? {
        guard case .ready(let store) = phase, !store.isLocked else { return nil }
        lastLook = monotonicMilliseconds()
        do {
            guard let groups = try store.readNewRecords(waiting: waiting) else {
                lookAgain = true
                return nil
            }
            lookAgain = false
            workspace.applyFromOthers(groups, log: logger)
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
        if outbox.isHolding {
            // A turn with records of its own is under way: it ends in the failure (commitTurn).
            logger.log(.error, "store: \(error.message)")
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
        guard let path = storePath, let old = phase.store else { return }
        let (store, state) = try DurableStore.open(path, lockPatience: DurableStore.lockPatience)
        for note in store.takeNotes() { logger.tell(.warning, "store: \(note)") }
        logger.tell(.info, "store: other processes compacted past record \(old.sequence); read the store again at record \(store.sequence)")
        let engine = Engine(state: state, today: workspace.today, backgroundBuildThreshold: options.backgroundIndexThreshold)
        phase = .ready(store)
        watch(path)
        workspace.install(engine, keepingHistory: true)
    }

    /// Where inotify is missing: looks for other processes' records every `pollingInterval` milliseconds.
    func pollForOthers() {
        if lookAgain {
            catchUpWithOthers(waiting: false)
            return
        }
        guard let watcher, !watcher.isWatching, monotonicMilliseconds() - lastLook >= Int64(Persistence.pollingInterval) else { return }
        catchUpWithOthers(waiting: false)
    }
}
