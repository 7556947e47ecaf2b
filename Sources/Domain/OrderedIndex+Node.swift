// The node of OrderedIndex's counted B+tree: one allocation holding its keys, counts (or a leaf's weights) and
// children; fan-out, fill limits, searching inside a node and copy-on-write. A leaf's weights: OrderedIndex+Weights.swift.

extension OrderedIndex {
    /// Most keys a leaf holds; a leaf that would hold more splits in two.
    static var leafCapacity: Int { 32 }
    /// Fewest keys a leaf other than the root holds; a leaf with fewer borrows or merges.
    static var leafMinimum: Int { leafCapacity / 2 }
    /// Most children an internal node holds.
    static var branchCapacity: Int { 64 }
    /// Fewest children an internal node other than the root holds.
    static var branchMinimum: Int { branchCapacity / 2 }

    /// What a node records besides its keys, children and counts: 32 bytes.
    struct NodeHeader {
        /// Number of keys stored: a leaf's keys, or an internal node's separators.
        var count: Int
        /// Number of children stored; 0 in a leaf.
        var childCount: Int
        /// `room`, in 32 bits, so that `heavyCount` fits beside it.
        private let storedRoom: Int32
        /// `childRoom`, in 32 bits.
        private let storedChildRoom: Int32
        /// In a leaf that keeps weights, the number of its keys that weigh more than 1 (see
        /// OrderedIndex+Weights.swift); 0 otherwise. Here, beside `count`, a search reads it at no cost.
        var heavyCount: Int32 = 0

        /// Number of keys there is room for.
        var room: Int { Int(storedRoom) }
        /// Number of children (and counts) there is room for; 0 in a leaf.
        var childRoom: Int { Int(storedChildRoom) }

        init(room: Int, childRoom: Int) {
            count = 0
            childCount = 0
            storedRoom = Int32(room)
            storedChildRoom = Int32(childRoom)
        }
    }

    /// One node of the tree. The tree knows its height, so a node does not record whether it is a leaf:
    /// nodes at height 0 are leaves and have no children.
    ///
    /// A leaf's keys are the index's keys, ascending; unless `Key.hasUnitWeights`, it keeps the number of
    /// them weighing more than 1 and, while that is not 0, each one's weight (see OrderedIndex+Weights.swift),
    /// so that weighing a leaf reads one small array rather than every key, and a leaf whose keys all weigh
    /// 1 reads none. An internal node has `children` with the sum of the weights under each in `counts`
    /// (its number of keys, when every key weighs 1), and its keys are the separators: key `i` is greater
    /// than every key under `children[i]` and at most every key under `children[i + 1]`, so
    /// `keyCount == childCount - 1`. Removal can leave a separator above its right subtree's smallest key;
    /// the bounds still hold, and descent never needs more than them.
    ///
    /// Layout: a node is one allocation (a `ManagedBuffer`): the header, then room for the keys, then,
    /// in an internal node, room for the counts and the children, each up to where the node splits; in a
    /// leaf that keeps weights, room for them, 32 bits each, where an internal node's counts are (see
    /// OrderedIndex+Weights.swift). The keys start at the same place in every node, so a search computes
    /// their addresses without waiting for the header. In a large index a node is usually not cached when
    /// a descent reaches it. Inline, the header, the keys
    /// a search compares, the counts and the child references are all at addresses known from the node's
    /// alone, so the processor can fetch them together; in arrays of their own each would be fetched only
    /// after the node, each after a reference count update. For the same reason descents hold the nodes
    /// they pass through `unowned(unsafe)`: the tree keeps them alive, and a strong reference would make
    /// the processor update the reference count of a node not cached yet before reading anything in it.
    ///
    /// Sharing: a node reachable from more than one `OrderedIndex` value is never mutated. A mutating
    /// method copies every shared node on its path first (`uniqueChild(at:)`), so it only writes nodes
    /// it owns alone, and owning the index value exclusively (Swift's `inout` rule) means owning those
    /// nodes exclusively. That is why `OrderedIndex` can be `@unchecked Sendable`.
    final class Node: ManagedBuffer<NodeHeader, Key> {
        /// An empty node with room for `keyRoom` keys and `childRoom` children (a leaf when 0).
        /// - Complexity: O(1).
        private static func make(keyRoom: Int, childRoom: Int) -> Node {
            let weightRoom = Key.hasUnitWeights || childRoom > 0 ? 0 : keyRoom
            let bytes = childrenOffset(keyRoom: keyRoom, childRoom: childRoom) + childRoom * MemoryLayout<Node>.stride
                + weightRoom * MemoryLayout<Int32>.stride
            let slots = (bytes + MemoryLayout<Key>.stride - 1) / MemoryLayout<Key>.stride
            let node = unsafeDowncast(create(minimumCapacity: slots) { _ in
                NodeHeader(room: keyRoom, childRoom: childRoom)
            }, to: Node.self)
            node.withUnsafeMutablePointerToElements { keys in
                let raw = UnsafeMutableRawPointer(keys)
                if weightRoom > 0 {
                    (raw + countsOffset(keyRoom: keyRoom)).bindMemory(to: Int32.self, capacity: weightRoom)
                }
                if childRoom > 0 {
                    (raw + countsOffset(keyRoom: keyRoom)).bindMemory(to: Int.self, capacity: childRoom)
                    (raw + childrenOffset(keyRoom: keyRoom, childRoom: childRoom)).bindMemory(to: Node.self, capacity: childRoom)
                }
            }
            return node
        }

        /// Where an internal node's counts (a leaf's weights) start, in bytes from the first key: after the
        /// room for keys, 8-byte aligned.
        static func countsOffset(keyRoom: Int) -> Int {
            let alignment = MemoryLayout<Int>.alignment
            return (keyRoom * MemoryLayout<Key>.stride + alignment - 1) / alignment * alignment
        }

        /// Where the children start, in bytes from the first key: after the room for counts.
        private static func childrenOffset(keyRoom: Int, childRoom: Int) -> Int {
            countsOffset(keyRoom: keyRoom) + childRoom * MemoryLayout<Int>.stride
        }

        /// An empty leaf with room for as many keys (and, unless `Key.hasUnitWeights`, their weights) as make it split.
        static func leaf() -> Node { make(keyRoom: leafCapacity + 1, childRoom: 0) }

        /// A leaf holding keys. Precondition: there are at most `leafCapacity + 1`.
        /// - Complexity: O(keys.count).
        static func leaf(_ keys: some Collection<Key>) -> Node {
            let node = leaf()
            node.append(contentsOf: keys)
            return node
        }

        /// An empty internal node with room for as many children as make it split.
        static func branch() -> Node { make(keyRoom: branchCapacity, childRoom: branchCapacity + 1) }

        /// An internal node with room for as many children as make it split.
        /// Precondition: `separators.count == children.count - 1 == counts.count - 1`.
        /// - Complexity: O(fan-out).
        static func branch(separators: some Collection<Key>, children: some Collection<Node>,
                           counts: some Collection<Int>) -> Node {
            let node = branch()
            node.append(contentsOf: separators)
            for (child, count) in zip(children, counts) {
                node.appendChild(child, count: count)
            }
            return node
        }

        deinit {
            let children = self.children
            withUnsafeMutablePointers { header, keys in
                keys.deinitialize(count: header.pointee.count)
                children.baseAddress?.deinitialize(count: header.pointee.childCount)
            }
        }

        /// A shallow copy: the copy shares this node's children, which stay immutable while shared.
        /// - Complexity: O(fan-out).
        func copy() -> Node {
            let copy = fields.childRoom == 0 ? Node.leaf() : Node.branch()
            withKeys { _ = copy.appendKeys($0) }
            if keepsWeights { copy.copyWeights(of: self) }
            for (child, count) in zip(children, counts) {
                copy.appendChild(child, count: count)
            }
            return copy
        }

        /// The header, read and written where it is stored. (`ManagedBuffer.header` is a class's stored
        /// property, so Swift would check every access to it for overlapping accesses at run time, and
        /// those checks doubled the cost of a search. Nodes never leave OrderedIndex, and its code never
        /// starts an access to a node's header while another is in progress.)
        private var fields: NodeHeader {
            unsafeAddress { UnsafePointer(withUnsafeMutablePointerToHeader { $0 }) }
            unsafeMutableAddress { withUnsafeMutablePointerToHeader { $0 } }
        }

        /// Number of keys: a leaf's keys, or an internal node's separators.
        var keyCount: Int { fields.count }

        /// Number of children; 0 in a leaf.
        var childCount: Int { fields.childCount }

        /// In a leaf that keeps weights, the number of its keys that weigh more than 1 (see OrderedIndex+Weights.swift).
        var heavyCount: Int32 {
            get { fields.heavyCount }
            set { fields.heavyCount = newValue }
        }

        /// The children, in place; empty in a leaf. Valid while the node lives and no child is inserted or removed.
        var children: UnsafeMutableBufferPointer<Node> {
            withUnsafeMutablePointers { header, keys in
                let offset = Node.childrenOffset(keyRoom: header.pointee.room, childRoom: header.pointee.childRoom)
                let start = (UnsafeMutableRawPointer(keys) + offset).assumingMemoryBound(to: Node.self)
                return UnsafeMutableBufferPointer(start: start, count: header.pointee.childCount)
            }
        }

        /// `counts[i]` is the sum of the weights of the keys under `children[i]`, in place; empty in a leaf.
        /// Valid while the node lives and no child is inserted or removed.
        var counts: UnsafeMutableBufferPointer<Int> {
            withUnsafeMutablePointers { header, keys in
                let start = (UnsafeMutableRawPointer(keys) + Node.countsOffset(keyRoom: header.pointee.room))
                    .assumingMemoryBound(to: Int.self)
                return UnsafeMutableBufferPointer(start: start, count: header.pointee.childCount)
            }
        }

        /// Whether this node keeps its keys' weights: a leaf, unless every key weighs 1.
        @inline(__always)
        private var keepsWeights: Bool { !Key.hasUnitWeights && fields.childRoom == 0 }

        /// Inserts child, with `count` weight under it, at index. Precondition: there is room.
        /// - Complexity: O(childCount - index).
        func insertChild(_ child: Node, count: Int, at index: Int) {
            let (children, counts) = (self.children, self.counts)
            let total = children.count
            precondition(index >= 0 && index <= total && total < fields.childRoom, "OrderedIndex.Node: no room for a child")
            let childSlot = children.baseAddress! + index
            let countSlot = counts.baseAddress! + index
            (childSlot + 1).moveInitialize(from: childSlot, count: total - index)
            (countSlot + 1).moveInitialize(from: countSlot, count: total - index)
            childSlot.initialize(to: child)
            countSlot.initialize(to: count)
            fields.childCount = total + 1
        }

        /// Appends child, with `count` weight under it. Precondition: there is room.
        func appendChild(_ child: Node, count: Int) {
            insertChild(child, count: count, at: childCount)
        }

        /// Removes and returns the child at index and the weight under it.
        /// - Complexity: O(childCount - index).
        @discardableResult
        func removeChild(at index: Int) -> (node: Node, count: Int) {
            let (children, counts) = (self.children, self.counts)
            let total = children.count
            precondition(index >= 0 && index < total, "OrderedIndex.Node: child index out of range")
            let childSlot = children.baseAddress! + index
            let countSlot = counts.baseAddress! + index
            let removed = (childSlot.move(), countSlot.move())
            childSlot.moveInitialize(from: childSlot + 1, count: total - index - 1)
            countSlot.moveInitialize(from: countSlot + 1, count: total - index - 1)
            fields.childCount = total - 1
            return removed
        }

        /// Moves the children and counts of `source` from `start` on to the end of this node's, leaving
        /// `source` with its first `start`. Precondition: there is room.
        /// - Complexity: O(source.childCount - start).
        func moveChildren(from source: Node, startingAt start: Int) {
            let moved = source.childCount - start
            let total = childCount
            precondition(moved >= 0 && total + moved <= fields.childRoom, "OrderedIndex.Node: no room to move children")
            (children.baseAddress! + total).moveInitialize(from: source.children.baseAddress! + start, count: moved)
            (counts.baseAddress! + total).moveInitialize(from: source.counts.baseAddress! + start, count: moved)
            fields.childCount = total + moved
            source.fields.childCount = start
        }

        /// Calls body with the keys, in place.
        @inline(__always)
        func withKeys<Result>(_ body: (UnsafeMutableBufferPointer<Key>) throws -> Result) rethrows -> Result {
            try withUnsafeMutablePointers { header, keys in
                try body(UnsafeMutableBufferPointer(start: keys, count: header.pointee.count))
            }
        }

        /// The key at index. Precondition: `0 <= index < keyCount`.
        func key(at index: Int) -> Key {
            precondition(index >= 0 && index < keyCount, "OrderedIndex.Node: key index out of range")
            return withKeys { $0[index] }
        }

        /// Replaces the key at index (in a leaf, its weight too). Precondition: `0 <= index < keyCount`.
        func setKey(_ key: Key, at index: Int) {
            precondition(index >= 0 && index < keyCount, "OrderedIndex.Node: key index out of range")
            withKeys { $0[index] = key }
            if keepsWeights { weightReplaced(by: key.weight, at: index) }
        }

        /// Whether the key at index exists and equals key.
        func hasKey(_ key: Key, at index: Int) -> Bool {
            index < keyCount && withKeys { $0[index] == key }
        }

        /// Inserts key at index, moving the keys (in a leaf, and their weights) from index on up by one.
        /// Precondition: there is room.
        /// - Complexity: O(keyCount - index).
        func insertKey(_ key: Key, at index: Int) {
            withUnsafeMutablePointers { header, keys in
                let count = header.pointee.count
                precondition(index >= 0 && index <= count && count < header.pointee.room, "OrderedIndex.Node: no room to insert")
                (keys + index + 1).moveInitialize(from: keys + index, count: count - index)
                (keys + index).initialize(to: key)
                header.pointee.count = count + 1
            }
            if keepsWeights { weightInserted(key.weight, at: index) }
        }

        /// Removes and returns the key at index, moving the keys (in a leaf, and their weights) after it down by one.
        /// - Complexity: O(keyCount - index).
        @discardableResult
        func removeKey(at index: Int) -> Key {
            if keepsWeights {
                precondition(index >= 0 && index < keyCount, "OrderedIndex.Node: key index out of range")
                weightRemoved(at: index)
            }
            return withUnsafeMutablePointers { header, keys in
                let count = header.pointee.count
                precondition(index >= 0 && index < count, "OrderedIndex.Node: key index out of range")
                let removed = (keys + index).move()
                (keys + index).moveInitialize(from: keys + index + 1, count: count - index - 1)
                header.pointee.count = count - 1
                return removed
            }
        }

        /// Appends key. Precondition: there is room.
        func appendKey(_ key: Key) {
            insertKey(key, at: keyCount)
        }

        /// Appends copies of keys (in a leaf, and their weights). Precondition: there is room; every key's
        /// weight is valid (see `OrderedIndex.checkWeight`; checked).
        /// - Complexity: O(keys.count).
        func append(contentsOf keys: some Collection<Key>) {
            let start = keyCount
            let heavy = appendKeys(keys)
            if keepsWeights { weightsAppended(from: start, heavy: heavy) }
        }

        /// Appends copies of keys, not recording their weights; returns how many weigh more than 1, having
        /// checked each weight (see `OrderedIndex.checkWeight`). Precondition: there is room.
        /// - Complexity: O(keys.count).
        private func appendKeys(_ keys: some Collection<Key>) -> Int32 {
            withUnsafeMutablePointers { header, stored in
                let count = header.pointee.count
                precondition(count + keys.count <= header.pointee.room, "OrderedIndex.Node: no room to append")
                var slot = stored + count
                var heavy: Int32 = 0
                for key in keys {
                    slot.initialize(to: key)
                    // Removed by the compiler for a type whose weight is the constant 1.
                    let weight = slot.pointee.weight
                    OrderedIndex.checkWeight(weight)
                    if weight > 1 { heavy &+= 1 }
                    slot += 1
                }
                header.pointee.count = count + keys.count
                return heavy
            }
        }

        /// Moves the keys (in leaves, and their weights) of `source` from `start` on to the end of this node's
        /// keys, leaving `source` with its first `start` keys. Precondition: there is room; both nodes are
        /// leaves or both are internal.
        /// - Complexity: O(source.keyCount - start).
        func moveKeys(from source: Node, startingAt start: Int) {
            if keepsWeights {
                precondition(start <= source.keyCount && keyCount + source.keyCount - start <= fields.room, "OrderedIndex.Node: no room to move")
                weightsMoved(from: source, startingAt: start)
            }
            source.withUnsafeMutablePointers { sourceHeader, sourceKeys in
                withUnsafeMutablePointers { header, keys in
                    let moved = sourceHeader.pointee.count - start
                    precondition(moved >= 0 && header.pointee.count + moved <= header.pointee.room, "OrderedIndex.Node: no room to move")
                    (keys + header.pointee.count).moveInitialize(from: sourceKeys + start, count: moved)
                    header.pointee.count += moved
                    sourceHeader.pointee.count = start
                }
            }
        }

        /// The child at index, copied first if anything else references it, so the caller may mutate it.
        /// - Complexity: O(1), or O(fan-out) when the child is shared.
        func uniqueChild(at index: Int) -> Node {
            let children = self.children
            if !isKnownUniquelyReferenced(&children[index]) {
                children[index] = children[index].copy()
            }
            return children[index]
        }

        /// Number of entries that decide whether the node is under- or overfull: keys in a leaf, children otherwise.
        func fill(height: Int) -> Int {
            height == 0 ? keyCount : childCount
        }

        /// Index of the first key not less than key (keyCount if none).
        /// - Complexity: O(fan-out); see `firstIndex(in:where:)`.
        func lowerBound(_ key: Key) -> Int {
            withKeys { keys in
                Self.firstIndex(in: UnsafeBufferPointer(keys)) { $0 >= key }
            }
        }

        /// Index of the first key greater than key (keyCount if none): in an internal node,
        /// the child whose range holds key.
        /// - Complexity: O(fan-out); see `firstIndex(in:where:)`.
        func upperBound(_ key: Key) -> Int {
            withKeys { keys in
                Self.firstIndex(in: UnsafeBufferPointer(keys)) { key < $0 }
            }
        }

        /// Index of the first key in buffer for which isAtOrAfter holds (buffer.count if none), given
        /// that it holds for a suffix of buffer.
        ///
        /// In a large index a node's keys are usually not cached yet, and keys holding arrays point to
        /// more memory still. A binary search waits out one cache miss per probe, since each probe's
        /// address depends on the previous comparison. Here the first pass steps through every eighth
        /// key and a second one through the block of eight it ends in: their addresses are known in
        /// advance, so the processor fetches them in parallel. Measured on a million keys, this halves
        /// the search time for keys that hold byte arrays and helps plain structs too. (Counting the keys
        /// before instead of stopping at the first one after, which avoids the mispredicted loop exits,
        /// measured slower: it compares more keys.)
        /// - Complexity: at most count / 8 + 8 comparisons.
        @inline(__always)
        static func firstIndex(in buffer: UnsafeBufferPointer<Key>, where isAtOrAfter: (Key) -> Bool) -> Int {
            let stride = 8
            var low = 0
            while low &+ stride < buffer.count && !isAtOrAfter(buffer[low &+ stride]) {
                low &+= stride
            }
            let high = min(low &+ stride, buffer.count)
            while low < high && !isAtOrAfter(buffer[low]) {
                low &+= 1
            }
            return low
        }

        /// Sum of `counts[0..<end]`: the weight under the children before `end`.
        /// - Complexity: O(fan-out).
        func countBefore(_ end: Int) -> Int {
            let counts = self.counts
            var sum = 0
            for index in 0..<end { sum &+= counts[index] }
            return sum
        }

        /// The weight under this node, which is at `height` (0 for a leaf).
        /// - Complexity: O(fan-out), or O(1) for a leaf whose keys all weigh 1.
        func totalWeight(height: Int) -> Int {
            height == 0 ? weightBefore(keyCount) : countBefore(childCount)
        }
    }
}
