/// One view's window as a client keeps it: built from a snapshot, changed only by `view/changed`, moved by
/// `view/setWindow`, started again from `view/snapshot` after a version gap, ended by `view/closed`.

import Wire

/// The rows of one view's window and the level they are at (version, state, count, empty reason), exactly as
/// protocol.md says a client keeps them.
///
/// Every input is checked against protocol.md: what would leave the rows unknowable throws a
/// `ViewWindowViolation` and changes nothing, so a strict client fails on it and a lenient one resyncs from
/// `view/snapshot`; a change that breaks only a rule of form is applied and its lapses returned.
/// What a client keeps beside the rows (sort, filter, sections, source) is the caller's.
public struct ViewWindow: Sendable, Hashable {
    /// The view.
    public let view: ViewID
    /// The version of the last snapshot or change applied.
    public private(set) var version: UInt64
    /// The view's state.
    public private(set) var state: ViewState
    /// The number of rows in the whole view; nil when unknown.
    public private(set) var count: Int?
    /// Why the view is empty, when it is.
    public private(set) var empty: EmptyReason?
    /// The window: the view indexes `rows` start at and end before.
    public private(set) var window: Window
    /// The rows at view indexes `window.start ..< min(window.end, count)` when ready; none otherwise.
    public private(set) var rows: [Row]
    /// Set by a version gap: changes are ignored until `resynchronize` takes a `view/snapshot` result.
    public private(set) var needsSnapshot = false
    /// The highest version a snapshot or change announced (a resynchronizing snapshot may not be older).
    public private(set) var latestVersion: UInt64
    /// The reason `view/closed` gave; nil while the view is open.
    public private(set) var closedReason: String?

    /// The view of a snapshot (`lists/open`, `view/setWindow` or `view/snapshot` result).
    /// - Complexity: O(rows).
    public init(snapshot: ViewSnapshotResult) throws(ViewWindowViolation) {
        try Self.check(snapshot)
        view = snapshot.view
        version = snapshot.version
        state = snapshot.state
        count = snapshot.count
        empty = snapshot.empty
        window = snapshot.window
        rows = snapshot.rows
        latestVersion = snapshot.version
    }

    /// What applying one `view/changed` did.
    public enum Outcome: Sendable, Hashable {
        /// The version followed and the ops were applied.
        case applied(AppliedChange)
        /// The version did not follow: something was missed. Nothing was applied; later changes are ignored
        /// until `resynchronize` takes a `view/snapshot` result.
        case gap(expected: UInt64, received: UInt64)
        /// A gap was seen before and no snapshot came since: the change was ignored.
        case ignoredUntilSnapshot
    }

    /// Applies one `view/changed`: its version must be exactly one more than `version` (else a gap), its
    /// window the client's, and its ops, applied in order to the rows as the ops before them left them, must
    /// leave exactly the rows `state`, `count` and `window` imply. A change into a state other than `ready`
    /// with no ops drops the rows (the state is a level: no rows while loading or in error).
    /// - Throws: the first violation that leaves the rows unknowable; nothing is applied then.
    /// - Complexity: O(ops × window).
    public mutating func apply(_ change: ViewChanged) throws(ViewWindowViolation) -> Outcome {
        let path = "view/changed(\(view))"
        guard closedReason == nil else {
            throw ViewWindowViolation(.changeAfterClose, "\(path): the view was closed (\(closedReason ?? "")): \(change.json.text)")
        }
        guard change.view == view else {
            throw ViewWindowViolation(.wrongView, "\(path): routed to the wrong view: \(change.json.text)")
        }
        if needsSnapshot {
            latestVersion = max(latestVersion, change.version)
            return .ignoredUntilSnapshot
        }
        guard change.version == version + 1 else {
            needsSnapshot = true
            latestVersion = max(latestVersion, change.version)
            return .gap(expected: version + 1, received: change.version)
        }
        try Self.checkLevel(change.state, count: change.count, "\(path): \(change.json.text)")
        guard change.window == window else {
            throw ViewWindowViolation(
                .windowMoved,
                "\(path).window: \(Self.describe(change.window)) but the client's window is \(Self.describe(window)); only view/setWindow moves it: \(change.json.text)")
        }
        var applying = Applying(rows: rows, change: change, path: path)
        for (position, operation) in change.ops.enumerated() { try applying.apply(operation, at: position) }
        var rows = applying.rows
        if case .ready = change.state {} else if change.ops.isEmpty { rows = [] }
        let expected = Self.windowLength(state: change.state, count: change.count, window: window)
        guard rows.count == expected else {
            throw ViewWindowViolation(
                .rowCount,
                "\(path): after the ops the window holds \(rows.count) rows, but state \(Self.stateName(change.state)), count \(change.count.map(String.init) ?? "null") and window \(Self.describe(window)) mean \(expected): \(change.json.text)")
        }
        if applying.isReset { try Self.checkUnique(rows, "\(path): \(change.json.text)") }
        var lapses = applying.lapses
        let capacity = window.end - window.start
        // Counted against the window's size, the reading that asks least: as many ops as the window can
        // hold rows are as many as its rows, whichever of before or after is meant.
        if !applying.isReset && !change.ops.isEmpty && capacity > 0 && change.ops.count >= capacity {
            lapses.append(ViewWindowViolation(
                .opsAsManyAsRows,
                "\(path): \(change.ops.count) ops for a window of \(capacity) rows (holding \(self.rows.count) before, \(rows.count) after); protocol.md: \"When the ops would be at least as many as the rows of the window after the change, the server sends one reset instead\". Notification: \(change.json.text)"))
        }
        let isLoading = if case .loading = change.state { true } else { false }
        let visible = applying.isReset || isLoading || change.state != state || change.count != count || change.empty != empty
            || rows != self.rows
        if !visible {
            lapses.append(ViewWindowViolation(
                .invisibleChange,
                "\(path): a notification with nothing a client can see changed (same rows, count, state and empty): \(change.json.text)"))
        }
        version = change.version
        latestVersion = max(latestVersion, change.version)
        state = change.state
        count = change.count
        empty = change.empty
        self.rows = rows
        return .applied(AppliedChange(operations: applying.operations, lapses: lapses))
    }

    /// Takes a `view/setWindow` result: same view, same version, the rows of the new window. After a gap it
    /// is a snapshot like any other, and the client starts again from it (`resynchronize`).
    /// - Complexity: O(rows).
    public mutating func setWindow(_ snapshot: ViewSnapshotResult) throws(ViewWindowViolation) {
        if needsSnapshot { return try resynchronize(snapshot) }
        try checkOpen(snapshot)
        guard snapshot.version == version else {
            throw ViewWindowViolation(
                .versionChangedBySetWindow,
                "\(view): view/setWindow changed the version from \(version) to \(snapshot.version); protocol.md: \"The version does not change\"")
        }
        take(snapshot)
    }

    /// Starts again from a `view/snapshot` result, as a client does after a gap.
    /// - Complexity: O(rows).
    public mutating func resynchronize(_ snapshot: ViewSnapshotResult) throws(ViewWindowViolation) {
        try checkOpen(snapshot)
        guard snapshot.version >= latestVersion else {
            throw ViewWindowViolation(
                .staleSnapshot, "\(view): snapshot version \(snapshot.version) is older than version \(latestVersion) already announced")
        }
        take(snapshot)
        needsSnapshot = false
    }

    /// Takes `view/closed`: the view will not change again; its rows are gone.
    public mutating func close(_ closed: ViewClosed) throws(ViewWindowViolation) {
        guard closed.view == view else {
            throw ViewWindowViolation(.wrongView, "view/closed(\(view)): routed to the wrong view: \(closed.json.text)")
        }
        guard closedReason == nil else {
            throw ViewWindowViolation(.changeAfterClose, "view/closed(\(view)): closed twice: \(closed.json.text)")
        }
        closedReason = closed.reason
        state = .closed
        rows = []
    }

    /// What differs between this window and a fresh snapshot of the view (version, state, count, empty,
    /// window, rows), one phrase each; nil when nothing does.
    /// - Complexity: O(rows).
    public func difference(from snapshot: ViewSnapshotResult) -> String? {
        var differences: [String] = []
        if snapshot.view != view { differences.append("view: client \(view), server \(snapshot.view)") }
        if snapshot.version != version { differences.append("version: client \(version), server \(snapshot.version)") }
        if snapshot.state != state { differences.append("state: client \(state), server \(snapshot.state)") }
        if snapshot.count != count {
            differences.append("count: client \(count.map(String.init) ?? "null"), server \(snapshot.count.map(String.init) ?? "null")")
        }
        if snapshot.empty != empty {
            differences.append("empty: client \(empty?.rawValue ?? "none"), server \(snapshot.empty?.rawValue ?? "none")")
        }
        if snapshot.window != window { differences.append("window: client \(Self.describe(window)), server \(Self.describe(snapshot.window))") }
        if snapshot.rows != rows {
            differences.append("rows differ:\n  client: \(rows.json.text)\n  server: \(snapshot.rows.json.text)")
        }
        return differences.isEmpty ? nil : "\(view): " + differences.joined(separator: "; ")
    }

    /// The row at view index `index`, when the window holds it.
    public func row(at index: Int) -> Row? {
        let offset = index - window.start
        return rows.indices.contains(offset) ? rows[offset] : nil
    }

    // MARK: Checks

    private mutating func take(_ snapshot: ViewSnapshotResult) {
        version = snapshot.version
        latestVersion = max(latestVersion, snapshot.version)
        state = snapshot.state
        count = snapshot.count
        empty = snapshot.empty
        window = snapshot.window
        rows = snapshot.rows
    }

    private func checkOpen(_ snapshot: ViewSnapshotResult) throws(ViewWindowViolation) {
        guard closedReason == nil else {
            throw ViewWindowViolation(.changeAfterClose, "\(view): a snapshot after view/closed (\(closedReason ?? ""))")
        }
        guard snapshot.view == view else {
            throw ViewWindowViolation(.wrongView, "\(view): asked for this view, got a snapshot of \(snapshot.view)")
        }
        try Self.check(snapshot)
    }

    /// A snapshot's version, level, and rows.
    private static func check(_ snapshot: ViewSnapshotResult) throws(ViewWindowViolation) {
        let path = "snapshot(\(snapshot.view))"
        guard snapshot.version >= 1 else { throw ViewWindowViolation(.versionBelowOne, "\(path).version: \(snapshot.version) is below 1") }
        try checkLevel(snapshot.state, count: snapshot.count, path)
        let expected = windowLength(state: snapshot.state, count: snapshot.count, window: snapshot.window)
        guard snapshot.rows.count == expected else {
            throw ViewWindowViolation(
                .rowCount,
                "\(path): \(snapshot.rows.count) rows, but state \(stateName(snapshot.state)), count \(snapshot.count.map(String.init) ?? "null") and window \(describe(snapshot.window)) mean \(expected)")
        }
        try checkUnique(snapshot.rows, path)
    }

    /// A count that is not negative (and present when ready), and a loading progress within 0...1.
    private static func checkLevel(_ state: ViewState, count: Int?, _ path: @autoclosure () -> String) throws(ViewWindowViolation) {
        if let count, count < 0 { throw ViewWindowViolation(.badCount, "\(path()): negative count \(count)") }
        switch state {
        case .ready where count == nil: throw ViewWindowViolation(.badCount, "\(path()): a ready view has a count, got null")
        case .loading(let progress) where !(0...1).contains(progress):
            throw ViewWindowViolation(.progressOutOfRange, "\(path()): progress \(progress) is outside 0...1")
        default: break
        }
    }

    private static func checkUnique(_ rows: [Row], _ path: @autoclosure () -> String) throws(ViewWindowViolation) {
        var seen: Set<String> = []
        for row in rows where !seen.insert(row.id).inserted {
            throw ViewWindowViolation(.duplicateRow, "\(path()): row id \(row.id) twice in the window")
        }
    }

    /// The rows a window holds: `start ..< min(end, count)` when ready, none otherwise.
    static func windowLength(state: ViewState, count: Int?, window: Window) -> Int {
        guard case .ready = state, let count else { return 0 }
        return max(0, min(window.end, count) - window.start)
    }

    /// `ready`, `loading`, `closed` or `error`.
    static func stateName(_ state: ViewState) -> String {
        switch state {
        case .ready: "ready"
        case .loading: "loading"
        case .closed: "closed"
        case .error: "error"
        }
    }

    /// `[start, end)`.
    static func describe(_ window: Window) -> String { "[\(window.start), \(window.end))" }
}
