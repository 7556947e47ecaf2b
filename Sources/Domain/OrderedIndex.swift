// OrderedIndex: an ordered set of unique weighted keys with O(log n) insert, remove, rank and select by weight (a counted B+tree).

/// An ordered set of unique keys, each standing for `weight` rows, with O(log n) rank and select in rows
/// (a counted B+tree).
///
/// Every view's row order lives in one: the rank of a key is its first row, the sum of the weights of the
/// keys before it. A key weighing w covers the rows `[rank, rank + w)` (its span); when every key weighs 1
/// (`Key.hasUnitWeights`, or weights that happen to be 1), ranks are plain positions.
///
/// Layout: leaves hold up to 32 keys (small leaves move fewer keys per insert or remove, and a search
/// touches fewer memory pages), and, unless every key weighs 1, each key's weight; internal nodes hold up
/// to 64 children, the sum of the weights under each child, and separator keys to descend by; each node is
/// one allocation (see `Node`). All leaves are at the same depth, so a million keys sit four levels deep.
/// Leaves are not linked to each other (a link would have to be rewritten whenever its target is copied),
/// so `keys(in:)` walks down from the root.
///
/// Value semantics: nodes are class instances shared between copies of an index. A mutation first
/// copies the nodes on its own root-to-leaf path that are shared (checked with
/// `isKnownUniquelyReferenced`), and a sibling it moves keys into (refilling after a removal, or taking
/// a key from an overflowing leaf), then changes only nodes it owns alone. So a copy handed to another
/// thread stays unchanged while the original keeps mutating, the first mutation after a copy costs
/// O(log n) node copies, and a mutation of an unshared index copies nothing, never the whole tree.
///
/// Speed: the code is generic, and fast only where the compiler specializes it for the key type, as it
/// does within this module (with whole-module optimization, as in release builds). Used from another
/// module it runs unspecialized, several times slower; wrap it in a Domain type instead. A key type with
/// unit weights pays nothing for weights: its leaves keep none and no search reads one.
///
/// `@unchecked Sendable` because its nodes, `ManagedBuffer`s, cannot be `Sendable`: a node reachable from
/// more than one index value is never mutated (see `Node`), so values on different threads share only
/// nodes that no longer change.
public struct OrderedIndex<Key: IndexKey>: @unchecked Sendable {
    /// The root: a leaf when `height` is 0.
    var root: Node
    /// Levels below the root: 0 when the root is a leaf.
    var height: Int
    /// The number of keys.
    /// - Complexity: O(1)
    public internal(set) var count: Int
    /// The sum of the keys' weights: the number of rows they stand for (`count` when every key weighs 1).
    /// - Complexity: O(1)
    public internal(set) var totalWeight: Int

    /// An empty index.
    public init() {
        root = Node.leaf()
        height = 0
        count = 0
        totalWeight = 0
    }

    /// Builds from keys already sorted ascending and unique, with their weights. Precondition: they are
    /// (checked), and every weight is at least 1 (exactly 1 when `Key.hasUnitWeights`; checked).
    /// Leaves are filled full, branches to about three quarters (see `build(sorted:)`).
    /// - Complexity: O(n)
    public init(sorted keys: [Key]) {
        for index in keys.indices.dropFirst() {
            precondition(keys[index - 1] < keys[index], "OrderedIndex(sorted:) needs ascending, unique keys")
        }
        self = Self.build(sorted: keys)
    }

    /// Whether the index holds no keys.
    public var isEmpty: Bool { count == 0 }

    /// Whether key is in the index.
    /// - Complexity: O(log n)
    public func contains(_ key: Key) -> Bool {
        rank(of: key) != nil
    }

    /// The rank of key if present: the sum of the weights of the keys before it (its position, when every
    /// key weighs 1).
    /// - Complexity: O(log n)
    public func rank(of key: Key) -> Int? {
        let (rank, found) = search(key)
        return found ? rank : nil
    }

    /// The rank key would have if inserted: the sum of the weights of the keys strictly less than key.
    /// - Complexity: O(log n)
    public func insertionRank(of key: Key) -> Int {
        search(key).rank
    }

    /// The key whose span `[rank(of: key), rank(of: key) + key.weight)` holds `rank` (the key at position
    /// `rank`, when every key weighs 1). Precondition: `0 <= rank < totalWeight`.
    /// - Complexity: O(log n)
    public func key(at rank: Int) -> Key {
        precondition(rank >= 0 && rank < totalWeight, "OrderedIndex.key(at:) rank out of range")
        return locate(rank) { leaf, index, _ in leaf.key(at: index) }
    }

    /// The key whose span holds `rank`, as `key(at:)`, and the span's start (the key's rank, at most `rank`).
    /// Precondition: `0 <= rank < totalWeight`.
    /// - Complexity: O(log n)
    public func entry(covering rank: Int) -> (key: Key, start: Int) {
        precondition(rank >= 0 && rank < totalWeight, "OrderedIndex.entry(covering:) rank out of range")
        return locate(rank) { leaf, index, start in (leaf.key(at: index), start) }
    }

    /// The key right after `key` in key order, nil if `key` is the last. Precondition: `key` is present.
    /// - Complexity: O(log n): one descent, a second when `key` ends its leaf.
    public func key(after key: Key) -> Key? {
        let (next, end) = descend(to: key) { leaf, position, leafStart, leafWeight -> (Key?, Int) in
            precondition(leaf.hasKey(key, at: position), "OrderedIndex.key(after:) key not present")
            if position + 1 < leaf.keyCount { return (leaf.key(at: position + 1), 0) }
            return (nil, leafStart + leafWeight)
        }
        if let next { return next }
        return end < totalWeight ? self.key(at: end) : nil
    }

    /// The key right before `key` in key order, nil if `key` is the first. Precondition: `key` is present.
    /// - Complexity: O(log n): one descent, a second when `key` starts its leaf.
    public func key(before key: Key) -> Key? {
        let (previous, leafStart) = descend(to: key) { leaf, position, leafStart, _ -> (Key?, Int) in
            precondition(leaf.hasKey(key, at: position), "OrderedIndex.key(before:) key not present")
            return (position > 0 ? leaf.key(at: position - 1) : nil, leafStart)
        }
        if let previous { return previous }
        return leafStart > 0 ? self.key(at: leafStart - 1) : nil
    }

    /// The value `transform` gives for the nearest key below `bound` (nil: below no key, so starting
    /// from the last) for which it gives one, nil if none does. Keys are tried one by one in descending
    /// key order, whatever their weights.
    ///
    /// One descent finds `bound`'s place, and the keys below it in the same leaf are read where they are
    /// stored; only further keys cost a descent each.
    /// - Complexity: O(log n + k) for k keys tried, plus O(log n) per key tried beyond `bound`'s leaf.
    public func nearestValue<Value>(below bound: Key?, _ transform: (Key) -> Value?) -> Value? {
        unowned(unsafe) var node = root
        var leafStart = 0
        for _ in 0..<height {
            let child = if let bound { node.upperBound(bound) } else { node.keyCount }
            leafStart &+= node.countBefore(child)
            node = node.children[child]
        }
        let position = if let bound { node.lowerBound(bound) } else { node.keyCount }
        let inLeaf: Value? = node.withKeys { keys in
            for index in stride(from: position - 1, through: 0, by: -1) {
                if let value = transform(keys[index]) { return value }
            }
            return nil
        }
        if let inLeaf { return inLeaf }
        var end = leafStart
        while end > 0 {
            let (key, start) = entry(covering: end - 1)
            if let value = transform(key) { return value }
            end = start
        }
        return nil
    }

    /// The keys whose spans meet `range`, a range of rows, in order (the keys at the positions in range,
    /// when every key weighs 1). An empty range meets no span. Precondition: the range lies within
    /// `0..<totalWeight`.
    /// - Complexity: O(log n + k) for the k keys returned.
    public func keys(in range: Range<Int>) -> [Key] {
        precondition(range.lowerBound >= 0 && range.upperBound <= totalWeight, "OrderedIndex.keys(in:) range out of bounds")
        var result: [Key] = []
        result.reserveCapacity(Swift.min(range.count, count))
        if !range.isEmpty {
            Self.append(from: root, weight: totalWeight, height: height, range: range, to: &result)
        }
        return result
    }

    /// All keys in order (for tests and snapshots).
    /// - Complexity: O(n)
    public var allKeys: [Key] { keys(in: 0..<totalWeight) }

    /// Traps unless a key's weight is at least 1 and fits in 32 bits (leaves store weights so), and is
    /// exactly 1 when `Key.hasUnitWeights` (a check the compiler removes for a type whose weight is the
    /// constant 1).
    @inline(__always)
    static func checkWeight(_ weight: Int) {
        precondition(Key.hasUnitWeights ? weight == 1 : weight >= 1 && weight <= Int(Int32.max),
                     "OrderedIndex: a key's weight must be at least 1 and below 2^31 (exactly 1 for a type with unit weights)")
    }

    /// Descends to key's leaf: the weight of the keys less than key, and whether key is present.
    /// - Complexity: O(log n)
    @inline(__always)
    /// The stored key equal to `key` (with its weight and whatever else `==` does not compare), nil when absent.
    /// - Complexity: O(log n), one descent.
    public func member(equalTo key: Key) -> Key? {
        descend(to: key) { leaf, position, _, _ in leaf.hasKey(key, at: position) ? leaf.key(at: position) : nil }
    }

    private func search(_ key: Key) -> (rank: Int, found: Bool) {
        descend(to: key) { leaf, position, leafStart, _ in
            (leafStart &+ leaf.weightBefore(position), leaf.hasKey(key, at: position))
        }
    }

    /// Descends to key's leaf and gives body the leaf, the position of the first key in it not less than
    /// key, the weight under the leaves before it and the weight of the leaf's keys.
    /// - Complexity: O(log n)
    @inline(__always)
    private func descend<Result>(to key: Key, _ body: (Node, Int, Int, Int) -> Result) -> Result {
        unowned(unsafe) var node = root
        var leafStart = 0
        var leafWeight = totalWeight
        for _ in 0..<height {
            let child = node.upperBound(key)
            leafStart &+= node.countBefore(child)
            leafWeight = node.counts[child]
            node = node.children[child]
        }
        return body(node, node.lowerBound(key), leafStart, leafWeight)
    }

    /// Descends to the leaf holding the key whose span holds `rank` and gives body that leaf, the key's
    /// index in it and the span's start. Precondition (unchecked): `0 <= rank < totalWeight`.
    /// - Complexity: O(log n)
    @inline(__always)
    private func locate<Result>(_ rank: Int, _ body: (Node, Int, Int) -> Result) -> Result {
        unowned(unsafe) var node = root
        var remaining = rank
        for _ in 0..<height {
            let counts = node.counts
            var child = 0
            while remaining >= counts[child] {
                remaining &-= counts[child]
                child &+= 1
            }
            node = node.children[child]
        }
        let (index, start) = node.entry(covering: remaining)
        return body(node, index, rank &- remaining &+ start)
    }

    /// Appends the keys under node, whose keys weigh `weight`, whose spans (counted from the node's first
    /// row) meet range, which is not empty. Children wholly outside range are skipped by their counts, so
    /// only the two boundary paths are visited partially.
    /// - Complexity: O(height × fan-out + keys appended)
    private static func append(from node: Node, weight: Int, height: Int, range: Range<Int>, to result: inout [Key]) {
        if height == 0 {
            let first = range.lowerBound == 0 ? 0 : node.entry(covering: range.lowerBound).index
            let end = range.upperBound == weight ? node.keyCount : node.entry(covering: range.upperBound - 1).index + 1
            node.withKeys { result.append(contentsOf: $0[first..<end]) }
            return
        }
        var start = 0
        for (child, count) in zip(node.children, node.counts) {
            let end = start + count
            if end > range.lowerBound {
                let lower = max(range.lowerBound, start) - start
                let upper = min(range.upperBound, end) - start
                append(from: child, weight: count, height: height - 1, range: lower..<upper, to: &result)
            }
            if end >= range.upperBound { return }
            start = end
        }
    }
}
