// Insertion into OrderedIndex: descend with path copying adding the key's weight, insert into a leaf, hand an
// overfull leaf's extra key to a sibling with room or else split it, split overfull internal nodes on the way up.

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
        var split = Self.insert(key, weight: weight, into: root, height: height, rank: &rank)
        if height == 0 && root.keyCount > Self.leafCapacity {
            split = Self.splitLeaf(root)
        }
        if let split {
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
    /// weight of the keys under node less than key. Returns the split-off right half if node, an internal
    /// node, overflowed; a leaf is left one key over capacity, for its parent (or `insert(_:)` at the root)
    /// to deal with.
    /// - Complexity: O(height × fan-out)
    private static func insert(_ key: Key, weight: Int, into node: Node, height: Int, rank: inout Int) -> Split? {
        if height == 0 {
            let position = node.lowerBound(key)
            precondition(!node.hasKey(key, at: position), "OrderedIndex.insert: key already present")
            rank &+= node.weightBefore(position)
            node.insertKey(key, at: position)
            return nil
        }
        let index = node.upperBound(key)
        rank &+= node.countBefore(index)
        unowned(unsafe) let child = node.uniqueChild(at: index)
        node.counts[index] &+= weight
        var split = insert(key, weight: weight, into: child, height: height - 1, rank: &rank)
        if height == 1 && child.keyCount > leafCapacity && !spill(childAt: index, of: node) {
            split = splitLeaf(child)
        }
        guard let split else { return nil }
        node.counts[index] &-= split.count
        node.insertKey(split.separator, at: index)
        node.insertChild(split.node, count: split.count, at: index + 1)
        return node.childCount > branchCapacity ? splitBranch(node) : nil
    }

    /// Hands one key of the leaf at index, one key over capacity, to a sibling leaf that has room: its first
    /// key to the end of the left sibling, else its last to the front of the right one, and moves the
    /// separator between them. Returns false (and changes nothing) when neither sibling has room.
    ///
    /// Splitting only, a leaf that overflows leaves two half-full leaves behind, so random inserts into a
    /// bulk-built (full) tree leave its leaves about 65% full, and appends at the end leave them half full.
    /// Handing a key to a neighbour first keeps them about 80% full under random inserts (a simulation of
    /// the store's mutation mix: 66% → 79%) and full under appends, for one key moved per overflow.
    /// - Complexity: O(fan-out)
    private static func spill(childAt index: Int, of node: Node) -> Bool {
        if index > 0 && node.children[index - 1].keyCount < leafCapacity {
            let left = node.uniqueChild(at: index - 1)
            let child = node.children[index]
            let moved = child.weight(at: 0)
            left.appendKey(child.removeKey(at: 0))
            node.setKey(child.key(at: 0), at: index - 1)
            node.counts[index - 1] &+= moved
            node.counts[index] &-= moved
            return true
        }
        if index + 1 < node.childCount && node.children[index + 1].keyCount < leafCapacity {
            let right = node.uniqueChild(at: index + 1)
            let child = node.children[index]
            let last = child.keyCount - 1
            let moved = child.weight(at: last)
            right.insertKey(child.removeKey(at: last), at: 0)
            node.setKey(right.key(at: 0), at: index)
            node.counts[index + 1] &+= moved
            node.counts[index] &-= moved
            return true
        }
        return false
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
