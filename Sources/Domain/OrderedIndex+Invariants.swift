// Structural invariants of OrderedIndex's tree, checked by tests after mutations.

extension OrderedIndex {
    /// Traps unless the tree is well formed: leaves all at `height`, keys strictly ascending, separators
    /// between their neighbouring subtrees, recorded counts equal to actual subtree sizes, the total
    /// equal to `count`, and every node within its fill limits (the root may hold fewer, but an internal
    /// root has at least two children).
    /// - Complexity: O(n)
    func checkInvariants() {
        let summary = Self.check(root, height: height, isRoot: true)
        precondition(summary.count == count, "count \(count) but the tree holds \(summary.count)")
    }

    /// What a subtree holds: its size and its smallest and largest keys (nil when empty).
    private struct Summary {
        var count: Int
        var first: Key?
        var last: Key?
    }

    private static func check(_ node: Node, height: Int, isRoot: Bool) -> Summary {
        if height == 0 {
            precondition(node.childCount == 0, "leaf with children")
            precondition(node.keyCount <= leafCapacity, "leaf over capacity")
            precondition(isRoot || node.keyCount >= leafMinimum, "leaf under minimum")
            return node.withKeys { keys in
                for index in keys.indices.dropFirst() {
                    precondition(keys[index - 1] < keys[index], "leaf keys out of order")
                }
                return Summary(count: keys.count, first: keys.first, last: keys.last)
            }
        }
        precondition(node.keyCount == node.childCount - 1, "separators do not sit between children")
        precondition(node.childCount <= branchCapacity, "internal node over capacity")
        precondition(node.childCount >= (isRoot ? 2 : branchMinimum), "internal node under minimum")
        var total = 0
        var first: Key?
        var previousLast: Key?
        for (index, child) in node.children.enumerated() {
            let summary = check(child, height: height - 1, isRoot: false)
            precondition(summary.count == node.counts[index], "recorded count differs from subtree size")
            if index > 0, let childFirst = summary.first, let last = previousLast {
                let separator = node.key(at: index - 1)
                precondition(last < separator && separator <= childFirst, "separator out of place")
            }
            total += summary.count
            first = first ?? summary.first
            previousLast = summary.last ?? previousLast
        }
        return Summary(count: total, first: first, last: previousLast)
    }
}
