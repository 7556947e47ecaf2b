// Table tests of sections: header rows before their items, live counts as header updates, sections appearing and
// disappearing, due buckets moving at midnight, and moves across sections.

import Testing
@testable import Domain

struct SectionTests {
    static let time = Timestamp(milliseconds: 3)

    static func header(_ section: SectionID, _ title: String, _ count: Int) -> Row {
        .header(SectionHeader(section: section, title: title, count: count))
    }

    @Test func headersComeBeforeTheirItemsWithLiveCounts() throws {
        var engine = Engine()
        let list = try engine.makeList()
        let items = try engine.makeItems(["a", "b", "c"], in: list)
        _ = try engine.apply([.updateItems(ids: [items[1]], patch: ItemPatch(priority: .high), at: Self.time)])
        let opened = try engine.openView(source: .list(list), sort: .manual, grouping: .priority, window: Window(start: 0, end: 10))
        #expect(opened.snapshot.count == 5)
        #expect(opened.snapshot.rows == [Self.header(.priority(.high), "High", 1), .item(engine.item(items[1])!),
                                         Self.header(.priority(.none), "No Priority", 2),
                                         .item(engine.item(items[0])!), .item(engine.item(items[2])!)])
        var clients = ClientSet()
        clients.open(opened.snapshot)
        // c becomes high: the High header's count is an update, c moves under it.
        var applied = try engine.apply([.updateItems(ids: [items[2]], patch: ItemPatch(priority: .high), at: Self.time)])
        clients.receive(applied.viewChanges, engine: engine)
        #expect(applied.viewChanges[0].operations.contains(.update(index: 0, row: Self.header(.priority(.high), "High", 2))))
        // The last No Priority item leaves its section: the header goes too.
        applied = try engine.apply([.updateItems(ids: [items[0]], patch: ItemPatch(priority: .low), at: Self.time)])
        clients.receive(applied.viewChanges, engine: engine)
        #expect(try engine.snapshot(opened.snapshot.view).rows.map(\.id)
                == [.header(.priority(.high)), .item(items[1]), .item(items[2]), .header(.priority(.low)), .item(items[0])])
        // A new section appears with an insert of its header.
        applied = try engine.apply([.createItem(id: ItemID(50), list: list, fields: ItemFields(title: "d", priority: .medium),
                                                before: nil, at: Self.time)])
        clients.receive(applied.viewChanges, engine: engine)
        #expect(applied.viewChanges[0].operations.contains(.insert(index: 3, row: Self.header(.priority(.medium), "Medium", 1))))
    }

    @Test func aHeaderCountChangeBelowTheWindowIsOnlyACount() throws {
        var engine = Engine()
        let list = try engine.makeList()
        let items = try engine.makeItems((0..<10).map { "i\($0)" }, in: list)
        let opened = try engine.openView(source: .list(list), sort: .manual, grouping: .done, window: Window(start: 0, end: 3))
        let applied = try engine.apply([.updateItems(ids: [items[9]], patch: ItemPatch(done: true), at: Self.time)])
        // The Not Done header, in the window, counts one less; Done appears below the window.
        #expect(applied.viewChanges[0].count == 12)
        #expect(applied.viewChanges[0].operations == [.update(index: 0, row: Self.header(.done(false), "Not Done", 9))])
        _ = opened
    }

    @Test func dueBucketsMoveAtMidnight() throws {
        var engine = Engine()
        _ = engine.advance(to: makeDay(day(2026, 11, 22), after: 3_600_000), budget: 10)
        let list = try engine.makeList()
        let tomorrow = ItemID(engine.state.nextIdentifier)
        _ = try engine.apply([.createItem(id: tomorrow, list: list, fields: ItemFields(title: "t", due: .date(day(2026, 11, 23))),
                                          before: nil, at: Self.time)])
        let opened = try engine.openView(source: .scheduled, sort: .manual, grouping: .dueBucket, window: Window(start: 0, end: 5))
        #expect(opened.snapshot.rows.map(\.id) == [.header(.due(.tomorrow)), .item(tomorrow)])
        var clients = ClientSet()
        clients.open(opened.snapshot)
        let advanced = engine.advance(to: makeDay(day(2026, 11, 23)), budget: 10)
        #expect(advanced.finished)
        clients.receive(advanced.changes, engine: engine)
        #expect(try engine.snapshot(opened.snapshot.view).rows == [Self.header(.due(.today), "Today", 1), .item(engine.item(tomorrow)!)])
    }

    @Test func movingAcrossListSectionsMovesToThatList() throws {
        var engine = Engine()
        let first = try engine.makeList("A")
        let second = try engine.makeList("B")
        let inFirst = try engine.makeItems(["a1", "a2"], in: first)
        let inSecond = try engine.makeItems(["b1"], in: second)
        let opened = try engine.openView(source: .all, sort: .manual, grouping: .list, window: Window(start: 0, end: 10))
        #expect(opened.snapshot.rows.map(\.id) == [.header(.list(first)), .item(inFirst[0]), .item(inFirst[1]),
                                                   .header(.list(second)), .item(inSecond[0])])
        // a1 (row 1) to just after B's header (index 3 once it is removed): before b1 in list B.
        let move = try engine.moveMutation(view: opened.snapshot.view, rows: 1..<2, to: 3, seenVersion: 1, at: Self.time)
        #expect(move == .moveItems(ids: [inFirst[0]], toList: second, before: inSecond[0], parent: .clear, at: Self.time))
        // To the end: after b1, at the end of B.
        let end = try engine.moveMutation(view: opened.snapshot.view, rows: 1..<2, to: 4, seenVersion: 1, at: Self.time)
        #expect(end == .moveItems(ids: [inFirst[0]], toList: second, before: nil, parent: .clear, at: Self.time))
        #expect(throws: DomainError.self) {
            try engine.moveMutation(view: opened.snapshot.view, rows: 0..<1, to: 2, seenVersion: 1, at: Self.time)
        }
    }

    @Test func movingAcrossOtherSectionsIsRefused() throws {
        var engine = Engine()
        let list = try engine.makeList()
        let items = try engine.makeItems(["a", "b"], in: list)
        _ = try engine.apply([.updateItems(ids: [items[1]], patch: ItemPatch(done: true), at: Self.time)])
        let opened = try engine.openView(source: .list(list), sort: .manual, grouping: .done, window: Window(start: 0, end: 10))
        #expect(throws: DomainError.refused(reason: "crossSection",
                                            message: "view v1 is grouped by done; items can only move within their section")) {
            try engine.moveMutation(view: opened.snapshot.view, rows: 1..<2, to: 2, seenVersion: 1, at: Self.time)
        }
    }
}
