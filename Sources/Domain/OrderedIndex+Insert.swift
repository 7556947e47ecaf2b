// Insertion into OrderedIndex: descend with path copying adding the key's weight, insert into a leaf, split overfull nodes on the way up.

extension OrderedIndex {
    /// Inserts key, with its weight; returns its rank after insertion (the sum of the weights of the keys
    /// before it). Precondition: key not present; its weight at least 1 (exactly 1 when
    /// `Key.hasUnitWeights`; both checked).
    /// - Complexity: O(log n); the shared nodes on the path are copied first, O(fan-out) each.
    @discardableResult
    public mutating func insert(_ key: Key) -> Int {
        let weight = key.weight
        Self.checkWeight(weight)
        if !isKnownUniquelyReferenced(&root) {
            root = root.copy()
        }
        var rank = 0
        if let split = Self.insert(key, weight: weight, into: root, height: height, rank: &rank) {
            root = Node.branch(
                separators: [split.separator],
                children: [root, split.node],
                counts: [totalWeight + weight - split.count, split.count]
            )
            height += 1
        }
        count += 1
        totalWeight += weight
        return rank
    }

    /// The right half of a node that overflowed, to be placed after it in its parent.
    struct Split {
        /// Greater than every key left of the split, at most every key right of it.
        var separator: Key
        /// The new right node.
        var node: Node
        /// The weight under the new right node.
        var count: Int
    }

    /// Inserts key, which weighs `weight`, under node, which the caller owns alone, adding to rank the
    /// weight of the keys under node less than key. Returns the split-off right half if node overflowed.
    /// - Complexity: O(height × fan-out)
    private static func insert(_ key: Key, weight: Int, into node: Node, height: Int, rank: inout Int) -> Split? {
        if height == 0 {
            let position = node.lowerBound(key)
            precondition(!node.hasKey(key, at: position), "OrderedIndex.insert: key already present")
            rank &+= node.weightBefore(position)
            node.insertKey(key, at: position)
            return node.keyCount > leafCapacity ? splitLeaf(node) : nil
        }
        let index = node.upperBound(key)
        rank &+= node.countBefore(index)
        unowned(unsafe) let child = node.uniqueChild(at: index)
        node.counts[index] &+= weight
        guard let split = insert(key, weight: weight, into: child, height: height - 1, rank: &rank) else { return nil }
        node.counts[index] &-= split.count
        node.insertKey(split.separator, at: index)
        node.insertChild(split.node, count: split.count, at: index + 1)
        return node.childCount > branchCapacity ? splitBranch(node) : nil
    }

    /// Moves the upper half of an overfull leaf's keys into a new leaf.
    /// - Complexity: O(fan-out)
    private static func splitLeaf(_ node: Node) -> Split {
        let right = Node.leaf()
        right.moveKeys(from: node, startingAt: node.keyCount / 2)
        return Split(separator: right.key(at: 0), node: right, count: right.totalWeight(height: 0))
    }

    /// Moves the upper half of an overfull internal node's children into a new node; the separator
    /// between the halves moves up to the parent.
    /// - Complexity: O(fan-out)
    private static func splitBranch(_ node: Node) -> Split {
        let middle = node.childCount / 2
        let right = Node.branch()
        right.moveChildren(from: node, startingAt: middle)
        right.moveKeys(from: node, startingAt: middle)
        let separator = node.removeKey(at: middle - 1)
        return Split(separator: separator, node: right, count: right.countBefore(right.childCount))
    }
}
