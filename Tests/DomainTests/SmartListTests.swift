// Table tests of smart lists: counts under item mutations across lists, filters of every kind, source lists deleted,
// ordering, undo, and their views re-sourced when the rule changes or closed when the smart list is deleted.

import Testing
@testable import Domain

struct SmartListTests {
    static let time = Timestamp(milliseconds: 1_763_800_000_000)

    /// Two lists, Home and Work, with four items: (title, list, done, due, priority, tags).
    static func setUp() throws -> (engine: Engine, home: ListID, work: ListID, items: [ItemID]) {
        var engine = Engine()
        let home = try engine.makeList("Home")
        let work = try engine.makeList("Work")
        let specs: [(String, ListID, Bool, Due?, Priority, [String])] = [
            ("Buy milk", home, false, .date(CalendarDate(year: 2026, month: 11, day: 20)!), .high, ["errand"]),
            ("Café run", work, false, .date(CalendarDate(year: 2026, month: 11, day: 25)!), .low, ["errand", "team"]),
            ("Report", work, true, nil, .medium, ["team"]),
            ("Plants", home, true, .date(CalendarDate(year: 2026, month: 12, day: 1)!), .none, []),
        ]
        var items: [ItemID] = []
        for (title, list, done, due, priority, tags) in specs {
            let id = ItemID(engine.state.nextIdentifier)
            _ = try engine.apply([.createItem(id: id, list: list, fields: ItemFields(title: title, done: done, due: due,
                                                                                     priority: priority, tags: tags),
                                              before: nil, at: time)])
            items.append(id)
        }
        return (engine, home, work, items)
    }

    /// Creates a smart list and returns its id.
    static func make(_ engine: inout Engine, _ name: String, _ rule: SmartListRule) throws -> SmartListID {
        let id = SmartListID(engine.state.nextIdentifier)
        _ = try engine.apply([.createSmartList(id: id, fields: SmartListFields(name: name, rule: rule), before: nil)])
        return id
    }

    @Test(arguments: [
        // (filter, every list: count, Work only: count)
        (Filter(), 4, 2),
        (Filter(done: .notDone), 2, 1),
        (Filter(done: .done), 2, 1),
        (Filter(tagsAnyOf: ["errand"]), 2, 1),
        (Filter(tagsAllOf: ["errand", "team"]), 1, 1),
        (Filter(priorityAtLeast: .medium), 2, 1),
        (Filter(text: "cafe"), 1, 1),
        (Filter(text: "PLANT"), 1, 0),
        (Filter(dueBefore: .date(CalendarDate(year: 2026, month: 11, day: 25)!)), 1, 0),
        (Filter(dueAfter: .date(CalendarDate(year: 2026, month: 11, day: 20)!)), 2, 1),
        (Filter(done: .notDone, tagsAnyOf: ["team"]), 1, 1),
    ])
    func countsFollowTheFilter(filter: Filter, everyList: Int, workOnly: Int) throws {
        var (engine, _, work, _) = try Self.setUp()
        let all = try Self.make(&engine, "S", SmartListRule(filter: filter))
        let some = try Self.make(&engine, "S", SmartListRule(filter: filter, lists: [work]))
        #expect(engine.smartListCount(all) == everyList)
        #expect(engine.smartListCount(some) == workOnly)
        #expect(engine.overview().smartLists.map(\.count) == [everyList, workOnly])
    }

    @Test func countsFollowItemMutationsAcrossLists() throws {
        var (engine, home, work, items) = try Self.setUp()
        let errands = try Self.make(&engine, "Errands", SmartListRule(filter: Filter(done: .notDone, tagsAnyOf: ["errand"])))
        let workOnly = try Self.make(&engine, "Work", SmartListRule(lists: [work]))
        #expect(engine.smartListCount(errands) == 2 && engine.smartListCount(workOnly) == 2)
        let steps: [(Mutation, errands: Int, work: Int)] = [
            (.createItem(id: ItemID(engine.state.nextIdentifier), list: work, fields: ItemFields(title: "Post", tags: ["errand"]),
                         before: nil, at: Self.time), 3, 3),
            (.updateItems(ids: [items[0]], patch: ItemPatch(done: true), at: Self.time), 2, 3),
            (.updateItems(ids: [items[0]], patch: ItemPatch(done: false), at: Self.time), 3, 3),
            (.updateItems(ids: [items[0]], patch: ItemPatch(title: "Buy oat milk"), at: Self.time), 3, 3),
            (.updateItems(ids: [items[1]], patch: ItemPatch(tags: ["team"]), at: Self.time), 2, 3),
            (.moveItems(ids: [items[0]], toList: work, before: nil, at: Self.time), 2, 4),
            (.moveItems(ids: [items[0]], toList: home, before: nil, at: Self.time), 2, 3),
            (.deleteItems(ids: [items[1], items[2]]), 2, 1),
            (.deleteList(id: home), 1, 1),
        ]
        for (mutation, expectedErrands, expectedWork) in steps {
            _ = try engine.apply([mutation])
            #expect(engine.smartListCount(errands) == expectedErrands, "errands after \(mutation)")
            #expect(engine.smartListCount(workOnly) == expectedWork, "work after \(mutation)")
        }
    }

    @Test func aDeletedSourceListDropsOutAndAnEmptySetMatchesNothing() throws {
        var (engine, home, work, _) = try Self.setUp()
        let both = try Self.make(&engine, "S", SmartListRule(lists: [home, work]))
        let homeOnly = try Self.make(&engine, "S", SmartListRule(lists: [home]))
        let applied = try engine.apply([.deleteList(id: home)])
        #expect(applied.changes.smartLists.map(\.id) == [both, homeOnly])
        #expect(engine.state.smartLists[both]?.rule.lists == [work])
        #expect(engine.state.smartLists[homeOnly]?.rule.lists == [])
        #expect(engine.smartListCount(both) == 2 && engine.smartListCount(homeOnly) == 0)
        // A new list is not a source of a smart list that names its lists.
        let later = try engine.makeList("Later")
        _ = try engine.apply([.createItem(id: ItemID(engine.state.nextIdentifier), list: later, fields: ItemFields(title: "x"),
                                          before: nil, at: Self.time)])
        #expect(engine.smartListCount(homeOnly) == 0)
        // Undoing the deletion puts the list back in both.
        _ = try engine.apply(try engine.state.inverse(of: applied.changes, at: Self.time))
        #expect(engine.state.smartLists[homeOnly]?.rule.lists == [home])
        #expect(engine.smartListCount(homeOnly) == 2 && engine.smartListCount(both) == 4)
    }

    @Test func createRefusesUnknownSourcesAndUpdateRecountsOnlyWhenTheRuleChanges() throws {
        var (engine, home, _, _) = try Self.setUp()
        #expect(throws: DomainError.notFound(kind: .list, ids: [99])) {
            _ = try Self.make(&engine, "S", SmartListRule(lists: [ListID(99), home]))
        }
        #expect(throws: DomainError.invalidField(field: "name", problem: "must not be empty")) {
            _ = try Self.make(&engine, "", SmartListRule())
        }
        let id = try Self.make(&engine, "S", SmartListRule())
        #expect(engine.smartListCount(id) == 4)
        let renamed = try engine.apply([.updateSmartList(id: id, patch: SmartListPatch(name: "T"))])
        #expect(renamed.changes.smartLists.count == 1 && engine.smartListCount(id) == 4)
        let same = try engine.apply([.updateSmartList(id: id, patch: SmartListPatch(name: "T", filter: Filter()))])
        #expect(same.changes.isEmpty && same.revision == renamed.revision, "a patch that changes nothing is no revision")
        _ = try engine.apply([.updateSmartList(id: id, patch: SmartListPatch(filter: Filter(done: .done), lists: .set([home])))])
        #expect(engine.smartListCount(id) == 1)
        _ = try engine.apply([.updateSmartList(id: id, patch: SmartListPatch(lists: .clear))])
        #expect(engine.smartListCount(id) == 2)
        #expect(throws: DomainError.notFound(kind: .smartList, ids: [77])) {
            _ = try engine.apply([.deleteSmartList(id: SmartListID(77))])
        }
    }

    @Test func movesFollowTheRulesOfListMoves() throws {
        var (engine, _, _, _) = try Self.setUp()
        let a = try Self.make(&engine, "A", SmartListRule())
        let b = try Self.make(&engine, "B", SmartListRule())
        let c = try Self.make(&engine, "C", SmartListRule())
        func order() -> [SmartListID] { engine.overview().smartLists.map(\.smartList.id) }
        #expect(order() == [a, b, c])
        _ = try engine.apply([.moveSmartLists(ids: [c, a], before: b)])
        #expect(order() == [a, c, b])
        let inPlace = try engine.apply([.moveSmartLists(ids: [a, c], before: b)])
        #expect(inPlace.changes.isEmpty)
        _ = try engine.apply([.moveSmartLists(ids: [a], before: nil)])
        #expect(order() == [c, b, a])
        #expect(throws: DomainError.self) { _ = try engine.apply([.moveSmartLists(ids: [a], before: a)]) }
        let moved = try engine.apply([.moveSmartLists(ids: [b], before: c)])
        #expect(order() == [b, c, a])
        _ = try engine.apply(try engine.state.inverse(of: moved.changes, at: Self.time))
        #expect(order() == [c, b, a])
    }

    @Test func viewsAreReSourcedWhenTheRuleChangesAndClosedWhenDeleted() throws {
        var (engine, _, work, items) = try Self.setUp()
        let id = try Self.make(&engine, "S", SmartListRule(filter: Filter(done: .notDone)))
        var clients = ClientSet()
        let narrowed = try engine.openView(source: try engine.smartListSource(id), sort: .manual, filter: Filter(tagsAnyOf: ["errand"]),
                                           window: Window(start: 0, end: 10))
        let whole = try engine.openView(source: try engine.smartListSource(id), sort: Sort(.title), window: Window(start: 0, end: 10))
        clients.open(narrowed.snapshot)
        clients.open(whole.snapshot)
        #expect(ids(narrowed.snapshot.rows) == [items[0].rawValue, items[1].rawValue])
        #expect(ids(whole.snapshot.rows) == [items[0].rawValue, items[1].rawValue])
        // An item change reaches both views as ordinary ops.
        let done = try engine.apply([.updateItems(ids: [items[1]], patch: ItemPatch(done: true), at: Self.time)])
        #expect(done.viewChanges.count == 2)
        clients.receive(done.viewChanges, engine: engine)
        // A new rule: each view gets one reset (a new generation), with the view's own filter kept.
        let edited = try engine.apply([.updateSmartList(id: id, patch: SmartListPatch(filter: Filter(), lists: .set([work])))])
        #expect(edited.viewChanges.map(\.operations.count) == [1, 1])
        for change in edited.viewChanges { clients.clients[change.view]?.apply(change, generation: true) }
        clients.verify(engine)
        #expect(ids(try engine.snapshot(narrowed.snapshot.view).rows) == [items[1].rawValue])
        #expect(ids(try engine.snapshot(whole.snapshot.view).rows) == [items[1].rawValue, items[2].rawValue])
        // A rename changes no row: no view change.
        #expect(try engine.apply([.updateSmartList(id: id, patch: SmartListPatch(name: "Renamed"))]).viewChanges.isEmpty)
        // Deleting it closes both views.
        let deleted = try engine.apply([.deleteSmartList(id: id)])
        #expect(deleted.viewChanges.map(\.state) == [ViewState.closed(reason: "smartListDeleted"), .closed(reason: "smartListDeleted")])
        #expect(engine.openViews.isEmpty)
        #expect(throws: DomainError.notFound(kind: .smartList, ids: [id.rawValue])) {
            _ = try engine.openView(source: .smartList(id, SmartListRule()), sort: .manual, window: Window(start: 0, end: 1))
        }
    }

    @Test func undoAndRedoCoverEveryChange() throws {
        var (engine, _, work, _) = try Self.setUp()
        let id = SmartListID(engine.state.nextIdentifier)
        let steps: [Mutation] = [
            .createSmartList(id: id, fields: SmartListFields(name: "S", color: "red", rule: SmartListRule(lists: [work])), before: nil),
            .updateSmartList(id: id, patch: SmartListPatch(name: "T", color: .clear, filter: Filter(done: .done))),
            .deleteSmartList(id: id),
        ]
        var before: [[SmartList]] = []
        var recorded: [Changes] = []
        for step in steps {
            before.append(engine.state.orderedSmartLists)
            recorded.append(try engine.apply([step]).changes)
        }
        for (changes, expected) in zip(recorded, before).reversed() {
            let undo = try engine.apply(try engine.state.inverse(of: changes, at: Self.time))
            #expect(engine.state.orderedSmartLists == expected)
            if let rule = expected.first?.rule {
                var count = 0
                engine.state.forEachItem { if rule.contains($0) { count += 1 } }
                #expect(engine.smartListCount(id) == count, "the count after undo")
            }
            let redo = try engine.apply(try engine.state.inverse(of: undo.changes, at: Self.time))
            _ = try engine.apply(try engine.state.inverse(of: redo.changes, at: Self.time))
        }
        #expect(engine.state.smartLists.isEmpty)
    }
}
