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
        index.assemble(leaves: level, counts: counts, firstKeys: firstKeys)
        return index
    }

    /// Builds a tree as `build(sorted:)` does from keys sorted ascending and unique, moving them out of `keys`
    /// into the leaves instead of copying them: no reference count changes per key (one copy per leaf, its
    /// first key, for the level above). `keys` is left uninitialized; the caller still deallocates it.
    /// - Complexity: O(n), a memory copy of the keys.
    static func build(moving keys: UnsafeMutableBufferPointer<Key>) -> OrderedIndex {
        guard let base = keys.baseAddress, keys.count > 0 else { return build(sorted: []) }
        var index = OrderedIndex()
        index.count = keys.count
        var level: [Node] = []
        var counts: [Int] = []
        var firstKeys: [Key] = []
        let ranges = keys.count > leafCapacity ? deal(keys.count, capacity: leafCapacity, fill: 1) : [0..<keys.count]
        level.reserveCapacity(ranges.count)
        counts.reserveCapacity(ranges.count)
        firstKeys.reserveCapacity(ranges.count)
        for range in ranges {
            firstKeys.append(base[range.lowerBound])
            let leaf = Node.leaf()
            leaf.appendMoving(base + range.lowerBound, count: range.count)
            level.append(leaf)
            counts.append(leaf.totalWeight(height: 0))
        }
        index.assemble(leaves: level, counts: counts, firstKeys: firstKeys)
        return index
    }

    /// Builds the levels above `leaves` (consecutive, holding `counts` weight each and starting with `firstKeys`),
    /// branches about three quarters full, up to a single root, and installs it.
    /// - Complexity: O(leaves)
    private mutating func assemble(leaves: [Node], counts leafCounts: [Int], firstKeys leafFirstKeys: [Key]) {
        var level = leaves
        var counts = leafCounts
        var firstKeys = leafFirstKeys
        var height = 0
        while level.count > 1 {
            var parents: [Node] = []
            var parentCounts: [Int] = []
            var parentFirstKeys: [Key] = []
            for range in OrderedIndex.deal(level.count, capacity: OrderedIndex.branchCapacity, fill: 0.75) {
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
        root = level[0]
        self.height = height
        totalWeight = counts[0]
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

extension OrderedIndex.Node {
    /// Moves `moved` keys from `source` onto the end of this leaf's keys (recording their weights), leaving
    /// `source` uninitialized. Precondition: this is a leaf with room for them.
    /// - Complexity: O(moved), without reference count changes.
    func appendMoving(_ source: UnsafeMutablePointer<Key>, count moved: Int) {
        let start = keyCount
        let heavy: Int32 = withUnsafeMutablePointers { header, stored in
            precondition(header.pointee.childRoom == 0 && start + moved <= header.pointee.room,
                         "OrderedIndex.Node: no room to append")
            var heavy: Int32 = 0
            for offset in 0..<moved {
                // Removed by the compiler for a type whose weight is the constant 1.
                let weight = source[offset].weight
                OrderedIndex.checkWeight(weight)
                if weight > 1 { heavy &+= 1 }
            }
            (stored + start).moveInitialize(from: source, count: moved)
            header.pointee.count = start + moved
            return heavy
        }
        if !Key.hasUnitWeights { weightsAppended(from: start, heavy: heavy) }
    }
}
