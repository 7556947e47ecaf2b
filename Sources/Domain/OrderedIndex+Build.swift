// Bulk loading of OrderedIndex: builds the tree bottom-up from sorted, weighted keys in O(n).

extension OrderedIndex {
    /// Builds a tree of keys sorted ascending and unique, level by level: the keys are dealt evenly into
    /// as few leaves as hold them (full: a leaf's room is its capacity whatever it holds, so every empty slot
    /// costs a key's size; the first insert into a full leaf splits it, once), then those leaves into parents
    /// about three quarters full, and so on up to a single root; each node's count is the sum of the weights under it. Precondition: every weight is at
    /// least 1, exactly 1 when `Key.hasUnitWeights` (checked as the leaves take them).
    /// - Complexity: O(n)
    static func build(sorted keys: [Key]) -> OrderedIndex {
        var index = OrderedIndex()
        index.count = keys.count
        guard keys.count > leafCapacity else {
            index.root = Node.leaf(keys)
            index.totalWeight = index.root.totalWeight(height: 0)
            return index
        }
        var level: [Node] = []
        var counts: [Int] = []
        var firstKeys: [Key] = []
        for range in deal(keys.count, capacity: leafCapacity, fill: 1) {
            let leaf = Node.leaf(keys[range])
            level.append(leaf)
            counts.append(leaf.totalWeight(height: 0))
            firstKeys.append(keys[range.lowerBound])
        }
        var height = 0
        while level.count > 1 {
            var parents: [Node] = []
            var parentCounts: [Int] = []
            var parentFirstKeys: [Key] = []
            for range in deal(level.count, capacity: branchCapacity, fill: 0.75) {
                let parent = Node.branch(
                    separators: firstKeys[range.dropFirst()],
                    children: level[range],
                    counts: counts[range]
                )
                parents.append(parent)
                parentCounts.append(counts[range].reduce(0, +))
                parentFirstKeys.append(firstKeys[range.lowerBound])
            }
            level = parents
            counts = parentCounts
            firstKeys = parentFirstKeys
            height += 1
        }
        index.root = level[0]
        index.height = height
        index.totalWeight = counts[0]
        return index
    }

    /// Splits 0..<total into consecutive ranges, one per node, their sizes differing by at most one:
    /// about `fill` of capacity each (branches are left room so that the first splits below them do not all
    /// split them too), never more than capacity, and at least half of it when there are two or more.
    /// - Complexity: O(total / capacity)
    private static func deal(_ total: Int, capacity: Int, fill: Double) -> [Range<Int>] {
        let fewest = (total + capacity - 1) / capacity
        let parts = max(fewest, total / max(1, Int(Double(capacity) * fill)), 1)
        let base = total / parts
        let larger = total % parts
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(parts)
        var start = 0
        for part in 0..<parts {
            let size = part < larger ? base + 1 : base
            ranges.append(start..<start + size)
            start += size
        }
        return ranges
    }
}
