/// What the REPL does with the server's notifications, and what it prints once a command is done.

import TasklsProtocol
import Wire

extension REPL {
    /// Reads one notification and applies it. What the REPL cannot read is left alone, except a
    /// `view/changed`, after which the open view starts again from a snapshot.
    func handle(_ method: String, _ params: JSON?) {
        guard let notification = try? ServerNotification(method: method, params: params) else {
            if method == ViewChanged.method && view != nil { needsSnapshot = true }
            return
        }
        handle(notification)
    }

    /// Applies one notification to the client's state.
    func handle(_ notification: ServerNotification) {
        switch notification {
        case .viewChanged(let change):
            guard var current = view, change.view == current.id else { return }
            let before = current.state.name
            if let applied = current.apply(change) {
                notes += applied
                if before != current.state.name { redraw = true }
            } else {
                needsSnapshot = true
            }
            view = current
        case .viewClosed(let closed):
            guard let current = view, closed.view == current.id else { return }
            view = nil
            notes.removeAll()
            let reason = closed.reason == "listDeleted" ? "its list was deleted"
                : closed.reason == "smartListDeleted" ? "the smart list was deleted" : "closed by the server"
            messages.append("The view of \(renderer.viewName(current)) closed: \(reason).")
        case .listsChanged(let changed):
            takeOverview(changed.overview)
        case .reminderFired(let fired):
            messages.append(reminderLine(fired))
        case .progress, .logMessage, .showMessage:
            break
        }
    }

    /// Takes an overview (`lists/list` result or `lists/changed`).
    func takeOverview(_ overview: Overview) {
        lists = overview.lists
        groups = overview.groups
        smartLists = overview.smartLists
        overviewStore = overview.store
        syncStates = overview.sync
    }

    /// After a command (or a burst of background notifications): fetches a snapshot after a
    /// version gap, prints what changed in one compact line each, and shows the table again
    /// when the view was reset or changed state (in a terminal, after any change).
    func settle() {
        if needsSnapshot, let current = view {
            needsSnapshot = false
            if let snapshot = try? send(ViewSnapshot(view: current.id)) {
                view?.take(snapshot)
                redraw = true
            }
        }
        say(messages)
        messages.removeAll()
        let lines = notes.compactMap(describe)
        let changed = !lines.isEmpty || notes.contains(.reset)
        if !shown { say(lines) }
        notes.removeAll()
        if view != nil && !shown && (redraw || (options.interactive && changed)) { try? showTable() }
        redraw = false
    }

    /// The compact line for one change, or nil for a reset and for an update that only follows from a subtask or
    /// from folding (a parent's count or fold marker); rows are named by the numbers the table shows.
    func describe(_ note: ChangeNote) -> String? {
        func quoted(_ row: Row) -> String { "\"" + style.truncate(displayed(row.title), to: 40) + "\"" }
        func number(_ index: Int) -> Int { view?.itemNumber(atIndex: index) ?? index + 1 }
        switch note {
        case .inserted(let row, let index):
            return style.green("+") + " \(quoted(row)) at \(number(index))"
        case .removed(let row, let index):
            return style.red("-") + " \(quoted(row)) (was \(number(index)))"
        case .moved(let old, let new, let from, let to):
            return "moved \(quoted(new)) \(number(from))\(style.arrow)\(number(to))" + (placeChange(from: old, to: new).map { ", " + $0 } ?? "")
        case .updated(let old, let new, let index):
            if old.done != new.done { return (new.done ? style.green(style.checkbox(true)) + " done" : style.checkbox(false) + " not done") + " \(quoted(new)) at \(number(index))" }
            if old.title != new.title { return "~ \(quoted(old)) \(style.arrow) \(quoted(new)) at \(number(index))" }
            if old.differsOnlyBelow(new) { return nil }
            return "~ \(quoted(new)) at \(number(index))" + (placeChange(from: old, to: new).map { " " + $0 } ?? "")
        case .reset:
            return nil
        }
    }

    /// Where a row went in the tree, when its parent changed: `now under "Plan trip"` (its parent, when the window
    /// shows it), `now a subtask`, or `now at the top level`.
    func placeChange(from old: Row, to new: Row) -> String? {
        guard let item = new.item, old.item?.parent != item.parent else { return nil }
        guard let parent = item.parent else { return "now at the top level" }
        guard let row = view?.rows.first(where: { $0.id == parent.description }) else { return "now a subtask" }
        return "now under \"" + style.truncate(displayed(row.title), to: 40) + "\""
    }
}
