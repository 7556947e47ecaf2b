// The manual order as `X-APPLE-SORT-ORDER`: values made to agree with a list's order changing as few as they can,
// and siblings put back in the order of their values with as few moves as they can; tables, then random runs.

import Domain
@testable import Sync
import TestSupport
import Testing

/// A task created `second` seconds after 2001-01-01 (so its value without the property is `second`), with `order`
/// as its `X-APPLE-SORT-ORDER` when given.
private func task(_ uid: String, created second: Int64, order: Int64? = nil, parent: String? = nil) -> ExchangeTask {
    var task = ExchangeTask(uid: uid, parentUID: parent, title: uid,
                            createdAt: Timestamp(milliseconds: (SortOrder.referenceSecond + second) * 1_000 + 999))
    if let order { task.extras = [Extra(key: "ical:X-OTHER", value: ":1"), Extra(key: SortOrder.key, value: ":\(order)")] }
    return task
}

@Test func aValueIsTheIntegerPropertyElseTheCreationOnApplesScale() {
    #expect(SortOrder.value(of: task("a", created: 500)) == 500)
    #expect(SortOrder.value(of: task("a", created: 500, order: -7)) == -7)
    var parameters = task("a", created: 500)
    parameters.extras = [Extra(key: SortOrder.key, value: ";X-P=1:42")]
    #expect(SortOrder.value(of: parameters) == 42)
    var garbage = task("a", created: 500)
    garbage.extras = [Extra(key: SortOrder.key, value: ":soon")]
    #expect(SortOrder.value(of: garbage) == 500)
    #expect(SortOrder.value(of: ExchangeTask(uid: "n", title: "n")) == nil)
    // Before 2001, and before 1970 (whole seconds, rounding down).
    #expect(SortOrder.value(of: ExchangeTask(uid: "o", title: "o", createdAt: Timestamp(milliseconds: -1))) == -1 - SortOrder.referenceSecond)
}

@Test(arguments: [
    // Already ascending: nothing changes.
    ([10, 20, 30], [10, 20, 30]),
    // One moved to the top: only it gets a value, `step` below the first.
    ([30, 10, 20], [10 - 1_024, 10, 20]),
    // One moved to the end: `step` above the last.
    ([20, 30, 10], [20, 30, 30 + 1_024]),
    // Two moved between 10 and 40: spread evenly.
    ([10, 80, 90, 40, 50, 60], [10, 20, 30, 40, 50, 60]),
    // Equal values in the order of their tie-breakers (here their places): nothing changes.
    ([5, 5, 5, 9], [5, 5, 5, 9]),
    // Equal values between two others, out of their tie-breakers' order: no room, every value renumbered.
    ([5, 7, 6, 7, 9], [5, 5 + 1_024, 5 + 2_048, 5 + 3_072, 5 + 4_096]),
    // No room between 10 and 11: every value renumbered from the smallest.
    ([10, 30, 11], [10, 10 + 1_024, 10 + 2_048]),
] as [([Int64], [Int64])])
func valuesAreMadeAscendingChangingAsFewAsPossible(values: [Int64], expected: [Int64]) {
    #expect(SortOrder.ascending(values.map(Optional.some), ties: values.indices.map(padded)) == expected.map(Optional.some))
}

@Test func tasksWithoutAValueAreLeftAlone() {
    #expect(SortOrder.ascending([nil, 30, nil, 10, 20], ties: (0..<5).map(padded)) == [nil, 10 - 1_024, nil, 10, 20])
    #expect(SortOrder.ascending([nil, nil], ties: ["a", "b"]) == [nil, nil])
    #expect(SortOrder.ascending([Int64.max, Int64.min], ties: ["a", "b"]) == [Int64.min / 2, Int64.min / 2 + 1_024])
    // Equal values whose tie-breakers descend: one of them takes a value below the other.
    #expect(SortOrder.ascending([5, 5], ties: ["b", "a"]) == [5 - 1_024, 5])
}

@Test func aListBuiltByAddingAtTheEndIsSentWithoutTheProperty() {
    let tasks = [task("a", created: 1), task("b", created: 2), task("c", created: 3, parent: "a"), task("d", created: 1, parent: "a")]
    let numbered = SortOrder.numbered(tasks)
    // The top level ascends by creation; of "a"'s subtasks, "d" was created before "c" but is below it: one of the
    // two is given a value.
    #expect(numbered[0] == tasks[0] && numbered[1] == tasks[1] && numbered[3] == tasks[3])
    #expect(numbered[2].extras == [Extra(key: SortOrder.key, value: ":\(1 - 1_024)")])
    // A value it had is replaced, its other extras kept.
    let moved = SortOrder.numbered([task("x", created: 9, order: 50), task("y", created: 1, order: 40)])
    #expect(moved[0].extras == [Extra(key: "ical:X-OTHER", value: ":1"), Extra(key: SortOrder.key, value: ":\(40 - 1_024)")])
    #expect(moved[1].extras.last == Extra(key: SortOrder.key, value: ":40"))
}

@Test func siblingsAreReorderedByValueWithTheFewestMoves() {
    func apply(_ order: [Int64?]) -> (result: [Int64?], moves: Int) {
        var siblings = Array(order.indices)
        let moves = SortOrder.reordering(siblings, value: { order[$0] }, tie: padded)
        for move in moves {
            siblings.removeAll { $0 == move.element }
            siblings.insert(move.element, at: move.before.flatMap { siblings.firstIndex(of: $0) } ?? siblings.count)
        }
        return (siblings.map { order[$0] }, moves.count)
    }
    #expect(apply([1, 2, 3]) == ([1, 2, 3], 0))
    #expect(apply([3, 1, 2]) == ([1, 2, 3], 1))
    #expect(apply([2, 3, 1]) == ([1, 2, 3], 1))
    // Without a value a sibling keeps its place; equal values go in the order of their tie-breaker.
    #expect(apply([5, nil, 1, 1]) == ([1, nil, 1, 5], 2))
    var reversed = [2, 1, 0]
    let tied = SortOrder.reordering(reversed, value: { _ in 7 }, tie: padded)
    for move in tied {
        reversed.removeAll { $0 == move.element }
        reversed.insert(move.element, at: move.before.flatMap { reversed.firstIndex(of: $0) } ?? reversed.count)
    }
    #expect(reversed == [0, 1, 2] && tied.count == 2)
    #expect(apply([]) == ([], 0))
}

@Test(arguments: 1...40)
func randomOrdersAreNumberedAndReorderedWithTheFewestChanges(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    let count = Int.random(in: 0...60, using: &random)
    let values: [Int64?] = (0..<count).map { _ in
        Int.random(in: 0..<8, using: &random) == 0 ? nil : Int64.random(in: -50...50, using: &random) * 1_000_000
    }
    let present = values.compactMap { $0 }
    let places = values.indices.filter { values[$0] != nil }
    let longest = SortOrder.longestAscending(places.map { SortOrder.Tied(value: values[$0]!, tie: padded($0)) }).count
    // Numbered: ascending by value and tie-breaker where set, unset stays unset, and exactly the others changed.
    let numbered = SortOrder.ascending(values, ties: values.indices.map(padded))
    let set = places.map { SortOrder.Tied(value: numbered[$0]!, tie: padded($0)) }
    #expect(zip(set, set.dropFirst()).allSatisfy { $0 < $1 })
    #expect(zip(values, numbered).allSatisfy { ($0 == nil) == ($1 == nil) })
    // (Or, when two kept equal values left no room between them, every one renumbered from the smallest.)
    let lowest = present.min() ?? 0
    let renumbered = set.map(\.value) == set.indices.map { lowest + 1_024 * Int64($0) }
    #expect(zip(values, numbered).count { $0 != $1 } == present.count - longest || renumbered)
    // Reordered: ascending, a permutation, with exactly the moves the longest run does not cover.
    var siblings = Array(values.indices)
    let moves = SortOrder.reordering(siblings, value: { values[$0] }, tie: padded)
    for move in moves {
        siblings.removeAll { $0 == move.element }
        siblings.insert(move.element, at: move.before.flatMap { siblings.firstIndex(of: $0) } ?? siblings.count)
    }
    let sorted = siblings.compactMap { values[$0] }
    #expect(sorted == present.sorted() && Set(siblings) == Set(values.indices))
    #expect(siblings.indices.allSatisfy { (values[siblings[$0]] == nil) == (values[$0] == nil) })
    // Without tasks lacking a value, the longest non-descending run stays put and the rest moves.
    if present.count == count {
        let stay = SortOrder.longestAscending(present.enumerated().map { Pair(value: $0.element, place: $0.offset) }).count
        #expect(moves.count == present.count - stay)
    }
    #expect(count < 10 || !moves.isEmpty || present == present.sorted(), "a run that did no work")
}

/// A sibling's place as a tie-breaker that sorts as the number does.
private func padded(_ place: Int) -> String {
    let digits = String(place)
    return String(repeating: "0", count: max(0, 6 - digits.count)) + digits
}

/// A value and its place: ordered by value, then place (so equal values count as ascending in their order).
private struct Pair: Comparable {
    let value: Int64
    let place: Int
    static func < (lhs: Pair, rhs: Pair) -> Bool { (lhs.value, lhs.place) < (rhs.value, rhs.place) }
}
