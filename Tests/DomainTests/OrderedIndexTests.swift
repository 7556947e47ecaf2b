// Tests of OrderedIndex: edge cases at node boundaries, bulk loading, and a seeded randomized run against a sorted array.

import Testing
@testable import Domain
import TestSupport

/// A key whose comparison reads out-of-line bytes, like Domain's OrderKey in a title sort. Its weights are all
/// 1 but its type does not say so, so its index keeps and reads weights, and ranks must still be positions.
private struct TitleKey: IndexKey {
    var title: [UInt8]
    var id: UInt64
    var weight: Int { 1 }

    static func < (left: TitleKey, right: TitleKey) -> Bool {
        left.title.lexicographicallyPrecedes(right.title) || (left.title == right.title && left.id < right.id)
    }

    init(_ number: Int) {
        title = Array("task \(number % 97)".utf8)
        id = UInt64(number)
    }
}

/// Checks everything an index can report against the sorted, unique keys it should hold.
private func expectMatches<Key: IndexKey>(_ index: OrderedIndex<Key>, _ expected: [Key], sourceLocation: SourceLocation = #_sourceLocation) {
    index.checkInvariants()
    #expect(index.count == expected.count, sourceLocation: sourceLocation)
    #expect(index.totalWeight == expected.count, "every key weighs 1", sourceLocation: sourceLocation)
    #expect(index.isEmpty == expected.isEmpty, sourceLocation: sourceLocation)
    #expect(index.allKeys == expected, sourceLocation: sourceLocation)
    for (rank, key) in expected.enumerated() {
        #expect(index.key(at: rank) == key, sourceLocation: sourceLocation)
        #expect(index.rank(of: key) == rank, sourceLocation: sourceLocation)
    }
}

/// Sizes around the points where nodes split, merge and collapse. A leaf splits past 32 keys (unless a
/// sibling takes one) and refills below 16. Ascending inserts fill leaves to 32 (each overflow hands a key to
/// the left), so the root splits at about 64 × 32 keys; a bulk load fills leaves to 32, so its root is one
/// level higher from 64 × 32 + 1 = 2049 keys on.
let boundarySizes = [0, 1, 2, 15, 16, 17, 31, 32, 33, 34, 64, 65, 1023, 1024, 1025, 1536, 1559, 1560, 2049, 6000]

/// Random operations against a sorted array, growing the index past two levels and shrinking it back,
/// with copies taken along the way that must keep their contents.
private func runRandomized<Key: IndexKey>(seed: UInt64, key makeKey: (Int) -> Key) {
    var generator = SplitMix64(seed: seed)
    var index = OrderedIndex<Key>()
    var reference: [Key] = []
    var snapshots: [(index: OrderedIndex<Key>, keys: [Key])] = []
    var tallest = 0
    let operations = 20_000
    for step in 0..<operations {
        var key = makeKey(Int.random(in: 0..<40_000, using: &generator))
        let growing = step < operations / 2
        let operation = Int.random(in: 0..<12, using: &generator)
        let removesExisting = operation < 7 && !reference.isEmpty && Int.random(in: 0..<4, using: &generator) != 0
        if removesExisting && (growing == (Int.random(in: 0..<8, using: &generator) == 0)) {
            key = reference[Int.random(in: 0..<reference.count, using: &generator)]
        }
        let position = reference.partitionPoint { $0 < key }
        let present = position < reference.count && reference[position] == key
        switch operation {
        case 0..<7 where present:
            #expect(index.remove(key) == position)
            reference.remove(at: position)
        case 0..<7 where growing || operation == 0:
            #expect(index.insert(key) == position)
            reference.insert(key, at: position)
        case 0..<7:
            #expect(index.remove(key) == nil)
        case 7:
            #expect(index.rank(of: key) == (present ? position : nil))
            #expect(index.insertionRank(of: key) == position)
            if present {
                #expect(index.key(after: key) == (position + 1 < reference.count ? reference[position + 1] : nil))
                #expect(index.key(before: key) == (position > 0 ? reference[position - 1] : nil))
            }
        case 8 where !reference.isEmpty:
            let rank = Int.random(in: 0..<reference.count, using: &generator)
            #expect(index.key(at: rank) == reference[rank])
            let entry = index.entry(covering: rank)
            #expect(entry.key == reference[rank] && entry.start == rank)
        case 9 where present:
            let ranks = index.replace(key, with: key)
            #expect(ranks.from == position && ranks.to == position)
        case 9 where !reference.isEmpty:
            // Mostly the key next to `key`'s place, which `key` then replaces in place; sometimes any key.
            let nearby = Int.random(in: 0..<4, using: &generator) != 0
            let from = nearby ? min(position, reference.count - 1) : Int.random(in: 0..<reference.count, using: &generator)
            let old = reference.remove(at: from)
            let to = reference.partitionPoint { $0 < key }
            let ranks = index.replace(old, with: key)
            #expect(ranks.from == from && ranks.to == to)
            reference.insert(key, at: to)
        case 10:
            // The nearest key below `key` (or below none) after skipping a few.
            let skip = Int.random(in: 0..<3, using: &generator)
            let bounded = Int.random(in: 0..<8, using: &generator) != 0
            let expected = reference[..<(bounded ? position : reference.count)].dropLast(skip).last
            var tried = 0
            let found = index.nearestValue(below: bounded ? key : nil) { candidate in
                tried += 1
                return tried > skip ? candidate : nil
            }
            #expect(found == expected)
        default:
            let lower = Int.random(in: 0...reference.count, using: &generator)
            let upper = Int.random(in: lower...min(reference.count, lower + 200), using: &generator)
            #expect(index.keys(in: lower..<upper) == Array(reference[lower..<upper]))
        }
        if step % 1_000 == 999 {
            expectMatches(index, reference)
            snapshots.append((index, reference))
        }
        tallest = max(tallest, index.height)
    }
    #expect(tallest == 2, "the run should grow the tree to three levels")
    expectMatches(index, reference)
    for snapshot in snapshots {
        snapshot.index.checkInvariants()
        #expect(snapshot.index.allKeys == snapshot.keys)
    }
}

extension Array {
    /// Index of the first element not in the first part, the array being partitioned by isInFirstPart.
    func partitionPoint(_ isInFirstPart: (Element) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if isInFirstPart(self[middle]) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

@Suite struct OrderedIndexTests {
    @Test func emptyIndex() {
        var index = OrderedIndex<Int>()
        expectMatches(index, [])
        #expect(index.rank(of: 5) == nil)
        #expect(index.insertionRank(of: 5) == 0)
        #expect(index.keys(in: 0..<0) == [])
        #expect(index.remove(5) == nil)
        #expect(!index.contains(5))
        expectMatches(index, [])
    }

    @Test func oneKey() {
        var index = OrderedIndex<Int>()
        #expect(index.insert(7) == 0)
        expectMatches(index, [7])
        #expect(index.insertionRank(of: 6) == 0)
        #expect(index.insertionRank(of: 7) == 0)
        #expect(index.insertionRank(of: 8) == 1)
        #expect(index.rank(of: 8) == nil)
        #expect(index.remove(8) == nil)
        #expect(index.remove(7) == 0)
        expectMatches(index, [])
    }

    @Test(arguments: boundarySizes)
    func insertAscendingThenRemoveFromFront(size: Int) {
        var index = OrderedIndex<Int>()
        for key in 0..<size {
            #expect(index.insert(key) == key)
        }
        expectMatches(index, Array(0..<size))
        for key in 0..<size {
            #expect(index.remove(key) == 0)
            if key % 61 == 0 { index.checkInvariants() }
        }
        expectMatches(index, [])
    }

    @Test(arguments: boundarySizes)
    func insertDescendingThenRemoveFromBack(size: Int) {
        var index = OrderedIndex<Int>()
        for key in (0..<size).reversed() {
            #expect(index.insert(key) == 0)
        }
        expectMatches(index, Array(0..<size))
        for key in (0..<size).reversed() {
            #expect(index.remove(key) == key)
            if key % 61 == 0 { index.checkInvariants() }
        }
        expectMatches(index, [])
    }

    @Test(arguments: boundarySizes)
    func removeEveryOtherKeyFromBulkLoad(size: Int) {
        var index = OrderedIndex(sorted: Array(0..<size))
        for key in stride(from: 0, to: size, by: 2) {
            #expect(index.remove(key) == key / 2, "the odd keys below it remain")
            if key % 122 == 0 { index.checkInvariants() }
        }
        expectMatches(index, Array(stride(from: 1, to: size, by: 2)))
        for key in stride(from: 0, to: size, by: 2) {
            #expect(index.insert(key) == key)
        }
        expectMatches(index, Array(0..<size))
    }

    @Test func removeAbsentKeyLeavesIndexAndCopiesUnchanged() {
        var index = OrderedIndex(sorted: Array(stride(from: 0, to: 10_000, by: 2)))
        let copy = index
        for key in [-1, 1, 4_999, 9_999, 10_000, 20_000] {
            #expect(index.remove(key) == nil)
        }
        expectMatches(index, Array(stride(from: 0, to: 10_000, by: 2)))
        expectMatches(copy, Array(stride(from: 0, to: 10_000, by: 2)))
    }

    @Test func programmerErrorsTrap() async {
        await #expect(processExitsWith: .failure) {
            var index = OrderedIndex(sorted: [1, 2, 3])
            index.insert(2)
        }
        await #expect(processExitsWith: .failure) {
            _ = OrderedIndex(sorted: [1, 3, 2])
        }
        await #expect(processExitsWith: .failure) {
            _ = OrderedIndex(sorted: [1, 1])
        }
        await #expect(processExitsWith: .failure) {
            _ = OrderedIndex(sorted: [1, 2, 3]).key(at: 3)
        }
        await #expect(processExitsWith: .failure) {
            _ = OrderedIndex(sorted: [1, 2, 3]).keys(in: 2..<4)
        }
    }

    @Test func insertionRankBetweenAndBeyondKeys() {
        let index = OrderedIndex(sorted: Array(stride(from: 10, to: 10_010, by: 10)))
        let cases: [(key: Int, rank: Int)] = [(0, 0), (10, 0), (11, 1), (640, 63), (645, 64), (650, 64), (10_000, 999), (10_001, 1000)]
        for (key, rank) in cases {
            #expect(index.insertionRank(of: key) == rank, "key \(key)")
        }
    }

    @Test func keysInRangesAcrossLeafBoundaries() {
        let size = 9_000
        let keys = Array(0..<size).map { $0 * 3 }
        let index = OrderedIndex(sorted: keys)
        let ranges = [0..<0, 0..<1, 63..<65, 62..<130, 0..<size, 100..<4_200, 4_090..<4_200, size - 1..<size, size..<size, 2_000..<2_000]
        for range in ranges {
            #expect(index.keys(in: range) == Array(keys[range]), "range \(range)")
        }
        var generator = SplitMix64(seed: 7)
        for _ in 0..<200 {
            let lower = Int.random(in: 0...size, using: &generator)
            let upper = Int.random(in: lower...min(size, lower + 300), using: &generator)
            #expect(index.keys(in: lower..<upper) == Array(keys[lower..<upper]))
        }
    }

    @Test func bulkLoadEverySmallSize() {
        for size in 0...200 {
            expectMatches(OrderedIndex(sorted: Array(0..<size)), Array(0..<size))
        }
    }

    @Test(arguments: [4_096, 4_097, 131_072, 262_145, 300_001])
    func bulkLoadLargeSize(size: Int) {
        let keys = Array(0..<size).map { $0 * 2 }
        var index = OrderedIndex(sorted: keys)
        index.checkInvariants()
        #expect(index.allKeys == keys)
        #expect(index.key(at: size / 2) == keys[size / 2])
        let between = keys[size / 2] + 1
        #expect(index.insert(between) == size / 2 + 1)
        #expect(index.remove(between) == size / 2 + 1)
        #expect(index.insert(-1) == 0)
        index.checkInvariants()
    }

    @Test(arguments: [false, true])
    func insertsInOrderFillTheLeaves(descending: Bool) {
        var index = OrderedIndex<Int>()
        let keys = Array(0..<20_000)
        for key in descending ? keys.reversed() : keys { index.insert(key) }
        expectMatches(index, keys)
        // Splitting alone would leave every leaf but the last half full.
        #expect(index.leafFill > 0.95, "leaves \(index.leafFill) full")
    }

    @Test func randomInsertsIntoAFullTreeKeepItsLeavesMostlyFull() {
        var generator = SplitMix64(seed: 7)
        var index = OrderedIndex(sorted: Array(0..<32_000).map { $0 * 2 })
        #expect(index.leafFill == 1)
        var expected = Set(index.allKeys)
        var copies: [(OrderedIndex<Int>, [Int])] = []
        for step in 0..<16_000 {
            let key = Int.random(in: 0..<32_000, using: &generator) * 2 + 1
            if expected.insert(key).inserted { index.insert(key) }
            if step % 4_000 == 0 { copies.append((index, index.allKeys)) }
        }
        expectMatches(index, expected.sorted())
        // Splitting alone leaves them about 65% full (every leaf the inserts reach splits in two).
        #expect(index.leafFill > 0.75, "leaves \(index.leafFill) full")
        // Keys handed to a sibling that a copy shares leave the copy as it was.
        for (copy, keys) in copies {
            copy.checkInvariants()
            #expect(copy.allKeys == keys)
        }
    }

    @Test func copiesAreIndependentInBothDirections() {
        var original = OrderedIndex(sorted: Array(0..<5_000))
        var copy = original
        for key in 0..<2_500 { original.remove(key * 2) }
        for key in 5_000..<6_000 { copy.insert(key) }
        expectMatches(original, Array(0..<2_500).map { $0 * 2 + 1 })
        expectMatches(copy, Array(0..<6_000))
    }

    @Test func mutationCopiesOnlyTheSharedPath() {
        var index = OrderedIndex(sorted: Array(0..<50_000).map { $0 * 2 })
        #expect(index.height == 2)
        let root = ObjectIdentifier(index.root)
        index.insert(1)
        #expect(ObjectIdentifier(index.root) == root, "an unshared index mutates in place")

        let copy = index
        index.insert(3)
        #expect(index.root !== copy.root)
        let shared = zip(index.root.children, copy.root.children).filter { $0 === $1 }
        #expect(shared.count == copy.root.children.count - 1, "only the child on the path is copied")
        let copiedChild = ObjectIdentifier(index.root.children[0])
        index.insert(5)
        #expect(ObjectIdentifier(index.root.children[0]) == copiedChild, "copied nodes are not copied again")
        #expect(copy.count == 50_001 && copy.rank(of: 3) == nil)
    }

    @Test func copyReadOnAnotherThreadWhileOriginalMutates() async {
        var index = OrderedIndex(sorted: Array(0..<50_000))
        let snapshot = index
        let reader = Task.detached {
            var sum = 0
            for round in 0..<20 {
                sum &+= snapshot.allKeys.reduce(0, &+)
                sum &+= snapshot.key(at: round * 1_000)
            }
            return sum
        }
        for key in 0..<25_000 { index.remove(key * 2) }
        for key in 50_000..<60_000 { index.insert(key) }
        let expectedSum = 20 * (49_999 * 50_000 / 2) + (0..<20).reduce(0) { $0 + $1 * 1_000 }
        #expect(await reader.value == expectedSum)
        expectMatches(snapshot, Array(0..<50_000))
        #expect(index.count == 35_000)
        index.checkInvariants()
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func randomizedAgainstSortedArrayOfIntegers(seed: UInt64) {
        runRandomized(seed: seed) { $0 }
    }

    @Test func randomizedAgainstSortedArrayOfTitleKeys() {
        runRandomized(seed: 42) { TitleKey($0) }
    }
}
