// Replacing one key of OrderedIndex by another, perhaps of another weight: in place, in one descent, when the new key takes the old one's place.

extension OrderedIndex {
    /// Replaces `old` with `new`, which may weigh differently; returns the rank `old` had and the rank `new`
    /// has (ranks are sums of the weights before, as everywhere).
    ///
    /// When `new` sorts between `old`'s neighbours (a field outside the order changed, or the key moved
    /// less than one place) it overwrites `old` where it is, in one descent and without reshaping the
    /// tree, adding the change in weight to the counts on the path; both ranks are then `old`'s. Otherwise
    /// this is `remove(old)` then `insert(new)`; the descent that found the neighbours then stopped as soon
    /// as `new` left `old`'s path, usually at the root. Precondition: `old` is present, and `new` is not
    /// unless it equals `old`; `new`'s weight is at least 1 (exactly 1 when `Key.hasUnitWeights`; checked).
    /// - Complexity: O(log n); the shared nodes on the path are copied first, O(fan-out) each.
    @discardableResult
    public mutating func replace(_ old: Key, with new: Key) -> (from: Int, to: Int) {
        Self.checkWeight(new.weight)
        if !isKnownUniquelyReferenced(&root) {
            root = root.copy()
        }
        var weightChange = 0
        if let rank = Self.replaceInPlace(old, with: new, under: root, height: height, weightChange: &weightChange) {
            totalWeight += weightChange
            return (rank, rank)
        }
        guard let from = remove(old) else { preconditionFailure("OrderedIndex.replace: key not present") }
        return (from, insert(new))
    }

    /// Overwrites `old` with `new` under `node`, which the caller owns alone, when `new` sorts between
    /// `old`'s neighbours, adding `new`'s weight less `old`'s to the counts on the path and setting
    /// `weightChange` to it; returns `old`'s rank under `node`, or nil (changing nothing but the copies of
    /// shared nodes on the path) when `new` belongs elsewhere or `old` is absent.
    ///
    /// At each level `new` must fall between the separators around the child `old` is under: every key
    /// left of that child is below the left separator and every key right of it at least the right one,
    /// so in the leaf comparing `new` with `old`'s neighbours there suffices.
    /// - Complexity: O(height × fan-out)
    private static func replaceInPlace(_ old: Key, with new: Key, under node: Node, height: Int, weightChange: inout Int) -> Int? {
        if height == 0 {
            let position = node.lowerBound(old)
            guard node.hasKey(old, at: position), node.admits(new, after: position - 1, orEqual: false, before: position + 1) else {
                return nil
            }
            weightChange = new.weight - node.weight(at: position)
            node.setKey(new, at: position)
            return node.weightBefore(position)
        }
        let child = node.upperBound(old)
        guard node.admits(new, after: child - 1, orEqual: true, before: child) else { return nil }
        unowned(unsafe) let next = node.uniqueChild(at: child)
        guard let rank = replaceInPlace(old, with: new, under: next, height: height - 1, weightChange: &weightChange) else {
            return nil
        }
        node.counts[child] &+= weightChange
        return rank &+ node.countBefore(child)
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

extension OrderedIndex {
    /// Changes the stored key equal to `key` by `change`, in place and in one descent; `change` must leave it
    /// equal to `key` (it may change its weight and the fields outside `<` and `==`; checked). Returns the key as
    /// it was stored, nil when there is none (nothing changes then but the copies of shared nodes on the path).
    /// - Complexity: O(log n); the shared nodes on the path are copied first, O(fan-out) each.
    @discardableResult
    public mutating func update(_ key: Key, _ change: (inout Key) -> Void) -> Key? {
        if !isKnownUniquelyReferenced(&root) {
            root = root.copy()
        }
        var weightChange = 0
        let stored = Self.update(key, change, under: root, height: height, weightChange: &weightChange)
        totalWeight += weightChange
        return stored
    }

    private static func update(_ key: Key, _ change: (inout Key) -> Void, under node: Node, height: Int,
                               weightChange: inout Int) -> Key? {
        if height == 0 {
            let position = node.lowerBound(key)
            guard node.hasKey(key, at: position) else { return nil }
            let stored = node.key(at: position)
            var updated = stored
            change(&updated)
            precondition(updated == stored, "OrderedIndex.update: the change moved the key")
            checkWeight(updated.weight)
            weightChange = updated.weight - node.weight(at: position)
            node.setKey(updated, at: position)
            return stored
        }
        let child = node.upperBound(key)
        unowned(unsafe) let next = node.uniqueChild(at: child)
        guard let stored = update(key, change, under: next, height: height - 1, weightChange: &weightChange) else {
            return nil
        }
        node.counts[child] &+= weightChange
        return stored
    }
}
