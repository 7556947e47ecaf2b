/// Tree benchmark: per-mutation cost in one list shaped as a tree (issue 18's scale), with three open views.

import Domain
import TestSupport

/// Runs the tree benchmark for one list of each size (`TreeShape`, restored from a snapshot, with three open
/// views: manual with its window in the middle, by due and the All group by due at the top; 100-row windows)
/// and returns its tables. Times exclude any I/O; "rows", "ops" and "bytes" count what all notifications of one
/// mutation carry (bytes: the framed `view/changed` messages as the server writes them). The ratio column
/// divides each p50 by the first size's.
func runTreeBenchmark(sizes: [Int]) -> String {
    do {
        return try measureTrees(sizes: sizes)
    } catch {
        return "tree: the benchmark failed: \(error)"
    }
}

/// Issue 18's targets.
private enum Target {
    /// Per-mutation p50, in µs.
    static let mutation = 20.0
    /// The largest p50 of a size over the first size's.
    static let ratio = 2.0
    /// Collapse or expand of the big node, median, in µs.
    static let fold = 1_000.0
}

private func measureTrees(sizes: [Int]) throws -> String {
    var shapes: [[String]] = []
    var mutations: [[String]] = []
    var folds: [[String]] = []
    var subtrees: [[String]] = []
    var baseline: [String: Double] = [:]
    let first = sizes.first.map { $0 >= 1_000_000 ? "\($0 / 1_000_000)M" : "\($0 / 1_000)k" } ?? "-"
    for size in sizes {
        var bench = try TreeBenchmark(size: size)
        shapes.append(bench.setupRow)
        folds.append(try bench.measureFolds())
        subtrees += try bench.measureSubtreeBytes()
        let measured = try bench.measureMutations(iterations: 3_000)
        try bench.closeViews()
        let bare = Dictionary(uniqueKeysWithValues: try bench.measureMutations(iterations: 1_000).map { ($0.0, $0.1.p50) })
        for (name, samples) in measured {
            let p50 = samples.p50
            if baseline[name] == nil { baseline[name] = p50 }
            let ratio = p50 / baseline[name]!
            var missed: [String] = []
            if p50 >= Target.mutation { missed.append("p50 ≥ \(format(Target.mutation, 0)) µs") }
            if ratio > Target.ratio { missed.append("> \(format(Target.ratio, 0))x \(first)") }
            mutations.append([String(size), name] + samples.cells
                             + [format(ratio, 2) + "x", format(bare[name]!, 2), missed.isEmpty ? "ok" : missed.joined(separator: ", ")])
        }
    }
    let independent = subtreeBytesVerdict(subtrees)
    return table("tree: per-mutation cost, apply + changesets of 3 open views (manual @ middle, due @ top, All by due @ top; 100-row windows); indent/outdent timed with TaskState.indentMutation/outdentMutation; \"no view\": the same mutations (1,000 each) once the views are closed",
                 ["items", "mutation", "p50 µs", "p99 µs", "rows/mutation", "ops/mutation", "bytes/mutation", "p50 / \(first)", "no view: p50 µs",
                  "target (p50 < \(format(Target.mutation, 0)) µs, ≤ \(format(Target.ratio, 0))x \(first))"], mutations)
        + "\n" + table("tree: the lists (one list each, depths 0 to \(TreeShape.deepest); built by TaskState(restoring:) and Engine(state:today:))",
                       ["items", "parents", "leaves %", "widest sibling group", "big node: descendants", "make ms", "restore ms",
                        "engine ms", "open 3 views ms"], shapes)
        + "\n" + table("tree: collapse / expand of the big node in the manual view (its subtree spans the window: the window's rows are replaced); 100 rounds",
                       ["items", "descendants", "first collapse ms", "collapse p50 µs", "expand p50 µs", "max µs",
                        "collapse bytes", "expand bytes", "ops", "count after collapse", "target (< 1 ms)"], folds)
        + "\n" + table("tree: a due change of a parent shown first in the due and All views (its row updated, its subtree below it): notification bytes by subtree size; 200 changes each",
                       ["items", "descendants", "p50 µs", "ops/mutation", "due view bytes", "all views bytes"], subtrees)
        + independent
}

/// Whether, at each size, the bytes of the subtree table stay the same whatever the subtree's size.
private func subtreeBytesVerdict(_ rows: [[String]]) -> String {
    var lines = ""
    for size in rows.map({ $0[0] }).reduce(into: [String](), { if !$0.contains($1) { $0.append($1) } }) {
        let sized = rows.filter { $0[0] == size }
        let bytes = sized.compactMap { Int($0[5]) }
        guard let least = bytes.min(), let most = bytes.max() else { continue }
        lines += "\(size) items: \(least) to \(most) bytes for \(sized.first![1]) to \(sized.last![1]) descendants: "
            + (Double(most) <= Double(least) * 1.1 ? "independent of the subtree (target met)\n" : "they GROW with the subtree (target MISSED)\n")
    }
    return lines
}

/// Timings and what the notifications carried, for one kind of mutation.
private struct Samples {
    /// Microseconds per mutation.
    var times: [Double] = []
    var tally = NotificationTally()

    mutating func record(_ nanoseconds: UInt64, _ changes: [ViewChange]) {
        times.append(Double(nanoseconds) / 1e3)
        tally.add(changes)
    }

    var p50: Double {
        var times = times
        return percentile(&times, 0.5)
    }

    /// p50, p99, rows, ops and bytes per mutation.
    var cells: [String] {
        var times = times
        let count = Double(times.count)
        return [format(percentile(&times, 0.5), 2), format(percentile(&times, 0.99), 2), format(Double(tally.rows) / count, 2),
                format(Double(tally.operations) / count, 2), format(Double(tally.bytes) / count, 0)]
    }
}

/// One tree in an engine with its three views open, and the state of the measurement.
private struct TreeBenchmark {
    enum Kind: String, CaseIterable {
        case createTop = "create (top level)"
        case createSubtask = "create (subtask)"
        case move = "move with subtree"
        case updateDue = "update due"
        case updateBigDue = "update due (big parent)"
    }

    var shape: TreeShape
    var engine: Engine
    var manual: ViewID
    let due: ViewID
    let group: ViewID
    var random = SplitMix64(seed: 1_800)
    var clock: Int64 = 1_795_300_000_000
    /// Sizes and milliseconds of making the tree, restoring it, building the engine and opening the views.
    var setupRow: [String] = []
    static let warmup = 200

    /// Makes the tree, restores a state from it, builds the engine and opens the three views.
    init(size: Int) throws {
        var start = nanoseconds()
        shape = TreeShape(size: size)
        let made = milliseconds(since: start)
        start = nanoseconds()
        let list = TaskList(id: shape.list, name: "Tree", color: nil, icon: nil, position: Position.initial)
        let state = try TaskState(restoring: [list], items: shape.takeItems(), nextIdentifier: UInt64(size) + 2, revision: 1)
        let restored = milliseconds(since: start)
        start = nanoseconds()
        engine = Engine(state: state, today: Self.today)
        let built = milliseconds(since: start)
        start = nanoseconds()
        manual = try engine.openView(source: .list(shape.list), sort: .manual, window: Window(start: size / 2, end: size / 2 + 100)).snapshot.view
        var views: [ViewID] = []
        for source in [ViewSource.list(shape.list), .all] {
            let opened = try engine.openView(source: source, sort: Sort(.due), window: Window(start: 0, end: 100))
            if let job = opened.build { _ = engine.install(job.run()) }
            views.append(opened.snapshot.view)
        }
        (due, group) = (views[0], views[1])
        let opened = milliseconds(since: start)
        precondition(engine.state.itemCount == size && engine.state.depth(of: shape.big) == 0)
        setupRow = [String(size), String(shape.parentCount), format(100 * Double(size - shape.parentCount) / Double(size), 1),
                    String(shape.widest), String(shape.bigDescendants), format(made, 0), format(restored, 0), format(built, 0),
                    format(opened, 0)]
    }

    /// Closes the three views: the engine then keeps only the state's own orders.
    mutating func closeViews() throws {
        for view in [manual, due, group] { try engine.closeView(view) }
    }

    /// The client's day: 2026-06-15 at 10:00 UTC.
    static var today: Today {
        let date = CalendarDate(year: 2026, month: 6, day: 15)!
        let starts = (0..<9).map { Timestamp(milliseconds: (date.daysSinceEpoch + Int64($0)) * 86_400_000) }
        return Today(now: Timestamp(milliseconds: starts[0].milliseconds + 10 * 3_600_000), date: date, dayStarts: starts)
    }

    private mutating func pick(_ ids: [ItemID]) -> ItemID { ids[random.below(ids.count)] }

    private mutating func time() -> Timestamp {
        clock += 1
        return Timestamp(milliseconds: clock)
    }

    /// Collapses the big node in the manual view, then expands and collapses it 100 times; then expands it and
    /// reopens the manual view, which collapsing gave an order of its own, so that the mutations after this see the
    /// shared order again.
    mutating func measureFolds() throws -> [String] {
        let count = try engine.snapshot(manual).count!
        var start = nanoseconds()
        guard let first = try engine.setCollapsed(manual, ids: [shape.big], collapse: true) else {
            throw BenchmarkFailure("collapsing the big node changed nothing")
        }
        let firstTime = milliseconds(since: start)
        guard first.count == count - shape.bigDescendants else {
            throw BenchmarkFailure("collapsing the big node left \(first.count ?? -1) rows of \(count)")
        }
        var collapses = Samples()
        var expands = Samples()
        for _ in 0..<100 {
            for collapse in [false, true] {
                start = nanoseconds()
                guard let change = try engine.setCollapsed(manual, ids: [shape.big], collapse: collapse) else {
                    throw BenchmarkFailure("a collapse or expand of the big node changed nothing")
                }
                let elapsed = nanoseconds() - start
                if collapse { collapses.record(elapsed, [change]) } else { expands.record(elapsed, [change]) }
            }
        }
        _ = try engine.setCollapsed(manual, ids: [shape.big], collapse: false)
        try engine.closeView(manual)
        manual = try engine.openView(source: .list(shape.list), sort: .manual,
                                     window: Window(start: shape.size / 2, end: shape.size / 2 + 100)).snapshot.view
        let slowest = max(collapses.times.max()!, expands.times.max()!)
        let median = max(collapses.p50, expands.p50)
        return [String(shape.size), String(shape.bigDescendants), format(firstTime, 2), format(collapses.p50, 1), format(expands.p50, 1),
                format(slowest, 1), String(collapses.tally.bytes / 100), String(expands.tally.bytes / 100),
                format(Double(collapses.tally.operations + expands.tally.operations) / 200, 1), String(first.count!),
                median < Target.fold ? "ok" : "MISSED"]
    }

    /// For the parents with 10, 1,000 and a tenth of the list's descendants: puts the parent first in the due
    /// views (a due before every other), then times 200 changes of its due that keep it first, counting what the
    /// notifications carry; then gives it its due back.
    mutating func measureSubtreeBytes() throws -> [[String]] {
        var rows: [[String]] = []
        for (parent, descendants) in [(shape.ten, 10), (shape.thousand, 1_000), (shape.big, shape.bigDescendants)] {
            let original = engine.item(parent)!.due
            let early = [CalendarDate(year: 2020, month: 1, day: 1)!, CalendarDate(year: 2020, month: 1, day: 2)!]
            _ = try engine.apply([.updateItems(ids: [parent], patch: ItemPatch(due: .set(.date(early[0]))), at: time())])
            for view in [due, group] {
                guard case .item(let item, _)? = try engine.snapshot(view).rows.first, item.id == parent else {
                    throw BenchmarkFailure("item \(parent) is not the first row of view \(view)")
                }
            }
            var samples = Samples()
            var dueBytes = 0
            var tally = NotificationTally()
            for round in 0..<(200 + 20) {
                let mutation = Mutation.updateItems(ids: [parent], patch: ItemPatch(due: .set(.date(early[(round + 1) % 2]))), at: time())
                let start = nanoseconds()
                let applied = try engine.apply([mutation])
                let elapsed = nanoseconds() - start
                guard round >= 20 else { continue }
                guard applied.viewChanges.contains(where: { $0.view == due }) else {
                    throw BenchmarkFailure("a due change of item \(parent) did not reach the due view")
                }
                samples.record(elapsed, applied.viewChanges)
                dueBytes += tally.bytes(of: applied.viewChanges.filter { $0.view == due })
            }
            _ = try engine.apply([.updateItems(ids: [parent], patch: ItemPatch(due: original.map { .set($0) } ?? .clear), at: time())])
            rows.append([String(shape.size), String(descendants), format(samples.p50, 2),
                         format(Double(samples.tally.operations) / 200, 2), String(dueBytes / 200), String(samples.tally.bytes / 200)])
        }
        return rows
    }

    /// Times each kind of mutation `iterations` times (after a warm-up), indent and outdent in pairs.
    mutating func measureMutations(iterations: Int) throws -> [(String, Samples)] {
        var results: [(String, Samples)] = []
        for kind in Kind.allCases {
            if kind == .updateDue {
                let (indents, outdents) = try measureIndents(iterations: iterations)
                results += [("indent", indents), ("outdent", outdents)]
            }
            var samples = Samples()
            var round = 0
            while samples.times.count < iterations {
                let mutation = mutation(kind)
                let start = nanoseconds()
                let applied = try engine.apply([mutation])
                let elapsed = nanoseconds() - start
                // A move before the sibling right after it changes nothing: drawn again.
                guard !applied.changes.isEmpty else { continue }
                round += 1
                guard round > Self.warmup else { continue }
                samples.record(elapsed, applied.viewChanges)
            }
            results.append((kind.rawValue, samples))
        }
        return results
    }

    /// Indents a random item (one with a previous sibling) and outdents it back, which puts it back where it was.
    mutating func measureIndents(iterations: Int) throws -> (Samples, Samples) {
        var indents = Samples()
        var outdents = Samples()
        var round = 0
        while indents.times.count < iterations {
            let id = pick(shape.indentable)
            let parent = engine.item(id)!.parent
            var start = nanoseconds()
            // A move among siblings may have made the item its siblings' first: drawn again.
            guard let indent = try? engine.state.indentMutation([id], at: time()) else { continue }
            let indented = try engine.apply([indent])
            let indentTime = nanoseconds() - start
            start = nanoseconds()
            let outdented = try engine.apply([try engine.state.outdentMutation([id], at: time())])
            let outdentTime = nanoseconds() - start
            guard engine.item(id)!.parent == parent else { throw BenchmarkFailure("indenting and outdenting item \(id) moved it") }
            round += 1
            guard round > Self.warmup else { continue }
            indents.record(indentTime, indented.viewChanges)
            outdents.record(outdentTime, outdented.viewChanges)
        }
        return (indents, outdents)
    }

    mutating func mutation(_ kind: Kind) -> Mutation {
        let time = time()
        switch kind {
        case .createTop:
            return .createItem(id: ItemID(engine.state.nextIdentifier), list: shape.list, fields: fields(),
                               before: pick(shape.topLevel), at: time)
        case .createSubtask:
            return .createItem(id: ItemID(engine.state.nextIdentifier), list: shape.list, fields: fields(),
                               before: nil, parent: .set(pick(shape.shallow)), at: time)
        case .move:
            let (group, member) = shape.movableParents[random.below(shape.movableParents.count)]
            let siblings = shape.siblingGroups[group]
            var before = random.below(siblings.count - 1)
            if before >= member { before += 1 }
            return .moveItems(ids: [siblings[member]], toList: nil, before: siblings[before], at: time)
        case .updateDue:
            let date: Clearable<Due> = random.chance(25) ? .clear : .set(.date(shape.randomDate()))
            return .updateItems(ids: [pick(shape.all)], patch: ItemPatch(due: date), at: time)
        case .updateBigDue:
            return .updateItems(ids: [shape.big], patch: ItemPatch(due: .set(.date(shape.randomDate()))), at: time)
        }
    }

    private mutating func fields() -> ItemFields {
        ItemFields(title: random.pick(TreeShape.words) + " new", due: random.chance(25) ? nil : .date(shape.randomDate()),
                   priority: random.pick(Priority.allCases))
    }
}

/// Milliseconds from `start` (`nanoseconds()`) to now.
private func milliseconds(since start: UInt64) -> Double { Double(nanoseconds() - start) / 1e6 }

/// A measurement that did not do what it was meant to.
private struct BenchmarkFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
