/// A reference client written from protocol.md alone: it keeps each open view's window with the protocol's
/// `ViewWindow`, which applies every `view/changed` exactly as the protocol describes, refuses loudly
/// anything the protocol forbids, and checks the tree rules a client can check alone (`TreeRules`) on every
/// window it holds.

import TasklsProtocol
import Wire

/// Something the server sent that protocol.md does not allow, as a client saw it.
struct ProtocolViolation: Error, Equatable, CustomStringConvertible {
    /// A short name of the rule broken, for lapses (see `ReferenceView.lapses`); empty otherwise.
    var rule: String
    var description: String

    init(_ description: String, rule: String = "") {
        self.rule = rule
        self.description = description
    }

    /// What `ViewWindow` found, named by its rule.
    init(_ violation: ViewWindowViolation) {
        self.init(violation.message, rule: violation.rule.rawValue)
    }
}

/// What applying one `view/changed` did.
enum ChangeOutcome: Equatable {
    /// The version followed and the ops were applied.
    case applied
    /// The version did not follow: the client missed something and must call `view/snapshot`.
    /// Nothing was applied; later changes are ignored until `resynchronize`.
    case gap(expected: UInt64, received: UInt64)
    /// The view was already waiting for a snapshot after a gap; the change was ignored.
    case ignoredUntilSnapshot
}

/// One open view of a list as a client holds it: built from a snapshot, then changed only by
/// `view/changed` notifications, `view/setWindow` and `view/snapshot` results. Beside the window's rows it
/// keeps the view's list and sort, and asks more than `ViewWindow` does of what it reads: a view of one list
/// (its item rows in that list), ready or loading, with a count.
struct ReferenceView {
    let id: ViewID
    private(set) var list: ListID
    private(set) var sort: Sort
    /// The filter, as the last snapshot echoed it or `view/filter` set it.
    private(set) var filter: Filter
    /// The window's rows and level, as `ViewWindow` keeps them.
    private(set) var kept: ViewWindow
    /// Breaches of the rules about the form of a change that still leave the rows exact (a
    /// notification that should have been one reset, a row that moved by remove and insert,
    /// a move that repeats an unchanged row), and of the tree rules (`TreeRules`), which a snapshot would
    /// show the same. Applying goes on; `ReferenceClient` collects them.
    var lapses: [ProtocolViolation] = []

    var version: UInt64 { kept.version }
    var count: Int { kept.count ?? 0 }
    var window: Window { kept.window }
    /// The window's rows, `window.start ..< min(window.end, count)`, as the server sent them.
    var rows: [Row] { kept.rows }
    /// Set by a version gap; cleared by the next snapshot.
    var awaitingSnapshot: Bool { kept.needsSnapshot }

    /// A view from a snapshot (`lists/open`, `view/setWindow` or `view/snapshot` result).
    init(snapshot: ViewSnapshotResult) throws(ProtocolViolation) {
        let list = try Self.check(snapshot, list: nil)
        do { kept = try ViewWindow(snapshot: snapshot) } catch { throw ProtocolViolation(error) }
        id = snapshot.view
        self.list = list
        sort = snapshot.sort
        filter = snapshot.filter
        checkTree()
    }

    /// Takes a `view/setWindow` result: same view, same version, the rows of the new window.
    /// After a gap it is a snapshot like any other, and the client starts again from it.
    mutating func setWindow(_ snapshot: ViewSnapshotResult) throws(ProtocolViolation) {
        _ = try Self.check(snapshot, list: list)
        do { try kept.setWindow(snapshot) } catch { throw ProtocolViolation(error) }
        sort = snapshot.sort
        filter = snapshot.filter
        checkTree()
    }

    /// Starts again from a `view/snapshot` result, as a client does after a gap.
    mutating func resynchronize(_ snapshot: ViewSnapshotResult) throws(ProtocolViolation) {
        _ = try Self.check(snapshot, list: list)
        do { try kept.resynchronize(snapshot) } catch { throw ProtocolViolation(error) }
        sort = snapshot.sort
        filter = snapshot.filter
        checkTree()
    }

    /// Applies one `view/changed` notification.
    ///
    /// The version must be exactly one more than the last one; any other version is a gap (the
    /// caller decides whether that is expected). The ops apply in order to the rows as the ops
    /// before them left them, and must leave exactly the rows `count` and `window` imply.
    mutating func apply(_ change: ViewChanged) throws(ProtocolViolation) -> ChangeOutcome {
        let path = "view/changed(\(id))"
        let outcome: ViewWindow.Outcome
        do { outcome = try kept.apply(change) } catch { throw ProtocolViolation(error) }
        switch outcome {
        case .gap(let expected, let received): return .gap(expected: expected, received: received)
        case .ignoredUntilSnapshot: return .ignoredUntilSnapshot
        case .applied(let applied):
            switch change.state {
            case .ready, .loading: break
            default: throw ProtocolViolation("\(path).state: \(change.state) is not a state a view/changed of these tests may carry: \(change.json.text)")
            }
            guard change.count != nil else { throw ProtocolViolation("\(path).count: null for a view of a list: \(change.json.text)") }
            for operation in change.ops {
                for row in operation.rows { try Self.check(row, list: list, "\(path): \(change.json.text)") }
            }
            for lapse in applied.lapses {
                // A change with nothing to see is not a matter of form here: the test fails on it.
                if lapse.rule == .invisibleChange { throw ProtocolViolation(lapse) }
                lapses.append(ProtocolViolation(lapse))
            }
            checkTree()
            return .applied
        }
    }

    /// Compares this view with a fresh snapshot of it; returns what differs, or `nil`.
    func difference(from snapshot: ViewSnapshotResult) -> String? {
        var differences: [String] = []
        if let difference = kept.difference(from: snapshot) { differences.append(difference) }
        if snapshot.sort != sort { differences.append("sort: client \(sort.json.text), server \(snapshot.sort.json.text)") }
        if snapshot.filter != filter { differences.append("filter: client \(filter.json.text), server \(snapshot.filter.json.text)") }
        return differences.isEmpty ? nil : differences.joined(separator: "; ")
    }

    /// Records a sort the server acknowledged with `view/sort` (its reset carries the rows).
    mutating func sorted(by sort: Sort) { self.sort = sort }

    /// Takes the filter of a `view/filter` about to be sent, so that the rules of its reset's rows are those of
    /// the new filter (the answer, which comes after the reset, confirms it).
    mutating func willFilter(by filter: Filter) { self.filter = filter }

    /// Adds the tree rules the window's rows break to `lapses` (none while the view is not ready).
    private mutating func checkTree() {
        guard kept.state == .ready else { return }
        lapses += TreeRules(filtered: filter != .all, ofOneList: true).violations(of: rows, window: window, count: count, view: id)
    }

    /// Whether the view is in the only order rows can be moved in by index.
    var isManualAscending: Bool { sort == .manual }

    /// What this client asks of every snapshot beyond `ViewWindow`: a view of a list (`list`, when given),
    /// ready or loading, with a count, whose item rows are in its list. Returns the list.
    private static func check(_ snapshot: ViewSnapshotResult, list expected: ListID?) throws(ProtocolViolation) -> ListID {
        let path = "snapshot(\(snapshot.view))"
        guard case .list(let list) = snapshot.source else { throw ProtocolViolation("\(path): not a view of a list: \(snapshot.json.text)") }
        if let expected, list != expected { throw ProtocolViolation("\(path): a view of \(expected) became a view of \(list)") }
        switch snapshot.state {
        case .ready, .loading: break
        default: throw ProtocolViolation("\(path).state: \(snapshot.state) is not ready or loading")
        }
        guard snapshot.count != nil else { throw ProtocolViolation("\(path).count: null for a view of a list") }
        for row in snapshot.rows { try check(row, list: list, path) }
        return list
    }

    /// An item row of a view of `list` is in `list`.
    private static func check(_ row: Row, list: ListID, _ path: @autoclosure () -> String) throws(ProtocolViolation) {
        guard case .item(let item) = row, item.list != list else { return }
        throw ProtocolViolation("\(path()): an item row of list \(item.list) in a view of \(list): \(row.json.text)")
    }
}

extension WindowOperation {
    /// The rows the op carries.
    var rows: [Row] {
        switch self {
        case .insert(_, let row), .update(_, let row), .move(_, _, let row?): [row]
        case .reset(let rows): rows
        case .remove, .move(_, _, nil): []
        }
    }

    /// The op's name, as on the wire.
    var name: String {
        switch self {
        case .insert: "insert"
        case .remove: "remove"
        case .move: "move"
        case .update: "update"
        case .reset: "reset"
        }
    }
}

/// Every view a client has open, fed with the server's notifications in the order they came.
struct ReferenceClient {
    private(set) var views: [ViewID: ReferenceView] = [:]
    /// Views the server closed, with the reason it gave.
    private(set) var closedByServer: [ViewID: String] = [:]
    /// Lapses of every view (see `ReferenceView.lapses`), in the order they were seen.
    private(set) var lapses: [ProtocolViolation] = []

    /// Takes the lapses seen so far.
    mutating func takeLapses() -> [ProtocolViolation] {
        defer { lapses.removeAll() }
        return lapses
    }

    /// Opens a view from a `lists/open` result, which is always version 1.
    @discardableResult
    mutating func open(_ snapshot: ViewSnapshotResult) throws(ProtocolViolation) -> ViewID {
        var view = try ReferenceView(snapshot: snapshot)
        guard view.version == 1 else { throw ProtocolViolation("lists/open answered \(view.id) at version \(view.version), not 1") }
        guard views[view.id] == nil, closedByServer[view.id] == nil else {
            throw ProtocolViolation("lists/open reused the view id \(view.id)")
        }
        lapses += view.lapses
        view.lapses.removeAll()
        views[view.id] = view
        return view.id
    }

    /// Takes a `view/setWindow` result.
    mutating func setWindow(_ view: ViewID, _ snapshot: ViewSnapshotResult) throws(ProtocolViolation) {
        guard views[view] != nil else { throw ProtocolViolation("setWindow answered for \(view), which the client does not have open") }
        try views[view]!.setWindow(snapshot)
        collectLapses(of: view)
    }

    /// Starts a view again from a `view/snapshot` result.
    mutating func resynchronize(_ view: ViewID, _ snapshot: ViewSnapshotResult) throws(ProtocolViolation) {
        guard views[view] != nil else { throw ProtocolViolation("snapshot answered for \(view), which the client does not have open") }
        try views[view]!.resynchronize(snapshot)
        collectLapses(of: view)
    }

    /// Records a `view/sort` answer `{"view", "version"}`: its version is that of the reset just applied.
    mutating func sorted(_ view: ViewID, by sort: Sort, answer: ViewVersion) throws(ProtocolViolation) {
        guard let current = views[view] else { throw ProtocolViolation("view/sort answered for \(view), which the client does not have open") }
        guard answer.view == view else { throw ProtocolViolation("view/sort result names another view: \(answer.json.text)") }
        guard answer.version == current.version else {
            throw ProtocolViolation("view/sort answered version \(answer.version), but the last view/changed of \(view) was version \(current.version)")
        }
        views[view]!.sorted(by: sort)
    }

    /// Takes the filter of a `view/filter` about to be sent to `view` (see `ReferenceView.willFilter`).
    mutating func willFilter(_ view: ViewID, by filter: Filter) { views[view]?.willFilter(by: filter) }

    /// Checks a `view/filter` answer `{"view", "version"}`, as `sorted` does.
    func filtered(_ view: ViewID, answer: ViewVersion) throws(ProtocolViolation) {
        guard let current = views[view] else { throw ProtocolViolation("view/filter answered for \(view), which the client does not have open") }
        guard answer.view == view else { throw ProtocolViolation("view/filter result names another view: \(answer.json.text)") }
        guard answer.version == current.version else {
            throw ProtocolViolation("view/filter answered version \(answer.version), but the last view/changed of \(view) was version \(current.version)")
        }
    }

    /// Moves the lapses `view` saw to the client's.
    private mutating func collectLapses(of view: ViewID) {
        lapses += views[view]!.lapses
        views[view]!.lapses.removeAll()
    }

    /// Forgets a view the client closed with `view/close`.
    mutating func close(_ view: ViewID) { views[view] = nil }

    /// Applies one notification from the server. Returns the view it changed with what applying did.
    mutating func receive(_ notification: ServerNotification) throws(ProtocolViolation) -> (view: ViewID, outcome: ChangeOutcome?) {
        switch notification {
        case .viewChanged(let change):
            guard views[change.view] != nil else {
                throw ProtocolViolation("view/changed for \(change.view), which is not open (closed or never opened): \(change.json.text)")
            }
            let outcome = try views[change.view]!.apply(change)
            collectLapses(of: change.view)
            return (change.view, outcome)
        case .viewClosed(let closed):
            guard views[closed.view] != nil else { throw ProtocolViolation("view/closed for \(closed.view), which is not open: \(closed.json.text)") }
            guard closed.reason == "listDeleted" else { throw ProtocolViolation("view/closed with unknown reason \"\(closed.reason)\"") }
            views[closed.view] = nil
            closedByServer[closed.view] = closed.reason
            return (closed.view, nil)
        default:
            throw ProtocolViolation("unexpected notification \(notification.method): \(notification.params.text)")
        }
    }
}
