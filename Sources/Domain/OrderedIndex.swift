// OrderedIndex: an ordered set of unique keys with O(log n) insert, remove, rank and select (a counted B+tree).

/// An ordered set of unique keys with O(log n) rank and select (a counted B+tree).
///
/// Every view's row order lives in one: the rank of a key is its row.
///
/// Layout: leaves hold up to 32 keys (small leaves move fewer keys per insert or remove, and a search
/// touches fewer memory pages); internal nodes hold up to 64 children, the number of keys under each
/// child, and separator keys to descend by; each node is one allocation (see `Node`). All leaves are at
/// the same depth, so a million keys sit four levels deep. Leaves are not linked to each other (a link
/// would have to be rewritten whenever its target is copied), so `keys(in:)` walks down from the root.
///
/// Value semantics: nodes are class instances shared between copies of an index. A mutation first
/// copies the nodes on its own root-to-leaf path that are shared (checked with
/// `isKnownUniquelyReferenced`), then changes only nodes it owns alone. So a copy handed to another
/// thread stays unchanged while the original keeps mutating, the first mutation after a copy costs
/// O(log n) node copies, and a mutation of an unshared index copies nothing, never the whole tree.
///
/// Speed: the code is generic, and fast only where the compiler specializes it for the key type, as it
/// does within this module (with whole-module optimization, as in release builds). Used from another
/// module it runs unspecialized, several times slower; wrap it in a Domain type instead.
///
/// `@unchecked Sendable` because its nodes, `ManagedBuffer`s, cannot be `Sendable`: a node reachable from
/// more than one index value is never mutated (see `Node`), so values on different threads share only
/// nodes that no longer change.
public struct OrderedIndex<Key: Comparable & Sendable>: @unchecked Sendable {
    /// The root: a leaf when `height` is 0.
    var root: Node
    /// Levels below the root: 0 when the root is a leaf.
    var height: Int
    /// Number of keys.
    public internal(set) var count: Int

    /// An empty index.
    public init() {
        root = Node.leaf()
        height = 0
        count = 0
    }

    /// Builds from keys already sorted ascending and unique. Precondition: they are (checked).
    /// Nodes are filled to about three quarters, leaving room for inserts.
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

    /// Rank (0-based position) of key if present.
    /// - Complexity: O(log n)
    public func rank(of key: Key) -> Int? {
        let (rank, found) = search(key)
        return found ? rank : nil
    }

    /// Number of keys strictly less than key (the rank key would have if inserted).
    /// - Complexity: O(log n)
    public func insertionRank(of key: Key) -> Int {
        search(key).rank
    }

    /// The key at rank. Precondition: 0 <= rank < count.
    /// - Complexity: O(log n)
    public func key(at rank: Int) -> Key {
        precondition(rank >= 0 && rank < count, "OrderedIndex.key(at:) rank out of range")
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
        return node.key(at: remaining)
    }

    /// The value `transform` gives for the nearest key below `bound` (nil: below no key, so starting
    /// from the last) for which it gives one, nil if none does.
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
        for rank in stride(from: leafStart - 1, through: 0, by: -1) {
            if let value = transform(key(at: rank)) { return value }
        }
        return nil
    }

    /// Keys with ranks in range, in order. Precondition: the range lies within 0..<count.
    /// - Complexity: O(log n + range.count)
    public func keys(in range: Range<Int>) -> [Key] {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "OrderedIndex.keys(in:) range out of bounds")
        var result: [Key] = []
        result.reserveCapacity(range.count)
        if !range.isEmpty {
            Self.append(from: root, height: height, range: range, to: &result)
        }
        return result
    }

    /// All keys in order (for tests and snapshots).
    /// - Complexity: O(n)
    public var allKeys: [Key] { keys(in: 0..<count) }

    /// Descends to key's leaf: the number of keys less than key, and whether key is present.
    /// - Complexity: O(log n)
    private func search(_ key: Key) -> (rank: Int, found: Bool) {
        unowned(unsafe) var node = root
        var rank = 0
        for _ in 0..<height {
            let child = node.upperBound(key)
            rank &+= node.countBefore(child)
            node = node.children[child]
        }
        let position = node.lowerBound(key)
        return (rank &+ position, node.hasKey(key, at: position))
    }

    /// Appends the keys under node whose ranks (counted from the node's first key) are in range.
    /// Children wholly outside range are skipped by their counts, so only the two boundary paths
    /// are visited partially.
    /// - Complexity: O(height × fan-out + range.count)
    private static func append(from node: Node, height: Int, range: Range<Int>, to result: inout [Key]) {
        if height == 0 {
            node.withKeys { result.append(contentsOf: $0[range]) }
            return
        }
        var start = 0
        for (child, count) in zip(node.children, node.counts) {
            let end = start + count
            if end > range.lowerBound {
                let lower = max(range.lowerBound, start) - start
                let upper = min(range.upperBound, end) - start
                append(from: child, height: height - 1, range: lower..<upper, to: &result)
            }
            if end >= range.upperBound { return }
            start = end
        }
    }
}
