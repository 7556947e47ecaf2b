// Tests of view changesets: exact operations for the edge cases, reproducibility, versions, counts and states.

import Testing
@testable import Domain

struct ViewChangeTests {
    static let time = Timestamp(milliseconds: 9_000)

    /// A list of `count` items titled "i0", "i1"... and one open view on it.
    static func setUp(count: Int, sort: Sort = .manual, window: Window) throws
        -> (engine: Engine, list: ListID, items: [ItemID], view: ViewID, clients: ClientSet) {
        var engine = Engine()
        let list = try engine.makeList()
        let items = try engine.makeItems((0..<count).map { "i\($0)" }, in: list)
        let opened = try engine.openView(source: .list(list), sort: sort, window: window)
        var clients = ClientSet()
        clients.open(opened.snapshot)
        return (engine, list, items, opened.snapshot.view, clients)
    }

    @Test func removalAboveTheWindowShiftsARowIn() throws {
        var (engine, _, items, view, clients) = try Self.setUp(count: 30, window: Window(start: 10, end: 20))
        let applied = try engine.apply([.deleteItems(ids: [items[3]])])
        #expect(applied.viewChanges.count == 1)
        let change = applied.viewChanges[0]
        #expect(change.view == view && change.version == 2 && change.count == 29)
        #expect(change.operations == [.remove(index: 0), .insert(index: 9, row: .item(engine.item(items[20])!))])
        clients.receive(applied.viewChanges, engine: engine)
    }

    @Test func insertionAboveTheWindowPushesTheLastRowOut() throws {
        var (engine, list, items, _, clients) = try Self.setUp(count: 30, window: Window(start: 10, end: 20))
        let applied = try engine.apply([.createItem(id: ItemID(500), list: list, fields: ItemFields(title: "new"),
                                                    before: items[0], at: Self.time)])
        #expect(applied.viewChanges[0].operations == [.remove(index: 9), .insert(index: 0, row: .item(engine.item(items[9])!))])
        clients.receive(applied.viewChanges, engine: engine)
    }

    @Test func moveWithinTheWindowIsOneMoveWithItsRow() throws {
        var (engine, _, items, _, clients) = try Self.setUp(count: 30, window: Window(start: 10, end: 20))
        let applied = try engine.apply([.moveItems(ids: [items[12]], toList: nil, before: items[18], at: Self.time)])
        #expect(applied.viewChanges[0].operations == [.move(from: 2, to: 7, row: .item(engine.item(items[12])!))])
        #expect(applied.viewChanges[0].count == 30)
        clients.receive(applied.viewChanges, engine: engine)
    }

    @Test func moveOutOfTheWindowDownward() throws {
        var (engine, _, items, _, clients) = try Self.setUp(count: 30, window: Window(start: 10, end: 20))
        let applied = try engine.apply([.moveItems(ids: [items[12]], toList: nil, before: nil, at: Self.time)])
        #expect(applied.viewChanges[0].operations == [.remove(index: 2), .insert(index: 9, row: .item(engine.item(items[20])!))])
        clients.receive(applied.viewChanges, engine: engine)
    }

    @Test func changesBelowTheWindowOnlyChangeTheCount() throws {
        var (engine, list, items, _, clients) = try Self.setUp(count: 30, window: Window(start: 0, end: 10))
        var applied = try engine.apply([.createItem(id: ItemID(500), list: list, fields: ItemFields(title: "n"),
                                                    before: items[20], at: Self.time)])
        #expect(applied.viewChanges.map(\.operations) == [[]])
        #expect(applied.viewChanges.map(\.count) == [31])
        clients.receive(applied.viewChanges, engine: engine)
        applied = try engine.apply([.updateItems(ids: [items[25]], patch: ItemPatch(notes: "x"), at: Self.time)])
        #expect(applied.viewChanges.isEmpty)
        applied = try engine.apply([.moveItems(ids: [items[25]], toList: nil, before: items[15], at: Self.time)])
        #expect(applied.viewChanges.isEmpty)
        clients.verify(engine)
    }

    @Test func contentChangeInTheWindowIsAnUpdate() throws {
        var (engine, _, items, _, clients) = try Self.setUp(count: 5, window: Window(start: 0, end: 10))
        let applied = try engine.apply([.updateItems(ids: [items[2]], patch: ItemPatch(done: true), at: Self.time)])
        #expect(applied.viewChanges[0].operations == [.update(index: 2, row: .item(engine.item(items[2])!))])
        clients.receive(applied.viewChanges, engine: engine)
    }

    @Test func sortKeyChangeIsAMoveNotAnUpdate() throws {
        var (engine, _, items, _, clients) = try Self.setUp(count: 10, sort: Sort(.title), window: Window(start: 0, end: 10))
        let applied = try engine.apply([.updateItems(ids: [items[1]], patch: ItemPatch(title: "i9z"), at: Self.time)])
        #expect(applied.viewChanges[0].operations == [.move(from: 1, to: 9, row: .item(engine.item(items[1])!))])
        clients.receive(applied.viewChanges, engine: engine)
    }

    @Test func bigChangesBecomeOneReset() throws {
        var (engine, _, items, _, clients) = try Self.setUp(count: 10, window: Window(start: 0, end: 4))
        let applied = try engine.apply([.deleteItems(ids: Array(items[0..<3]))])
        #expect(applied.viewChanges[0].operations == [.reset(rows: engine.state.items(in: ListID(1), ranks: 0..<4).map { .item($0) })])
        clients.receive(applied.viewChanges, engine: engine)
    }

    @Test func twoPanesOnOneListBothFollowOneMove() throws {
        var (engine, list, items, manualView, clients) = try Self.setUp(count: 8, window: Window(start: 0, end: 8))
        _ = try engine.apply([.updateItems(ids: [items[0]], patch: ItemPatch(title: "zeta"), at: Self.time)])
        let byTitle = try engine.openView(source: .list(list), sort: Sort(.title, .descending), window: Window(start: 0, end: 3))
        clients.open(byTitle.snapshot)
        clients.open(try engine.snapshot(manualView))
        let applied = try engine.apply([.moveItems(ids: [items[5]], toList: nil, before: items[1], at: Self.time)])
        #expect(applied.viewChanges.map(\.view) == [manualView])
        clients.receive(applied.viewChanges, engine: engine)
        let renamed = try engine.apply([.updateItems(ids: [items[5]], patch: ItemPatch(title: "omega"), at: Self.time)])
        #expect(renamed.viewChanges.map(\.view) == [manualView, byTitle.snapshot.view])
        clients.receive(renamed.viewChanges, engine: engine)
    }

    @Test func changingTheSortIsOneReset() throws {
        var (engine, _, _, view, clients) = try Self.setUp(count: 10, window: Window(start: 2, end: 5))
        let changed = try engine.setSort(view, Sort(.title, .descending))
        #expect(changed.build == nil)
        #expect(changed.change.version == 2)
        #expect(changed.change.operations == [.reset(rows: try engine.snapshot(view).rows)])
        #expect(titles(try engine.snapshot(view).rows) == ["i7", "i6", "i5"])
        clients.receiveGeneration(changed.change, engine: engine)
    }

    @Test func settingTheWindowAnswersWithItsRows() throws {
        var (engine, _, _, view, _) = try Self.setUp(count: 10, window: Window(start: 0, end: 3))
        let scrolled = try engine.setWindow(view, Window(start: 8, end: 20))
        #expect(titles(scrolled.rows) == ["i8", "i9"])
        #expect(scrolled.version == 1 && scrolled.count == 10)
        #expect(throws: DomainError.unknownView(ViewID(99))) { try engine.setWindow(ViewID(99), Window(start: 0, end: 1)) }
    }

    @Test func deletingAListClosesItsViews() throws {
        var (engine, list, _, view, _) = try Self.setUp(count: 3, window: Window(start: 0, end: 3))
        let other = try engine.makeList("Other")
        let otherView = try engine.openView(source: .list(other), sort: Sort(.due), window: Window(start: 0, end: 3))
        let applied = try engine.apply([.deleteList(id: list)])
        #expect(applied.viewChanges == [ViewChange(view: view, version: 2, count: nil, window: Window(start: 0, end: 3),
                                                   state: .closed(reason: "listDeleted"), operations: [])])
        #expect(engine.openViews == [otherView.snapshot.view])
        #expect(throws: DomainError.unknownView(view)) { try engine.snapshot(view) }
    }

    @Test func indexAddressedMovesAreTranslatedAndChecked() throws {
        var (engine, list, items, view, clients) = try Self.setUp(count: 6, window: Window(start: 0, end: 6))
        let mutation = try engine.moveMutation(view: view, rows: 1..<3, to: 3, seenVersion: 1, at: Self.time)
        #expect(mutation == .moveItems(ids: [items[1], items[2]], toList: list, before: items[5], parent: .clear, at: Self.time))
        let applied = try engine.apply([try #require(mutation)])
        #expect(titles(try engine.snapshot(view).rows) == ["i0", "i3", "i4", "i1", "i2", "i5"])
        clients.receive(applied.viewChanges, engine: engine)
        #expect(throws: DomainError.staleVersion(view: view, seen: 1, current: 2)) {
            try engine.moveMutation(view: view, rows: 0..<1, to: 2, seenVersion: 1, at: Self.time)
        }
        let toTop = try engine.moveMutation(view: view, rows: 4..<6, to: 0, seenVersion: 2, at: Self.time)
        _ = try engine.apply([try #require(toTop)])
        #expect(titles(try engine.snapshot(view).rows) == ["i2", "i5", "i0", "i3", "i4", "i1"])
        let toEnd = try engine.moveMutation(view: view, rows: 0..<1, to: 5, seenVersion: 3, at: Self.time)
        #expect(toEnd == .moveItems(ids: [items[2]], toList: list, before: nil, parent: .clear, at: Self.time))
        #expect(throws: DomainError.self) { try engine.moveMutation(view: view, rows: 0..<1, to: 6, seenVersion: 3, at: Self.time) }
        #expect(throws: DomainError.self) { try engine.moveMutation(view: view, rows: 5..<7, to: 0, seenVersion: 3, at: Self.time) }
        let sorted = try engine.setSort(view, Sort(.title))
        #expect(throws: DomainError.refused(reason: "sortedView",
                                            message: "view \(view) is not in manual ascending order; rows can only be reordered in manual order")) {
            try engine.moveMutation(view: view, rows: 0..<1, to: 2, seenVersion: sorted.change.version, at: Self.time)
        }
    }

    @Test func largeOrdersAreBuiltInTheBackgroundAndCatchUp() throws {
        var engine = Engine(backgroundBuildThreshold: 5)
        let list = try engine.makeList()
        let items = try engine.makeItems((0..<20).map { "t\(($0 * 7) % 20)" }, in: list)
        let opened = try engine.openView(source: .list(list), sort: Sort(.title), window: Window(start: 0, end: 5))
        let build = try #require(opened.build)
        #expect(opened.snapshot.state == .loading(progress: 0))
        #expect(opened.snapshot.rows.isEmpty && opened.snapshot.count == 20)
        var clients = ClientSet()
        clients.open(opened.snapshot)
        let second = try engine.openView(source: .list(list), sort: Sort(.title), window: Window(start: 18, end: 25))
        #expect(second.build == nil)
        clients.open(second.snapshot)
        let built = build.run()
        // Mutations after the snapshot, before the install: the loading views only see their count change.
        var applied = try engine.apply([.deleteItems(ids: [items[0], items[1]])])
        #expect(applied.viewChanges.allSatisfy { $0.operations.isEmpty && $0.count == 18 })
        clients.receive(applied.viewChanges, engine: engine)
        applied = try engine.apply([.updateItems(ids: [items[2]], patch: ItemPatch(title: "a first"), at: Self.time),
                                    .createItem(id: ItemID(900), list: list, fields: ItemFields(title: "zz last"),
                                                before: nil, at: Self.time)])
        clients.receive(applied.viewChanges, engine: engine)
        clients.receive(engine.reportProgress(build.id, 0.5), engine: engine)
        let installed = engine.install(built)
        #expect(installed.count == 2 && installed.allSatisfy { $0.state == .ready })
        clients.receive(installed, engine: engine)
        #expect(titles(try engine.snapshot(opened.snapshot.view).rows).first == "a first")
        #expect(titles(try engine.snapshot(second.snapshot.view).rows).last == "zz last")
        var fresh = Engine()
        let freshList = try fresh.makeList()
        for id in engine.state.items(in: list, ranks: 0..<100).map(\.id) {
            _ = try fresh.apply([.createItem(id: id, list: freshList, fields: ItemFields(title: engine.item(id)!.title),
                                             before: nil, at: Self.time)])
        }
        let expected = try fresh.openView(source: .list(freshList), sort: Sort(.title), window: Window(start: 0, end: 100))
        #expect(engine.indexes.values.first?.allKeys.map(\.item) == expected.snapshot.rows.map {
            if case .item(let item, _) = $0 { item.id } else { ItemID(0) }
        })
        #expect(engine.install(built).isEmpty)
    }

    @Test func closedOrResortedViewsDropTheirIndexes() throws {
        var engine = Engine(backgroundBuildThreshold: 2)
        let list = try engine.makeList()
        try engine.makeItems(["a", "b", "c"], in: list)
        let opened = try engine.openView(source: .list(list), sort: Sort(.due), window: Window(start: 0, end: 5))
        let build = try #require(opened.build)
        _ = try engine.setSort(opened.snapshot.view, .manual)
        #expect(engine.builds.isEmpty)
        #expect(engine.install(build.run()).isEmpty)
        #expect(engine.indexes.isEmpty)
        try engine.closeView(opened.snapshot.view)
        #expect(throws: DomainError.unknownView(opened.snapshot.view)) { try engine.closeView(opened.snapshot.view) }
    }
}
