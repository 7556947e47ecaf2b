/// A turn on a durable store: journaling each request's mutations before acknowledging them, holding what the
/// turn produces until its one `fdatasync`, and what follows a failed write or sync (every view to `error`,
/// refused answers, `store/retry`).

import Domain
import Store
import Wire

extension Persistence {
    /// Applies `mutations` as one group to the workspace's engine and journals them in the store, if there is
    /// one (the lock was taken by `prepareToWrite`, which the loop calls before every writing method). Publishes
    /// nothing and records no undo step: the caller (a `WritingContext`) does both.
    func applyDurably(_ mutations: [Mutation]) throws(ResponseError) -> Applied {
        guard case .ready(let store) = phase else {
            if case .memory = phase { return try domain { () throws(DomainError) in try workspace.engine.apply(mutations) } }
            throw refusal()
        }
        try prepareToWrite()
        var failure: StoreFailure?
        let applied = try domain { () throws(DomainError) in
            try workspace.engine.apply(mutations) { changes in
                if changes.recordsNothing { return true }
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
        if !applied.changes.recordsNothing { requestWrote = true }
        return applied
    }

    /// Before a writing method picks ids or reads what it will change: takes the store's lock (until the turn's
    /// sync) and applies what other processes appended since, publishing their changes. Refuses the request
    /// while the store cannot serve; nothing to do without a store, or when this turn holds the lock already.
    func prepareToWrite() throws(ResponseError) {
        guard case .ready(let store) = phase, !store.isLocked else {
            if !phase.isUsable { throw refusal() }
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
                outbox.hold()
            }
            throw error.responseError
        }
        outbox.hold()
        workspace.applyFromOthers(others, log: logger)
    }

    /// `prepareToWrite` on the store read again: overtaken again (two more compactions meanwhile) is a failure.
    private func prepareToWriteAfterCatchingUp() throws(StoreFailure) {
        guard let store = phase.store else { return }
        let others = try store.lockForWriting()
        outbox.hold()
        workspace.applyFromOthers(others, log: logger)
    }

    /// Before a request that reads (and does not write) while this turn has journaled records: commits them
    /// first, so the request reads only what is durable. Were it answered from memory and the sync then failed,
    /// its answer would show refused changes, and versions no notification announced (the turn's notifications
    /// are dropped); committed first, a failure has switched every view to `error` (one notification each)
    /// before the request is handled, and the request sees the failed store as any later one would.
    func commitBeforeReading() {
        if outbox.isHolding { commitTurn() }
    }

    /// Ends a turn: one `fdatasync` for every record the turn appended, then the held messages go out.
    /// When the sync fails, no request of the turn answered after its first record is acknowledged (they all
    /// wrote, or were refused against a state holding refused records: `commitBeforeReading`): each gets an
    /// error, the change notifications are dropped, and every view switches to `error` (one `view/changed`
    /// each, one version on from the last one the client saw) until `store/retry`.
    func commitTurn() {
        guard let messages = outbox.release() else { return }
        var failure = pendingFailure
        if let store = phase.store {
            do {
                try store.commit()
            } catch {
                failure = error
            }
        }
        guard let failure else {
            for held in messages { outbox.sendNow(held.message) }
            outbox.forgetHeldVersions()
            maybeCompact()
            return
        }
        for note in phase.store?.takeNotes() ?? [] { logger.log(.error, "store: \(note)") }
        pendingFailure = nil
        for held in messages {
            switch held.message.answeredRequest {
            case let id? where held.afterWrite:
                outbox.sendNow(.error(id: id, failure.responseError))
            case _ where held.isChange:
                break
            default:
                outbox.sendNow(held.message)
            }
        }
        fail(with: failure)
    }

    /// Runs a domain call, converting its refusal to a JSON-RPC error.
    func domain<Value>(_ body: () throws(DomainError) -> Value) throws(ResponseError) -> Value {
        do {
            return try body()
        } catch {
            throw error.responseError
        }
    }
}
