// A seeded randomized test of smart groups, filters and sections: several views at once, random mutations,
// reconfigurations, index-addressed moves and clock advances across midnight in small chunks, checking after
// every change (and every chunk) that each reference client equals a fresh snapshot and the true rows.

import Testing
@testable import Domain
import TestSupport

struct RandomizedGroupTests {
    @Test(arguments: 0..<24)
    func randomSequencesKeepGroupedFilteredAndSmartViewsExact(seed: UInt64) throws {
        var run = GroupRun(seed: seed)
        try run.start()
        for _ in 0..<300 { try run.step() }
        #expect(run.advances > 0 && run.checkedRows > 0)
    }
}

private struct GroupRun: EngineRun {
    var random: SplitMix64
    var engine: Engine
    var clients = ClientSet()
    var builds: [BuiltIndex] = []
    /// Milliseconds since the start of the first day.
    var elapsed: Int64 = 9 * 3_600_000
    var advances = 0
    var checkedRows = 0
    let firstDay = day(2026, 11, 22)

    static let titles = ["apple", "Apple", "Éclair", "eclair", "banana", "Zoë", "zoe", "cherry"]
    static let sorts: [Sort] = SortField.allCases.flatMap { field in SortDirection.allCases.map { Sort(field, $0) } }
    static let sources: [ViewSource] = [.today, .scheduled, .overdue, .all, .completed]
    static let filters: [Filter] = [
        .all, Filter(text: "E"), Filter(done: .notDone), Filter(done: .done), Filter(tagsAnyOf: ["home", "work"]),
        Filter(tagsAllOf: ["home", "work"]), Filter(priorityAtLeast: .medium),
        Filter(dueBefore: .date(day(2026, 11, 24))), Filter(dueAfter: .date(day(2026, 11, 22))), Filter(text: "zz"),
    ]

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
        engine = Engine(backgroundBuildThreshold: seed % 2 == 0 ? 8 : 1_000)
    }

    /// The day at `elapsed`, with a 23-hour day now and then (a daylight saving change).
    var currentDay: Today {
        let dayIndex = elapsed.floorDivided(by: dayLength).quotient
        let date = CalendarDate(daysSinceEpoch: firstDay.daysSinceEpoch + dayIndex)
        let shifts = (0..<9).map { (firstDay.daysSinceEpoch + dayIndex + Int64($0)) % 5 == 0 ? -Int64(3_600_000) : 0 }
        var today = makeDay(date, shifts: shifts)
        today.now = Timestamp(milliseconds: firstDay.daysSinceEpoch * dayLength + elapsed)
        if today.now < today.dayStarts[0] { today.now = today.dayStarts[0] }
        if today.now >= today.dayStarts[1] { today.now = Timestamp(milliseconds: today.dayStarts[1].milliseconds - 1) }
        return today
    }

    mutating func start() throws {
        for name in ["A", "B", "C"] { _ = try engine.makeList(name) }
        try advance(to: currentDay, budget: 1_000)
        for _ in 0..<30 { try apply([createItem()]) }
        for _ in 0..<5 { try openView() }
    }

    mutating func step() throws {
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<24: try apply([createItem()])
        case 24..<40: try apply([updateItems()])
        case 40..<48: try apply([moveItems()])
        case 48..<52: try apply([.deleteItems(ids: someItems())])
        case 52..<58: try reconfigure()
        case 58..<63: try changeWindow()
        case 63..<66: try openView()
        case 66..<68: try closeView()
        case 68..<78: try advanceClock()
        case 78..<88: try moveByIndex()
        case 88..<92: try installBuild()
        case 92..<95: try apply([.moveLists(ids: [pick(lists)!], before: pick(lists))])
        case 95..<97: try apply([.updateList(id: pick(lists)!, patch: ListPatch(name: pick(["X", "Y", "Z"])))])
        case 97: try deleteAndRecreateList()
        default: try apply([createItem(), updateItems(), .deleteItems(ids: someItems())])
        }
        verifyTrueRows()
    }

    // MARK: Mutations

    var time: Timestamp { Timestamp(milliseconds: firstDay.daysSinceEpoch * dayLength + elapsed) }

    mutating func randomDue() -> Due? {
        switch Int.random(in: 0..<5, using: &random) {
        case 0: return nil
        case 1, 2:
            let date = CalendarDate(daysSinceEpoch: currentDay.date.daysSinceEpoch + Int64.random(in: -2...9, using: &random))
            return .date(date)
        default:
            let offset = Int64.random(in: -30...60, using: &random) * 3_600_000 + Int64.random(in: 0...2, using: &random)
            return .dateTime(Timestamp(milliseconds: currentDay.now.milliseconds + offset),
                             offsetSeconds: Int.random(in: -1...1, using: &random) * 3600)
        }
    }

    mutating func createItem() -> Mutation {
        let list = pick(lists)!
        let before = Bool.random(using: &random) ? pick(itemIDs(in: list)) : nil
        let fields = ItemFields(title: pick(Self.titles)!, notes: pick(["", "Ünder", "zz top"])!,
                                done: Int.random(in: 0..<4, using: &random) == 0, due: randomDue(),
                                priority: pick(Priority.allCases)!, tags: pick([[], ["home"], ["work"], ["home", "work"]])!)
        return .createItem(id: ItemID(engine.state.nextIdentifier), list: list, fields: fields, before: before, at: time)
    }

    mutating func updateItems() -> Mutation {
        var patch = ItemPatch()
        switch Int.random(in: 0..<6, using: &random) {
        case 0: patch.title = pick(Self.titles)
        case 1, 2: patch.due = randomDue().map { .set($0) } ?? .clear
        case 3: patch.priority = pick(Priority.allCases)
        case 4: patch.done = Bool.random(using: &random)
        default: patch.tags = pick([[], ["home"], ["work"], ["home", "work"]])
        }
        return .updateItems(ids: someItems(), patch: patch, at: time)
    }

    mutating func moveItems() -> Mutation {
        let moved = someItems()
        let destination = Bool.random(using: &random) ? pick(lists) : engine.item(moved.first ?? ItemID(0))?.list
        let candidates = destination.map { itemIDs(in: $0) }?.filter { !moved.contains($0) } ?? []
        let before = Bool.random(using: &random) ? pick(candidates) : nil
        return .moveItems(ids: moved, toList: destination, before: before, at: time)
    }

    mutating func apply(_ mutations: [Mutation]) throws {
        do {
            let applied = try engine.apply(mutations)
            clients.receive(applied.viewChanges, engine: engine)
        } catch {
            clients.verify(engine)
        }
    }

    mutating func deleteAndRecreateList() throws {
        guard lists.count > 1, let list = pick(lists) else { return }
        try apply([.deleteList(id: list)])
        try apply([.createList(id: ListID(engine.state.nextIdentifier), fields: ListFields(name: "N"), before: pick(lists))])
    }

    // MARK: Time

    /// Moves the clock on by minutes to days, often across midnight, in chunks of a few items, with a
    /// mutation now and then between chunks; every chunk leaves every view exact.
    mutating func advanceClock() throws {
        elapsed += pick([60_000, 3_600_000, 6 * 3_600_000, dayLength, 2 * dayLength + 7_000])!
        if Bool.random(using: &random), let next = engine.nextTimeChange, next > currentDay.now {
            elapsed = next.milliseconds - firstDay.daysSinceEpoch * dayLength
        }
        try advance(to: currentDay, budget: Int.random(in: 1...4, using: &random))
        advances += 1
    }

    mutating func advance(to today: Today, budget: Int) throws {
        for _ in 0..<10_000 {
            let advanced = engine.advance(to: today, budget: budget)
            clients.receive(advanced.changes, engine: engine)
            if advanced.finished { break }
            #expect(engine.nextTimeChange == nil)
            if Int.random(in: 0..<4, using: &random) == 0 { try apply([updateItems()]) }
            if Int.random(in: 0..<8, using: &random) == 0 { try apply([createItem()]) }
        }
        #expect(engine.today == today)
        if let next = engine.nextTimeChange { #expect(next > today.now && next <= today.dayStarts[1]) }
        let counts = Dictionary(uniqueKeysWithValues: engine.overview().groups.map { ($0.group, $0.count) })
        let items = engine.state.items.values.map(\.item)
        #expect(counts[.today] == items.filter { !$0.done && expectedBucket($0.due, today).isToday }.count)
        #expect(counts[.overdue] == items.filter { !$0.done && expectedBucket($0.due, today).bucket == .overdue }.count)
        #expect(counts[.scheduled] == items.filter { !$0.done && $0.due != nil }.count)
        #expect(counts[.all] == items.filter { !$0.done }.count)
        #expect(counts[.completed] == items.filter(\.done).count)
    }

    // MARK: Views

    mutating func randomWindow(count: Int) -> Window {
        let size = Int.random(in: 0...16, using: &random)
        let start = pick([0, 0, 0, 2, count / 2, max(0, count - size / 2), count + 1])!
        return Window(start: start, end: start + size)
    }

    mutating func randomSource() -> ViewSource {
        Int.random(in: 0..<3, using: &random) == 0 ? .list(pick(lists)!) : pick(Self.sources)!
    }

    mutating func openView() throws {
        let opened = try engine.openView(source: randomSource(), sort: pick(Self.sorts + Array(repeating: .manual, count: 8))!,
                                         filter: pick(Self.filters)!, grouping: pick(Grouping.allCases)!,
                                         window: randomWindow(count: 20))
        clients.open(opened.snapshot)
        if let build = opened.build { builds.append(build.run()) }
        clients.verify(engine)
    }

    mutating func reconfigure() throws {
        guard let view = pick(engine.openViews) else { return }
        let changed: SortChanged
        switch Int.random(in: 0..<3, using: &random) {
        case 0: changed = try engine.reconfigure(view, sort: pick(Self.sorts + Array(repeating: .manual, count: 8))!)
        case 1: changed = try engine.reconfigure(view, filter: pick(Self.filters)!)
        default: changed = try engine.reconfigure(view, grouping: pick(Grouping.allCases)!)
        }
        #expect(changed.change.operations.count == 1)
        clients.receiveGeneration(changed.change, engine: engine)
        if let build = changed.build { builds.append(build.run()) }
    }

    mutating func moveByIndex() throws {
        guard let view = pick(engine.openViews) else { return }
        let snapshot = try engine.snapshot(view)
        let count = snapshot.count ?? 0
        guard count > 0 else { return }
        let start = Int.random(in: 0..<count, using: &random)
        let rows = start..<min(count, start + Int.random(in: 1...2, using: &random))
        let target = Int.random(in: 0...(count - rows.count), using: &random)
        do {
            let mutation = try engine.moveMutation(view: view, rows: rows, to: target, seenVersion: snapshot.version, at: time)
            #expect(snapshot.sort == .manual)
            #expect((mutation == nil) == (target == start))
            if let mutation { try apply([mutation]) }
        } catch let error as DomainError {
            switch error {
            case .refused(let reason, _):
                #expect(reason == "sortedView" && snapshot.sort != .manual
                        || reason == "viewLoading" && snapshot.state != .ready
                        || reason == "crossSection" && snapshot.grouping != .none && snapshot.grouping != .list)
            case .invalidField(let field, _): #expect(snapshot.grouping != .none && (field == "from" || field == "to"))
            default: Issue.record("unexpected \(error)")
            }
        }
    }

    /// Every ready view's count, rows and empty reason equal the true ones computed from the state.
    mutating func verifyTrueRows() {
        // Ready views only: a view still loading has no rows to compare.
        for id in engine.openViews {
            guard let expected = engine.expectedRows(of: id), let snapshot = try? engine.snapshot(id) else { continue }
            checkedRows += expected.rows.count
            #expect(snapshot.count == expected.count, "count of view \(id) \(snapshot.source) \(snapshot.grouping)")
            #expect(snapshot.rows == expected.rows, "rows of view \(id) \(snapshot.source) \(snapshot.sort) \(snapshot.grouping)")
            if expected.count == 0 {
                let sourceEmpty = engine.expectedMembers(of: snapshot.source).isEmpty
                #expect(snapshot.empty == (sourceEmpty ? .noItems : .noMatches), "empty reason of view \(id)")
            } else {
                #expect(snapshot.empty == nil)
            }
        }
    }
}
