// Replacing one key of OrderedIndex by another: in place, in one descent, when the new key takes the old one's rank.

extension OrderedIndex {
    /// Replaces `old` with `new`; returns the rank `old` had and the rank `new` has.
    ///
    /// When `new` sorts between `old`'s neighbours (so its rank is `old`'s: a field outside the order
    /// changed, or the key moved less than one place) it overwrites `old` where it is, in one descent
    /// and without reshaping the tree. Otherwise this is `remove(old)` then `insert(new)`; the descent
    /// that found the neighbours then stopped as soon as `new` left `old`'s path, usually at the root.
    /// Precondition: `old` is present, and `new` is not unless it equals `old`.
    /// - Complexity: O(log n); the shared nodes on the path are copied first, O(fan-out) each.
    @discardableResult
    public mutating func replace(_ old: Key, with new: Key) -> (from: Int, to: Int) {
        if !isKnownUniquelyReferenced(&root) {
            root = root.copy()
        }
        if let rank = Self.replaceInPlace(old, with: new, under: root, height: height) {
            return (rank, rank)
        }
        guard let from = remove(old) else { preconditionFailure("OrderedIndex.replace: key not present") }
        return (from, insert(new))
    }

    /// Overwrites `old` with `new` under `root`, which the caller owns alone, when `new` sorts between
    /// `old`'s neighbours; returns `old`'s rank, or nil (changing nothing but the copies of shared nodes
    /// on the path) when `new` belongs elsewhere or `old` is absent.
    ///
    /// At each level `new` must fall between the separators around the child `old` is under: every key
    /// left of that child is below the left separator and every key right of it at least the right one,
    /// so in the leaf comparing `new` with `old`'s neighbours there suffices.
    /// - Complexity: O(height × fan-out)
    private static func replaceInPlace(_ old: Key, with new: Key, under root: Node, height: Int) -> Int? {
        unowned(unsafe) var node = root
        var rank = 0
        for _ in 0..<height {
            let child = node.upperBound(old)
            guard node.admits(new, after: child - 1, orEqual: true, before: child) else { return nil }
            rank &+= node.countBefore(child)
            node = node.uniqueChild(at: child)
        }
        let position = node.lowerBound(old)
        guard node.hasKey(old, at: position), node.admits(new, after: position - 1, orEqual: false, before: position + 1) else {
            return nil
        }
        node.setKey(new, at: position)
        return rank &+ position
    }
}

extension OrderedIndex.Node {
    /// Whether key sorts after the key at `lower` (or equals it, when `orEqual`) and before the key at
    /// `upper`; -1 for `lower` and `keyCount` for `upper` stand for no bound. A separator bounds the keys
    /// right of it from below inclusively, so an internal node asks with `orEqual`, a leaf without.
    func admits(_ key: Key, after lower: Int, orEqual: Bool, before upper: Int) -> Bool {
        withKeys { keys in
            let aboveLower = lower < 0 || (orEqual ? keys[lower] <= key : keys[lower] < key)
            return aboveLower && (upper >= keys.count || key < keys[upper])
        }
    }
}
