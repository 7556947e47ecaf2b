// Tests of when views are notified and how: only when something a client can see changed, with the ops in
// the documented order (removals, moves, insertions, updates); and of moves that leave the order as it was,
// which change nothing at all.

import Testing
@testable import Domain

struct NotificationRuleTests {
    static let time = Timestamp(milliseconds: 9_000)

    /// An engine with lists A (a1, a2, a3), B (b1, b2) and C (c1), and a client per view opened by `open`.
    struct Fixture {
        var engine = Engine()
        var clients = ClientSet()
        var lists: [ListID] = []
        var items: [ListID: [ItemID]] = [:]

        init() throws {
            for (name, titles) in [("A", ["a1", "a2", "a3"]), ("B", ["b1", "b2"]), ("C", ["c1"])] {
                let list = try engine.makeList(name)
                lists.append(list)
                items[list] = try engine.makeItems(titles, in: list)
            }
        }

        mutating func open(_ source: ViewSource, _ sort: Sort = .manual, grouping: Grouping = .none,
                           window: Window = Window(start: 0, end: 20)) throws -> ViewID {
            let opened = try engine.openView(source: source, sort: sort, grouping: grouping, window: window)
            clients.open(opened.snapshot)
            return opened.snapshot.view
        }

        /// Applies a group; the clients check every notification (visible, in order) and their windows.
        mutating func apply(_ mutations: [Mutation]) throws -> Applied {
            let applied = try engine.apply(mutations)
            clients.receive(applied.viewChanges, engine: engine)
            return applied
        }
    }

    // MARK: Notifications that change nothing (issue 12, item 8)

    @Test func movingAListNotifiesOnlyTheViewsWhoseRowsChange() throws {
        var fixture = try Fixture()
        let (a, b, c) = (fixture.lists[0], fixture.lists[1], fixture.lists[2])
        let onA = try fixture.open(.list(a))
        let onATitle = try fixture.open(.list(a), Sort(.title))
        let all = try fixture.open(.group(.all))
        let byList = try fixture.open(.group(.all), grouping: .list)
        let byPriority = try fixture.open(.group(.all), grouping: .priority)
        let onB = try fixture.open(.list(b))
        // A goes last: the views on A and B show the same rows; the smart group's rows move.
        var applied = try fixture.apply([.moveLists(ids: [a], before: nil)])
        #expect(applied.viewChanges.map(\.view) == [all, byList, byPriority])
        #expect(!applied.viewChanges.contains { $0.view == onA || $0.view == onATitle || $0.view == onB })
        // Moves of unchanged rows carry no row.
        for change in applied.viewChanges {
            #expect(change.operations.allSatisfy { if case .move(_, _, let row) = $0 { row == nil } else { true } },
                    "\(change.operations)")
        }
        // C before B, with the window showing only A's rows (now at the bottom): nothing to show.
        _ = try fixture.engine.setWindow(all, Window(start: 3, end: 6))
        fixture.clients.open(try fixture.engine.snapshot(all))
        applied = try fixture.apply([.moveLists(ids: [c], before: b)])
        #expect(!applied.viewChanges.contains { $0.view == all || $0.view == onA })
    }

    @Test func renamingOrRecoloringAListNotifiesOnlyViewsShowingItsHeader() throws {
        var fixture = try Fixture()
        let (a, b) = (fixture.lists[0], fixture.lists[1])
        let onA = try fixture.open(.list(a))
        let byList = try fixture.open(.group(.all), grouping: .list)
        let byListTop = try fixture.open(.group(.all), grouping: .list, window: Window(start: 0, end: 2))
        var applied = try fixture.apply([.updateList(id: a, patch: ListPatch(color: .set("red")))])
        #expect(applied.viewChanges.isEmpty)
        applied = try fixture.apply([.updateList(id: b, patch: ListPatch(name: "Bee"))])
        #expect(applied.viewChanges.map(\.view) == [byList])
        #expect(!applied.viewChanges.contains { $0.view == onA || $0.view == byListTop })
    }

    @Test func undoAndRedoOfAListMoveNotifyOnlyWhatMoves() throws {
        var fixture = try Fixture()
        let a = fixture.lists[0]
        let onA = try fixture.open(.list(a))
        let all = try fixture.open(.group(.all))
        let moved = try fixture.apply([.moveLists(ids: [a], before: nil)])
        let undone = try fixture.apply(try fixture.engine.inverse(of: moved.changes, at: Self.time))
        #expect(undone.viewChanges.map(\.view) == [all])
        let redone = try fixture.apply(try fixture.engine.inverse(of: undone.changes, at: Self.time))
        #expect(redone.viewChanges.map(\.view) == [all])
        #expect(!redone.viewChanges.contains { $0.view == onA })
    }

    @Test func progressThatDoesNotChangeIsNotSent() throws {
        var engine = Engine(backgroundBuildThreshold: 2)
        let list = try engine.makeList()
        try engine.makeItems(["c", "b", "a"], in: list)
        let opened = try engine.openView(source: .list(list), sort: Sort(.title), window: Window(start: 0, end: 5))
        let build = try #require(opened.build)
        var clients = ClientSet()
        clients.open(opened.snapshot)
        // The view opened at progress 0: a report of 0 (every build's first) changes nothing a client sees.
        #expect(engine.reportProgress(build.id, 0).isEmpty)
        let half = engine.reportProgress(build.id, 0.5)
        #expect(half.map(\.state) == [.loading(progress: 0.5)])
        clients.receive(half, engine: engine)
        #expect(engine.reportProgress(build.id, 0.5).isEmpty)
        clients.receive(engine.install(build.run()), engine: engine)
    }

    // MARK: Op order (issue 12, item 9)

    @Test func aBlockMoveIsMovesThenUpdates() throws {
        var fixture = try Fixture()
        let list = try fixture.engine.makeList("L")
        let ids = try fixture.engine.makeItems(["a", "b", "c", "d", "e", "f"], in: list)
        let view = try fixture.open(.list(list))
        let applied = try fixture.apply([.moveItems(ids: [ids[1], ids[3], ids[5]], toList: nil, before: ids[4], at: Self.time)])
        #expect(titles(try fixture.engine.snapshot(view).rows) == ["a", "c", "b", "d", "f", "e"])
        // Two rows change place (which two is the diff's choice: b or c, e or f) and the three moved items change
        // content: two moves, then the updates of the changed rows that kept their place, none of them moved too.
        let operations = applied.viewChanges[0].operations
        let moves = operations.prefix { if case .move = $0 { true } else { false } }
        let updates = operations.dropFirst(moves.count).compactMap { if case .update(_, let row) = $0 { row.id } else { nil } }
        let movedWithContent = moves.compactMap { if case .move(_, _, let row?) = $0 { row.id } else { nil } }
        #expect(moves.count == 2 && updates.count == operations.count - 2, "\(operations)")
        #expect(Set(updates + movedWithContent) == Set([ids[1], ids[3], ids[5]].map(RowID.item))
                && updates.count + movedWithContent.count == 3, "\(operations)")
    }

    @Test func aRowChangedInPlaceIsUpdatedAfterTheInsertions() throws {
        var fixture = try Fixture()
        let list = try fixture.engine.makeList("L")
        let ids = try fixture.engine.makeItems(["a", "b", "c", "d", "e", "f"], in: list)
        let view = try fixture.open(.list(list), window: Window(start: 0, end: 4))
        let applied = try fixture.apply([
            .updateItems(ids: [ids[2]], patch: ItemPatch(title: "c2"), at: Self.time),
            .moveItems(ids: [ids[1]], toList: nil, before: nil, at: Self.time),
        ])
        #expect(titles(try fixture.engine.snapshot(view).rows) == ["a", "c2", "d", "e"])
        let row = { (id: ItemID) in Row.item(fixture.engine.item(id)!) }
        #expect(applied.viewChanges[0].operations == [.remove(index: 1), .insert(index: 3, row: row(ids[4])),
                                                      .update(index: 1, row: row(ids[2]))])
    }

    // MARK: Moves that leave the order as it was (issue 12, item 10)

    /// Applies `mutation` and checks that it changed nothing: no changes, same revision, same state, no notification.
    static func expectNoChange(_ mutation: Mutation, _ fixture: inout Fixture,
                               sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = fixture.engine.fingerprint
        let revision = fixture.engine.revision
        let applied = try fixture.apply([mutation])
        #expect(applied.changes.isEmpty, "\(mutation) changed \(applied.changes)", sourceLocation: sourceLocation)
        #expect(applied.viewChanges.isEmpty && applied.revision == revision, sourceLocation: sourceLocation)
        #expect(fixture.engine.fingerprint == before, sourceLocation: sourceLocation)
    }

    @Test func movingListsToWhereTheyAreChangesNothing() throws {
        var fixture = try Fixture()
        let (a, b, c) = (fixture.lists[0], fixture.lists[1], fixture.lists[2])
        _ = try fixture.open(.group(.all), grouping: .list)
        _ = try fixture.apply([.moveLists(ids: [c], before: b)])
        // A C B: [A, C] before B, in either order; [B] to the end; [A] before C.
        try Self.expectNoChange(.moveLists(ids: [a, c], before: b), &fixture)
        try Self.expectNoChange(.moveLists(ids: [c, a], before: b), &fixture)
        try Self.expectNoChange(.moveLists(ids: [b], before: nil), &fixture)
        try Self.expectNoChange(.moveLists(ids: [a], before: c), &fixture)
        try Self.expectNoChange(.moveLists(ids: [a, c, b], before: nil), &fixture)
        // A C after deleting B: [A] before C.
        _ = try fixture.apply([.deleteList(id: b)])
        try Self.expectNoChange(.moveLists(ids: [a], before: c), &fixture)
        // A real move still moves.
        let moved = try fixture.apply([.moveLists(ids: [c], before: a)])
        #expect(!moved.changes.isEmpty && fixture.engine.lists().map(\.list.name) == ["C", "A"])
    }

    @Test func movingItemsToWhereTheyAreChangesNothing() throws {
        var fixture = try Fixture()
        let a = fixture.lists[0]
        let ids = fixture.items[a]!
        let view = try fixture.open(.list(a))
        _ = try fixture.open(.group(.all))
        try Self.expectNoChange(.moveItems(ids: [ids[0], ids[1]], toList: nil, before: ids[2], at: Self.time), &fixture)
        try Self.expectNoChange(.moveItems(ids: [ids[1], ids[0]], toList: a, before: ids[2], at: Self.time), &fixture)
        try Self.expectNoChange(.moveItems(ids: [ids[2]], toList: nil, before: nil, at: Self.time), &fixture)
        try Self.expectNoChange(.moveItems(ids: [ids[0], ids[1], ids[2]], toList: a, before: nil, at: Self.time), &fixture)
        // By index: rows 1..<3 to index 1, row 0 to index 0.
        for (rows, target) in [(1..<3, 1), (0..<1, 0), (2..<3, 2)] {
            let mutation = try fixture.engine.moveMutation(view: view, rows: rows, to: target,
                                                           seenVersion: try fixture.engine.snapshot(view).version, at: Self.time)
            #expect(mutation == nil, "rows \(rows) dropped at \(target) are a move")
        }
        // a1 a3 after deleting a2: [a1] before a3.
        _ = try fixture.apply([.deleteItems(ids: [ids[1]])])
        try Self.expectNoChange(.moveItems(ids: [ids[0]], toList: nil, before: ids[2], at: Self.time), &fixture)
        // Moving out of place, or to another list, is a change.
        #expect(!(try fixture.apply([.moveItems(ids: [ids[0]], toList: nil, before: nil, at: Self.time)])).changes.isEmpty)
        #expect(titles(try fixture.engine.snapshot(view).rows) == ["a3", "a1"])
        #expect(!(try fixture.apply([.moveItems(ids: [ids[0]], toList: fixture.lists[1], before: nil, at: Self.time)])).changes.isEmpty)
    }

    @Test func aGroupWhoseOnlyMoveIsInPlaceChangesOnlyTheRest() throws {
        var fixture = try Fixture()
        let a = fixture.lists[0]
        let ids = fixture.items[a]!
        let untouched = fixture.engine.item(ids[0])!
        let applied = try fixture.apply([
            .moveItems(ids: [ids[0]], toList: nil, before: ids[1], at: Self.time),
            .updateItems(ids: [ids[2]], patch: ItemPatch(title: "new"), at: Self.time),
        ])
        #expect(applied.changes.items.map(\.id) == [ids[2]])
        #expect(fixture.engine.item(ids[0]) == untouched)
    }
}
