/// The lists, items and views one client works with, and what it is told when they change.

import Domain
import Store
import TasklsProtocol
import Wire

/// One client's working state: the engine (lists, items, open views), its undo history, its calendar, the views
/// that wait for the store, and the overview it watches. Publishing a change sends it through the outbox.
///
/// Not `Sendable`: the message loop's thread owns it. Handlers reach it only through a `Context`.
final class Workspace {
    /// The lists, items and open views.
    var engine: Engine
    /// The client's undo and redo steps.
    var history = UndoHistory()
    /// The client's calendar (its time zone is set by `initialize`); day-relative alerts are read in its zone.
    var calendar = ClientCalendar(timeZone: .current) {
        didSet { engine.setAlertZone(calendar.alertZone) }
    }
    /// Whether the client asked for `reminder/fired` (`reminders/watch`): only then does this process claim
    /// reminders (`Persistence.fireDueReminders`).
    var remindersWatched = false
    /// Not before this instant (monotonic milliseconds) does the loop try again to claim reminders after a
    /// failed attempt (the store was busy or failed).
    var reminderRetry: Int64 = 0
    /// The overview as the client last saw it, once it has asked for it (`lists/list`); the server pushes
    /// `lists/changed` whenever it changes.
    var watchedOverview: Overview?
    /// Views opened, or kept, while the store cannot serve them; opened in the engine once it can.
    var pendingViews: [ViewID: DetachedView] = [:]
    /// Whether lists and items can be shown (false while the store loads or has failed).
    var listsAvailable = true
    /// Each shared list's sync state as the store's `sync-state.json` last said (nil: no list is shared).
    var syncStates: [TasklsProtocol.ListSyncState]?
    /// Whether a re-evaluation of dates is under way (it runs in steps between requests).
    var advancing = false
    let outbox: Outbox
    let mailbox: Mailbox
    let indexBuilder = IndexBuilder()
    /// Imports' and exports' work off the loop.
    let exchange: ExchangeJobs
    let options: ServerOptions
    let progress: WorkDoneProgress
    /// The tokens index builds are reported on, by build (a client gave one with the request that started it).
    private var buildTokens: [BuildID: TasklsProtocol.ProgressToken] = [:]

    init(outbox: Outbox, mailbox: Mailbox, options: ServerOptions, progress: WorkDoneProgress) {
        self.outbox = outbox
        self.mailbox = mailbox
        self.options = options
        self.progress = progress
        exchange = ExchangeJobs(mailbox: mailbox)
        engine = Engine(backgroundBuildThreshold: options.backgroundIndexThreshold)
        engine.setAlertZone(calendar.alertZone)
    }

    /// The client's day now.
    var today: Today { calendar.today(at: options.clock()) }

    /// Sends the notification of each view change, in order, then `lists/changed` if the
    /// overview the client watches changed.
    func publish(_ changes: [ViewChange]) {
        for change in changes {
            outbox.noteHeldChange(of: change.view, version: change.version)
            outbox.send(body: change.notificationBody(in: calendar), answering: nil, isChange: true)
        }
        guard let watched = watchedOverview, listsAvailable else { return }
        let overview = engine.overview()
        if !overview.isIdentical(to: watched) {
            watchedOverview = overview
            outbox.send(ListsChanged(TasklsProtocol.Overview(overview, revision: engine.revision, sync: syncStates)).message, isChange: true)
        }
    }

    /// Takes the lists' sync states the store now holds; when they changed and the client watches the overview,
    /// pushes it.
    func setSyncStates(_ states: [TasklsProtocol.ListSyncState]?) {
        guard states != syncStates else { return }
        syncStates = states
        guard let watched = watchedOverview, listsAvailable else { return }
        outbox.send(ListsChanged(TasklsProtocol.Overview(watched, revision: engine.revision, sync: syncStates)).message, isChange: true)
    }

    /// Starts the background build an opened or re-sorted view needs, reporting its progress on `token`.
    func startBuild(_ build: IndexBuild?, reportingOn token: TasklsProtocol.ProgressToken? = nil) {
        guard let build else { return }
        indexBuilder.start(build, reportingTo: mailbox)
        if let token {
            buildTokens[build.id] = token
            progress.begin(token, title: "Sorting tasks", message: "\(build.count) items by \(build.sort.field.rawValue)")
        }
    }

    /// A background build got this far.
    func buildProgressed(_ build: BuildID, _ fraction: Double) {
        publish(engine.reportProgress(build, fraction))
        if let token = buildTokens[build] { progress.report(token, fraction: fraction) }
    }

    /// A background build finished: its views get their rows.
    func buildFinished(_ built: BuiltIndex) {
        let wanted = engine.pendingBuilds.contains(built.id)
        publish(engine.install(built))
        if let token = buildTokens.removeValue(forKey: built.id) { progress.end(token, message: wanted ? nil : "no longer needed") }
    }

    /// Tells the builder which builds are still wanted, and ends the progress of those no view waits for any more.
    func dropUnwantedBuilds() {
        let pending = engine.pendingBuilds
        indexBuilder.keep(only: pending)
        for (build, token) in buildTokens where !pending.contains(build) {
            buildTokens[build] = nil
            progress.end(token, message: "no longer needed")
        }
    }

    /// Applies records other processes appended, in log order, publishing them as ordinary changes (unrecorded
    /// in this client's history).
    func applyFromOthers(_ groups: [DurableStore.Group], log: ClientLog) {
        for group in groups {
            do {
                publish(try engine.apply(group.mutations).viewChanges)
            } catch {
                log.tell(.error, "store: record \(group.sequence) from another process does not apply here: \(error)")
            }
        }
    }

    // MARK: Time

    /// Re-evaluates dates when time has reached the next change: one bounded step per loop
    /// turn, so requests keep being answered while a large store catches up with midnight.
    func stepTime() {
        if !advancing {
            guard let next = engine.nextTimeChange, options.clock() >= next else { return }
        }
        let step = engine.advance(to: today, budget: options.timeBudget)
        advancing = !step.finished
        publish(step.changes)
    }

    /// Moves time to `now` at once, every step in this turn (for `initialize` and `debug/setClock`).
    func advanceTime() {
        repeat {
            let step = engine.advance(to: today, budget: options.timeBudget)
            advancing = !step.finished
            publish(step.changes)
        } while advancing
    }
}
