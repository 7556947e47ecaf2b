// Tests of `insertItems` (whole items as an import makes them) and of what an imported item keeps: its uid, unique
// across every mutation, restore and snapshot, and its extras, which updates, moves, advances and duplicates keep.

import Testing
@testable import Domain

struct InsertItemsTests {
    static let created = Timestamp(milliseconds: 1_600_000_000_000)
    static let modified = Timestamp(milliseconds: 1_700_000_000_000)
    static let time = Timestamp(milliseconds: 1_763_800_000_000)
    static let extras = [Extra(key: "taskwarrior:wait", value: "\"20261201T000000Z\""),
                         Extra(key: "ical:X-APPLE-SORT-ORDER", value: ":42"),
                         Extra(key: "taskwarrior:wait", value: "twice\tkept\nin order")]

    /// An item as an import would make it.
    static func imported(_ id: UInt64, _ title: String, in list: ListID, parent: UInt64? = nil, at position: Position,
                         uid: String? = nil, extras: [Extra] = [], done: Bool = false, due: Due? = nil,
                         repeatRule: RepeatRule? = nil, alerts: [Alert] = [], tags: [String] = [], revision: UInt64 = 3) -> Item {
        Item(id: ItemID(id), list: list, title: title, notes: "n", done: done, completedAt: done ? modified : nil, due: due,
             priority: .medium, tags: tags, createdAt: created, modifiedAt: modified, revision: revision, position: position,
             parent: parent.map(ItemID.init), repeatRule: repeatRule, alerts: alerts, uid: uid, extras: extras)
    }

    static func positions(_ count: Int) -> [Position] { Position.between(nil, nil, count: count) }

    /// An engine with a list holding "a" and "b" (ids 2 and 3) and an empty list Other (id 4).
    static func setUp() throws -> (engine: Engine, list: ListID, other: ListID, items: [ItemID]) {
        var engine = Engine()
        let list = try engine.makeList()
        let items = try engine.makeItems(["a", "b"], in: list)
        let other = try engine.makeList("Other")
        return (engine, list, other, items)
    }

    @Test func aSubtreeIsInsertedParentsFirstExactlyAsGiven() throws {
        var (engine, list, _, existing) = try Self.setUp()
        let first = engine.state.nextIdentifier
        let tail = engine.item(existing[1])!.position
        let top = Position.between(tail, nil, count: 2)
        let under = Self.positions(2)
        let rule = try RepeatRule(rrule: "FREQ=WEEKLY", anchor: .due)
        let due = Due.date(CalendarDate(year: 2026, month: 12, day: 1)!)
        // Ids need not rise with the order: a parent may have a higher id than its subtasks.
        let given = [
            Self.imported(first + 10, "parent", in: list, at: top[0], uid: "uuid-parent", extras: Self.extras),
            Self.imported(first + 2, "child one", in: list, parent: first + 10, at: under[0], uid: "uuid-1", done: true),
            Self.imported(first + 5, "child two", in: list, parent: first + 10, at: under[1], due: due, repeatRule: rule,
                          alerts: [.offset(minutes: -30)]),
            Self.imported(first + 3, "grandchild", in: list, parent: first + 2, at: Position.initial, uid: "uuid-3"),
            Self.imported(first + 7, "last", in: list, at: top[1], extras: [Extra(key: "todotxt:t", value: "2026-11-30")]),
        ]
        let applied = try engine.apply([.insertItems(items: given)])
        #expect(applied.changes.items.map(\.id) == given.map(\.id))
        #expect(applied.changes.items.allSatisfy { $0.old == nil })
        for item in given { #expect(engine.item(item.id) == item, "\(item.id) is stored exactly as given") }
        #expect(engine.state.nextIdentifier == first + 11, "the next free id moves past every id given")
        #expect(engine.state.items(in: list, ranks: 0..<100).map(\.title)
            == ["a", "b", "parent", "child one", "grandchild", "child two", "last"])
        #expect(engine.state.subtaskCount(of: ItemID(first + 10)) == SubtaskCount(total: 2, open: 1))
        #expect(engine.state.subtaskCount(of: ItemID(first + 2)) == SubtaskCount(total: 1, open: 1))
        #expect(engine.state.itemCount(in: list) == 7 && engine.state.openItemCount(in: list) == 6)
        #expect(engine.state.item(withUID: "uuid-parent")?.id == ItemID(first + 10))
        #expect(engine.state.item(withUID: "uuid-3")?.title == "grandchild")
        #expect(engine.state.item(withUID: "uuid-2") == nil)
        #expect(applied.revision == engine.revision)
    }

    @Test func tagsAndAlertsAreNormalizedAsACreationNormalizesThem() throws {
        var (engine, _, other, _) = try Self.setUp()
        let id = engine.state.nextIdentifier
        let item = Self.imported(id, "t", in: other, at: .initial, alerts: [.offset(minutes: 5), .offset(minutes: 5)],
                                 tags: [" home ", "home", "work"])
        _ = try engine.apply([.insertItems(items: [item])])
        #expect(engine.item(ItemID(id))?.tags == ["home", "work"])
        #expect(engine.item(ItemID(id))?.alerts == [.offset(minutes: 5)])
    }

    /// Each refusal, by reason and message, leaves everything as it was.
    @Test func eachRefusalNamesItsReasonAndChangesNothing() throws {
        let (start, list, other, existing) = try Self.setUp()
        let next = start.state.nextIdentifier
        let position = Position.between(start.item(existing[1])!.position, nil)
        let cases: [(String, [Item], DomainError)] = [
            ("an id already used", [Self.imported(existing[0].rawValue, "x", in: list, at: position)],
             .refused(reason: "identifierUsed", message: "items[0].id: id 2 is already used (next free id is \(next))")),
            ("an id given twice", [Self.imported(next, "x", in: list, at: position),
                                   Self.imported(next, "y", in: other, at: position)],
             .refused(reason: "identifierUsed", message: "items[1].id: item i\(next) is inserted twice")),
            ("the largest id", [Self.imported(UInt64.max, "x", in: list, at: position)],
             .invalidField(field: "items[0].id", problem: "must be below \(UInt64.max)")),
            ("a list that does not exist", [Self.imported(next, "x", in: ListID(99), at: position)],
             .notFound(kind: .list, ids: [99])),
            ("a subtask before its parent", [Self.imported(next, "child", in: list, parent: next + 1, at: position),
                                             Self.imported(next + 1, "parent", in: list, at: position)],
             .notFound(kind: .item, ids: [next + 1])),
            ("a parent in another list", [Self.imported(next, "x", in: other, parent: existing[0].rawValue, at: position)],
             .refused(reason: "parentInOtherList", message: "items[0].parent: item i2 is not in list l4")),
            ("a position a sibling has", [Self.imported(next, "x", in: list, at: start.item(existing[0])!.position)],
             .refused(reason: "positionTaken",
                      message: "items[0]: another item of list l1 already has position \(start.item(existing[0])!.position)")),
            ("two inserted at one position", [Self.imported(next, "x", in: other, at: position),
                                              Self.imported(next + 1, "y", in: other, at: position)],
             .refused(reason: "positionTaken", message: "items[1]: another item of list l4 already has position \(position)")),
            ("an empty title", [Self.imported(next, "x", in: list, at: position), Self.imported(next + 1, "", in: list, at: Position.between(position, nil))],
             .invalidField(field: "items[1].title", problem: "must not be empty")),
            ("a malformed extra key", [Self.imported(next, "x", in: list, at: position,
                                                     extras: [Extra(key: "ok:name", value: ""), Extra(key: "ok:b", value: ""), Extra(key: "Ical:X", value: "")])],
             .invalidField(field: "items[0].extras[2].key", problem: "must be format:name (a format of letters a to z, then a name)")),
            ("a uid with a control character", [Self.imported(next, "x", in: list, at: position, uid: "a\u{7}b")],
             .invalidField(field: "items[0].uid", problem: "must not contain control characters")),
            ("a revision 0", [Self.imported(next, "x", in: list, at: position, revision: 0)],
             .invalidField(field: "items[0].revision", problem: "must be at least 1")),
            ("a repeat without a due", [Self.imported(next, "x", in: list, at: position, repeatRule: try RepeatRule(rrule: "FREQ=DAILY", anchor: .due))],
             .refused(reason: "repeatWithoutDue", message: "item i\(next): a repeating item needs a due; give due, or clear repeat")),
            ("a uid another item holds", [Self.imported(next, "x", in: list, at: position, uid: "u"),
                                          Self.imported(next + 1, "y", in: other, at: position, uid: "u")],
             .refused(reason: "uidTaken", message: "uid: \"u\" is already item i\(next)")),
        ]
        for (what, items, expected) in cases {
            var engine = start
            let before = engine.fingerprint
            #expect(throws: expected, "\(what)") { _ = try engine.apply([.insertItems(items: items)]) }
            #expect(engine.fingerprint == before, "\(what) changes nothing")
            #expect(engine.state.item(withUID: "u") == nil)
        }
    }

    @Test func anItemTooDeepIsRefused() throws {
        var engine = Engine()
        let list = try engine.makeList()
        let first = engine.state.nextIdentifier
        let chain = (0...UInt64(Limits.maxDepth)).map { level in
            Self.imported(first + level, "level \(level)", in: list, parent: level == 0 ? nil : first + level - 1, at: .initial)
        }
        _ = try engine.apply([.insertItems(items: chain)])
        #expect(engine.state.depth(of: ItemID(first + UInt64(Limits.maxDepth))) == Limits.maxDepth)
        let before = engine.fingerprint
        let deeper = Self.imported(first + 100, "deeper", in: list, parent: first + UInt64(Limits.maxDepth), at: .initial)
        #expect(throws: DomainError.refused(reason: "tooDeep", message: "parent: item i\(first + 15) is at depth 15; its subtasks would be at depth 16 (at most 15)")) {
            _ = try engine.apply([.insertItems(items: [deeper])])
        }
        #expect(engine.fingerprint == before)
    }

    @Test func undoDeletesTheInsertedItemsAndRedoBringsThemBackWithTheirUIDsAndExtras() throws {
        var fixture = UndoFixture()
        let list = try fixture.engine.makeList()
        try fixture.engine.makeItems(["a"], in: list)
        try fixture.open(list, Sort(.manual), Window(start: 0, end: 10))
        let first = fixture.engine.state.nextIdentifier
        let positions = Position.between(fixture.engine.state.items(in: list, ranks: 0..<1)[0].position, nil, count: 2)
        let given = [Self.imported(first, "parent", in: list, at: positions[0], uid: "p", extras: Self.extras),
                     // (The fixture checks positions across the whole list: the child's lies between its neighbours'.)
                     Self.imported(first + 1, "child", in: list, parent: first, at: Position.between(positions[0], positions[1]), uid: "c"),
                     Self.imported(first + 2, "after", in: list, at: positions[1], extras: [Extra(key: "todotxt:h", value: "1")])]
        let before = StateImage(fixture.engine.state)
        let inserted = try fixture.apply([.insertItems(items: given)])
        #expect(!inserted.viewChanges.isEmpty, "the view shows the inserted items")
        #expect(try fixture.engine.snapshot(ViewID(1)).rows.count == 4)
        let after = StateImage(fixture.engine.state)

        let undo = try fixture.invert(inserted.changes)
        #expect(StateImage(fixture.engine.state) == before)
        #expect(fixture.engine.state.item(withUID: "p") == nil && fixture.engine.state.item(withUID: "c") == nil)
        #expect(undo.changes.items.allSatisfy { $0.new == nil })

        _ = try fixture.invert(undo.changes)
        #expect(StateImage(fixture.engine.state) == after)
        #expect(fixture.engine.state.item(withUID: "c")?.id == ItemID(first + 1))
        #expect(fixture.engine.item(ItemID(first))?.extras == Self.extras)
    }

    @Test func theInverseOfAnInsertIsADeleteOfItsTopItems() throws {
        var (engine, _, other, _) = try Self.setUp()
        let first = engine.state.nextIdentifier
        let applied = try engine.apply([.insertItems(items: [
            Self.imported(first, "p", in: other, at: .initial), Self.imported(first + 1, "c", in: other, parent: first, at: .initial),
        ])])
        #expect(try engine.inverse(of: applied.changes, at: Self.time) == [.deleteItems(ids: [ItemID(first)])])
    }

    @Test func insertedItemsCountInSmartListsAndScheduleTheirReminders() throws {
        var bench = try ReminderBench()
        let smart = SmartListID(bench.engine.state.nextIdentifier)
        _ = try bench.engine.apply([.createSmartList(id: smart, fields: SmartListFields(name: "Imported",
                                                                                       rule: SmartListRule(filter: Filter(tagsAnyOf: ["from-tw"]))),
                                                     before: nil)])
        let id = bench.engine.state.nextIdentifier
        let due = try Due(parsing: "2026-11-23T10:00:00+01:00")
        _ = try bench.engine.apply([.insertItems(items: [
            Self.imported(id, "call", in: bench.list, at: .initial, due: due, alerts: [.offset(minutes: -60)], tags: ["from-tw"]),
        ])])
        #expect(bench.engine.smartListCount(smart) == 1)
        #expect(bench.engine.nextReminder(now: bench.time) == reminderInstant("2026-11-23T08:00:00Z"))
        #expect(try bench.claim("2026-11-23T08:00:00Z") == [ReminderKey(item: ItemID(id), fireAt: reminderInstant("2026-11-23T08:00:00Z"))])
    }
}

/// The uid index across every path that puts or removes items, and what keeps a uid and extras.
struct ItemIdentityTests {
    static let time = InsertItemsTests.time

    static func withImported() throws -> (engine: Engine, list: ListID, other: ListID, id: ItemID) {
        var (engine, list, other, _) = try InsertItemsTests.setUp()
        let id = engine.state.nextIdentifier
        let rule = try RepeatRule(rrule: "FREQ=DAILY", anchor: .due)
        _ = try engine.apply([.insertItems(items: [
            InsertItemsTests.imported(id, "imported", in: list, at: Position.between(nil, engine.state.items(in: list, ranks: 0..<1)[0].position), uid: "uuid-x",
                                      extras: InsertItemsTests.extras, due: .date(CalendarDate(year: 2026, month: 11, day: 22)!),
                                      repeatRule: rule),
        ])])
        return (engine, list, other, ItemID(id))
    }

    @Test func updatesMovesAndAdvancesKeepTheUIDAndExtras() throws {
        var (engine, list, other, id) = try Self.withImported()
        let next = Due.date(CalendarDate(year: 2026, month: 11, day: 23)!)
        let groups: [[Mutation]] = [
            [.updateItems(ids: [id], patch: ItemPatch(title: "renamed", notes: "more", tags: ["t"]), at: Self.time)],
            [.moveItems(ids: [id], toList: other, before: nil, at: Self.time)],
            [.advanceItems(advances: [Advance(id: id, next: next, outcome: .completed)], at: Self.time)],
            [.moveItems(ids: [id], toList: list, before: nil, at: Self.time)],
            [.updateItems(ids: [id], patch: ItemPatch(done: true, repeatRule: .clear), at: Self.time)],
        ]
        for group in groups {
            let applied = try engine.apply(group)
            #expect(!applied.changes.isEmpty, "\(group) changes the item")
            let item = try #require(engine.item(id))
            #expect(item.uid == "uuid-x" && item.extras == InsertItemsTests.extras, "\(group) keeps them")
            #expect(engine.state.item(withUID: "uuid-x")?.id == id)
        }
    }

    @Test func aDuplicateCopiesTheExtrasButNotTheUID() throws {
        var (engine, _, _, id) = try Self.withImported()
        let copy = ItemID(engine.state.nextIdentifier)
        _ = try engine.apply(try engine.state.duplicates(of: [id], firstIdentifier: copy.rawValue, at: Self.time))
        let duplicate = try #require(engine.item(copy))
        #expect(duplicate.uid == nil && duplicate.extras == InsertItemsTests.extras && duplicate.title == "imported")
        #expect(engine.state.item(withUID: "uuid-x")?.id == id)
    }

    @Test func aCreationChecksTheExtrasItCarries() throws {
        var (engine, list, _, _) = try InsertItemsTests.setUp()
        let fields = ItemFields(title: "t", extras: [Extra(key: "ical:", value: "")])
        #expect(throws: DomainError.invalidField(field: "extras[0].key", problem: "must be format:name (a format of letters a to z, then a name)")) {
            _ = try engine.apply([.createItem(id: ItemID(engine.state.nextIdentifier), list: list, fields: fields, before: nil, at: Self.time)])
        }
    }

    @Test func deletingTheHolderFreesTheUIDInTheSameGroupInEitherOrder() throws {
        var (engine, list, other, id) = try Self.withImported()
        let next = engine.state.nextIdentifier
        let newcomer = InsertItemsTests.imported(next, "again", in: other, at: .initial, uid: "uuid-x")
        var deleteFirst = engine
        _ = try deleteFirst.apply([.deleteItems(ids: [id]), .insertItems(items: [newcomer])])
        #expect(deleteFirst.state.item(withUID: "uuid-x")?.id == ItemID(next))
        // Inserted first, the uid is shared for a moment: only what the group leaves counts.
        _ = try engine.apply([.insertItems(items: [newcomer]), .deleteItems(ids: [id])])
        #expect(engine.state.item(withUID: "uuid-x")?.id == ItemID(next))
        // Deleting a list frees its items' uids; undoing that takes them back.
        let applied = try engine.apply([.deleteList(id: other)])
        #expect(engine.state.item(withUID: "uuid-x") == nil)
        _ = try engine.apply(try engine.inverse(of: applied.changes, at: Self.time))
        #expect(engine.state.item(withUID: "uuid-x")?.id == ItemID(next))
        _ = list
    }

    @Test func aRestoreThatWouldShareAUIDIsRefusedAndOneThatSwapsThemIsNot() throws {
        var (engine, _, other, id) = try Self.withImported()
        let next = engine.state.nextIdentifier
        _ = try engine.apply([.insertItems(items: [InsertItemsTests.imported(next, "y", in: other, at: .initial, uid: "uuid-y")])])
        let holder = ItemID(next)
        var taking = engine.item(holder)!
        taking.uid = "uuid-x"
        taking.revision += 1
        let before = engine.fingerprint
        #expect(throws: DomainError.refused(reason: "uidTaken", message: "uid: \"uuid-x\" is already item \(id)")) {
            _ = try engine.apply([.restoreItems(items: [taking])])
        }
        #expect(engine.fingerprint == before)
        #expect(engine.state.item(withUID: "uuid-x")?.id == id && engine.state.item(withUID: "uuid-y")?.id == holder)
        var giving = engine.item(id)!
        giving.uid = "uuid-y"
        giving.revision += 1
        _ = try engine.apply([.restoreItems(items: [taking, giving])])
        #expect(engine.state.item(withUID: "uuid-x")?.id == holder && engine.state.item(withUID: "uuid-y")?.id == id)
    }

    @Test func aRestoredStateIndexesUIDsAndRefusesOneHeldTwice() throws {
        let (engine, _, _, id) = try Self.withImported()
        var items: [Item] = []
        engine.state.forEachItem { items.append($0) }
        let restored = try TaskState(restoring: engine.state.allLists, items: items, nextIdentifier: engine.state.nextIdentifier,
                                     revision: 1)
        #expect(restored.item(withUID: "uuid-x")?.id == id)
        #expect(items[0].id == id, "the imported item comes first")
        var twin = items[1]
        twin.uid = "uuid-x"
        items[1] = twin
        #expect(throws: DomainError.refused(reason: "uidTaken", message: "item \(twin.id): uid: \"uuid-x\" is already item \(id)")) {
            _ = try TaskState(restoring: engine.state.allLists, items: items, nextIdentifier: engine.state.nextIdentifier, revision: 1)
        }
    }
}

/// The bounds of a uid and of extras.
struct IdentityValidationTests {
    @Test(arguments: [
        (String?.none, nil),
        ("a", nil),
        (String(repeating: "é", count: 255), nil),
        ("", "uid: must not be empty"),
        (String(repeating: "x", count: 256), "uid: must be at most 255 characters"),
        ("tab\there", "uid: must not contain control characters"),
        ("c1\u{85}", "uid: must not contain control characters"),
    ] as [(String?, String?)])
    func uids(uid: String?, error: String?) {
        #expect(failure { () throws(DomainError) in try Validation.uid(uid) } == error)
    }

    @Test(arguments: [
        ([Extra(key: "taskwarrior:uda.estimate", value: "3")], nil),
        ([Extra(key: "ical:X-A;B", value: ";X-PARAM=1:a\tb\nc")], nil),
        ([Extra(key: "a:b:c", value: "")], nil),
        ([Extra(key: "nocolon", value: "")], "extras[0].key: must be format:name (a format of letters a to z, then a name)"),
        ([Extra(key: ":name", value: "")], "extras[0].key: must be format:name (a format of letters a to z, then a name)"),
        ([Extra(key: "tw2:name", value: "")], "extras[0].key: must be format:name (a format of letters a to z, then a name)"),
        ([Extra(key: "a:b", value: ""), Extra(key: "a:\u{0}", value: "")], "extras[1].key: must not contain control characters"),
        ([Extra(key: "a:" + String(repeating: "n", count: 199), value: "")], "extras[0].key: must be at most 200 characters"),
        ([Extra(key: "a:b", value: "cr\r")], "extras[0].value: must not contain control characters other than tab and line feed"),
        ([Extra(key: "a:b", value: String(repeating: "v", count: Limits.notesCharacters + 1))],
         "extras[0].value: must be at most \(Limits.notesCharacters) characters"),
        (Array(repeating: Extra(key: "a:b", value: ""), count: 501), "extras: must hold at most 500 extras"),
    ] as [([Extra], String?)])
    func extras(extras: [Extra], error: String?) {
        #expect(failure { () throws(DomainError) in try Validation.extras(extras) } == error)
    }

    @Test func fiveHundredExtrasAreAccepted() {
        #expect(failure { () throws(DomainError) in try Validation.extras(Array(repeating: Extra(key: "a:b", value: ""), count: 500)) } == nil)
    }

    private func failure(_ body: () throws(DomainError) -> Void) -> String? {
        do throws(DomainError) {
            try body()
            return nil
        } catch {
            return error.message
        }
    }
}
