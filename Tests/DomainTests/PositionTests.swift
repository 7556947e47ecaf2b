// Tests of fractional positions: strict betweenness, short keys for appends, bounded growth for bisection.

import Testing
@testable import Domain
import TestSupport

struct PositionTests {
    @Test func appendsAndPrependsStayShort() {
        var last = Position.between(nil, nil)
        var first = last
        for _ in 0..<1_000_000 {
            let next = Position.between(last, nil)
            #expect(last < next)
            last = next
        }
        #expect(last.bytes.count <= 4)
        for _ in 0..<100_000 {
            let previous = Position.between(nil, first)
            #expect(previous < first)
            first = previous
        }
        #expect(first.bytes.count <= 4)
    }

    @Test func betweenIsStrictlyBetween() {
        var generator = SplitMix64(seed: 7)
        var keys = [Position.between(nil, nil)]
        for _ in 0..<3_000 {
            let slot = Int.random(in: 0...keys.count, using: &generator)
            let lower = slot > 0 ? keys[slot - 1] : nil
            let upper = slot < keys.count ? keys[slot] : nil
            let key = Position.between(lower, upper)
            if let lower { #expect(lower < key) }
            if let upper { #expect(key < upper) }
            #expect(key.bytes.last != 0 || key.bytes.count <= 2)
            keys.insert(key, at: slot)
        }
        #expect(keys == keys.sorted())
        #expect(Set(keys).count == keys.count)
    }

    @Test func repeatedInsertionAtOneSpotGrowsSlowly() {
        let lower = Position.between(nil, nil)
        var upper = Position.between(lower, nil)
        for _ in 0..<800 {
            upper = Position.between(lower, upper)
        }
        #expect(upper.bytes.count <= 2 + 800 / 8 + 2)
    }

    @Test(arguments: [1, 2, 3, 10, 1000])
    func blocksAreSpreadByBisection(count: Int) {
        let lower = Position.between(nil, nil)
        let upper = Position.between(lower, nil)
        let keys = Position.between(lower, upper, count: count)
        #expect(keys.count == count)
        #expect(keys == keys.sorted())
        #expect(keys.allSatisfy { lower < $0 && $0 < upper })
        #expect(keys.map(\.bytes.count).max()! <= 3 + 11 / 8 + 2)
        let atEnd = Position.between(upper, nil, count: count)
        #expect(atEnd.first! > upper && atEnd == atEnd.sorted())
        let atStart = Position.between(nil, lower, count: count)
        #expect(atStart.last! < lower && atStart == atStart.sorted())
    }

    @Test func generationIsDeterministic() {
        let a = Position.between(Position(bytes: [128, 5, 7]), Position(bytes: [128, 5, 9]))
        let b = Position.between(Position(bytes: [128, 5, 7]), Position(bytes: [128, 5, 9]))
        #expect(a == b)
        #expect(a == Position(bytes: [128, 5, 8]))
        #expect(Position.between(Position(bytes: [128, 5]), Position(bytes: [128, 6])) == Position(bytes: [128, 5, 128]))
        #expect(Position.between(Position(bytes: [128, 255]), nil) == Position(bytes: [129, 0, 0]))
        #expect(Position.between(nil, Position(bytes: [128, 0])) == Position(bytes: [127, 255]))
    }

    /// The inline storage (15 bytes and a length, or every byte when longer) orders, equates and hashes keys as
    /// their bytes do, and gives the bytes back, at every length around the 8- and 15-byte boundaries.
    @Test func inlineStorageAgreesWithTheBytes() {
        var random = SplitMix64(seed: 21)
        var keys: [[UInt8]] = [[], [0], [0, 0], [255], [128, 0]]
        for _ in 0..<3_000 {
            // Few distinct byte values and shared prefixes, so long common prefixes and zero padding are exercised.
            let length = Int.random(in: 0...24, using: &random)
            var bytes = (keys.randomElement(using: &random) ?? []).prefix(Int.random(in: 0...24, using: &random)).map { $0 }
            while bytes.count < length { bytes.append([0, 1, 255].randomElement(using: &random)!) }
            keys.append(Array(bytes.prefix(length)))
        }
        var compared = 0
        for (index, left) in keys.enumerated() {
            let position = Position(bytes: left)
            #expect(position.bytes == left && position.count == left.count)
            #expect(position.withBytes { Array($0) } == left)
            #expect(Position(bytes: left[...]) == position)
            for _ in 0..<8 {
                let right = keys[(index * 7 + compared) % keys.count]
                let other = Position(bytes: right)
                let expected = left.lexicographicallyPrecedes(right)
                #expect((position < other) == expected, "\(left) < \(right)")
                #expect((position == other) == (left == right), "\(left) == \(right)")
                if left == right { #expect(position.hashValue == other.hashValue) }
                compared += 1
            }
        }
        #expect(compared == keys.count * 8 && keys.contains { $0.count > 15 } && keys.contains { $0.count == 15 })
        // Neighbours in byte order share the longest prefixes: each key against the next four.
        let ordered = keys.sorted { $0.lexicographicallyPrecedes($1) }
        var spilledTies = 0
        for (index, left) in ordered.enumerated() {
            for right in ordered[(index + 1)..<min(ordered.count, index + 5)] {
                #expect((Position(bytes: left) < Position(bytes: right)) == left.lexicographicallyPrecedes(right), "\(left) < \(right)")
                #expect((Position(bytes: left) == Position(bytes: right)) == (left == right))
                if left.count > 15, right.count > 15, left.prefix(15) == right.prefix(15), left != right { spilledTies += 1 }
            }
        }
        #expect(spilledTies > 0)
        // Fifteen equal bytes, then: nothing, a zero, different tails; and trailing zeros.
        let fifteen = [UInt8](repeating: 7, count: 15)
        let cases: [[UInt8]] = [fifteen, fifteen + [0], fifteen + [0, 0], fifteen + [1], fifteen + [0, 1], fifteen + [1, 0],
                                [7], [7, 0], [7, 0, 0], Array(fifteen.prefix(14)) + [0]]
        for left in cases {
            for right in cases {
                #expect((Position(bytes: left) < Position(bytes: right)) == left.lexicographicallyPrecedes(right), "\(left) < \(right)")
                #expect((Position(bytes: left) == Position(bytes: right)) == (left == right), "\(left) == \(right)")
            }
        }
    }

    /// A position is three words; an order key stays 80 bytes with it, and an item 136 at most.
    @Test func layoutsStayCompact() {
        #expect(MemoryLayout<Position>.size == 24)
        #expect(MemoryLayout<OrderKey>.stride == 80)
        // An item's record is one 144-byte heap block: 16 bytes of object header and the item (glibc adds 8 bytes
        // to a request and rounds up to 16).
        #expect(MemoryLayout<Item>.size <= 120)
    }
}
