/// Views while the store cannot serve them: they wait (in `loading` or `error`) and open in the engine once it can.

import Domain
import TasklsProtocol
import Wire

extension Workspace {
    /// Moves the engine's views to waiting, in `state` (error or loading), telling the client; the watched
    /// overview shows no lists; the undo history is dropped (the state it was recorded against is gone).
    func waitForStore(in state: ViewState?, overview: TasklsProtocol.Overview) {
        listsAvailable = false
        if watchedOverview != nil {
            watchedOverview = Overview.unseen
            outbox.sendNow(ListsChanged(overview).message)
        }
        for view in engine.detachViews() {
            var waiting = view
            if let seen = outbox.heldVersions[view.id] { waiting.version = seen }
            pendingViews[view.id] = waiting
        }
        outbox.forgetHeldVersions()
        history = UndoHistory()
        publishWaitingState(state)
    }

    /// One change per waiting view to the store's state (loading with progress, or error).
    func publishWaitingState(_ state: ViewState?) {
        guard let state else { return }
        var changes: [ViewChange] = []
        for id in pendingViews.keys.sorted() {
            pendingViews[id]!.version += 1
            let view = pendingViews[id]!
            changes.append(ViewChange(view: id, version: view.version, count: nil, window: view.window, state: state, operations: []))
        }
        publish(changes)
    }

    /// Replaces the engine with one read from the store (views keep their ids), and opens in it every view that
    /// waited and every view the old engine had: each gets one `reset` (or closes when its list is gone).
    func install(_ loaded: Engine, keepingHistory: Bool) {
        var engine = loaded
        engine.continueViewIDs(after: self.engine)
        let views = (self.engine.detachViews() + pendingViews.values).sorted { $0.id < $1.id }
        pendingViews = [:]
        engine.setAlertZone(calendar.alertZone)
        self.engine = engine
        listsAvailable = true
        if !keepingHistory { history = UndoHistory() }
        reopen(views)
    }

    /// Opens `views` in the engine under their ids, one version on: each gets one `reset` (or closes when its
    /// list is gone).
    private func reopen(_ views: [DetachedView]) {
        var changes: [ViewChange] = []
        for view in views {
            do {
                let opened = try engine.openView(reserved: view.id, version: view.version + 1, source: view.source, sort: view.sort,
                                                 filter: view.filter, grouping: view.grouping, window: view.window, collapsed: view.collapsed)
                startBuild(opened.build)
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
}
