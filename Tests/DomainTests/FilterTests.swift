// Table tests of filters (each field), filter changes as a new generation, items entering and leaving, and why a
// view is empty.

import Testing
@testable import Domain

struct FilterTests {
    static let item: Item = {
        let fields = ItemFields(title: "Crème brûlée", notes: "Ask Zoë", due: .date(day(2026, 11, 22)), priority: .medium,
                                tags: ["home", "food"])
        return Item(id: ItemID(1), list: ListID(1), fields: fields, position: .initial, at: Timestamp(milliseconds: 0))
    }()

    @Test(arguments: [
        (Filter(), true),
        (Filter(text: "CREME"), true), (Filter(text: "brulee"), true), (Filter(text: "zoe"), true),
        (Filter(text: "ask z"), true), (Filter(text: "tart"), false),
        (Filter(done: .notDone), true), (Filter(done: .done), false), (Filter(done: .any), true),
        (Filter(tagsAnyOf: ["work", "food"]), true), (Filter(tagsAnyOf: ["work"]), false),
        (Filter(tagsAllOf: ["home", "food"]), true), (Filter(tagsAllOf: ["home", "work"]), false),
        (Filter(priorityAtLeast: .medium), true), (Filter(priorityAtLeast: .high), false),
        (Filter(dueBefore: .date(day(2026, 11, 23))), true), (Filter(dueBefore: .date(day(2026, 11, 22))), false),
        (Filter(dueAfter: .date(day(2026, 11, 21))), true), (Filter(dueAfter: .date(day(2026, 11, 22))), false),
        (Filter(dueBefore: .dateTime(Timestamp(milliseconds: day(2026, 11, 22).daysSinceEpoch * dayLength), offsetSeconds: 0)), true),
        (Filter(text: "home", tagsAnyOf: ["home"]), false),
    ])
    func eachField(filter: Filter, matches: Bool) {
        #expect(filter.matches(Self.item) == matches)
    }

    @Test func itemsWithoutADueNeverMatchADueBound() {
        var undated = Self.item
        undated.due = nil
        #expect(!Filter(dueBefore: .date(day(2030, 1, 1))).matches(undated))
        #expect(!Filter(dueAfter: .date(day(2000, 1, 1))).matches(undated))
    }

    @Test func aFilterChangeIsOneResetAndItemsEnterAndLeave() throws {
        var engine = Engine()
        let list = try engine.makeList()
        let items = try engine.makeItems(["apple", "banana", "cherry", "bandana"], in: list)
        let opened = try engine.openView(source: .list(list), sort: .manual, window: Window(start: 0, end: 10))
        var clients = ClientSet()
        clients.open(opened.snapshot)
        let changed = try engine.reconfigure(opened.snapshot.view, filter: Filter(text: "an"))
        #expect(changed.change.version == 2 && changed.change.count == 2)
        #expect(changed.change.operations == [.reset(rows: [.item(engine.item(items[1])!), .item(engine.item(items[3])!)])])
        clients.receive([changed.change], engine: engine)
        let time = Timestamp(milliseconds: 7)
        var applied = try engine.apply([.updateItems(ids: [items[2]], patch: ItemPatch(title: "mango"), at: time)])
        #expect(applied.viewChanges.map(\.operations) == [[.insert(index: 1, row: .item(engine.item(items[2])!))]])
        clients.receive(applied.viewChanges, engine: engine)
        applied = try engine.apply([.updateItems(ids: [items[1]], patch: ItemPatch(title: "kiwi"), at: time)])
        #expect(applied.viewChanges.map(\.operations) == [[.remove(index: 0)]])
        clients.receive(applied.viewChanges, engine: engine)
    }

    @Test func anEmptyViewSaysWhy() throws {
        var engine = Engine()
        let list = try engine.makeList()
        let opened = try engine.openView(source: .list(list), sort: .manual, filter: Filter(text: "milk"),
                                         window: Window(start: 0, end: 10))
        #expect(opened.snapshot.count == 0 && opened.snapshot.empty == .noItems)
        var clients = ClientSet()
        clients.open(opened.snapshot)
        // An item the filter does not match: still empty, now because of the filter (a change of its own).
        var applied = try engine.apply([.createItem(id: ItemID(10), list: list, fields: ItemFields(title: "bread"), before: nil,
                                                    at: Timestamp(milliseconds: 1))])
        #expect(applied.viewChanges.count == 1 && applied.viewChanges[0].empty == .noMatches && applied.viewChanges[0].operations.isEmpty)
        clients.receive(applied.viewChanges, engine: engine)
        applied = try engine.apply([.createItem(id: ItemID(11), list: list, fields: ItemFields(title: "Milk"), before: nil,
                                                at: Timestamp(milliseconds: 1))])
        #expect(applied.viewChanges[0].empty == nil && applied.viewChanges[0].count == 1)
        clients.receive(applied.viewChanges, engine: engine)
        let group = try engine.openView(source: .completed, sort: .manual, window: Window(start: 0, end: 10))
        #expect(group.snapshot.empty == .noItems)
        let all = try engine.openView(source: .all, sort: Sort(.title), filter: Filter(priorityAtLeast: .high),
                                      window: Window(start: 0, end: 10))
        #expect(all.snapshot.empty == .noMatches)
    }
}
