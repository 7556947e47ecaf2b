// Tests of each mutation and each refusal: what changes, what is returned, and that a refusal changes nothing.

import Testing
@testable import Domain

struct MutationTests {
    static let time = Timestamp(milliseconds: 5_000)

    func manual(_ engine: Engine, _ list: ListID) -> [String] {
        engine.state.items(in: list, ranks: 0..<1_000).map(\.title)
    }

    @Test func createItemAtEndAndBefore() throws {
        var engine = Engine()
        let list = try engine.makeList()
        let ids = try engine.makeItems(["a", "c"], in: list)
        let applied = try engine.apply([.createItem(id: ItemID(50), list: list, fields: ItemFields(title: "b", done: true),
                                                    before: ids[1], at: Self.time)])
        #expect(manual(engine, list) == ["a", "b", "c"])
        let item = try #require(engine.item(ItemID(50)))
        #expect(item.revision == 1 && item.createdAt == Self.time && item.completedAt == Self.time)
        #expect(applied.changes.items == [ItemChange(id: ItemID(50), old: nil, new: item)])
        #expect(engine.state.nextIdentifier == 51)
        #expect(applied.revision == engine.revision)
        #expect(engine.lists().first?.total == 3 && engine.lists().first?.open == 2)
    }

    @Test func updateChangesOnlyWhatThePatchSays() throws {
        var engine = Engine()
        let list = try engine.makeList()
        let ids = try engine.makeItems(["a", "b"], in: list)
        let due = try Due(parsing: "2026-11-22")
        _ = try engine.apply([.updateItems(ids: ids, patch: ItemPatch(done: true, due: .set(due), priority: .high),
                                           at: Self.time)])
        let first = try #require(engine.item(ids[0]))
        #expect(first.done && first.completedAt == Self.time && first.due == due && first.priority == .high)
        #expect(first.title == "a" && first.revision == 2 && first.modifiedAt == Self.time)
        _ = try engine.apply([.updateItems(ids: [ids[0]], patch: ItemPatch(title: "Á", done: false, due: .clear),
                                           at: Timestamp(milliseconds: 6_000))])
        let again = try #require(engine.item(ids[0]))
        #expect(!again.done && again.completedAt == nil && again.due == nil && again.revision == 3)
        #expect(again.titleKey == CollationKey(folding: "a"))
        let revision = engine.revision
        let unchanged = try engine.apply([.updateItems(ids: [ids[1]], patch: ItemPatch(priority: .high), at: Self.time)])
        #expect(unchanged.changes.isEmpty && unchanged.viewChanges.isEmpty)
        #expect(engine.revision == revision)
        #expect(engine.item(ids[1])?.revision == 2)
        #expect(engine.lists().first?.open == 1)
    }

    @Test func deleteRemovesItemsAndCounts() throws {
        var engine = Engine()
        let list = try engine.makeList()
        let ids = try engine.makeItems(["a", "b", "c"], in: list)
        let applied = try engine.apply([.deleteItems(ids: [ids[2], ids[0], ids[2]])])
        #expect(manual(engine, list) == ["b"])
        #expect(applied.changes.items.map(\.id) == [ids[2], ids[0]])
        #expect(engine.lists().first?.total == 1)
    }

    @Test func moveKeepsTheBlockOrderAndTouchesOnlyMovedItems() throws {
        var engine = Engine()
        let list = try engine.makeList()
        let ids = try engine.makeItems(["a", "b", "c", "d", "e"], in: list)
        let untouched = engine.item(ids[1])!
        let applied = try engine.apply([.moveItems(ids: [ids[4], ids[2]], toList: nil, before: ids[1], at: Self.time)])
        #expect(manual(engine, list) == ["a", "c", "e", "b", "d"])
        #expect(Set(applied.changes.items.map(\.id)) == [ids[2], ids[4]])
        #expect(engine.item(ids[1]) == untouched)
        _ = try engine.apply([.moveItems(ids: [ids[0]], toList: nil, before: nil, at: Self.time)])
        #expect(manual(engine, list) == ["c", "e", "b", "d", "a"])
    }

    @Test func moveToAnotherList() throws {
        var engine = Engine()
        let home = try engine.makeList("Home")
        let work = try engine.makeList("Work")
        let homeItems = try engine.makeItems(["h1", "h2"], in: home)
        let workItems = try engine.makeItems(["w1", "w2"], in: work)
        _ = try engine.apply([.moveItems(ids: [homeItems[1]], toList: work, before: workItems[1], at: Self.time)])
        #expect(manual(engine, home) == ["h1"])
        #expect(manual(engine, work) == ["w1", "h2", "w2"])
        _ = try engine.apply([.moveItems(ids: [workItems[0]], toList: nil, before: homeItems[0], at: Self.time)])
        #expect(manual(engine, home) == ["w1", "h1"])
        #expect(engine.lists().map(\.total) == [2, 2])
    }

    @Test func listsAreCreatedUpdatedMovedAndDeleted() throws {
        var engine = Engine()
        let a = try engine.makeList("A")
        let b = try engine.makeList("B")
        _ = try engine.apply([.createList(id: ListID(20), fields: ListFields(name: "C", color: "#f00", icon: "star"), before: a)])
        #expect(engine.lists().map(\.list.name) == ["C", "A", "B"])
        _ = try engine.apply([.updateList(id: ListID(20), patch: ListPatch(name: "C2", color: .clear))])
        #expect(engine.state.lists[ListID(20)]?.name == "C2" && engine.state.lists[ListID(20)]?.color == nil)
        #expect(engine.state.lists[ListID(20)]?.icon == "star")
        _ = try engine.apply([.moveLists(ids: [ListID(20), a], before: nil)])
        #expect(engine.lists().map(\.list.name) == ["B", "C2", "A"])
        try engine.makeItems(["x", "y"], in: b)
        let applied = try engine.apply([.deleteList(id: b)])
        #expect(engine.lists().map(\.list.name) == ["C2", "A"])
        #expect(applied.changes.items.count == 2 && applied.changes.items.allSatisfy { $0.new == nil })
        #expect(engine.state.itemCount == 0)
    }

    @Test func aGroupIsAppliedAsOne() throws {
        var engine = Engine()
        let list = ListID(1)
        let applied = try engine.apply([
            .createList(id: list, fields: ListFields(name: "L"), before: nil),
            .createItem(id: ItemID(2), list: list, fields: ItemFields(title: "a"), before: nil, at: Self.time),
            .updateItems(ids: [ItemID(2)], patch: ItemPatch(title: "b"), at: Self.time),
        ])
        #expect(applied.revision == 1)
        #expect(applied.changes.items.count == 1 && applied.changes.items[0].old == nil)
        #expect(applied.changes.items[0].new?.title == "b" && applied.changes.items[0].new?.revision == 2)
    }

    /// Each refusal, applied after some valid mutations of its group, leaves everything as it was.
    @Test(arguments: [
        (Mutation.deleteItems(ids: [ItemID(3), ItemID(99), ItemID(98)]), DomainError.notFound(kind: .item, ids: [99, 98])),
        (.updateItems(ids: [ItemID(77)], patch: ItemPatch(done: true), at: time), .notFound(kind: .item, ids: [77])),
        (.moveItems(ids: [ItemID(3)], toList: ListID(55), before: nil, at: time), .notFound(kind: .list, ids: [55])),
        (.moveItems(ids: [ItemID(3), ItemID(4)], toList: nil, before: ItemID(4), at: time),
         .refused(reason: "beforeInBlock", message: "before: item i4 is one of the items moved")),
        (.moveItems(ids: [ItemID(3), ItemID(7)], toList: nil, before: nil, at: time),
         .refused(reason: "ambiguousList", message: "list: the items are in several lists; name the destination list")),
        (.moveItems(ids: [ItemID(3)], toList: ListID(1), before: ItemID(7), at: time),
         .refused(reason: "beforeInOtherList", message: "before: item i7 is not in list l1")),
        (.createItem(id: ItemID(4), list: ListID(1), fields: ItemFields(title: "x"), before: nil, at: time),
         .refused(reason: "identifierUsed", message: "id: id 4 is already used (next free id is 8)")),
        (.createItem(id: ItemID(90), list: ListID(56), fields: ItemFields(title: "x"), before: nil, at: time),
         .notFound(kind: .list, ids: [56])),
        (.deleteList(id: ListID(57)), .notFound(kind: .list, ids: [57])),
        (.updateList(id: ListID(1), patch: ListPatch(name: "")), .invalidField(field: "name", problem: "must not be empty")),
        (.moveLists(ids: [ListID(1), ListID(58)], before: nil), .notFound(kind: .list, ids: [58])),
        (.deleteItems(ids: []), .invalidField(field: "ids", problem: "must name at least one id")),
    ])
    func refusalsChangeNothing(mutation: Mutation, error: DomainError) throws {
        var engine = Engine()
        let list = try engine.makeList()
        let other = try engine.makeList("Other")
        try engine.makeItems(["a", "b", "c"], in: list)
        try engine.makeItems(["d", "e"], in: other)
        _ = try engine.openView(source: .list(list), sort: Sort(.title), window: Window(start: 0, end: 10))
        _ = try engine.openView(source: .list(list), sort: .manual, window: Window(start: 0, end: 2))
        let before = engine.fingerprint
        let prelude: [Mutation] = [
            .createItem(id: ItemID(100), list: list, fields: ItemFields(title: "new"), before: ItemID(3), at: Self.time),
            .updateItems(ids: [ItemID(3), ItemID(5)], patch: ItemPatch(title: "zz", done: true), at: Self.time),
            .moveItems(ids: [ItemID(5)], toList: nil, before: ItemID(3), at: Self.time),
            .createList(id: ListID(101), fields: ListFields(name: "Extra"), before: nil),
            .deleteItems(ids: [ItemID(6)]),
        ]
        #expect(throws: DomainError.self) { try engine.apply(prelude + [mutation]) }
        #expect(engine.fingerprint == before)
        #expect(throws: error) { try engine.apply([mutation]) }
        #expect(engine.fingerprint == before)
    }
}
