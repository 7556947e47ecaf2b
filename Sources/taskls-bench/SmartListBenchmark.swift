// Smart lists benchmark: per-mutation cost on a large store with no smart lists and with 50 (their counts kept per
// changed item), and the cost of creating or re-filtering one (a recount of every item).

import Domain
import TestSupport

/// Runs the smart lists benchmark on one store of `size` items in 10 lists and returns its tables. Times are of
/// `Engine.apply` alone (no views open, no I/O): what keeping 50 smart lists' counts adds to every mutation.
func runSmartListBenchmark(size: Int) -> String {
    do {
        var bench = try SmartListBenchmark(size: size)
        var rows: [[String]] = []
        var without: [SmartListBenchmark.Kind: (Double, Double)] = [:]
        for kind in SmartListBenchmark.Kind.allCases { without[kind] = try bench.measure(kind, iterations: 5_000) }
        let creation = try bench.createSmartLists(50)
        for kind in SmartListBenchmark.Kind.allCases {
            let with = try bench.measure(kind, iterations: 5_000)
            rows.append([kind.rawValue, format(without[kind]!.0 * 1e6, 2), format(without[kind]!.1 * 1e6, 2),
                         format(with.0 * 1e6, 2), format(with.1 * 1e6, 2)])
        }
        let refilter = try bench.refilter(iterations: 10)
        return table("smart lists: per-mutation cost of Engine.apply on \(size) items in 10 lists, without and with 50 smart lists (tags, priority, due ranges, text, done, some lists; counts kept per changed item)",
                     ["mutation", "none: p50 µs", "p99 µs", "50: p50 µs", "p99 µs"], rows)
            + "\n" + table("smart lists: creating one or editing its filter counts it from every item (on the message loop)",
                           ["items", "create: mean ms", "max ms", "edit filter: mean ms", "max ms"],
                           [[String(size), format(creation.mean * 1e3, 1), format(creation.max * 1e3, 1),
                             format(refilter.mean * 1e3, 1), format(refilter.max * 1e3, 1)]])
    } catch {
        return "smart: the benchmark failed: \(error)"
    }
}

/// A large state in an engine, and what the measurement draws from.
private struct SmartListBenchmark {
    enum Kind: String, CaseIterable {
        case create
        case updateTitle = "update title"
        case updateDue = "update due"
        case complete
    }

    static let words = ["alpha", "Beta", "gamma", "Éclair", "delta", "zeta", "omega", "kappa", "Ünter", "lambda"]
    static let tags = ["home", "work", "errand", "team", "later"]

    var engine: Engine
    var random = SplitMix64(seed: 7)
    var lists: [ListID]
    var items: [ItemID]
    var clock: Int64 = 1_795_300_000_000

    /// Builds `size` items in 10 lists at once (as a snapshot would load them).
    init(size: Int) throws {
        let perList = size / 10
        let time = Timestamp(milliseconds: clock)
        lists = (0..<10).map { ListID(UInt64($0) + 1) }
        let listPositions = Position.between(nil, nil, count: lists.count)
        let taskLists = lists.enumerated().map { index, id in
            TaskList(id: id, name: "List \(index)", color: nil, icon: nil, position: listPositions[index])
        }
        let positions = Position.between(nil, nil, count: perList)
        var stored: [Item] = []
        stored.reserveCapacity(perList * lists.count)
        var next: UInt64 = 100
        var random = SplitMix64(seed: 11)
        for list in lists {
            for index in 0..<perList {
                let done = Int.random(in: 0..<4, using: &random) == 0
                let tags = (0..<Int.random(in: 0...2, using: &random)).map { _ in Self.tags[Int.random(in: 0..<5, using: &random)] }
                stored.append(Item(id: ItemID(next), list: list,
                                   title: Self.words[Int.random(in: 0..<10, using: &random)] + " task \(index)",
                                   notes: index % 10 == 0 ? "call back about " + Self.words[index % 10] : "", done: done,
                                   completedAt: done ? time : nil, due: Self.due(&random), priority: Priority.allCases[index % 4],
                                   tags: Array(Set(tags)).sorted(), createdAt: time, modifiedAt: time, revision: 1,
                                   position: positions[index]))
                next += 1
            }
        }
        items = stored.map(\.id)
        let state = try TaskState(restoring: taskLists, items: stored, nextIdentifier: next, revision: 1)
        engine = Engine(state: state, today: Today.epoch)
    }

    static func due(_ random: inout SplitMix64) -> Due? {
        Int.random(in: 0..<4, using: &random) == 0 ? nil
            : .date(CalendarDate(year: 2026, month: Int.random(in: 1...12, using: &random), day: Int.random(in: 1...28, using: &random))!)
    }

    mutating func pickItem() -> ItemID { items[Int.random(in: 0..<items.count, using: &random)] }

    mutating func mutation(_ kind: Kind) -> Mutation {
        clock += 1
        let time = Timestamp(milliseconds: clock)
        switch kind {
        case .create:
            let id = ItemID(engine.state.nextIdentifier)
            items.append(id)
            let fields = ItemFields(title: Self.words[Int.random(in: 0..<10, using: &random)] + " new",
                                    due: Self.due(&random), priority: Priority.allCases[Int.random(in: 0..<4, using: &random)],
                                    tags: [Self.tags[Int.random(in: 0..<5, using: &random)]])
            return .createItem(id: id, list: lists[Int.random(in: 0..<lists.count, using: &random)], fields: fields,
                               before: nil, at: time)
        case .updateTitle:
            return .updateItems(ids: [pickItem()], patch: ItemPatch(title: Self.words[Int.random(in: 0..<10, using: &random)] + " edited"),
                                at: time)
        case .updateDue:
            return .updateItems(ids: [pickItem()], patch: ItemPatch(due: Self.due(&random).map { .set($0) } ?? .clear), at: time)
        case .complete:
            let id = pickItem()
            return .updateItems(ids: [id], patch: ItemPatch(done: !(engine.item(id)?.done ?? false)), at: time)
        }
    }

    /// The p50 and p99 seconds of `iterations` mutations of `kind`.
    mutating func measure(_ kind: Kind, iterations: Int) throws -> (Double, Double) {
        var samples: [Double] = []
        samples.reserveCapacity(iterations)
        for _ in 0..<iterations {
            let mutation = mutation(kind)
            let start = nanoseconds()
            _ = try engine.apply([mutation])
            samples.append(Double(nanoseconds() - start) / 1e9)
        }
        return (percentile(&samples, 0.5), percentile(&samples, 0.99))
    }

    /// The rule of the `index`th smart list: tags, priority, due ranges, text, done and source lists in turn.
    func rule(_ index: Int) -> SmartListRule {
        let tag = Self.tags[index % 5]
        let month = index % 12 + 1
        let date = Due.date(CalendarDate(year: 2026, month: month, day: 15)!)
        switch index % 10 {
        case 0: return SmartListRule(filter: Filter(tagsAnyOf: [tag]))
        case 1: return SmartListRule(filter: Filter(done: .notDone, tagsAllOf: [tag, Self.tags[(index + 1) % 5]]))
        case 2: return SmartListRule(filter: Filter(priorityAtLeast: Priority.allCases[index % 4]))
        case 3: return SmartListRule(filter: Filter(dueBefore: date))
        case 4: return SmartListRule(filter: Filter(done: .notDone, dueAfter: date))
        case 5: return SmartListRule(filter: Filter(text: Self.words[index % 10]))
        case 6: return SmartListRule(filter: Filter(done: .done))
        case 7: return SmartListRule(filter: Filter(done: .notDone), lists: [lists[index % 10], lists[(index + 3) % 10]])
        case 8: return SmartListRule(filter: Filter(text: "call", priorityAtLeast: .medium))
        default: return SmartListRule(filter: Filter(tagsAnyOf: [tag], dueBefore: date, dueAfter: .date(CalendarDate(year: 2026, month: 1, day: 1)!)))
        }
    }

    /// Creates `count` smart lists; the mean and max seconds of one creation.
    mutating func createSmartLists(_ count: Int) throws -> (mean: Double, max: Double) {
        var total = 0.0, longest = 0.0
        for index in 0..<count {
            let mutation = Mutation.createSmartList(id: SmartListID(engine.state.nextIdentifier),
                                                    fields: SmartListFields(name: "Smart \(index)", rule: rule(index)), before: nil)
            let start = nanoseconds()
            _ = try engine.apply([mutation])
            let elapsed = Double(nanoseconds() - start) / 1e9
            total += elapsed
            longest = max(longest, elapsed)
        }
        return (total / Double(count), longest)
    }

    /// Edits one smart list's filter `iterations` times; the mean and max seconds of one edit.
    mutating func refilter(iterations: Int) throws -> (mean: Double, max: Double) {
        let id = engine.state.orderedSmartLists[0].id
        var total = 0.0, longest = 0.0
        for iteration in 0..<iterations {
            let mutation = Mutation.updateSmartList(id: id, patch: SmartListPatch(filter: rule(iteration + 1).filter))
            let start = nanoseconds()
            _ = try engine.apply([mutation])
            let elapsed = Double(nanoseconds() - start) / 1e9
            total += elapsed
            longest = max(longest, elapsed)
        }
        return (total / Double(iterations), longest)
    }
}
