/// The server's store: where it is, whether it can serve, and what clients are told about it.

import Dispatch
import Domain
import Store
import TasklsProtocol
import Wire

/// Owns the store on disk for one server: loading it off the loop, the lock and catching up with other
/// processes before a request reads or writes, journaling each request's mutations, holding the turn's messages
/// until its one `fdatasync`, compaction, and what requests get while the store cannot serve
/// (`Persistence+Loading.swift`, `+OtherProcesses`, `+Turn`, `+Compaction`).
///
/// Not `Sendable`: the message loop's thread owns it, and the `DurableStore` in it (which is not `Sendable`
/// either: the loader hands it to the loop with `sending`, checked by the compiler).
final class Persistence {
    /// The store as the loop sees it.
    var phase = StorePhase.memory {
        didSet { workspace.listsAvailable = phase.isUsable }
    }
    /// The store's directory, once chosen (at `initialize`).
    var storePath: String?
    /// Which load the loop waits for (a retry starts a new one; an older one's result is ignored).
    var loadGeneration = 0
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
    let workspace: Workspace
    let outbox: Outbox
    let mailbox: Mailbox
    let options: ServerOptions
    /// Where what the store does is told: stderr, and the client's log (and the user, when it needs attention).
    let logger: ClientLog
    let progress: WorkDoneProgress
    /// The token the client asked the store's load to be reported on (`initialize`, `store/retry`).
    var loadToken: ProgressToken?
    /// When (monotonic milliseconds) the server syncs the store by itself next; nil: no sync is due (no list is
    /// shared, automatic syncs are off, or one is under way).
    var nextSync: Int64?
    /// Whether a sync this server started (by itself or for `sync/now`) is under way.
    var syncsRunning = 0

    init(workspace: Workspace, outbox: Outbox, mailbox: Mailbox, options: ServerOptions, log: ClientLog, progress: WorkDoneProgress) {
        self.workspace = workspace
        self.outbox = outbox
        self.mailbox = mailbox
        self.options = options
        self.logger = log
        self.progress = progress
        outbox.producedAfterWrite = { [unowned self] in
            requestWrote || pendingFailure != nil || phase.store?.hasUnsyncedRecords == true
        }
    }

    /// Whether lists and items can be read and written (in memory, or a store that is open).
    var isUsable: Bool { phase.isUsable }

    /// The refusal of a request that needs the store while it cannot serve: `storeLoading` (retryable) while it
    /// loads, else why it failed.
    func refusal() -> ResponseError {
        if case .failed(let failure, _) = phase { return failure.responseError }
        var progress = 0.0
        if case .loading(let value) = phase { progress = value }
        return .requestFailed(reason: "storeLoading",
                              "the store is still loading (\(Int(progress * 100))%); views opened now update when it is ready",
                              data: ["retryable": true])
    }

    /// The overview while the store cannot serve: no lists, the smart groups at 0, and the store's state.
    func unusableOverview() -> TasklsProtocol.Overview {
        let empty = Overview(lists: [], groups: SmartGroup.allCases.map { GroupSummary(group: $0, count: 0) },
                             today: workspace.today.date)
        return TasklsProtocol.Overview(empty, revision: 0, store: status())
    }

    /// What `store/status` answers.
    func status() -> StoreStatusResult {
        StoreStatusResult(state: StoreState(phase, compacting: compaction != nil), path: storePath)
    }

    /// Switches to `failed`: the workspace's views wait (in `error`) for a reloaded store.
    func fail(with failure: StoreFailure) {
        guard phase.isUsable else { return }
        if failure.kind == .overtaken, let path = storePath {
            // Nothing is wrong with the store: read it again at once, as a retry would.
            logger.tell(.info, "store: \(failure.message)")
            phase = .loading(progress: 0)
            workspace.waitForStore(in: phase.viewState, overview: unusableOverview())
            startLoading(path)
            return
        }
        logger.tell(.error, "store: \(failure.message)", attention: true)
        let store = phase.store
        phase = .failed(failure, unvoided: store?.mustVoid == true ? store : nil)
        workspace.waitForStore(in: phase.viewState, overview: unusableOverview())
    }

    /// `store/retry`: reopens a store that failed (views go back to `loading`, then `reset`). False when there
    /// is nothing to retry.
    func retry(reportingOn token: ProgressToken? = nil) -> Bool {
        guard case .failed(_, let unvoided) = phase, let path = storePath else { return false }
        if let unvoided {
            // The refused records must be void before anything reads the journal (this process included).
            let voided = unvoided.retryVoiding()
            for note in unvoided.takeNotes() { logger.log(voided ? .info : .error, "store: \(note)") }
            // Still not void: the store stays as it is (nothing a client sees changes).
            guard voided else { return true }
        }
        phase = .loading(progress: 0)
        workspace.publishWaitingState(phase.viewState)
        startLoading(path, reportingOn: token)
        return true
    }

    /// Before the process ends: a last attempt to void the records of a refused turn the store could not void
    /// (it keeps the lock meanwhile). When that fails too, says so: the kernel drops the lock with the process,
    /// and the next process to open the store reads the refused records (a residual risk, ARCHITECTURE.md).
    func voidBeforeExiting() {
        guard case .failed(_, let unvoided?) = phase else { return }
        let voided = unvoided.retryVoiding()
        for note in unvoided.takeNotes() { logger.log(voided ? .info : .error, "store: \(note)") }
        if !voided {
            logger.log(.error, "store: exiting with the records of a refused turn still readable in \(unvoided.path)/journal (they could be neither cut nor overwritten); the next process to open the store will show them")
        }
    }
}
