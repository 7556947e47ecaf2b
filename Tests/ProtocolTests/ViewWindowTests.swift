/// `ViewWindow`, the one model of a view's window a client keeps: snapshots, each op with its index checks,
/// version gaps and resynchronizing, `view/setWindow`, `view/closed`, the state as a level, and the lapses of
/// form it applies but reports.

import TasklsProtocol
import Testing
import Wire

private let view = ViewID(1)
private let list = ListID(1)

/// The item row `i<number>`, titled `title`.
private func item(_ number: UInt64, _ title: String? = nil, done: Bool = false) -> Row {
    .item(ItemRow(id: ItemID(number), list: list, title: title ?? "item \(number)", done: done, revision: 1))
}

private func snapshot(version: UInt64 = 1, state: ViewState = .ready, count: Int?, window: Window, rows: [Row]) -> ViewSnapshotResult {
    ViewSnapshotResult(view: view, version: version, state: state, count: count, window: window, sort: .manual,
                       source: .list(list), rows: rows)
}

private func change(_ version: UInt64, state: ViewState = .ready, count: Int?, empty: EmptyReason? = nil, window: Window,
                    _ ops: [WindowOperation]) -> ViewChanged {
    ViewChanged(view: view, version: version, state: state, count: count, empty: empty, window: window, ops: ops)
}

/// A ready window `[0, 5)` on a view of 5 items `i1 ... i5`, at version 1.
private func five() throws -> ViewWindow {
    try ViewWindow(snapshot: snapshot(count: 5, window: Window(start: 0, end: 5), rows: (1...5).map { item($0) }))
}

private let window5 = Window(start: 0, end: 5)

/// The rule `body` broke, or nil when it threw nothing (`ViewWindow` throws nothing else).
private func rule(_ body: () throws -> Void) -> ViewWindowViolation.Rule? {
    do {
        try body()
        return nil
    } catch {
        return (error as? ViewWindowViolation)?.rule
    }
}

/// The change applied, or nil for a gap or an ignored change.
private func applied(_ outcome: ViewWindow.Outcome) -> AppliedChange? {
    if case .applied(let change) = outcome { return change }
    return nil
}

private func ids(_ window: ViewWindow) -> [String] { window.rows.map(\.id) }

@Test func aSnapshotIsTheWindowItShows() throws {
    let window = try ViewWindow(snapshot: snapshot(version: 3, count: 12, window: Window(start: 10, end: 15), rows: [item(11), item(12)]))
    #expect(window.view == view)
    #expect(window.version == 3 && window.latestVersion == 3)
    #expect(window.count == 12 && window.state == .ready && window.window == Window(start: 10, end: 15))
    #expect(ids(window) == ["i11", "i12"])
    #expect(window.row(at: 11) == item(12))
    #expect(window.row(at: 9) == nil && window.row(at: 12) == nil)
    #expect(!window.needsSnapshot && window.closedReason == nil)
}

@Test(arguments: [
    (snapshot(count: 5, window: Window(start: 0, end: 3), rows: [item(1), item(2)]), ViewWindowViolation.Rule.rowCount),
    (snapshot(count: 1, window: Window(start: 0, end: 3), rows: [item(1), item(2)]), .rowCount),
    (snapshot(state: .loading(progress: 0.5), count: 5, window: Window(start: 0, end: 3), rows: [item(1)]), .rowCount),
    (snapshot(count: 2, window: Window(start: 0, end: 3), rows: [item(1), item(1)]), .duplicateRow),
    (snapshot(version: 0, count: 0, window: Window(start: 0, end: 3), rows: []), .versionBelowOne),
    (snapshot(count: nil, window: Window(start: 0, end: 3), rows: []), .badCount),
    (snapshot(count: -1, window: Window(start: 0, end: 3), rows: []), .badCount),
    (snapshot(state: .loading(progress: 1.5), count: 5, window: Window(start: 0, end: 3), rows: []), .progressOutOfRange),
])
func aSnapshotThatContradictsItselfIsRefused(snapshot: ViewSnapshotResult, broken: ViewWindowViolation.Rule) {
    #expect(rule { _ = try ViewWindow(snapshot: snapshot) } == broken)
}

@Test func opsApplyInOrderToTheRowsTheOpsBeforeThemLeft() throws {
    var window = try five()
    let outcome = try window.apply(change(2, count: 5, window: window5, [
        .remove(index: 4),
        .move(from: 0, to: 3, row: item(1, "one")),
        .insert(index: 0, row: item(6)),
        .update(index: 1, row: item(2, done: true)),
    ]))
    #expect(ids(window) == ["i6", "i2", "i3", "i4", "i1"])
    #expect(window.rows[1] == item(2, done: true) && window.rows[4] == item(1, "one"))
    #expect(window.version == 2)
    #expect(applied(outcome)?.operations == [
        .removed(item(5), at: 4), .moved(item(1, "one"), from: 0, to: 3), .inserted(item(6), at: 0),
        .updated(old: item(2), new: item(2, done: true), at: 1),
    ])
    #expect(applied(outcome)?.lapses == [])
}

@Test func aResetReplacesTheRowsAndIsAlone() throws {
    var window = try five()
    let outcome = try window.apply(change(2, count: 3, window: window5, [.reset(rows: [item(7), item(8), item(9)])]))
    #expect(ids(window) == ["i7", "i8", "i9"] && window.count == 3)
    #expect(applied(outcome)?.operations == [.reset(old: (1...5).map { item($0) })])
    #expect(rule { _ = try window.apply(change(3, count: 3, window: window5, [.reset(rows: [item(1)]), .remove(index: 0)])) } == .resetNotAlone)
    #expect(rule { _ = try window.apply(change(3, count: 2, window: window5, [.reset(rows: [item(1), item(1)])])) } == .duplicateRow)
}

@Test(arguments: [
    ([WindowOperation.insert(index: 6, row: item(6))], 6, ViewWindowViolation.Rule.indexOutOfRange),
    ([.insert(index: -1, row: item(6))], 6, .indexOutOfRange),
    ([.remove(index: 5)], 4, .indexOutOfRange),
    ([.move(from: 5, to: 0, row: nil)], 5, .indexOutOfRange),
    ([.move(from: 0, to: 5, row: nil)], 5, .indexOutOfRange),
    ([.update(index: 5, row: item(5))], 5, .indexOutOfRange),
    ([.insert(index: 0, row: item(3))], 6, .duplicateRow),
    ([.update(index: 0, row: item(9))], 5, .rowIdentityChanged),
    ([.move(from: 0, to: 2, row: item(9))], 5, .rowIdentityChanged),
    ([.remove(index: 0)], 5, .rowCount),
    ([], 3, .rowCount),
] as [([WindowOperation], Int, ViewWindowViolation.Rule)])
func anOpThatCannotApplyIsRefusedAndChangesNothing(ops: [WindowOperation], count: Int, broken: ViewWindowViolation.Rule) throws {
    var window = try five()
    let before = window
    #expect(rule { _ = try window.apply(change(2, count: count, window: window5, ops)) } == broken)
    #expect(window == before)
}

@Test func anOpOnAnEmptyWindowSaysThereIsNoRow() throws {
    var window = try ViewWindow(snapshot: snapshot(count: 0, window: window5, rows: []))
    do {
        _ = try window.apply(change(2, count: 0, window: window5, [.remove(index: 0)]))
        Issue.record("a remove on no rows applied")
    } catch {
        #expect(error.rule == .indexOutOfRange)
        #expect(error.message.contains("there is no row to address"))
    }
}

@Test func aChangeOfAnotherWindowOrViewIsRefused() throws {
    var window = try five()
    #expect(rule { _ = try window.apply(change(2, count: 6, window: Window(start: 1, end: 6), [])) } == .windowMoved)
    let other = ViewChanged(view: ViewID(2), version: 2, state: .ready, count: 6, window: window5, ops: [])
    #expect(rule { _ = try window.apply(other) } == .wrongView)
    #expect(rule { try window.setWindow(ViewSnapshotResult(view: ViewID(2), version: 1, state: .ready, count: 0, window: window5,
                                                           sort: .manual, source: .list(list), rows: [])) } == .wrongView)
}

@Test func aVersionGapWaitsForASnapshotNotOlderThanWhatWasAnnounced() throws {
    var window = try five()
    #expect(try window.apply(change(3, count: 6, window: window5, [])) == .gap(expected: 2, received: 3))
    #expect(window.needsSnapshot && window.version == 1 && ids(window) == ["i1", "i2", "i3", "i4", "i5"])
    #expect(try window.apply(change(4, count: 6, window: window5, [])) == .ignoredUntilSnapshot)
    #expect(window.latestVersion == 4)
    let stale = snapshot(version: 3, count: 6, window: window5, rows: (1...5).map { item($0) })
    #expect(rule { try window.resynchronize(stale) } == .staleSnapshot)
    try window.resynchronize(snapshot(version: 4, count: 6, window: window5, rows: [item(9)] + (1...4).map { item($0) }))
    #expect(!window.needsSnapshot && window.version == 4 && ids(window) == ["i9", "i1", "i2", "i3", "i4"])
    let next = try window.apply(change(5, count: 5, window: window5, [.remove(index: 0), .insert(index: 4, row: item(5))]))
    #expect(applied(next) != nil && ids(window) == ["i1", "i2", "i3", "i4", "i5"])
}

@Test func setWindowKeepsTheVersionUnlessAGapCameFirst() throws {
    var window = try five()
    try window.setWindow(snapshot(count: 5, window: Window(start: 3, end: 8), rows: [item(4), item(5)]))
    #expect(window.window == Window(start: 3, end: 8) && ids(window) == ["i4", "i5"] && window.version == 1)
    #expect(rule { try window.setWindow(snapshot(version: 2, count: 5, window: window5, rows: (1...5).map { item($0) })) }
        == .versionChangedBySetWindow)
    #expect(try window.apply(change(3, count: 5, window: Window(start: 3, end: 8), [])) == .gap(expected: 2, received: 3))
    try window.setWindow(snapshot(version: 3, count: 5, window: window5, rows: (1...5).map { item($0) }))
    #expect(!window.needsSnapshot && window.version == 3 && window.window == window5)
}

@Test func theStateIsALevelAViewOutOfReadyHasNoRows() throws {
    var window = try five()
    let failure = ViewError(message: "the disk is full", retryable: true)
    let outcome = try window.apply(change(2, state: .error(failure), count: nil, window: window5, []))
    #expect(applied(outcome)?.lapses == [])
    #expect(window.rows.isEmpty && window.state == .error(failure) && window.count == nil)
    // Progress while loading is something to see, even with nothing else changed.
    #expect(applied(try window.apply(change(3, state: .loading(progress: 0.2), count: 5, window: window5, [])))?.lapses == [])
    #expect(applied(try window.apply(change(4, state: .loading(progress: 0.2), count: 5, window: window5, [])))?.lapses == [])
    try window.apply(change(5, count: 5, window: window5, [.reset(rows: (1...5).map { item($0) })])).isApplied()
    #expect(ids(window) == ["i1", "i2", "i3", "i4", "i5"])
    // Ops that leave rows in a view that is not ready are refused.
    #expect(rule { _ = try window.apply(change(6, state: .loading(progress: 0), count: 5, window: window5, [.remove(index: 0)])) } == .rowCount)
}

@Test(arguments: [
    ([WindowOperation.remove(index: 1), .insert(index: 1, row: item(2, "two"))], 5, ViewWindowViolation.Rule.removedAndInserted),
    ([.move(from: 1, to: 3, row: item(2))], 5, .moveRepeatsRow),
    ([.move(from: 1, to: 1, row: item(2, "two"))], 5, .moveInPlace),
    ([.update(index: 1, row: item(2, "two")), .update(index: 2, row: item(3))], 5, .updateRepeatsRow),
    ((0..<5).map { WindowOperation.update(index: $0, row: item(UInt64($0 + 1), "new")) }, 5, .opsAsManyAsRows),
    ([], 5, .invisibleChange),
] as [([WindowOperation], Int, ViewWindowViolation.Rule)])
func aLapseOfFormStillAppliesAndIsReported(ops: [WindowOperation], count: Int, lapse: ViewWindowViolation.Rule) throws {
    var window = try five()
    var expected = window.rows
    for operation in ops {
        switch operation {
        case .insert(let index, let row): expected.insert(row, at: index)
        case .remove(let index): expected.remove(at: index)
        case .move(let from, let to, let row):
            let moved = expected.remove(at: from)
            expected.insert(row ?? moved, at: to)
        case .update(let index, let row): expected[index] = row
        case .reset(let rows): expected = rows
        }
    }
    let outcome = try window.apply(change(2, count: count, window: window5, ops))
    #expect(applied(outcome)?.lapses.map(\.rule) == [lapse])
    #expect(lapse.leavesRowsExact)
    #expect(window.rows == expected && window.version == 2)
}

@Test func aClosedViewTakesNoMoreChanges() throws {
    var window = try five()
    #expect(rule { try window.close(ViewClosed(view: ViewID(2), reason: "listDeleted")) } == .wrongView)
    try window.close(ViewClosed(view: view, reason: "listDeleted"))
    #expect(window.closedReason == "listDeleted" && window.state == .closed && window.rows.isEmpty)
    #expect(rule { _ = try window.apply(change(2, count: 5, window: window5, [])) } == .changeAfterClose)
    #expect(rule { try window.resynchronize(snapshot(version: 2, count: 5, window: window5, rows: (1...5).map { item($0) })) } == .changeAfterClose)
}

@Test func aWindowDiffersFromASnapshotByWhatItNames() throws {
    let window = try five()
    #expect(window.difference(from: snapshot(count: 5, window: window5, rows: (1...5).map { item($0) })) == nil)
    let moved = snapshot(version: 2, count: 5, window: window5, rows: [item(2), item(1), item(3), item(4), item(5)])
    let difference = try #require(window.difference(from: moved))
    #expect(difference.hasPrefix("v1: version: client 1, server 2; rows differ:"))
    var empty = snapshot(count: 0, window: window5, rows: [])
    empty.empty = .noItems
    #expect(window.difference(from: empty)?.contains("empty: client none, server noItems") == true)
}

extension ViewWindow.Outcome {
    /// Fails unless the change applied.
    func isApplied(sourceLocation: SourceLocation = #_sourceLocation) {
        if case .applied = self { return }
        Issue.record("not applied: \(self)", sourceLocation: sourceLocation)
    }
}

/// A tree's rows as the server writes them: `i1` with subtasks `i2` (done) and `i3`, `i3` with `i4`; `i5` a context row.
private let treeText = #"""
{"view":"v1","version":1,"state":"ready","count":5,"window":{"start":0,"end":5},"sort":{"by":"manual","direction":"ascending"},"filter":{},"sections":"none","list":"l1","rows":[
{"kind":"item","id":"i1","list":"l1","parent":null,"depth":0,"title":"Trip","done":false,"due":null,"priority":"none","tags":[],"hasNotes":false,"children":2,"openChildren":1,"hasChildren":true,"collapsed":false,"context":false,"revision":1,"repeat":null,"hasAlerts":false},
{"kind":"item","id":"i2","list":"l1","parent":"i1","depth":1,"title":"Book","done":true,"due":null,"priority":"none","tags":[],"hasNotes":false,"children":0,"openChildren":0,"hasChildren":false,"collapsed":false,"context":false,"revision":2,"repeat":null,"hasAlerts":false},
{"kind":"item","id":"i3","list":"l1","parent":"i1","depth":1,"title":"Pack","done":false,"due":null,"priority":"none","tags":[],"hasNotes":false,"children":1,"openChildren":1,"hasChildren":true,"collapsed":false,"context":false,"revision":1,"repeat":null,"hasAlerts":false},
{"kind":"item","id":"i4","list":"l1","parent":"i3","depth":2,"title":"Socks","done":false,"due":"2026-11-30","priority":"none","tags":[],"hasNotes":false,"children":0,"openChildren":0,"hasChildren":false,"collapsed":false,"context":false,"revision":1,"repeat":{"rule":"FREQ=WEEKLY","from":"completion"},"hasAlerts":false},
{"kind":"item","id":"i5","list":"l1","parent":null,"depth":0,"title":"Later","done":false,"due":null,"priority":"none","tags":[],"hasNotes":false,"children":3,"openChildren":3,"hasChildren":false,"collapsed":false,"context":true,"revision":1,"repeat":null,"hasAlerts":false}]}
"""#

/// Collapsing `i1`: its subtree's rows leave (bottom up), the row after the window enters, `i1` says it is collapsed.
private let collapseText = #"""
{"view":"v1","version":2,"state":"ready","count":2,"window":{"start":0,"end":5},"ops":[
{"op":"remove","index":3},{"op":"remove","index":2},{"op":"remove","index":1},
{"op":"update","index":0,"row":{"kind":"item","id":"i1","list":"l1","parent":null,"depth":0,"title":"Trip","done":false,"due":null,"priority":"none","tags":[],"hasNotes":false,"children":2,"openChildren":1,"hasChildren":true,"collapsed":true,"context":false,"revision":1,"repeat":null,"hasAlerts":false}}]}
"""#

@Test func treeRowsKeepEveryMemberThroughSnapshotsAndChanges() throws {
    let snapshot = try ViewSnapshotResult(json: JSONParser.parse(treeText), path: "result")
    var window = try ViewWindow(snapshot: snapshot)
    // Each row reads and writes back byte for byte.
    #expect(window.rows.map(\.json) == snapshot.rows.map(\.json))
    #expect(try JSONParser.parse(snapshot.json.text) == JSONParser.parse(treeText))
    guard case .item(let socks) = window.rows[3], case .item(let later) = window.rows[4] else {
        Issue.record("not item rows: \(window.rows)")
        return
    }
    #expect(socks.parent == ItemID(3) && socks.depth == 2 && !socks.hasChildren && !socks.context)
    #expect(later.parent == nil && later.children == 3 && !later.hasChildren && later.context)

    let change = try ViewChanged(json: JSONParser.parse(collapseText), path: "params")
    try window.apply(change).isApplied()
    #expect(ids(window) == ["i1", "i5"] && window.count == 2 && window.version == 2)
    guard case .item(let trip) = window.rows[0] else {
        Issue.record("not an item row: \(window.rows[0])")
        return
    }
    #expect(trip.collapsed && trip.hasChildren && trip.children == 2 && trip.openChildren == 1)
    // A client's window after the change is the snapshot the server would give.
    var collapsed = snapshot
    collapsed.version = 2
    collapsed.count = 2
    collapsed.rows = [.item(trip), snapshot.rows[4]]
    #expect(window.difference(from: collapsed) == nil)
}
