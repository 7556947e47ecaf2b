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
    init(_ snapshot: Domain.ViewSnapshot, in calendar: ClientCalendar) {
        self.init(
            view: TasklsProtocol.ViewID(snapshot.view), version: snapshot.version, state: TasklsProtocol.ViewState(snapshot.state),
            count: snapshot.count, empty: snapshot.empty.map(TasklsProtocol.EmptyReason.init),
            window: TasklsProtocol.Window(snapshot.window), sort: TasklsProtocol.Sort(snapshot.sort),
            filter: TasklsProtocol.Filter(snapshot.filter), sections: Sections(snapshot.grouping),
            source: TasklsProtocol.ViewSource(snapshot.source), rows: snapshot.rows.map { TasklsProtocol.Row($0, in: calendar) })
    }
}

extension TasklsProtocol.WindowOperation {
    /// The wire form of `operation`.
    init(_ operation: Domain.WindowOperation, in calendar: ClientCalendar) {
        switch operation {
        case .insert(let index, let row): self = .insert(index: index, row: TasklsProtocol.Row(row, in: calendar))
        case .remove(let index): self = .remove(index: index)
        case .move(let from, let to, let row): self = .move(from: from, to: to, row: row.map { TasklsProtocol.Row($0, in: calendar) })
        case .update(let index, let row): self = .update(index: index, row: TasklsProtocol.Row(row, in: calendar))
        case .reset(let rows): self = .reset(rows: rows.map { TasklsProtocol.Row($0, in: calendar) })
        }
    }
}

extension ViewChange {
    /// The body of this change's notification, as the server writes it: `view/closed` for a view that closed, else
    /// `view/changed` (its rows written straight into the bytes), due times read in `calendar`'s zone. Public so the
    /// benchmarks can measure exactly what the server writes.
    /// - Complexity: O(size of the output).
    public func notificationBody(in calendar: ClientCalendar) -> [UInt8] {
        var writer = JSONWriter(capacity: 1024)
        if case .closed(let reason) = state {
            writer.value(ViewClosed(view: TasklsProtocol.ViewID(view), reason: reason).message.json)
        } else {
            ViewChanged(
                view: TasklsProtocol.ViewID(view), version: version, state: TasklsProtocol.ViewState(state),
                count: count, empty: empty.map(TasklsProtocol.EmptyReason.init),
                window: TasklsProtocol.Window(window), ops: operations.map { TasklsProtocol.WindowOperation($0, in: calendar) }
            ).write(messageTo: &writer)
        }
        return writer.bytes
    }
}
