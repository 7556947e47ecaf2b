// A seeded randomized test against an independent model (`OrderModel`): random creates, updates, deletes, moves by
// id and by index, list moves, creations and deletions, through the engine; after every step every list's order and
// every open view's rows (all of them: sections, ties, descending, hidden rows) must equal the model's.

import Testing
@testable import Domain
import TestSupport

struct RandomizedOracleTests {
    @Test(arguments: 0..<16)
    func everyViewEqualsTheModelAfterEveryStep(seed: UInt64) throws {
        var run = OracleRun(seed: seed)
        try run.start()
        for _ in 0..<400 { try run.step() }
        // Real work: most mutations changed something, moves by index landed, lists moved, rows were compared.
        #expect(run.changed * 10 >= run.mutations * 6, "\(run.changed) of \(run.mutations) mutations changed something")
        #expect(run.indexMoves >= 15, "\(run.indexMoves) moves by index")
        #expect(run.refusedIndexMoves >= 3, "\(run.refusedIndexMoves) moves by index refused")
        #expect(run.crossListIndexMoves >= 2, "\(run.crossListIndexMoves) moves by index into another list")
        #expect(run.idMoves >= 10 && run.listMoves >= 5, "\(run.idMoves) moves by id, \(run.listMoves) list moves")
        #expect(run.comparedRows >= 4_000, "\(run.comparedRows) rows compared")
    }
}

private struct OracleRun {
    var random: SplitMix64
    var engine = Engine()
    var model: OrderModel
    var clients = ClientSet()
    var views: [ViewID: ModelSpec] = [:]
    var time: Int64 = 0
    var mutations = 0
    var changed = 0
    var indexMoves = 0
    var crossListIndexMoves = 0
    var refusedIndexMoves = 0
    var idMoves = 0
    var listMoves = 0
    var comparedRows = 0

    static let today = makeDay(day(2026, 11, 22), after: 10 * 3_600_000)
    static let titles = ["apple", "Apple", "b", "B", "cherry", "apple pie"]
    static let groupings: [Grouping] = [.none, .none, .none, .list, .priority, .done, .dueBucket]

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
        model = OrderModel(today: Self.today)
    }

    mutating func pick<T>(_ values: [T]) -> T? {
        values.isEmpty ? nil : values[Int.random(in: 0..<values.count, using: &random)]
    }

    /// One to `most` distinct values.
    mutating func some<T: Equatable>(_ values: [T], most: Int = 3) -> [T] {
        var chosen: [T] = []
        for _ in 0..<Int.random(in: 1...most, using: &random) {
            if let value = pick(values), !chosen.contains(value) { chosen.append(value) }
        }
        return chosen
    }

    var itemIDs: [ItemID] { model.items.keys.sorted() }

    mutating func start() throws {
        _ = engine.advance(to: Self.today, budget: 1_000)
        for _ in 0..<3 { try createList() }
        for _ in 0..<25 { try createItem() }
        for _ in 0..<6 { try openView() }
    }

    mutating func step() throws {
        time += Int64.random(in: 0...1, using: &random)
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<18: try model.items.count < 60 ? createItem() : deleteItems()
        case 18..<30: try updateItems()
        case 30..<35: try deleteItems()
        case 35..<48: try moveByID()
        case 48..<72: try moveByIndex()
        case 72..<80: try moveLists()
        case 80..<84: try createList()
        case 84..<87: try model.lists.count > 2 ? deleteList() : createList()
        case 87..<94: try reconfigure()
        default: try openView()
        }
        verify()
    }

    // MARK: Mutations

    /// Applies one mutation the model says is `accepted` (or must be refused), and the views' changes.
    mutating func apply(_ mutation: Mutation, accepted: Bool) {
        mutations += 1
        let revision = engine.revision
        do {
            let applied = try engine.apply([mutation])
            #expect(accepted, "\(mutation) should have been refused")
            clients.receive(applied.viewChanges, engine: engine)
            if applied.revision != revision { changed += 1 }
        } catch {
            #expect(!accepted, "\(mutation) refused: \(error)")
            clients.verify(engine)
        }
        for view in views.keys where !engine.openViews.contains(view) { views[view] = nil }
    }

    mutating func randomDue() -> Due? {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return nil
        case 1: return .date(CalendarDate(daysSinceEpoch: Self.today.date.daysSinceEpoch + Int64.random(in: -2...3, using: &random)))
        default:
            // Whole hours, so that wall-clock readings often tie across offsets.
            let hours = Int64.random(in: -30...60, using: &random)
            let offset = Int.random(in: -2...2, using: &random) * 3600
            return .dateTime(Timestamp(milliseconds: Self.today.now.milliseconds + hours * 3_600_000 - Int64(offset) * 1000),
                             offsetSeconds: offset)
        }
    }

    mutating func createList() throws {
        let id = ListID(engine.state.nextIdentifier)
        let before = Bool.random(using: &random) ? pick(model.lists) : nil
        apply(.createList(id: id, fields: ListFields(name: "L\(id.rawValue)"), before: before), accepted: true)
        model.createList(id, before: before)
    }

    mutating func deleteList() throws {
        let list = pick(model.lists)!
        apply(.deleteList(id: list), accepted: true)
        model.deleteList(list)
    }

    mutating func moveLists() throws {
        let block = some(model.lists, most: 2)
        let before = Bool.random(using: &random) ? pick(model.lists) : nil
        let accepted = before.map { !block.contains($0) } ?? true
        apply(.moveLists(ids: block, before: before), accepted: accepted)
        if accepted {
            model.moveLists(block, before: before)
            listMoves += 1
        }
    }

    mutating func createItem() throws {
        let id = ItemID(engine.state.nextIdentifier)
        let list = pick(model.lists)!
        let before = Bool.random(using: &random) ? pick(model.orders[list]!) : nil
        let item = ModelItem(id: id, list: list, title: pick(Self.titles)!, done: Int.random(in: 0..<4, using: &random) == 0,
                             due: randomDue(), priority: pick(Priority.allCases)!, tags: pick([[], ["home"], ["work"]])!,
                             created: time)
        let fields = ItemFields(title: item.title, done: item.done, due: item.due, priority: item.priority, tags: item.tags)
        apply(.createItem(id: id, list: list, fields: fields, before: before, at: Timestamp(milliseconds: time)), accepted: true)
        model.createItem(item, before: before)
    }

    mutating func updateItems() throws {
        let ids = some(itemIDs, most: 2)
        guard !ids.isEmpty else { return try createItem() }
        var patch = ItemPatch()
        switch Int.random(in: 0..<5, using: &random) {
        case 0: patch.title = pick(Self.titles)
        case 1: patch.done = Bool.random(using: &random)
        case 2: patch.due = randomDue().map { .set($0) } ?? .clear
        case 3: patch.priority = pick(Priority.allCases)
        default: patch.tags = pick([[], ["home"], ["work"]])
        }
        apply(.updateItems(ids: ids, patch: patch, at: Timestamp(milliseconds: time)), accepted: true)
        for id in ids {
            if let title = patch.title { model.items[id]!.title = title }
            if let done = patch.done { model.items[id]!.done = done }
            if let due = patch.due { model.items[id]!.due = due.value }
            if let priority = patch.priority { model.items[id]!.priority = priority }
            if let tags = patch.tags { model.items[id]!.tags = tags }
        }
    }

    mutating func deleteItems() throws {
        let ids = some(itemIDs, most: 2)
        guard !ids.isEmpty else { return try createItem() }
        apply(.deleteItems(ids: ids), accepted: true)
        model.deleteItems(ids)
    }

    mutating func moveByID() throws {
        let ids = some(itemIDs)
        guard !ids.isEmpty else { return try createItem() }
        let list = Int.random(in: 0..<3, using: &random) == 0 ? pick(model.lists) : nil
        let before = Bool.random(using: &random) ? pick(itemIDs) : nil
        var moved = model
        let accepted = moved.moveItems(ids, toList: list, before: before)
        apply(.moveItems(ids: ids, toList: list, before: before, at: Timestamp(milliseconds: time)), accepted: accepted)
        if accepted {
            model = moved
            idMoves += 1
        }
    }

    mutating func moveByIndex() throws {
        // Mostly a view in manual order (the others are refused, which is checked too).
        let manual = views.keys.sorted().filter { views[$0]!.sort == .manual && model.rows(views[$0]!, modified: modifiedTimes).count > 1 }
        guard let view = Int.random(in: 0..<5, using: &random) > 0 && !manual.isEmpty ? pick(manual) : pick(views.keys.sorted())
        else { return try openView() }
        let spec = views[view]!
        let rows = model.rows(spec, modified: modifiedTimes)
        guard !rows.isEmpty else { return }
        let start = Int.random(in: 0..<rows.count, using: &random)
        let range = start..<min(rows.count, start + Int.random(in: 1...3, using: &random))
        // Now and then dropped where it is (no change); else somewhere else when there is anywhere else.
        let places = rows.count - range.count
        let target = places == 0 || Int.random(in: 0..<8, using: &random) == 0 ? start
            : (start + Int.random(in: 1...places, using: &random)) % (places + 1)
        let expected = OrderModel.move(spec, rows, from: range, to: target)
        let mutation: Mutation?
        do {
            mutation = try engine.moveMutation(view: view, rows: range, to: target, seenVersion: try engine.snapshot(view).version,
                                               at: Timestamp(milliseconds: time))
        } catch {
            switch error {
            case .refused(let reason, _): #expect(expected == .refused(reason), "\(spec) \(range) to \(target)")
            case .invalidField(let field, _): #expect(expected == .refused(field), "\(spec) \(range) to \(target)")
            default: Issue.record("unexpected \(error)")
            }
            refusedIndexMoves += 1
            return
        }
        #expect(expected != .refused("sortedView") && expected != .refused("from") && expected != .refused("to")
                && expected != .refused("crossSection"), "\(spec) \(range) to \(target) should be refused as \(expected)")
        guard let mutation else {
            #expect(expected == .nothing, "\(spec) \(range) to \(target) changed nothing, expected \(expected)")
            return
        }
        #expect(expected != .nothing, "\(spec) \(range) to \(target) should change nothing")
        let block = rows[range].compactMap(\.item)
        let lists = Set(block.map { model.items[$0]!.list })
        apply(mutation, accepted: true)
        model.place(block, expected, lastOfBlock: block.last!)
        indexMoves += 1
        if lists != Set(block.map { model.items[$0]!.list }) { crossListIndexMoves += 1 }
    }

    // MARK: Views

    mutating func randomSpec() -> ModelSpec {
        let source = Int.random(in: 0..<5, using: &random) < 2 ? ViewSource.list(pick(model.lists)!)
            : pick([ViewSource.all, .all, .today, .scheduled, .overdue, .completed])!
        let sort = Bool.random(using: &random) ? Sort.manual
            : Sort(pick(SortField.allCases)!, pick(SortDirection.allCases)!)
        return ModelSpec(source: source, sort: sort, filter: pick(ModelFilter.allCases)!, grouping: pick(Self.groupings)!)
    }

    mutating func openView() throws {
        if views.count >= 8, let view = pick(Array(views.keys).sorted()) {
            try engine.closeView(view)
            clients.clients[view] = nil
            views[view] = nil
        }
        let spec = randomSpec()
        let opened = try engine.openView(source: spec.source, sort: spec.sort, filter: spec.filter.filter, grouping: spec.grouping,
                                         window: Window(start: 0, end: 1_000))
        views[opened.snapshot.view] = spec
        clients.open(opened.snapshot)
    }

    mutating func reconfigure() throws {
        guard let view = pick(Array(views.keys).sorted()) else { return try openView() }
        var spec = randomSpec()
        spec.source = views[view]!.source
        let changed = try engine.reconfigure(view, sort: spec.sort, filter: spec.filter.filter, grouping: spec.grouping)
        clients.receiveGeneration(changed.change, engine: engine)
        views[view] = spec
    }

    // MARK: Checks

    var modifiedTimes: [ItemID: Int64] {
        // When an item was last modified is the engine's to say; the model orders by it.
        model.items.keys.reduce(into: [:]) { $0[$1] = engine.item($1)!.modifiedAt.milliseconds }
    }

    /// The lists, each list's order, the items' fields and every view's rows equal the model's.
    mutating func verify() {
        #expect(engine.state.orderedLists.map(\.id) == model.lists, "lists' order")
        for list in model.lists {
            let items = engine.state.items(in: list, ranks: 0..<engine.state.itemCount(in: list))
            #expect(items.map(\.id) == model.orders[list]!, "order of \(list)")
            for item in items {
                let expected = model.items[item.id]!
                #expect(item.list == expected.list && item.title == expected.title && item.done == expected.done
                        && item.due == expected.due && item.priority == expected.priority && item.tags == expected.tags,
                        "fields of \(item.id)")
            }
        }
        #expect(engine.state.items.count == model.items.count)
        let modified = modifiedTimes
        for (view, spec) in views.sorted(by: { $0.key < $1.key }) {
            guard let snapshot = try? engine.snapshot(view) else {
                Issue.record("view \(view) should be open")
                continue
            }
            let expected = model.rows(spec, modified: modified).map { row in
                switch row {
                case .header(let section, let count): "\(section)×\(count)"
                case .item(let id, _): "\(id)"
                }
            }
            let shown = snapshot.rows.map { row in
                switch row {
                case .header(let header): "\(header.section)×\(header.count)"
                case .item(let item, _): "\(item.id)"
                }
            }
            #expect(shown == expected, "rows of \(view): \(spec)")
            #expect(snapshot.count == expected.count, "count of \(view)")
            comparedRows += expected.count
        }
    }
}
