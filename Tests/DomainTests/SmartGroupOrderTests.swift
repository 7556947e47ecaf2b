// Table tests of order in smart groups and of where a block moved by index lands: the lists' order then each
// list's own order, ties in sorted groups, manual descending, and the row just before `to` (hidden rows, `to` 0,
// section headers).

import Testing
@testable import Domain

struct SmartGroupOrderTests {
    static let time = Timestamp(milliseconds: 5_000)

    /// An engine with lists named as given, each holding items with these titles (a title ending in "!" is done).
    static func engine(_ lists: [(String, [String])]) throws -> (engine: Engine, lists: [ListID], items: [String: ItemID]) {
        var engine = Engine()
        var listIDs: [ListID] = []
        var items: [String: ItemID] = [:]
        for (name, titles) in lists {
            let list = try engine.makeList(name)
            listIDs.append(list)
            for title in titles {
                let id = ItemID(engine.state.nextIdentifier)
                let done = title.hasSuffix("!")
                _ = try engine.apply([.createItem(id: id, list: list, fields: ItemFields(title: title, done: done),
                                                  before: nil, at: Timestamp(milliseconds: 1_000))])
                items[title] = id
            }
        }
        return (engine, listIDs, items)
    }

    /// The titles of a list's items in its manual order, hidden ones included.
    static func manualTitles(_ engine: Engine, _ list: ListID) -> [String] {
        engine.state.items(in: list, ranks: 0..<engine.state.itemCount(in: list)).map(\.title)
    }

    /// Moves rows of a view by index, checking the client's copy follows, and returns the view's titles.
    static func move(_ engine: inout Engine, _ view: ViewID, rows: Range<Int>, to target: Int) throws -> [String] {
        var clients = ClientSet()
        clients.open(try engine.snapshot(view))
        let mutation = try engine.moveMutation(view: view, rows: rows, to: target,
                                               seenVersion: try engine.snapshot(view).version, at: time)
        if let mutation { clients.receive(try engine.apply([mutation]).viewChanges, engine: engine) }
        return titles(try engine.snapshot(view).rows)
    }

    // MARK: Moves by index (issue 12, item 5)

    @Test func aBlockDroppedAtTheEndOfAListsRowsJoinsThatList() throws {
        var (engine, lists, items) = try Self.engine([("A", ["a1"]), ("B", ["b1", "b2"])])
        let view = try engine.openView(source: .all, sort: .manual, window: Window(start: 0, end: 10)).snapshot.view
        #expect(try Self.move(&engine, view, rows: 2..<3, to: 1) == ["a1", "b2", "b1"])
        #expect(engine.item(items["b2"]!)!.list == lists[0])
        #expect(Self.manualTitles(engine, lists[0]) == ["a1", "b2"])
    }

    @Test func aBlockLandsJustAfterTheRowBeforeItBeforeHiddenItems() throws {
        var (engine, lists, _) = try Self.engine([("A", ["a1", "x!", "a2", "a3"])])
        let view = try engine.openView(source: .all, sort: .manual, window: Window(start: 0, end: 10)).snapshot.view
        #expect(try Self.move(&engine, view, rows: 2..<3, to: 1) == ["a1", "a3", "a2"])
        #expect(Self.manualTitles(engine, lists[0]) == ["a1", "a3", "x!", "a2"])
    }

    @Test func inAFilteredListViewTheBlockLandsJustAfterTheShownRowBeforeIt() throws {
        var (engine, lists, _) = try Self.engine([("A", ["h0!", "a", "h!", "b", "c", "k!"])])
        let view = try engine.openView(source: .list(lists[0]), sort: .manual, filter: Filter(done: .notDone),
                                       window: Window(start: 0, end: 10)).snapshot.view
        #expect(try Self.move(&engine, view, rows: 2..<3, to: 1) == ["a", "c", "b"])
        #expect(Self.manualTitles(engine, lists[0]) == ["h0!", "a", "c", "h!", "b", "k!"])
        // To the bottom: just after the last shown row, before the hidden item after it.
        #expect(try Self.move(&engine, view, rows: 0..<1, to: 2) == ["c", "b", "a"])
        #expect(Self.manualTitles(engine, lists[0]) == ["h0!", "c", "h!", "b", "a", "k!"])
        // To the top: just before the first shown row, after the hidden items before it.
        #expect(try Self.move(&engine, view, rows: 2..<3, to: 0) == ["a", "c", "b"])
        #expect(Self.manualTitles(engine, lists[0]) == ["h0!", "a", "c", "h!", "b", "k!"])
    }

    @Test func toZeroInASmartGroupGoesJustBeforeTheFirstRowInItsList() throws {
        var (engine, lists, items) = try Self.engine([("A", ["x!", "a1"]), ("B", ["b1"])])
        let view = try engine.openView(source: .all, sort: .manual, window: Window(start: 0, end: 10)).snapshot.view
        #expect(try Self.move(&engine, view, rows: 1..<2, to: 0) == ["b1", "a1"])
        #expect(engine.item(items["b1"]!)!.list == lists[0])
        #expect(Self.manualTitles(engine, lists[0]) == ["x!", "b1", "a1"])
    }

    @Test func aBlockFromSeveralListsKeepsTheViewsOrderAndJoinsOneList() throws {
        var (engine, lists, _) = try Self.engine([("A", ["a1", "a2"]), ("B", ["b1", "b2"]), ("C", ["c1"])])
        let view = try engine.openView(source: .all, sort: .manual, window: Window(start: 0, end: 10)).snapshot.view
        // a2, b1 after c1: both join C, in the order the view showed them.
        #expect(try Self.move(&engine, view, rows: 1..<3, to: 3) == ["a1", "b2", "c1", "a2", "b1"])
        #expect(Self.manualTitles(engine, lists[2]) == ["c1", "a2", "b1"])
        // By id, the block keeps the items' current order whatever order `ids` names them in.
        let ids = [engine.state.items(in: lists[2], ranks: 2..<3)[0].id, engine.state.items(in: lists[0], ranks: 0..<1)[0].id]
        _ = try engine.apply([.moveItems(ids: ids, toList: lists[1], before: nil, at: Self.time)])
        #expect(Self.manualTitles(engine, lists[1]) == ["b2", "a1", "b1"])
    }

    @Test func rightAfterASectionHeaderTheBlockGoesJustBeforeTheSectionsFirstRow() throws {
        var (engine, lists, items) = try Self.engine([("A", ["a1", "a2"]), ("B", ["h!", "b1", "b2"])])
        let byList = try engine.openView(source: .all, sort: .manual, grouping: .list, window: Window(start: 0, end: 10)).snapshot.view
        // Rows: A, a1, a2, B, b1, b2; without a1: A, a2, B, b1, b2; `to` 3 is just after B's header.
        #expect(try Self.move(&engine, byList, rows: 1..<2, to: 3) == ["", "a2", "", "a1", "b1", "b2"])
        #expect(engine.item(items["a1"]!)!.list == lists[1])
        #expect(Self.manualTitles(engine, lists[1]) == ["h!", "a1", "b1", "b2"])
        // A section the block empties keeps its header counted: just after A's header, a2 stays in A (at its end).
        #expect(try Self.move(&engine, byList, rows: 1..<2, to: 1) == ["", "a2", "", "a1", "b1", "b2"])
        #expect(engine.item(items["a2"]!)!.list == lists[0])
    }

    // MARK: Sorted smart groups (item 6) and manual descending (item 7)

    @Test func tiesInASortedSmartGroupFollowTheListsOrder() throws {
        var (engine, lists, _) = try Self.engine([("A", ["a"]), ("B", ["b"])])
        var clients = ClientSet()
        var views: [ViewID] = []
        for sort in [Sort(.priority), Sort(.priority, .descending), Sort(.due, .descending), Sort(.created)] {
            let opened = try engine.openView(source: .all, sort: sort, window: Window(start: 0, end: 10))
            #expect(titles(opened.snapshot.rows) == ["a", "b"])
            clients.open(opened.snapshot)
            views.append(opened.snapshot.view)
        }
        clients.receive(try engine.apply([.moveLists(ids: [lists[1]], before: lists[0])]).viewChanges, engine: engine)
        for view in views { #expect(titles(try engine.snapshot(view).rows) == ["b", "a"]) }
        // A view opened after the move agrees.
        #expect(titles(try engine.openView(source: .all, sort: Sort(.modified, .descending),
                                           window: Window(start: 0, end: 10)).snapshot.rows) == ["b", "a"])
    }

    @Test func manualDescendingInASmartGroupIsTheAscendingOrderReversed() throws {
        var (engine, lists, _) = try Self.engine([("A", ["a1", "a2"]), ("B", ["b1"])])
        let descending = try engine.openView(source: .all, sort: Sort(.manual, .descending), window: Window(start: 0, end: 10))
        #expect(titles(descending.snapshot.rows) == ["b1", "a2", "a1"])
        var clients = ClientSet()
        clients.open(descending.snapshot)
        clients.receive(try engine.apply([.moveLists(ids: [lists[1]], before: lists[0])]).viewChanges, engine: engine)
        #expect(titles(try engine.snapshot(descending.snapshot.view).rows) == ["a2", "a1", "b1"])
        // Grouped by list, the sections keep the lists' order and each list's items are reversed.
        let grouped = try engine.openView(source: .all, sort: Sort(.manual, .descending), grouping: .list,
                                          window: Window(start: 0, end: 10))
        #expect(titles(grouped.snapshot.rows) == ["", "b1", "", "a2", "a1"])
    }

    @Test func dueDescendingIsTheAscendingOrderReversedWithTiesAscending() throws {
        var (engine, lists, _) = try Self.engine([("A", ["day", "nine", "nineWest", "ten"]), ("B", ["nine2"])])
        let dues: [String: String] = ["day": "2026-11-22", "nine": "2026-11-22T09:00:00Z", "nineWest": "2026-11-22T09:00:00-05:00",
                                      "ten": "2026-11-22T10:00:00+01:00", "nine2": "2026-11-22T09:00:00+02:00"]
        for item in engine.state.items.values.map(\.item) {
            _ = try engine.apply([.updateItems(ids: [item.id], patch: ItemPatch(due: .set(try Due(parsing: dues[item.title]!))),
                                               at: Self.time)])
        }
        let ascending = try engine.openView(source: .all, sort: Sort(.due), window: Window(start: 0, end: 10))
        #expect(titles(ascending.snapshot.rows) == ["day", "nine", "nineWest", "nine2", "ten"])
        let descending = try engine.openView(source: .all, sort: Sort(.due, .descending), window: Window(start: 0, end: 10))
        #expect(titles(descending.snapshot.rows) == ["ten", "nine", "nineWest", "nine2", "day"])
        _ = try engine.apply([.moveLists(ids: [lists[1]], before: lists[0])])
        #expect(titles(try engine.snapshot(descending.snapshot.view).rows) == ["ten", "nine2", "nine", "nineWest", "day"])
    }
}
