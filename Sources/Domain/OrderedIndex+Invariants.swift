// Structural invariants of OrderedIndex's tree, checked by tests after mutations.

extension OrderedIndex {
    /// Traps unless the tree is well formed: leaves all at `height`, keys strictly ascending, separators
    /// between their neighbouring subtrees, every key's weight at least 1 (exactly 1 when
    /// `Key.hasUnitWeights`) and, in a leaf that keeps weights, its heavy keys counted and their weights
    /// recorded as the keys' (see `Node.checkWeights`), every recorded count equal to the sum of the
    /// weights of the keys below it, `totalWeight` equal to the sum of all weights and `count` to the
    /// number of keys, and every node within its fill limits (the root may hold fewer, but an internal root
    /// has at least two children).
    /// - Complexity: O(n)
    func checkInvariants() {
        let summary = Self.check(root, height: height, isRoot: true)
        precondition(summary.count == count, "count \(count) but the tree holds \(summary.count) keys")
        precondition(summary.weight == totalWeight, "totalWeight \(totalWeight) but the tree's keys weigh \(summary.weight)")
    }

    /// What a subtree holds: its number of keys, their weight, and its smallest and largest keys (nil when empty).
    private struct Summary {
        var count: Int
        var weight: Int
        var first: Key?
        var last: Key?
    }

    private static func check(_ node: Node, height: Int, isRoot: Bool) -> Summary {
        if height == 0 {
            precondition(node.childCount == 0, "leaf with children")
            precondition(node.keyCount <= leafCapacity, "leaf over capacity")
            precondition(isRoot || node.keyCount >= leafMinimum, "leaf under minimum")
            node.checkWeights()
            return node.withKeys { keys in
                var weight = 0
                for (index, key) in keys.enumerated() {
                    precondition(index == 0 || keys[index - 1] < key, "leaf keys out of order")
                    precondition(Key.hasUnitWeights ? key.weight == 1 : key.weight >= 1, "key weight out of range")
                    weight += key.weight
                }
                precondition(node.weightBefore(keys.count) == weight, "leaf weight differs from its keys'")
                return Summary(count: keys.count, weight: weight, first: keys.first, last: keys.last)
            }
        }
        precondition(node.keyCount == node.childCount - 1, "separators do not sit between children")
        precondition(node.childCount <= branchCapacity, "internal node over capacity")
        precondition(node.childCount >= (isRoot ? 2 : branchMinimum), "internal node under minimum")
        var count = 0
        var weight = 0
        var first: Key?
        var previousLast: Key?
        for (index, child) in node.children.enumerated() {
            let summary = check(child, height: height - 1, isRoot: false)
            precondition(summary.weight == node.counts[index], "recorded count differs from the weight below it")
            if index > 0, let childFirst = summary.first, let last = previousLast {
                let separator = node.key(at: index - 1)
                precondition(last < separator && separator <= childFirst, "separator out of place")
            }
            count += summary.count
            weight += summary.weight
            first = first ?? summary.first
            previousLast = summary.last ?? previousLast
        }
        return Summary(count: count, weight: weight, first: first, last: previousLast)
    }
}

extension OrderedIndex {
    /// How full the leaves are on average: the keys over what the leaves hold at most (0 to 1).
    /// - Complexity: O(n / leaf capacity).
    public var leafFill: Double {
        Double(count) / Double(nodeCounts.leaves * Self.leafCapacity)
    }

    /// The number of leaves and of nodes in the tree.
    /// - Complexity: O(n / leaf capacity).
    var nodeCounts: (leaves: Int, nodes: Int) {
        Self.nodeCounts(root, height: height)
    }

    private static func nodeCounts(_ node: Node, height: Int) -> (leaves: Int, nodes: Int) {
        guard height > 0 else { return (1, 1) }
        var total = (leaves: 0, nodes: 1)
        for child in node.children {
            let below = nodeCounts(child, height: height - 1)
            total.leaves += below.leaves
            total.nodes += below.nodes
        }
        return total
    }
}
