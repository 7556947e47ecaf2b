/// Compaction: a snapshot written off the loop (or on it, for tests) and installed under the store's lock.

import Dispatch
import Domain
import Store
import Wire

extension Persistence {
    /// Starts writing a snapshot off the loop when the journal has grown past the threshold (with
    /// `compactOnLoop`, writes and installs it at once).
    func maybeCompact() {
        guard compaction == nil, let store = phase.store, store.wantsCompaction(threshold: options.compactionThreshold) else { return }
        let ticket = store.beginCompaction()
        compaction = ticket
        let state = workspace.engine.state.stored
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
        guard let store = phase.store else {
            compaction = nil
            return
        }
        if let failure {
            compaction = nil
            logger.tell(.warning, "store: compaction skipped: \(failure.message)")
            store.abandonCompaction(ticket)
            return
        }
        writtenSnapshot = ticket
    }

    /// Installs a written snapshot (under the lock) and restarts the journal after it.
    func finishCompaction() {
        guard let ticket = writtenSnapshot, let store = phase.store, !store.isLocked else { return }
        writtenSnapshot = nil
        compaction = nil
        do {
            let others = try store.finishCompaction(ticket)
            workspace.applyFromOthers(others, log: logger)
            logger.tell(.info, "store: compacted through record \(ticket.sequence)")
        } catch {
            logger.tell(.warning, "store: compaction stopped: \(error.message)")
        }
    }
}
