/// Domain views to protocol values: states, snapshots, window operations and change notifications.

import Domain
import TasklsProtocol
import Wire

extension TasklsProtocol.ViewState {
    /// The wire form of `state`; `progress` is rounded to thousandths.
    init(_ state: Domain.ViewState) {
        switch state {
        case .ready: self = .ready
        case .loading(let progress): self = .loading(progress: (progress * 1000).rounded() / 1000)
        case .closed: self = .closed
        case .error(let message, let retryable): self = .error(ViewError(message: message, retryable: retryable))
        }
    }
}

extension ViewSnapshotResult {
    /// What `lists/open`, `view/setWindow` and `view/snapshot` answer.
    init(_ snapshot: Domain.ViewSnapshot) {
        self.init(
            view: TasklsProtocol.ViewID(snapshot.view), version: snapshot.version, state: TasklsProtocol.ViewState(snapshot.state),
            count: snapshot.count, empty: snapshot.empty.map(TasklsProtocol.EmptyReason.init),
            window: TasklsProtocol.Window(snapshot.window), sort: TasklsProtocol.Sort(snapshot.sort),
            filter: TasklsProtocol.Filter(snapshot.filter), sections: Sections(snapshot.grouping),
            source: TasklsProtocol.ViewSource(snapshot.source), rows: snapshot.rows.map(TasklsProtocol.Row.init))
    }
}

extension TasklsProtocol.WindowOperation {
    /// The wire form of `operation`.
    init(_ operation: Domain.WindowOperation) {
        switch operation {
        case .insert(let index, let row): self = .insert(index: index, row: TasklsProtocol.Row(row))
        case .remove(let index): self = .remove(index: index)
        case .move(let from, let to, let row): self = .move(from: from, to: to, row: row.map(TasklsProtocol.Row.init))
        case .update(let index, let row): self = .update(index: index, row: TasklsProtocol.Row(row))
        case .reset(let rows): self = .reset(rows: rows.map(TasklsProtocol.Row.init))
        }
    }
}

extension ViewChange {
    /// The notification for this change: `view/closed` for a view that closed, else `view/changed`.
    /// Public so the benchmarks can measure exactly what the server writes.
    public var notification: Message {
        if case .closed(let reason) = state {
            return ViewClosed(view: TasklsProtocol.ViewID(view), reason: reason).message
        }
        return ViewChanged(
            view: TasklsProtocol.ViewID(view), version: version, state: TasklsProtocol.ViewState(state),
            count: count, empty: empty.map(TasklsProtocol.EmptyReason.init),
            window: TasklsProtocol.Window(window), ops: operations.map(TasklsProtocol.WindowOperation.init)).message
    }
}
