// Views benchmark: opening views, building indexes and per-mutation cost with three open views, at several list sizes.

import Domain
import TestSupport

/// Runs the views benchmark for one list of each size (three open views: manual, by due, by title; 100-row
/// windows, the manual one in the middle of the list so that half the mutations shift it) and returns its tables.
/// Times exclude any I/O; "rows", "ops" and "bytes" count what all notifications of one mutation carry
/// (bytes: the framed `view/changed` messages as the server writes them).
func runViewsBenchmark(sizes: [Int]) -> String {
    do {
        return try measureViews(sizes: sizes)
    } catch {
        return "views: the benchmark failed: \(error)"
    }
}

private func measureViews(sizes: [Int]) throws -> String {
    var mutations: [[String]] = []
    var views: [[String]] = []
    var groups: [[String]] = []
    var listMoves: [[String]] = []
    for size in sizes {
        var bench = ViewsBenchmark(size: size)
        let load = try bench.load()
        var cells = [String(size), format(load * 1e6, 2)]
        for sort in [Sort(.due), Sort(.title, .descending)] {
            let build = try bench.openMeasured(sort)
            cells += [format(build.answer * 1e3, 2), build.background ? format(build.build * 1e3, 0) : "-",
                      build.background ? format(build.install * 1e3, 2) : "-",
                      build.background ? format(build.firstMutation * 1e3, 2) : "-"]
        }
        views.append([cells[0], cells[1], format(try bench.openIndexedMedian() * 1e3, 3)] + cells.dropFirst(2))
        try bench.openBenchViews()
        for kind in ViewsBenchmark.Kind.allCases {
            let result = try bench.measure(kind, iterations: 3_000)
            mutations.append([String(size), kind.rawValue, format(result.p50 * 1e6, 2), format(result.p99 * 1e6, 2),
                              format(result.rows, 2), format(result.operations, 2), format(result.bytes, 0)])
        }
        groups.append(try bench.measureSmartGroups())
        listMoves.append(try bench.measureListMoves())
    }
    return table("views: per-mutation cost, apply + changesets of 3 open views (manual @ middle, due @ top, title @ top; 100-row windows)",
                 ["items", "mutation", "p50 µs", "p99 µs", "rows/mutation", "ops/mutation", "bytes/mutation"], mutations)
        + "\n" + table("views: opening (sources over \(Engine().backgroundBuildThreshold) items index new orders off the message loop)",
                       ["items", "load µs/item", "open indexed ms", "due: answer ms", "build ms", "install ms",
                        "next mutation ms", "title desc: answer ms", "build ms", "install ms", "next mutation ms"], views)
        + "\n" + table("views: smart groups and time (the 3 views above plus Today and Scheduled grouped by due bucket; chunks of \(Engine.defaultTimeBudget) items, the server's)",
                       ["items", "first day: chunks", "total ms", "max chunk ms", "update p50 µs", "create p50 µs",
                        "midnight: ≤ items", "chunks", "total ms", "max chunk ms", "Today count"], groups)
        + "\n" + listMovesTable(listMoves)
}

/// Runs only the `lists/move` table (`taskls-bench lists-move`): for each size, loads the list and opens the
/// views that `runViewsBenchmark` has open when it reaches that table, then times the moves.
func runListMovesBenchmark(sizes: [Int]) -> String {
    do {
        var rows: [[String]] = []
        for size in sizes {
            var bench = ViewsBenchmark(size: size)
            _ = try bench.load()
            try bench.openBenchViews()
            try bench.openTimeViews()
            rows.append(try bench.measureListMoves())
        }
        return listMovesTable(rows)
    } catch {
        return "lists-move: the benchmark failed: \(error)"
    }
}

private func listMovesTable(_ rows: [[String]]) -> String {
    table("views: lists/move with the views above plus All by priority and All by due descending open (lists Tenth, Big, Small hold items/10, items and 100 items; a move re-keys, in every smart-group order, the items of the side that holds fewer: the moved lists or the lists they jump over)",
          ["items", "smart-group orders", "Big past Small: p50 ms", "max ms", "Small past Big: p50 µs",
           "Tenth past Big: p50 ms", "max ms"], rows)
}

private func seconds(_ duration: Duration) -> Double {
    let parts = duration.components
    return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
}

/// One list of `size` items in an engine, and the state of the measurement.
private struct ViewsBenchmark {
    enum Kind: String, CaseIterable {
        case move, delete, create
        case update = "update key"
    }

    struct Result {
        var p50: Double
        var p99: Double
        var rows: Double
        var operations: Double
        var bytes: Double
    }

    let size: Int
    var engine = Engine()
    var random = SplitMix64(seed: 42)
    var items: [ItemID] = []
    var list = ListID(1)
    var clock: Int64 = 1_795_300_000_000

    static let words = ["alpha", "Beta", "gamma", "Éclair", "delta", "zeta", "omega", "kappa", "Ünter", "lambda"]

    init(size: Int) { self.size = size }

    mutating func fields() -> ItemFields {
        let title = Self.words[Int.random(in: 0..<Self.words.count, using: &random)] + " "
            + String(Int.random(in: 0..<1_000_000, using: &random))
        let due: Due? = Int.random(in: 0..<4, using: &random) == 0 ? nil
            : .date(CalendarDate(year: 2026, month: Int.random(in: 1...12, using: &random), day: Int.random(in: 1...28, using: &random))!)
        return ItemFields(title: title, due: due, priority: Priority.allCases[Int.random(in: 0..<4, using: &random)])
    }

    /// Fills the list through ordinary mutations; returns the mean seconds per item.
    mutating func load() throws -> Double {
        list = ListID(engine.state.nextIdentifier)
        _ = try engine.apply([.createList(id: list, fields: ListFields(name: "Bench"), before: nil)])
        items.reserveCapacity(size)
        let start = ContinuousClock.now
        for _ in 0..<size {
            let id = ItemID(engine.state.nextIdentifier)
            _ = try engine.apply([.createItem(id: id, list: list, fields: fields(), before: nil, at: Timestamp(milliseconds: clock))])
            items.append(id)
        }
        return seconds(ContinuousClock.now - start) / Double(size)
    }

    struct Build {
        /// Seconds to answer the open request (building the index too when it is small).
        var answer: Double
        var background = false
        /// Seconds of `IndexBuild.run`, off the message loop.
        var build: Double = 0
        /// Seconds of `Engine.install`.
        var install: Double = 0
        /// Seconds of the first mutation after the build's snapshot (it pays the copy of the shared item storage).
        var firstMutation: Double = 0
    }

    /// Opens a view whose order is not indexed yet, builds and installs its index, closes it.
    mutating func openMeasured(_ sort: Sort) throws -> Build {
        var start = ContinuousClock.now
        let opened = try engine.openView(source: .list(list), sort: sort, window: Window(start: 0, end: 100))
        var result = Build(answer: seconds(ContinuousClock.now - start))
        if let job = opened.build {
            result.background = true
            let mutation = mutation(.update, iteration: 0)
            start = ContinuousClock.now
            _ = try engine.apply([mutation])
            result.firstMutation = seconds(ContinuousClock.now - start)
            start = ContinuousClock.now
            let built = job.run()
            result.build = seconds(ContinuousClock.now - start)
            start = ContinuousClock.now
            let changes = engine.install(built)
            result.install = seconds(ContinuousClock.now - start)
            precondition(changes.count == 1)
        }
        try engine.closeView(opened.snapshot.view)
        return result
    }

    /// The median time to open a view on an indexed order (manual) and get its first 100-row window.
    mutating func openIndexedMedian() throws -> Double {
        var times: [Double] = []
        for round in 0..<21 {
            let start = ContinuousClock.now
            let opened = try engine.openView(source: .list(list), sort: .manual,
                                              window: Window(start: round * (size / 21), end: round * (size / 21) + 100))
            times.append(seconds(ContinuousClock.now - start))
            precondition(opened.snapshot.rows.count == 100)
            try engine.closeView(opened.snapshot.view)
        }
        return times.sorted()[times.count / 2]
    }

    mutating func openBenchViews() throws {
        _ = try engine.openView(source: .list(list), sort: .manual, window: Window(start: size / 2, end: size / 2 + 100))
        for sort in [Sort(.due), Sort(.title)] {
            let opened = try engine.openView(source: .list(list), sort: sort, window: Window(start: 0, end: 100))
            if let job = opened.build { _ = engine.install(job.run()) }
        }
    }

    /// The client's day on 2026-06-15 (+ `days`) in UTC, at `hour`.
    static func day(_ days: Int64, hour: Int64) -> Today {
        let date = CalendarDate(year: 2026, month: 6, day: 15)!.daysSinceEpoch + days
        let starts = (0..<9).map { Timestamp(milliseconds: (date + Int64($0)) * 86_400_000) }
        return Today(now: Timestamp(milliseconds: starts[0].milliseconds + hour * 3_600_000),
                     date: CalendarDate(year: 2026, month: 6, day: 15 + Int(days))!, dayStarts: starts)
    }

    /// Moves to `today` in chunks of `Engine.defaultTimeBudget` items, as the server does: the number of
    /// chunks, the total and the longest chunk in seconds.
    mutating func advance(to today: Today) -> (chunks: Int, total: Double, longest: Double) {
        var chunks = 0
        var total = 0.0
        var longest = 0.0
        var finished = false
        while !finished {
            let start = ContinuousClock.now
            finished = engine.advance(to: today, budget: Engine.defaultTimeBudget).finished
            let elapsed = seconds(ContinuousClock.now - start)
            chunks += 1
            total += elapsed
            longest = max(longest, elapsed)
        }
        return (chunks, total, longest)
    }

    /// Sets the day, opens Today and Scheduled by due bucket, measures mutations, then the next midnight.
    mutating func measureSmartGroups() throws -> [String] {
        let first = try openTimeViews()
        let update = try measure(.update, iterations: 2_000)
        let create = try measure(.create, iterations: 2_000)
        let midnight = advance(to: Self.day(1, hour: 0))
        let today = engine.overview().groups.first { $0.group == .today }!.count
        return [String(size), String(first.chunks), format(first.total * 1e3, 1), format(first.longest * 1e3, 2),
                format(update.p50 * 1e6, 2), format(create.p50 * 1e6, 2), String(midnight.chunks * Engine.defaultTimeBudget),
                String(midnight.chunks), format(midnight.total * 1e3, 1), format(midnight.longest * 1e3, 2), String(today)]
    }

    /// Sets the day and opens Today and Scheduled by due bucket (the first day's evaluation, in chunks).
    @discardableResult
    mutating func openTimeViews() throws -> (chunks: Int, total: Double, longest: Double) {
        let first = advance(to: Self.day(0, hour: 10))
        for (source, grouping) in [(ViewSource.today, Grouping.none), (.scheduled, .dueBucket)] {
            let opened = try engine.openView(source: source, sort: .manual, grouping: grouping, window: Window(start: 0, end: 100))
            if let job = opened.build { _ = engine.install(job.run()) }
        }
        return first
    }

    /// Opens two sorted smart-group views, adds a list of `size / 10` items before the big one and a 100-item
    /// list after it, then times `lists/move` of the big list past the small one, of the small one past the big
    /// one, and of the tenth past the big one (each moved back and forth, every move changing the order).
    mutating func measureListMoves() throws -> [String] {
        for sort in [Sort(.priority), Sort(.due, .descending)] {
            let opened = try engine.openView(source: .all, sort: sort, window: Window(start: 0, end: 100))
            if let job = opened.build { _ = engine.install(job.run()) }
        }
        func addList(_ name: String, items count: Int, before: ListID?) throws -> ListID {
            let id = ListID(engine.state.nextIdentifier)
            _ = try engine.apply([.createList(id: id, fields: ListFields(name: name), before: before)])
            for _ in 0..<count {
                clock += 1
                _ = try engine.apply([.createItem(id: ItemID(engine.state.nextIdentifier), list: id, fields: fields(),
                                                  before: nil, at: Timestamp(milliseconds: clock))])
            }
            return id
        }
        let tenth = try addList("Tenth", items: size / 10, before: list)
        let small = try addList("Small", items: 100, before: nil)
        // Tenth, Big, Small: each pair of rounds moves a list to the other side of its neighbour and back.
        func times(_ moved: ListID, alternating targets: [ListID?], rounds: Int) throws -> [Double] {
            var times: [Double] = []
            for round in 0..<rounds {
                let start = ContinuousClock.now
                let applied = try engine.apply([.moveLists(ids: [moved], before: targets[round % 2])])
                times.append(seconds(ContinuousClock.now - start))
                precondition(!applied.changes.lists.isEmpty, "every timed move changes the order")
            }
            return times.sorted()
        }
        let big = try times(list, alternating: [nil, small], rounds: 4)
        let little = try times(small, alternating: [list, nil], rounds: 20)
        let tenthMoves = try times(tenth, alternating: [small, list], rounds: 4)
        let orders = Set(engine.openViews.compactMap { view in
            (try? engine.snapshot(view)).flatMap { $0.source.list == nil ? "\($0.source) \($0.sort) \($0.grouping)" : nil }
        }).count
        return [String(size), String(orders), format(big[big.count / 2] * 1e3, 1), format(big.last! * 1e3, 1),
                format(little[little.count / 2] * 1e6, 1), format(tenthMoves[tenthMoves.count / 2] * 1e3, 1),
                format(tenthMoves.last! * 1e3, 1)]
    }

    mutating func randomItem() -> Int { Int.random(in: 0..<items.count, using: &random) }

    mutating func mutation(_ kind: Kind, iteration: Int) -> Mutation {
        clock += 1
        let time = Timestamp(milliseconds: clock)
        switch kind {
        case .move:
            var moved = randomItem()
            var before = randomItem()
            while before == moved { (moved, before) = (randomItem(), randomItem()) }
            return .moveItems(ids: [items[moved]], toList: nil, before: items[before], at: time)
        case .delete:
            let index = randomItem()
            let id = items[index]
            items.swapAt(index, items.count - 1)
            items.removeLast()
            return .deleteItems(ids: [id])
        case .create:
            let id = ItemID(engine.state.nextIdentifier)
            let before = items[randomItem()]
            items.append(id)
            return .createItem(id: id, list: list, fields: fields(), before: before, at: time)
        case .update:
            let new = fields()
            let patch = iteration % 2 == 0 ? ItemPatch(title: new.title) : ItemPatch(due: new.due.map { .set($0) } ?? .clear)
            return .updateItems(ids: [items[randomItem()]], patch: patch, at: time)
        }
    }

    mutating func measure(_ kind: Kind, iterations: Int) throws -> Result {
        var times: [Double] = []
        times.reserveCapacity(iterations)
        var tally = NotificationTally()
        for iteration in 0..<(iterations + 200) {
            let mutation = mutation(kind, iteration: iteration)
            let start = ContinuousClock.now
            guard let applied = try? engine.apply([mutation]) else { continue }
            let elapsed = seconds(ContinuousClock.now - start)
            guard iteration >= 200 else { continue }
            times.append(elapsed)
            tally.add(applied.viewChanges)
        }
        times.sort()
        return Result(p50: times[times.count / 2], p99: times[times.count * 99 / 100],
                      rows: Double(tally.rows) / Double(iterations), operations: Double(tally.operations) / Double(iterations),
                      bytes: Double(tally.bytes) / Double(iterations))
    }
}
