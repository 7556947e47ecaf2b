// Removal from OrderedIndex: descend with path copying, remove from a leaf, subtract its weight and refill underfull nodes on the way up.

extension OrderedIndex {
    /// Removes key (whatever weight the argument carries, the stored key's weight goes with it); returns the
    /// rank it had (the sum of the weights of the keys before it), or nil if absent.
    /// - Complexity: O(log n). Nodes on the path that are shared with a copy of the index are copied
    ///   first, O(fan-out) each, even when key turns out to be absent.
    @discardableResult
    public mutating func remove(_ key: Key) -> Int? {
        if !isKnownUniquelyReferenced(&root) {
            root = root.copy()
        }
        var rank = 0
        guard let weight = Self.remove(key, from: root, height: height, rank: &rank) else { return nil }
        count -= 1
        totalWeight -= weight
        if height > 0 && root.childCount == 1 {
            root = root.children[0]
            height -= 1
        }
        return rank
    }

    /// Removes key from under node, which the caller owns alone, adding to rank the weight of the keys
    /// under node less than key. Returns the removed key's weight, nil if key was not there. Node may be
    /// left underfull; its parent refills it.
    /// - Complexity: O(height × fan-out)
    private static func remove(_ key: Key, from node: Node, height: Int, rank: inout Int) -> Int? {
        if height == 0 {
            let position = node.lowerBound(key)
            guard node.hasKey(key, at: position) else { return nil }
            let weight = node.weight(at: position)
            rank &+= node.weightBefore(position)
            node.removeKey(at: position)
            return weight
        }
        let index = node.upperBound(key)
        rank &+= node.countBefore(index)
        unowned(unsafe) let child = node.uniqueChild(at: index)
        guard let weight = remove(key, from: child, height: height - 1, rank: &rank) else { return nil }
        node.counts[index] &-= weight
        let minimum = height == 1 ? leafMinimum : branchMinimum
        if child.fill(height: height - 1) < minimum {
            refill(childAt: index, of: node, childHeight: height - 1)
        }
        return weight
    }

    /// Brings the child at index, one entry short of the minimum, back to it: borrows an entry from a
    /// sibling that has one to spare, or else merges with a sibling.
    /// - Complexity: O(fan-out)
    private static func refill(childAt index: Int, of node: Node, childHeight: Int) {
        let minimum = childHeight == 0 ? leafMinimum : branchMinimum
        if index > 0 && node.children[index - 1].fill(height: childHeight) > minimum {
            borrowFromLeft(childAt: index, of: node, childHeight: childHeight)
        } else if index + 1 < node.childCount && node.children[index + 1].fill(height: childHeight) > minimum {
            borrowFromRight(childAt: index, of: node, childHeight: childHeight)
        } else if index > 0 {
            merge(childAt: index - 1, of: node, childHeight: childHeight)
        } else {
            merge(childAt: index, of: node, childHeight: childHeight)
        }
    }

    /// Moves the last entry of the left sibling to the front of the child at index.
    private static func borrowFromLeft(childAt index: Int, of node: Node, childHeight: Int) {
        let left = node.uniqueChild(at: index - 1)
        let child = node.children[index]
        let moved: Int
        if childHeight == 0 {
            moved = left.weight(at: left.keyCount - 1)
            child.insertKey(left.removeKey(at: left.keyCount - 1), at: 0)
            node.setKey(child.key(at: 0), at: index - 1)
        } else {
            child.insertKey(node.key(at: index - 1), at: 0)
            node.setKey(left.removeKey(at: left.keyCount - 1), at: index - 1)
            let last = left.removeChild(at: left.childCount - 1)
            child.insertChild(last.node, count: last.count, at: 0)
            moved = last.count
        }
        node.counts[index - 1] -= moved
        node.counts[index] += moved
    }

    /// Moves the first entry of the right sibling to the end of the child at index.
    private static func borrowFromRight(childAt index: Int, of node: Node, childHeight: Int) {
        let right = node.uniqueChild(at: index + 1)
        let child = node.children[index]
        let moved: Int
        if childHeight == 0 {
            moved = right.weight(at: 0)
            child.appendKey(right.removeKey(at: 0))
            node.setKey(right.key(at: 0), at: index)
        } else {
            child.appendKey(node.key(at: index))
            node.setKey(right.removeKey(at: 0), at: index)
            let first = right.removeChild(at: 0)
            child.appendChild(first.node, count: first.count)
            moved = first.count
        }
        node.counts[index + 1] -= moved
        node.counts[index] += moved
    }

    /// Appends the child after index to the child at index and drops it from node.
    private static func merge(childAt index: Int, of node: Node, childHeight: Int) {
        let left = node.uniqueChild(at: index)
        let separator = node.removeKey(at: index)
        let (removed, rightCount) = node.removeChild(at: index + 1)
        node.counts[index] += rightCount
        if childHeight > 0 {
            left.appendKey(separator)
        }
        // Moved out of the right node, which is then dropped; a copy first if another index still shares it.
        var right = consume removed
        if !isKnownUniquelyReferenced(&right) {
            right = right.copy()
        }
        left.moveChildren(from: right, startingAt: 0)
        left.moveKeys(from: right, startingAt: 0)
    }
}
