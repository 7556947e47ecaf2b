// Tests of OrderedIndex.replace and nearestValue: in place or moved, across leaf and separator bounds, on shared copies.

import Testing
@testable import Domain

/// A key ordered by `value` alone, carrying a `tag` that equality ignores, like Domain's OrderKey and its record.
private struct TaggedKey: IndexKey {
    var value: Int
    var tag: Int
    var weight: Int { 1 }

    static func < (left: TaggedKey, right: TaggedKey) -> Bool { left.value < right.value }
    static func == (left: TaggedKey, right: TaggedKey) -> Bool { left.value == right.value }
}

/// Every key an index holds must match `expected`, and the tree must be well formed.
private func expectKeys(_ index: OrderedIndex<Int>, _ expected: [Int], sourceLocation: SourceLocation = #_sourceLocation) {
    index.checkInvariants()
    #expect(index.allKeys == expected, sourceLocation: sourceLocation)
}

@Suite struct OrderedIndexReplaceTests {
    /// Even keys 0, 2, …, 2 × (size - 1), bulk loaded (leaves of about 24 keys) or inserted in ascending
    /// order (leaves of 16), so that cases fall inside leaves, at their edges and beside separators.
    static func evens(_ size: Int, bulk: Bool) -> OrderedIndex<Int> {
        if bulk { return OrderedIndex(sorted: Array(0..<size).map { $0 * 2 }) }
        var index = OrderedIndex<Int>()
        for key in 0..<size { index.insert(key * 2) }
        return index
    }

    @Test(arguments: [
        // (size, old, new, from, to): in place inside a leaf, at either end of the index, far up or down.
        (10, 8, 9, 4, 4), (10, 0, -5, 0, 0), (10, 18, 100, 9, 9), (10, 8, 7, 4, 4),
        (10, 0, 17, 0, 8), (10, 18, 1, 9, 1), (10, 8, 8, 4, 4),
        (5_000, 4_000, 4_001, 2_000, 2_000), (5_000, 4_000, 3_999, 2_000, 2_000),
        (5_000, 4_000, 9_001, 2_000, 4_500), (5_000, 9_998, -1, 4_999, 0), (5_000, 0, 20_000, 0, 4_999),
    ])
    func replaceReportsBothRanks(size: Int, old: Int, new: Int, from: Int, to: Int) {
        for bulk in [true, false] {
            var index = Self.evens(size, bulk: bulk)
            var expected = index.allKeys
            let ranks = index.replace(old, with: new)
            #expect(ranks.from == from && ranks.to == to, "bulk \(bulk)")
            expected.remove(at: from)
            expected.insert(new, at: to)
            expectKeys(index, expected)
        }
    }

    /// Every key beside a leaf edge, nudged by one either way: in place when a separator allows it,
    /// moved otherwise; the tree stays well formed with its separators in place.
    @Test(arguments: [true, false])
    func replaceBesideEveryLeafEdge(bulk: Bool) {
        let size = 3_000
        let base = Self.evens(size, bulk: bulk)
        for old in stride(from: 0, to: size * 2, by: 2) {
            for new in [old - 1, old + 1] {
                var index = base
                let ranks = index.replace(old, with: new)
                #expect(ranks.from == old / 2 && ranks.to == old / 2)
                #expect(index.key(at: old / 2) == new && index.count == size)
                if old % 46 == 0 { index.checkInvariants() }
            }
        }
    }

    @Test func replaceWithAnEqualKeyStoresItsPayloadInPlace() {
        var index = OrderedIndex(sorted: (0..<1_000).map { TaggedKey(value: $0, tag: 0) })
        let root = ObjectIdentifier(index.root)
        let ranks = index.replace(TaggedKey(value: 500, tag: 0), with: TaggedKey(value: 500, tag: 7))
        #expect(ranks.from == 500 && ranks.to == 500)
        #expect(index.key(at: 500).tag == 7 && index.key(at: 499).tag == 0 && index.key(at: 501).tag == 0)
        #expect(ObjectIdentifier(index.root) == root, "an unshared index is changed in place")
        index.checkInvariants()
    }

    @Test func replaceOnACopyLeavesTheOriginal() {
        let original = Self.evens(5_000, bulk: true)
        var copy = original
        copy.replace(4_000, with: 4_001)
        copy.replace(10, with: 9_999)
        #expect(original.allKeys == Array(0..<5_000).map { $0 * 2 })
        expectKeys(copy, (Array(0..<5_000).map { $0 * 2 }.filter { $0 != 4_000 && $0 != 10 } + [4_001, 9_999]).sorted())
    }

    @Test func replaceOfAnAbsentKeyTraps() async {
        await #expect(processExitsWith: .failure) {
            var index = OrderedIndex(sorted: [1, 2, 3])
            index.replace(4, with: 5)
        }
        await #expect(processExitsWith: .failure) {
            var index = OrderedIndex(sorted: Array(0..<1_000))
            index.replace(2_000, with: 2_001)
        }
        await #expect(processExitsWith: .failure) {
            var index = OrderedIndex(sorted: [1, 2, 3])
            index.replace(1, with: 3)
        }
    }

    @Test(arguments: [
        // (bound, keys skipped, expected): below a present key, an absent one, none; skipping across leaves.
        (100 as Int?, 0, 98 as Int?), (101, 0, 100), (0, 0, nil), (-5, 0, nil), (nil, 0, 9_998), (20_000, 0, 9_998),
        (100, 3, 92), (nil, 2, 9_994), (4, 2, nil), (4, 1, 0), (2_000, 60, 1_878), (9_998, 4_998, 0), (9_998, 4_999, nil),
    ])
    func nearestValueBelow(bound: Int?, skipped: Int, expected: Int?) {
        for bulk in [true, false] {
            let index = Self.evens(5_000, bulk: bulk)
            var tried = 0
            let found = index.nearestValue(below: bound) { key in
                tried += 1
                return tried > skipped ? key : nil
            }
            #expect(found == expected, "bulk \(bulk)")
        }
    }

    @Test func nearestValueOfAnEmptyIndexIsNil() {
        #expect(OrderedIndex<Int>().nearestValue(below: 5) { $0 } == nil)
        #expect(OrderedIndex<Int>().nearestValue(below: nil) { $0 } == nil)
    }
}
