// Tests of OrderedIndex with weighted keys: ranks and selects in rows, spans, neighbours, weights changed by replace, and a seeded randomized run against an array.

import Testing
@testable import Domain
import TestSupport

/// A key ordered by `value` alone, standing for `weight` rows (an item and its visible subtasks, say);
/// `<` and `==` ignore the weight, as `IndexKey` requires.
private struct WeightedKey: IndexKey, CustomStringConvertible {
    var value: Int
    var weight: Int

    init(_ value: Int, weight: Int) {
        self.value = value
        self.weight = weight
    }

    static func < (left: WeightedKey, right: WeightedKey) -> Bool { left.value < right.value }
    static func == (left: WeightedKey, right: WeightedKey) -> Bool { left.value == right.value }

    var description: String { "\(value)×\(weight)" }
}

/// The sorted keys an index should hold, and what a weighted index should answer, found by walking them.
private struct WeightedModel {
    private(set) var keys: [WeightedKey] = []
    /// The sum of the keys' weights, kept as they change.
    private(set) var totalWeight = 0

    init(keys: [WeightedKey] = []) {
        self.keys = keys
        totalWeight = keys.reduce(0) { $0 + $1.weight }
    }

    mutating func insert(_ key: WeightedKey, at position: Int) {
        keys.insert(key, at: position)
        totalWeight += key.weight
    }

    @discardableResult
    mutating func remove(at position: Int) -> WeightedKey {
        let key = keys.remove(at: position)
        totalWeight -= key.weight
        return key
    }

    mutating func replace(at position: Int, with key: WeightedKey) {
        totalWeight += key.weight - keys[position].weight
        keys[position] = key
    }

    /// The position `key` has or would have.
    func position(of key: WeightedKey) -> Int { keys.partitionPoint { $0 < key } }

    /// Whether `key` is at `position`.
    func holds(_ key: WeightedKey, at position: Int) -> Bool { position < keys.count && keys[position] == key }

    /// The weight of the keys before `position`.
    func rank(at position: Int) -> Int {
        keys.withUnsafeBufferPointer { keys in
            var sum = 0
            for index in 0..<position { sum &+= keys[index].weight }
            return sum
        }
    }

    /// The position of the key whose span holds `rank`, and the span's start.
    func entry(covering rank: Int) -> (position: Int, start: Int) {
        var start = 0
        for (position, key) in keys.enumerated() {
            if rank < start + key.weight { return (position, start) }
            start += key.weight
        }
        preconditionFailure("rank \(rank) beyond the model's weight")
    }

    /// The keys whose spans meet `range` (none when it is empty).
    func keys(in range: Range<Int>) -> [WeightedKey] {
        if range.isEmpty { return [] }
        var start = 0
        var result: [WeightedKey] = []
        for key in keys {
            if start < range.upperBound && start + key.weight > range.lowerBound { result.append(key) }
            start += key.weight
        }
        return result
    }
}

/// Checks everything an index of weighted keys can report against the keys it should hold, with their weights.
private func expectMatches(_ index: OrderedIndex<WeightedKey>, _ expected: [WeightedKey], sourceLocation: SourceLocation = #_sourceLocation) {
    index.checkInvariants()
    let stored = index.allKeys
    #expect(stored == expected, sourceLocation: sourceLocation)
    #expect(stored.map(\.weight) == expected.map(\.weight), "weights", sourceLocation: sourceLocation)
    #expect(index.count == expected.count, sourceLocation: sourceLocation)
    var start = 0
    for (position, key) in expected.enumerated() {
        #expect(index.rank(of: key) == start, sourceLocation: sourceLocation)
        let first = index.entry(covering: start)
        let last = index.entry(covering: start + key.weight - 1)
        #expect(first.key == key && first.start == start && last.key == key && last.start == start, sourceLocation: sourceLocation)
        #expect(index.key(after: key) == (position + 1 < expected.count ? expected[position + 1] : nil), sourceLocation: sourceLocation)
        #expect(index.key(before: key) == (position > 0 ? expected[position - 1] : nil), sourceLocation: sourceLocation)
        start += key.weight
    }
    #expect(index.totalWeight == start, sourceLocation: sourceLocation)
}

/// A weight: mostly small, sometimes 1, now and then large (an item with many visible subtasks); or, when
/// `rarelyHeavy`, almost always 1, so that leaves keep passing between all weighing 1 and not.
private func randomWeight(rarelyHeavy: Bool, using generator: inout SplitMix64) -> Int {
    if rarelyHeavy && Int.random(in: 0..<40, using: &generator) != 0 { return 1 }
    switch Int.random(in: 0..<10, using: &generator) {
    case 0..<3: return 1
    case 9: return Int.random(in: 20...500, using: &generator)
    default: return Int.random(in: 2...6, using: &generator)
    }
}

/// Keys 0, 2, 4, …, 2 × (size - 1) weighing 1 to 7 by a fixed pattern, bulk loaded or inserted ascending.
private func evens(_ size: Int, bulk: Bool) -> (index: OrderedIndex<WeightedKey>, keys: [WeightedKey]) {
    let keys = (0..<size).map { WeightedKey($0 * 2, weight: $0 % 7 + 1) }
    if bulk { return (OrderedIndex(sorted: keys), keys) }
    var index = OrderedIndex<WeightedKey>()
    for key in keys { index.insert(key) }
    return (index, keys)
}

@Suite struct OrderedIndexWeightTests {
    @Test func ranksAndSpansCountRows() {
        // a covers rows 0..<3, b row 3, c rows 4..<6.
        let a = WeightedKey(10, weight: 3), b = WeightedKey(20, weight: 1), c = WeightedKey(30, weight: 2)
        var index = OrderedIndex<WeightedKey>()
        #expect(index.insert(b) == 0)
        #expect(index.insert(c) == 1)
        #expect(index.insert(a) == 0)
        #expect(index.count == 3 && index.totalWeight == 6)
        #expect(index.rank(of: a) == 0 && index.rank(of: b) == 3 && index.rank(of: c) == 4)
        #expect(index.rank(of: WeightedKey(20, weight: 99)) == 3, "found whatever weight the argument carries")
        #expect(index.insertionRank(of: WeightedKey(25, weight: 1)) == 4)
        #expect(index.insertionRank(of: WeightedKey(40, weight: 1)) == 6)
        #expect((0..<6).map { index.key(at: $0).value } == [10, 10, 10, 20, 30, 30])
        #expect((0..<6).map { index.entry(covering: $0).start } == [0, 0, 0, 3, 4, 4])
        #expect(index.keys(in: 2..<4) == [a, b])
        #expect(index.keys(in: 3..<4) == [b])
        #expect(index.keys(in: 1..<2) == [a])
        #expect(index.keys(in: 5..<6) == [c])
        #expect(index.keys(in: 0..<6) == [a, b, c])
        #expect(index.keys(in: 4..<4) == [])
        #expect(index.key(after: a) == b && index.key(after: b) == c && index.key(after: c) == nil)
        #expect(index.key(before: a) == nil && index.key(before: b) == a && index.key(before: c) == b)
        #expect(index.nearestValue(below: c) { $0 } == b)
        #expect(index.nearestValue(below: nil) { $0.weight == 3 ? $0 : nil } == a)
        index.checkInvariants()

        // b grows to 10 rows in place; c moves down to 4..<16 -> 13..<15.
        #expect(index.replace(b, with: WeightedKey(20, weight: 10)) == (3, 3))
        #expect(index.totalWeight == 15 && index.rank(of: c) == 13)
        #expect(index.entry(covering: 12).key.value == 20 && index.entry(covering: 12).start == 3)
        // c becomes the first key, weighing 1: rows 0..<1, then a 1..<4, b 4..<14.
        #expect(index.replace(c, with: WeightedKey(5, weight: 1)) == (13, 0))
        #expect(index.totalWeight == 14 && index.rank(of: b) == 4)
        #expect(index.remove(WeightedKey(10, weight: 1)) == 1, "the stored weight, 3, is what goes")
        #expect(index.totalWeight == 11 && index.count == 2 && index.rank(of: b) == 1)
        index.checkInvariants()
    }

    @Test(arguments: boundarySizes)
    func bulkLoadAndInsertAgreeOnWeights(size: Int) {
        for bulk in [true, false] {
            let (index, keys) = evens(size, bulk: bulk)
            expectMatches(index, keys)
        }
    }

    @Test(arguments: boundarySizes)
    func removeEveryOtherKeyKeepsTheWeightsOfTheRest(size: Int) {
        var (index, keys) = evens(size, bulk: true)
        var model = WeightedModel(keys: keys)
        for key in keys where key.value % 4 == 0 {
            let position = model.position(of: key)
            #expect(index.remove(key) == model.rank(at: position))
            model.remove(at: position)
        }
        expectMatches(index, model.keys)
        for key in keys where key.value % 4 == 0 {
            let position = model.position(of: key)
            #expect(index.insert(key) == model.rank(at: position))
            model.insert(key, at: position)
        }
        expectMatches(index, keys)
    }

    /// Every key's weight changed in place, on a copy that shares the original's nodes: the counts on each
    /// path follow, and the original keeps its weights.
    @Test(arguments: [true, false])
    func replaceChangesWeightsInPlace(bulk: Bool) {
        let (original, keys) = evens(3_000, bulk: bulk)
        var index = original
        var model = WeightedModel(keys: keys)
        for position in stride(from: 0, to: keys.count, by: 3) {
            let new = WeightedKey(keys[position].value, weight: (position * 13) % 50 + 1)
            let rank = model.rank(at: position)
            #expect(index.replace(keys[position], with: new) == (rank, rank))
            model.replace(at: position, with: new)
            if position % 300 == 0 {
                #expect(index.totalWeight == model.totalWeight)
                index.checkInvariants()
            }
        }
        expectMatches(index, model.keys)
        expectMatches(original, keys)
    }

    /// `update` sets weights in place on a copy that shares the original's nodes: it gives back each key as it
    /// was, the counts follow, the original keeps its weights, and a key that is not there changes nothing.
    @Test(arguments: [true, false])
    func updateChangesWeightsOnTheCopyOnly(bulk: Bool) {
        let (original, keys) = evens(3_000, bulk: bulk)
        var index = original
        var model = WeightedModel(keys: keys)
        for position in stride(from: 0, to: keys.count, by: 7) {
            let weight = (position * 17) % 40 + 1
            #expect(index.update(keys[position]) { $0.weight = weight }?.weight == keys[position].weight)
            model.replace(at: position, with: WeightedKey(keys[position].value, weight: weight))
            #expect(index.update(WeightedKey(keys[position].value + 1, weight: 1)) { $0.weight = 9 } == nil)
        }
        #expect(index.totalWeight == model.totalWeight)
        index.checkInvariants()
        expectMatches(index, model.keys)
        expectMatches(original, keys)
    }

    /// Keys beside leaf edges moved one place, or nudged without moving, with a new weight each time.
    @Test(arguments: [true, false])
    func replaceMovesAndReweighsBesideLeafEdges(bulk: Bool) {
        let (base, keys) = evens(2_000, bulk: bulk)
        let model = WeightedModel(keys: keys)
        for position in stride(from: 0, to: keys.count, by: 7) {
            for shift in [-3, -1, 1, 3] {
                var index = base
                var expected = model
                let old = keys[position]
                let new = WeightedKey(old.value + shift, weight: old.weight + shift + 4)
                let from = expected.rank(at: position)
                expected.remove(at: position)
                let place = expected.position(of: new)
                expected.insert(new, at: place)
                let ranks = index.replace(old, with: new)
                #expect(ranks.from == from && ranks.to == expected.rank(at: place))
                #expect(index.totalWeight == expected.totalWeight)
                if position % 280 == 0 { expectMatches(index, expected.keys) }
            }
        }
    }

    @Test func keysInRangesAcrossLeavesAndSpans() {
        let (index, keys) = evens(9_000, bulk: true)
        let model = WeightedModel(keys: keys)
        let total = model.totalWeight
        #expect(index.totalWeight == total)
        var generator = SplitMix64(seed: 11)
        for _ in 0..<300 {
            let lower = Int.random(in: 0...total, using: &generator)
            let upper = Int.random(in: lower...min(total, lower + 600), using: &generator)
            #expect(index.keys(in: lower..<upper) == model.keys(in: lower..<upper), "range \(lower)..<\(upper)")
        }
        #expect(index.keys(in: 0..<total) == keys)
        #expect(index.keys(in: total - 1..<total) == [keys[keys.count - 1]])
    }

    /// nearestValue tries keys one by one, not rows: with heavy keys, skipping k keys must land k keys back.
    @Test func nearestValueWalksKeysNotRows() {
        for bulk in [true, false] {
            let (index, keys) = evens(5_000, bulk: bulk)
            for (bound, skipped) in [(2_001, 0), (2_000, 0), (2_000, 40), (9_998, 4_998), (9_998, 4_999), (100_000, 1), (0, 0)] {
                var tried = 0
                let found = index.nearestValue(below: WeightedKey(bound, weight: 1)) { key in
                    tried += 1
                    return tried > skipped ? key : nil
                }
                let below = keys.filter { $0.value < bound }
                let expected = below.count > skipped ? below[below.count - 1 - skipped] : nil
                #expect(found == expected, "bound \(bound), skipping \(skipped), bulk \(bulk)")
                #expect(tried == min(skipped + 1, below.count), "each key tried once")
            }
        }
    }

    @Test func programmerErrorsTrap() async {
        await #expect(processExitsWith: .failure) {
            var index = OrderedIndex<WeightedKey>()
            index.insert(WeightedKey(1, weight: 0))
        }
        await #expect(processExitsWith: .failure) {
            var index = OrderedIndex<WeightedKey>()
            index.insert(WeightedKey(1, weight: Int(Int32.max) + 1))
        }
        await #expect(processExitsWith: .failure) {
            _ = OrderedIndex(sorted: [WeightedKey(1, weight: 2), WeightedKey(2, weight: -1)])
        }
        await #expect(processExitsWith: .failure) {
            var index = OrderedIndex(sorted: [WeightedKey(1, weight: 2)])
            index.replace(WeightedKey(1, weight: 2), with: WeightedKey(1, weight: 0))
        }
        await #expect(processExitsWith: .failure) {
            _ = OrderedIndex(sorted: [WeightedKey(1, weight: 2), WeightedKey(2, weight: 3)]).key(at: 5)
        }
        await #expect(processExitsWith: .failure) {
            _ = OrderedIndex(sorted: [WeightedKey(1, weight: 2)]).entry(covering: -1)
        }
        await #expect(processExitsWith: .failure) {
            _ = OrderedIndex(sorted: [WeightedKey(1, weight: 2), WeightedKey(2, weight: 3)]).keys(in: 4..<6)
        }
        await #expect(processExitsWith: .failure) {
            _ = OrderedIndex(sorted: [1, 3]).key(after: 2)
        }
        await #expect(processExitsWith: .failure) {
            _ = OrderedIndex(sorted: [WeightedKey(1, weight: 2)]).key(before: WeightedKey(0, weight: 2))
        }
    }

    @Test(arguments: [5, 6] as [UInt64])
    func randomizedAgainstAnArrayWithRandomWeights(seed: UInt64) {
        runWeightedRandomized(seed: seed, rarelyHeavy: false)
    }

    /// Mostly keys of weight 1: leaves keep no weights until a heavy key arrives, and stop reading them
    /// when the last one leaves.
    @Test(arguments: [8, 9] as [UInt64])
    func randomizedAgainstAnArrayWithRareHeavyKeys(seed: UInt64) {
        runWeightedRandomized(seed: seed, rarelyHeavy: true)
    }
}

/// Random operations against a sorted array of weighted keys, growing the index past two levels and
/// shrinking it back, with copies taken along the way that must keep their contents and weights.
private func runWeightedRandomized(seed: UInt64, rarelyHeavy: Bool) {
    var generator = SplitMix64(seed: seed)
    var index = OrderedIndex<WeightedKey>()
    var model = WeightedModel()
    var snapshots: [(index: OrderedIndex<WeightedKey>, keys: [WeightedKey])] = []
    var tallest = 0
    var largest = 0
    var heightAfterShrinking = 0
    var reweighedInPlace = 0
    var reweighedAndMoved = 0
    var updated = 0
    let operations = 16_000
    for step in 0..<operations {
        var key = WeightedKey(Int.random(in: 0..<30_000, using: &generator),
                              weight: randomWeight(rarelyHeavy: rarelyHeavy, using: &generator))
        let growing = step < operations / 2
        let operation = Int.random(in: 0..<14, using: &generator)
        let picksExisting = !model.keys.isEmpty && Int.random(in: 0..<4, using: &generator) != 0
        if picksExisting && (operation >= 7 || growing == (Int.random(in: 0..<8, using: &generator) == 0)) {
            key.value = model.keys[Int.random(in: 0..<model.keys.count, using: &generator)].value
        }
        let position = model.position(of: key)
        let present = model.holds(key, at: position)
        switch operation {
        case 0..<7 where present:
            // The argument's weight is not the stored one's; the stored key and its weight go.
            #expect(index.remove(key) == model.rank(at: position))
            model.remove(at: position)
        case 0..<7 where growing || operation == 0:
            #expect(index.insert(key) == model.rank(at: position))
            model.insert(key, at: position)
        case 0..<7:
            #expect(index.remove(key) == nil)
            #expect(index.update(key) { $0.weight = 3 } == nil)
        case 7:
            #expect(index.rank(of: key) == (present ? model.rank(at: position) : nil))
            #expect(index.insertionRank(of: key) == model.rank(at: position))
            if present {
                #expect(index.key(after: key) == (position + 1 < model.keys.count ? model.keys[position + 1] : nil))
                #expect(index.key(before: key) == (position > 0 ? model.keys[position - 1] : nil))
            }
        case 8 where !model.keys.isEmpty:
            let rank = Int.random(in: 0..<index.totalWeight, using: &generator)
            let expected = model.entry(covering: rank)
            let entry = index.entry(covering: rank)
            #expect(entry.key == model.keys[expected.position] && entry.start == expected.start)
            #expect(index.key(at: rank) == model.keys[expected.position])
        case 9 where present:
            // The same key, weighing something else: in place.
            let rank = model.rank(at: position)
            if step % 2 == 0 {
                #expect(index.replace(key, with: key) == (rank, rank))
            } else {
                // Or by `update`, which gives back the key as it was.
                let stored = index.update(key) { $0.weight = key.weight }
                #expect(stored?.weight == model.keys[position].weight)
                updated += 1
            }
            if model.keys[position].weight != key.weight { reweighedInPlace += 1 }
            model.replace(at: position, with: key)
        case 9 where !model.keys.isEmpty:
            // Mostly the key next to `key`'s place, which `key` then replaces in place; sometimes any key.
            let nearby = Int.random(in: 0..<4, using: &generator) != 0
            let from = nearby ? min(position, model.keys.count - 1) : Int.random(in: 0..<model.keys.count, using: &generator)
            let fromRank = model.rank(at: from)
            let old = model.remove(at: from)
            let to = model.position(of: key)
            let ranks = index.replace(old, with: key)
            #expect(ranks.from == fromRank && ranks.to == model.rank(at: to))
            if old.weight != key.weight && from != to { reweighedAndMoved += 1 }
            model.insert(key, at: to)
        case 10:
            // The nearest key below `key` (or below none) after skipping a few.
            let skip = Int.random(in: 0..<3, using: &generator)
            let bounded = Int.random(in: 0..<8, using: &generator) != 0
            let expected = model.keys[..<(bounded ? position : model.keys.count)].dropLast(skip).last
            var tried = 0
            let found = index.nearestValue(below: bounded ? key : nil) { candidate in
                tried += 1
                return tried > skip ? candidate : nil
            }
            #expect(found == expected)
        default:
            let total = index.totalWeight
            let lower = Int.random(in: 0...total, using: &generator)
            let upper = Int.random(in: lower...min(total, lower + 400), using: &generator)
            #expect(index.keys(in: lower..<upper) == model.keys(in: lower..<upper))
        }
        #expect(index.count == model.keys.count && index.totalWeight == model.totalWeight)
        if step % 1_000 == 999 {
            expectMatches(index, model.keys)
            snapshots.append((index, model.keys))
        }
        tallest = max(tallest, index.height)
        largest = max(largest, index.count)
        if !growing { heightAfterShrinking = index.height }
    }
    // Real work: the tree grew to three levels (leaves split, then the nodes above them) and shrank back
    // (leaves merged until the root collapsed), and weights changed both in place and with a move.
    #expect(largest > 50 * OrderedIndex<WeightedKey>.leafCapacity, "largest \(largest)")
    #expect(tallest == 2, "the run should grow the tree to three levels")
    #expect(heightAfterShrinking < tallest, "the run should merge nodes until the root collapses")
    #expect(reweighedInPlace > (rarelyHeavy ? 10 : 300) && reweighedAndMoved > (rarelyHeavy ? 0 : 30) && updated > 100,
            "in place \(reweighedInPlace), moved \(reweighedAndMoved), updated \(updated)")
    expectMatches(index, model.keys)
    for snapshot in snapshots {
        expectMatches(snapshot.index, snapshot.keys)
    }
}
