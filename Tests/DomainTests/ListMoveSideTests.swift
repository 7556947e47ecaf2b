// Table tests of `lists/move`: the side holding fewer items (the block, or the lists it jumps over) gets new
// positions, the order is the one asked for, undo gives the state back, and every open view follows exactly.

import Testing
@testable import Domain

struct ListMoveSideTests {
    struct Case: CustomTestStringConvertible, Sendable {
        /// Each list's name and number of items, in order.
        var lists: [(String, Int)]
        var moved: [String]
        var before: String?
        /// The order of lists after the move.
        var order: [String]
        /// The lists whose position changes.
        var repositioned: Set<String>

        var testDescription: String { "move \(moved) before \(before ?? "the end") in \(lists.map { "\($0.0)\($0.1)" })" }
    }

    static let cases: [Case] = [
        // A big list moved past small ones: the small ones move to its other side.
        Case(lists: [("A", 5), ("B", 1), ("C", 0)], moved: ["A"], before: nil, order: ["B", "C", "A"],
             repositioned: ["B", "C"]),
        Case(lists: [("A", 0), ("B", 0), ("C", 9)], moved: ["C"], before: "A", order: ["C", "A", "B"],
             repositioned: ["A", "B"]),
        // A small list moved past big ones moves itself.
        Case(lists: [("A", 0), ("B", 4), ("C", 3)], moved: ["A"], before: nil, order: ["B", "C", "A"],
             repositioned: ["A"]),
        // A tie (items plus one per list): the block moves, as it always did.
        Case(lists: [("A", 1), ("B", 1)], moved: ["A"], before: nil, order: ["B", "A"], repositioned: ["A"]),
        // A block taken from several places, dropped after all of it: the lists between go before it.
        Case(lists: [("A", 5), ("B", 0), ("C", 5), ("D", 0), ("E", 0)], moved: ["C", "A"], before: "E",
             order: ["B", "D", "A", "C", "E"], repositioned: ["B", "D"]),
        // Dropped inside its own span: those before the anchor go before the block, the rest after it.
        Case(lists: [("A", 5), ("B", 0), ("C", 0), ("D", 5), ("E", 0)], moved: ["A", "D"], before: "C",
             order: ["B", "A", "D", "C", "E"], repositioned: ["B", "C"]),
        // The jumped-over side counts its lists too: three empty lists outweigh a block of one item.
        Case(lists: [("A", 1), ("B", 0), ("C", 0), ("D", 0)], moved: ["A"], before: nil, order: ["B", "C", "D", "A"],
             repositioned: ["A"]),
    ]

    @Test(arguments: cases)
    func aMoveRepositionsTheSideHoldingFewerItems(_ test: Case) throws {
        var fixture = UndoFixture()
        var names: [String: ListID] = [:]
        for (name, count) in test.lists {
            let list = try fixture.engine.makeList(name)
            names[name] = list
            _ = try fixture.engine.makeItems((0..<count).map { "\(name.lowercased())\($0)" }, in: list)
        }
        let name = Dictionary(uniqueKeysWithValues: names.map { ($1, $0) })
        // Every kind of order that uses list positions, and the lists' own views (which none of this re-keys).
        var smartGroups: [ViewID] = []
        for (sort, grouping) in [(Sort.manual, Grouping.none), (Sort(.manual, .descending), .none), (Sort(.priority), .none),
                                 (Sort(.title, .descending), .none), (Sort.manual, .list)] {
            let opened = try fixture.engine.openView(source: .all, sort: sort, grouping: grouping, window: Window(start: 0, end: 30))
            fixture.clients.open(opened.snapshot)
            smartGroups.append(opened.snapshot.view)
        }
        var listViews: Set<ViewID> = []
        for (listName, _) in test.lists {
            listViews.insert(try fixture.open(names[listName]!, Sort(.title), Window(start: 0, end: 30)))
        }
        let before = StateImage(fixture.engine.state)

        let applied = try fixture.apply([.moveLists(ids: test.moved.map { names[$0]! }, before: test.before.map { names[$0]! })])

        let order = fixture.engine.lists().map(\.list.name)
        #expect(order == test.order)
        #expect(Set(applied.changes.lists.map { name[$0.id]! }) == test.repositioned)
        for change in applied.changes.lists {
            #expect(change.old!.position != change.new!.position, "\(change.id) changed its position only")
            var old = change.old!
            old.position = change.new!.position
            #expect(old == change.new!)
        }
        #expect(applied.changes.items.isEmpty, "no item changes")
        #expect(applied.viewChanges.allSatisfy { !listViews.contains($0.view) }, "a list's own view is not re-keyed")
        // The smart group in manual order shows the lists' items in the new order of lists.
        let all = try fixture.engine.snapshot(smartGroups[0])
        #expect(titles(all.rows) == test.order.flatMap { listName in
            (0..<test.lists.first { $0.0 == listName }!.1).map { "\(listName.lowercased())\($0)" }
        })

        let undone = try fixture.invert(applied.changes)
        #expect(StateImage(fixture.engine.state) == before, "undo gives every list its old position back")
        #expect(Set(undone.changes.lists.map { name[$0.id]! }) == test.repositioned)
        try fixture.invert(undone.changes)
        #expect(fixture.engine.lists().map(\.list.name) == test.order, "redo")
    }

    /// A big list moved past a small one while a smart-group order is being built in the background: the build,
    /// installed after the move, has the small list's items re-keyed (ties in the sort follow the new lists' order).
    @Test func aBuildPendingDuringAMoveCatchesUp() throws {
        var engine = Engine(backgroundBuildThreshold: 4)
        let big = try engine.makeList("Big")
        let small = try engine.makeList("Small")
        let bigItems = try engine.makeItems((0..<12).map { "t\($0 % 3)" }, in: big)
        let smallItems = try engine.makeItems(["t0", "t1"], in: small)
        let opened = try engine.openView(source: .all, sort: Sort(.title), window: Window(start: 0, end: 20))
        let build = try #require(opened.build)
        let applied = try engine.apply([.moveLists(ids: [big], before: nil)])
        #expect(applied.changes.lists.map(\.id) == [small], "the small list moves")
        _ = engine.install(build.run())
        // By title, then the lists' order (Small, Big), then each list's order.
        let expected = (0..<3).flatMap { title in
            smallItems.filter { engine.item($0)!.title == "t\(title)" } + bigItems.filter { engine.item($0)!.title == "t\(title)" }
        }
        #expect(ids(try engine.snapshot(opened.snapshot.view).rows) == expected.map(\.rawValue))
    }

    /// Another process moves a big list past a small one that a step renamed: the small list takes a new position,
    /// but its name is the one the step left, so the step undoes (the list keeps its place), and so does the redo.
    @Test func aRenameUndoesAfterItsListWasRepositionedByAnotherMove() throws {
        var fixture = UndoFixture()
        let big = try fixture.engine.makeList("Big")
        let small = try fixture.engine.makeList("Small")
        _ = try fixture.engine.makeItems(["b0", "b1", "b2"], in: big)
        let opened = try fixture.engine.openView(source: .all, sort: .manual, grouping: .list, window: Window(start: 0, end: 10))
        fixture.clients.open(opened.snapshot)
        let renamed = try fixture.apply([.updateList(id: small, patch: ListPatch(name: "Tiny"))])
        let moved = try fixture.apply([.moveLists(ids: [big], before: nil)])
        #expect(moved.changes.lists.map(\.id) == [small], "the small list is the one repositioned")
        let undone = try fixture.invert(renamed.changes)
        #expect(fixture.engine.lists().map(\.list.name) == ["Small", "Big"])
        #expect(undone.changes.lists.allSatisfy { $0.old!.position == $0.new!.position }, "the undo moves nothing")
        try fixture.invert(undone.changes)
        #expect(fixture.engine.lists().map(\.list.name) == ["Tiny", "Big"])
        // A step that moved lists is still refused once they were moved since.
        let movedBack = try fixture.apply([.moveLists(ids: [small], before: nil)])
        _ = try fixture.apply([.moveLists(ids: [big], before: nil)])
        #expect(throws: DomainError.refused(reason: "changedSince", message: "list \(movedBack.changes.lists[0].id) was changed since")) {
            try fixture.engine.inverse(of: movedBack.changes, at: fixture.now)
        }
    }
}
