// The import planner: tasks matched by uid, lists by name, parents by uid; one group; twice changes nothing.

import TestSupport
import Testing
@testable import Domain

private let now = Timestamp(milliseconds: 1_790_000_000_000)

private func settings(_ into: ListID? = nil, skipInvalid: Bool = false) -> ImportSettings {
    ImportSettings(into: into, fileName: "tasks.txt", skipInvalid: skipInvalid, time: now)
}

/// Applies the plan of `document`, expecting no problems; returns the plan.
@discardableResult
private func importing(_ document: ExchangeDocument, into state: inout TaskState, _ into: ListID? = nil,
                       sourceLocation: SourceLocation = #_sourceLocation) throws -> ImportPlan {
    let plan = state.importPlan(document, settings: settings(into))
    #expect(plan.problems.isEmpty, "\(plan.problems)", sourceLocation: sourceLocation)
    if !plan.mutations.isEmpty { _ = try state.apply(plan.mutations) }
    return plan
}

/// The titles of a list's items in manual tree order, indented two spaces per depth.
private func outline(_ state: TaskState, _ list: ListID) -> [String] {
    state.items(in: list, ranks: 0..<state.itemCount(in: list)).map {
        String(repeating: "  ", count: state.depth(of: $0.id)) + $0.title
    }
}

private func listNamed(_ state: TaskState, _ name: String) -> ListID? {
    state.orderedLists.first { $0.name == name }?.id
}

@Test func anImportMakesListsByNameAndPutsParentsBeforeTheirSubtasks() throws {
    var state = TaskState()
    let document = ExchangeDocument(tasks: [
        ExchangeTask(uid: "c", list: "Trip", parentUID: "a", title: "Book flights", line: 1),
        ExchangeTask(uid: "a", list: "Trip", title: "Plan trip", createdAt: Timestamp(milliseconds: 1_000), line: 2),
        ExchangeTask(uid: "b", title: "Call mum", done: true, completedAt: Timestamp(milliseconds: 5_000), line: 3),
        ExchangeTask(uid: "d", list: "Trip", title: "Pack", line: 4),
    ])
    let plan = try importing(document, into: &state)
    #expect(plan.created == 4 && plan.updated == 0 && plan.unchanged == 0)
    #expect(plan.createdLists == ["Trip", "Inbox"])
    let trip = try #require(listNamed(state, "Trip"))
    #expect(outline(state, trip) == ["Plan trip", "  Book flights", "Pack"])
    let inbox = try #require(listNamed(state, "Inbox"))
    let call = try #require(state.item(withUID: "b"))
    #expect(call.list == inbox && call.done && call.completedAt == Timestamp(milliseconds: 5_000))
    #expect(state.item(withUID: "a")?.createdAt == Timestamp(milliseconds: 1_000))
    #expect(state.item(withUID: "c")?.parent == state.item(withUID: "a")?.id)
}

@Test func importingTheSameFileTwiceChangesNothingTheSecondTime() throws {
    var state = TaskState()
    let document = ExchangeDocument(tasks: [
        ExchangeTask(uid: "a", list: "Work", title: "Report", due: .date(CalendarDate(year: 2026, month: 12, day: 1)!),
                     priority: .high, tags: ["q4"], extras: [Extra(key: "taskwarrior:wait", value: "\"20261130T000000Z\"")]),
        ExchangeTask(uid: "b", list: "Work", parentUID: "a", title: "Draft"),
    ])
    try importing(document, into: &state)
    let revision = state.revision
    let again = state.importPlan(document, settings: settings())
    #expect(again.mutations.isEmpty && again.created == 0 && again.updated == 0 && again.unchanged == 2)
    #expect(state.revision == revision)
    var edited = document
    edited.tasks[0].title = "Quarterly report"
    edited.tasks[0].extras = [Extra(key: "taskwarrior:wait", value: "\"20261201T000000Z\"")]
    let update = try importing(edited, into: &state)
    #expect(update.updated == 1 && update.unchanged == 1 && update.created == 0)
    let report = try #require(state.item(withUID: "a"))
    #expect(report.title == "Quarterly report" && report.revision == 2)
    #expect(report.extras == [Extra(key: "taskwarrior:wait", value: "\"20261201T000000Z\"")])
}

@Test func anExportedItemWithoutAUIDIsFoundAgainByTheUIDTheExportGaveIt() throws {
    var state = TaskState()
    let list = ListID(1)
    _ = try state.apply([.createList(id: list, fields: ListFields(name: "Home"), before: nil),
                         .createItem(id: ItemID(2), list: list, fields: ItemFields(title: "Water plants"), before: nil, at: now)])
    let exported = state.exportDocument()
    let uid = try #require(exported.tasks.first?.uid)
    #expect(ExchangeIdentity.isDerived(uid))
    #expect(uid.count == 36 && uid.split(separator: "-").map(\.count) == [8, 4, 4, 4, 12])
    #expect(state.matchingItem(uid: uid)?.id == ItemID(2))
    var edited = exported
    edited.tasks[0].done = true
    let plan = try importing(edited, into: &state)
    #expect(plan.updated == 1 && plan.created == 0)
    #expect(state.item(ItemID(2))?.done == true && state.item(ItemID(2))?.uid == nil)
    // The same uid in another store (another creation time) is a new task there.
    var other = TaskState()
    _ = try other.apply([.createList(id: list, fields: ListFields(name: "Home"), before: nil),
                         .createItem(id: ItemID(2), list: list, fields: ItemFields(title: "Water plants"), before: nil,
                                     at: Timestamp(milliseconds: now.milliseconds + 1))])
    #expect(other.matchingItem(uid: uid) == nil)
}

@Test func derivedUIDsReadBackTheirIdAndStamp() {
    var random = SplitMix64(seed: 20)
    for _ in 0..<2_000 {
        let id = ItemID(random.next() & 0x3FFF_FFFF_FFFF_FFFF)
        let stamp = random.next() & 0xFFFF_FFFF_FFFF
        let uid = ExchangeIdentity.derivedUID(id: id, stamp: stamp)
        let parsed = ExchangeIdentity.parse(uid)
        #expect(parsed?.0 == id && parsed?.1 == stamp, "\(uid)")
    }
    #expect(ExchangeIdentity.parse("4b7e1e4c-7f4e-4b0c-9a0e-2f1a3b4c5d6e") == nil)
    #expect(ExchangeIdentity.parse("00000000-0000-87a5-c000-000000000000") == nil)
}

@Test func problemsNameTheLineAndRefuseTheWholeFileUnlessSkipped() throws {
    let document = ExchangeDocument(tasks: [
        ExchangeTask(uid: "a", title: "Fine", line: 1),
        ExchangeTask(uid: "a", title: "Twice", line: 2),
        ExchangeTask(uid: "x", parentUID: "y", title: "Loop one", line: 3),
        ExchangeTask(uid: "y", parentUID: "x", title: "Loop two", line: 4),
        ExchangeTask(uid: "z", parentUID: "nobody", title: "Orphan", line: 5),
        ExchangeTask(uid: "t", title: String(repeating: "w", count: Limits.titleCharacters + 1), line: 6),
        ExchangeTask(uid: "r", title: "Repeats without due", repeatRule: try RepeatRule(rrule: "FREQ=DAILY"), line: 7),
    ])
    var state = TaskState()
    let plan = state.importPlan(document, settings: settings())
    #expect(plan.mutations.isEmpty)
    let lines = plan.problems.map(\.line)
    #expect(lines.contains(2) && lines.contains(5) && lines.contains(6) && lines.contains(7))
    #expect(lines.contains(3) || lines.contains(4))
    #expect(plan.problems.first { $0.line == 2 }?.description == "tasks.txt:2: uid: \"a\" appears twice (lines 1 and 2)")
    #expect(plan.problems.first { $0.line == 5 }?.message == "no task or item has the uid \"nobody\"")
    let skipping = state.importPlan(document, settings: settings(skipInvalid: true))
    #expect(skipping.problems.isEmpty && !skipping.skipped.isEmpty)
    _ = try state.apply(skipping.mutations)
    #expect(state.item(withUID: "a")?.title == "Fine")
    #expect(state.item(withUID: "z") == nil && state.item(withUID: "t") == nil && state.item(withUID: "r") == nil)
}

@Test func aListNameWithUnderscoresFindsTheListWithSpaces() throws {
    var state = TaskState()
    _ = try state.apply([.createList(id: ListID(1), fields: ListFields(name: "Home Stuff"), before: nil)])
    let plan = try importing(ExchangeDocument(tasks: [ExchangeTask(list: "Home_Stuff", title: "Fix tap")]), into: &state)
    #expect(plan.createdLists.isEmpty)
    #expect(outline(state, ListID(1)) == ["Fix tap"])
}

@Test func aTaskTheFilePutsInAnotherListMovesThereWithItsSubtree() throws {
    var state = TaskState()
    let document = ExchangeDocument(tasks: [
        ExchangeTask(uid: "p", list: "A", title: "Parent"),
        ExchangeTask(uid: "c", list: "A", parentUID: "p", title: "Child"),
    ])
    try importing(document, into: &state)
    // The file now says the parent is in B, and says nothing of the child's parent (a format without subtasks).
    let moved = ExchangeDocument(tasks: [ExchangeTask(uid: "p", list: "B", title: "Parent"),
                                         ExchangeTask(uid: "c", list: "B", title: "Child")])
    let plan = try importing(moved, into: &state)
    #expect(plan.createdLists == ["B"] && plan.updated == 1 && plan.unchanged == 1)
    let b = try #require(listNamed(state, "B"))
    #expect(outline(state, b) == ["Parent", "  Child"])
    #expect(state.itemCount(in: try #require(listNamed(state, "A"))) == 0)
}

@Test func undoingAnImportTakesItAllBack() throws {
    var state = TaskState()
    _ = try state.apply([.createList(id: ListID(1), fields: ListFields(name: "Inbox"), before: nil)])
    let before = state
    let plan = state.importPlan(ExchangeDocument(tasks: [
        ExchangeTask(uid: "a", title: "One"), ExchangeTask(uid: "b", parentUID: "a", title: "Two"),
        ExchangeTask(uid: "c", list: "New", title: "Three"),
    ]), settings: settings())
    let changes = try state.apply(plan.mutations)
    #expect(state.itemCount == 3)
    _ = try state.apply(try state.inverse(of: changes, at: now))
    #expect(state.itemCount == 0 && state.item(withUID: "a") == nil)
    #expect(state.orderedLists.map(\.name) == before.orderedLists.map(\.name))
}

/// Random documents: imported, exported, imported again into the same state (nothing changes) and into a fresh
/// one (the same outline and fields).
@Test func randomDocumentsSurviveAnExportAndAReimport() throws {
    var random = SplitMix64(seed: 2020)
    var tasksSeen = 0
    for round in 0..<40 {
        var tasks: [ExchangeTask] = []
        let count = Int(random.next() % 30) + 1
        for index in 0..<count {
            let parent = index > 0 && random.next() % 3 == 0 ? tasks[Int(random.next() % UInt64(index))] : nil
            let list = parent?.list ?? ["Work", "Home", nil][Int(random.next() % 3)]
            let due: Due? = random.next() % 2 == 0 ? .date(CalendarDate(daysSinceEpoch: Int64(20_000 + random.next() % 400))) : nil
            tasks.append(ExchangeTask(uid: "u\(round)-\(index)", list: list, parentUID: parent?.uid,
                                      title: "task \(index) \(random.next() % 1000)", notes: random.next() % 4 == 0 ? "n" : "",
                                      done: random.next() % 4 == 0, due: due,
                                      priority: Priority.allCases[Int(random.next() % 4)],
                                      tags: random.next() % 3 == 0 ? ["t\(random.next() % 5)"] : [],
                                      extras: random.next() % 5 == 0 ? [Extra(key: "ical:X-A", value: ":\(index)")] : [],
                                      line: index + 1))
        }
        tasks.shuffle(using: &random)
        var state = TaskState()
        try importing(ExchangeDocument(tasks: tasks), into: &state)
        #expect(state.itemCount == count)
        tasksSeen += count
        let exported = state.exportDocument()
        #expect(exported.tasks.count == count)
        let again = state.importPlan(exported, settings: settings())
        #expect(again.mutations.isEmpty && again.unchanged == count, "round \(round)")
        var fresh = TaskState()
        try importing(exported, into: &fresh)
        for list in state.orderedLists {
            let copy = try #require(listNamed(fresh, list.name))
            #expect(outline(fresh, copy) == outline(state, list.id), "round \(round)")
        }
        for task in exported.tasks {
            let uid = try #require(task.uid)
            let item = try #require(fresh.item(withUID: uid))
            #expect(item.title == task.title && item.done == task.done && item.due == task.due && item.tags == task.tags
                    && item.extras == task.extras && item.priority == task.priority && item.createdAt == task.createdAt)
        }
    }
    #expect(tasksSeen > 400)
}
