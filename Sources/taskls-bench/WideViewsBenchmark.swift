// Wide views benchmark: one mutation with 150 open views whose windows all hold the mutated items.

#if canImport(Glibc)
import Glibc
#endif
import Domain
import TestSupport

/// Runs the wide views benchmark (issue 21's "150 open views, each with a 1,000-row window"): 100,000 items in one
/// list, 150 views of several orders (manual, by due, by title, two filters, two groupings), every window placed over
/// a block of 60 target items that every mutation touches (and 5 done ones, so that the Done section of the views
/// grouped by completion never empties), then the same with 100-row windows.
///
/// Times are the CPU time of the measuring thread (`CLOCK_THREAD_CPUTIME_ID`): "apply" is `Engine.apply`, which
/// updates every order and derives every view's window operations; "encode" is framing the mutation's
/// `view/changed` notifications as the server writes them (one per view that changed).
func runWideViewsBenchmark() -> String {
    do {
        var bench = try WideViews(size: 100_000)
        var rows: [[String]] = []
        var paths: [String] = []
        for rowsPerWindow in [1_000, 100] {
            try bench.placeWindows(rows: rowsPerWindow)
            let before = bench.engine.windowPaths
            let results = try bench.measure(rounds: 100)
            let after = bench.engine.windowPaths
            for kind in WideViews.Kind.allCases {
                let result = results[kind]!
                rows.append([String(rowsPerWindow), kind.rawValue, format(result.apply.p50, 0), format(result.apply.p99, 0),
                             format(result.apply.p50 / Double(WideViews.viewCount), 2), format(result.encode.p50, 0),
                             format(result.operations, 1)])
            }
            paths.append("\(rowsPerWindow)-row windows: \(after.byRank - before.byRank) view refreshes by ranks "
                         + "(\(after.byRankWithSections - before.byRankWithSections) of views with sections), "
                         + "\(after.byDiff - before.byDiff) by a window diff")
        }
        return table("wide views: one mutation, \(WideViews.viewCount) open views over 100,000 items, every window over the mutated items; no section comes or goes (target: apply ≤ 2,000 µs, per view independent of the window's rows)",
                     ["window rows", "mutation", "apply p50 µs", "apply p99 µs", "per view µs", "encode p50 µs", "ops/mutation"], rows)
            + paths.joined(separator: "\n") + "\n"
    } catch {
        return "wide: the benchmark failed: \(error)"
    }
}

/// The slowest operation's p50 CPU microseconds with 150 views, each with a 1,000-row window (for the summary
/// table), with that operation's name; nil when the benchmark failed.
func measureWideViews() -> (micros: Double, operation: String)? {
    do {
        var bench = try WideViews(size: 100_000)
        try bench.placeWindows(rows: 1_000)
        let results = try bench.measure(rounds: 60)
        return results.map { (micros: $0.value.apply.p50, operation: $0.key.rawValue) }.max { $0.micros < $1.micros }
    } catch {
        return nil
    }
}

/// The calling thread's CPU time in microseconds.
private func threadMicroseconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) * 1e6 + Double(time.tv_nsec) / 1e3
}

/// One list of `size` random items around a block of targets, 150 views, and the measurement.
private struct WideViews {
    enum Kind: String, CaseIterable {
        case title = "update title"
        case create, complete, delete, move
    }

    struct Percentiles {
        var p50: Double
        var p99: Double

        init(_ samples: [Double]) {
            var samples = samples
            p50 = percentile(&samples, 0.5)
            p99 = percentile(&samples, 0.99)
        }
    }

    struct Result {
        var apply: Percentiles
        var encode: Percentiles
        var operations: Double
    }

    static let viewCount = 150
    static let targetCount = 60
    static let words = ["alpha", "Beta", "gamma", "Éclair", "delta", "zeta", "omega", "kappa", "Ünter", "lambda"]
    static let targetDue = Due.date(CalendarDate(year: 2026, month: 7, day: 1)!)

    var engine = Engine()
    var random = SplitMix64(seed: 21)
    let list: ListID
    /// The targets not done, in no order.
    var targets: [ItemID] = []
    /// The views and the order each one's window is placed by.
    var views: [ViewID] = []
    var clock: Int64 = 1_795_300_000_000
    var tally = NotificationTally()

    /// The view mix: (count, sort, filter, grouping).
    static let mix: [(Int, Sort, Filter, Grouping)] = [
        (40, .manual, .all, .none),
        (30, Sort(.due), .all, .none),
        (30, Sort(.title), .all, .none),
        (20, .manual, Filter(done: .notDone), .none),
        (10, Sort(.due), Filter(priorityAtLeast: .high), .none),
        (10, Sort(.title), .all, .priority),
        (10, .manual, .all, .done),
    ]

    /// Loads `size` random items with the targets in the middle, and opens the views (their orders built at once).
    init(size: Int) throws {
        list = ListID(engine.state.nextIdentifier)
        _ = try engine.apply([.createList(id: list, fields: ListFields(name: "Wide"), before: nil)])
        for index in 0..<size {
            if index == size / 2 {
                for _ in 0..<Self.targetCount { targets.append(try create(target(), before: nil)) }
                // Done targets, never deleted: the Done section stays (a section coming or going takes the diff).
                for _ in 0..<5 {
                    var fields = target()
                    fields.done = true
                    _ = try create(fields, before: nil)
                }
            }
            _ = try create(randomFields(), before: nil)
        }
        for (count, sort, filter, grouping) in Self.mix {
            for _ in 0..<count {
                let opened = try engine.openView(source: .list(list), sort: sort, filter: filter, grouping: grouping,
                                                 window: Window(start: 0, end: 1))
                if let job = opened.build { _ = engine.install(job.run()) }
                views.append(opened.snapshot.view)
            }
        }
        precondition(views.count == Self.viewCount)
    }

    mutating func randomFields() -> ItemFields {
        let title = Self.words[Int.random(in: 0..<Self.words.count, using: &random)] + " "
            + String(Int.random(in: 0..<1_000_000, using: &random))
        let due: Due? = Int.random(in: 0..<4, using: &random) == 0 ? nil
            : .date(CalendarDate(year: 2026, month: Int.random(in: 1...12, using: &random), day: Int.random(in: 1...28, using: &random))!)
        return ItemFields(title: title, due: due, priority: Priority.allCases[Int.random(in: 0..<4, using: &random)])
    }

    /// A target's fields: a title no other item's starts with, one due and a high priority, so that the targets
    /// sit together in every order.
    mutating func target() -> ItemFields {
        ItemFields(title: targetTitle(), due: Self.targetDue, priority: .high)
    }

    mutating func targetTitle() -> String {
        "Target " + String(Int.random(in: 1_000..<10_000, using: &random))
    }

    mutating func create(_ fields: ItemFields, before: ItemID?) throws -> ItemID {
        clock += 1
        let id = ItemID(engine.state.nextIdentifier)
        _ = try engine.apply([.createItem(id: id, list: list, fields: fields, before: before, at: Timestamp(milliseconds: clock))])
        return id
    }

    /// Places every view's window of `rows` rows over the targets (a little differently in each view).
    mutating func placeWindows(rows: Int) throws {
        for (index, view) in views.enumerated() {
            let first = targets.compactMap { try? engine.locate($0, in: view).location?.index }.min()!
            let last = targets.compactMap { try? engine.locate($0, in: view).location?.index }.max()!
            let slack = rows - (last - first + 1)
            precondition(slack > 20, "the targets fill a \(rows)-row window")
            let start = max(0, first - slack / 2 + (index % 5) * (slack / 20) - slack / 10)
            _ = try engine.setWindow(view, Window(start: start, end: start + rows))
        }
    }

    mutating func randomTarget() -> Int { Int.random(in: 0..<targets.count, using: &random) }

    /// The next mutation of `kind`, and what it does to `targets` once applied.
    mutating func mutation(_ kind: Kind) -> Mutation {
        clock += 1
        let time = Timestamp(milliseconds: clock)
        switch kind {
        case .title:
            return .updateItems(ids: [targets[randomTarget()]], patch: ItemPatch(title: targetTitle()), at: time)
        case .create:
            let id = ItemID(engine.state.nextIdentifier)
            let mutation = Mutation.createItem(id: id, list: list, fields: target(), before: targets[randomTarget()], at: time)
            targets.append(id)
            return mutation
        case .complete:
            // The completed target leaves `targets`; the next delete deletes it.
            let index = randomTarget()
            let id = targets[index]
            targets.swapAt(index, targets.count - 1)
            return .updateItems(ids: [id], patch: ItemPatch(done: true), at: time)
        case .delete:
            return .deleteItems(ids: [targets.removeLast()])
        case .move:
            var moved = randomTarget()
            var before = randomTarget()
            while before == moved { (moved, before) = (randomTarget(), randomTarget()) }
            return .moveItems(ids: [targets[moved]], toList: nil, before: targets[before], at: time)
        }
    }

    /// Applies `rounds` rounds of each kind in turn (after 10 rounds not measured): the CPU microseconds of
    /// each apply and each encoding, and the mean operations per mutation.
    mutating func measure(rounds: Int) throws -> [Kind: Result] {
        var apply: [Kind: [Double]] = [:]
        var encode: [Kind: [Double]] = [:]
        var operations: [Kind: Int] = [:]
        for round in 0..<(rounds + 10) {
            for kind in Kind.allCases {
                let mutation = mutation(kind)
                let start = threadMicroseconds()
                let applied = try engine.apply([mutation])
                let middle = threadMicroseconds()
                let bytes = tally.bytes(of: applied.viewChanges)
                let end = threadMicroseconds()
                precondition(bytes > 0 && applied.viewChanges.count == Self.viewCount || kind != .title,
                             "a title update changes every view")
                guard round >= 10 else { continue }
                apply[kind, default: []].append(middle - start)
                encode[kind, default: []].append(end - middle)
                operations[kind, default: 0] += applied.viewChanges.reduce(0) { $0 + $1.operations.count }
            }
        }
        var results: [Kind: Result] = [:]
        for kind in Kind.allCases {
            results[kind] = Result(apply: Percentiles(apply[kind]!), encode: Percentiles(encode[kind]!),
                                   operations: Double(operations[kind]!) / Double(rounds))
        }
        return results
    }
}
