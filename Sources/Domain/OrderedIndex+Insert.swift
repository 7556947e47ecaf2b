// Insertion into OrderedIndex: descend with path copying, insert into a leaf, split overfull nodes on the way up.

extension OrderedIndex {
    /// Inserts key; returns its rank (0-based position) after insertion. Precondition: key not present.
    /// - Complexity: O(log n); the shared nodes on the path are copied first, O(fan-out) each.
    @discardableResult
    public mutating func insert(_ key: Key) -> Int {
        if !isKnownUniquelyReferenced(&root) {
            root = root.copy()
        }
        var rank = 0
        count += 1
        if let split = Self.insert(key, into: root, height: height, rank: &rank) {
            root = Node.branch(
                separators: [split.separator],
                children: [root, split.node],
                counts: [count - split.count, split.count]
            )
            height += 1
        }
        return rank
    }

    /// The right half of a node that overflowed, to be placed after it in its parent.
    struct Split {
        /// Greater than every key left of the split, at most every key right of it.
        var separator: Key
        /// The new right node.
        var node: Node
        /// Number of keys under the new right node.
        var count: Int
    }

    /// Inserts key under node, which the caller owns alone, adding to rank the number of keys under
    /// node less than key. Returns the split-off right half if node overflowed.
    /// - Complexity: O(height × fan-out)
    private static func insert(_ key: Key, into node: Node, height: Int, rank: inout Int) -> Split? {
        if height == 0 {
            let position = node.lowerBound(key)
            precondition(
                position == node.keys.count || node.keys[position] != key,
                "OrderedIndex.insert: key already present"
            )
            node.keys.insert(key, at: position)
            rank &+= position
            return node.keys.count > leafCapacity ? splitLeaf(node) : nil
        }
        let index = node.upperBound(key)
        rank &+= node.countBefore(index)
        let child = node.uniqueChild(at: index)
        node.counts[index] &+= 1
        guard let split = insert(key, into: child, height: height - 1, rank: &rank) else { return nil }
        node.counts[index] &-= split.count
        node.keys.insert(split.separator, at: index)
        node.children.insert(split.node, at: index + 1)
        node.counts.insert(split.count, at: index + 1)
        return node.children.count > branchCapacity ? splitBranch(node) : nil
    }

    /// Moves the upper half of an overfull leaf's keys into a new leaf.
    /// - Complexity: O(fan-out)
    private static func splitLeaf(_ node: Node) -> Split {
        let middle = node.keys.count / 2
        let right = Node.leaf(node.keys[middle...])
        node.keys.removeSubrange(middle...)
        return Split(separator: right.keys[0], node: right, count: right.keys.count)
    }

    /// Moves the upper half of an overfull internal node's children into a new node; the separator
    /// between the halves moves up to the parent.
    /// - Complexity: O(fan-out)
    private static func splitBranch(_ node: Node) -> Split {
        let middle = node.children.count / 2
        let separator = node.keys[middle - 1]
        let right = Node.branch(
            separators: node.keys[middle...],
            children: node.children[middle...],
            counts: node.counts[middle...]
        )
        node.keys.removeSubrange((middle - 1)...)
        node.children.removeSubrange(middle...)
        node.counts.removeSubrange(middle...)
        return Split(separator: separator, node: right, count: right.countBefore(right.counts.count))
    }
}
