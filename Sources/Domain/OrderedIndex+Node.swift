// The node of OrderedIndex's counted B+tree: fan-out, fill limits, searching inside a node and copy-on-write.

extension OrderedIndex {
    /// Most keys a leaf holds; a leaf that would hold more splits in two.
    static var leafCapacity: Int { 64 }
    /// Fewest keys a leaf other than the root holds; a leaf with fewer borrows or merges.
    static var leafMinimum: Int { leafCapacity / 2 }
    /// Most children an internal node holds.
    static var branchCapacity: Int { 64 }
    /// Fewest children an internal node other than the root holds.
    static var branchMinimum: Int { branchCapacity / 2 }

    /// One node of the tree. The tree knows its height, so a node does not record whether it is a leaf:
    /// nodes at height 0 are leaves and use only `keys`.
    ///
    /// A leaf's `keys` are the index's keys, ascending. An internal node has `children` with their
    /// subtree sizes in `counts`, and `keys` holds the separators: `keys[i]` is greater than every key
    /// under `children[i]` and at most every key under `children[i + 1]`, so
    /// `keys.count == children.count - 1`. Removal can leave a separator above its right subtree's
    /// smallest key; the bounds still hold, and descent never needs more than them.
    ///
    /// Sharing: a node reachable from more than one `OrderedIndex` value is never mutated. A mutating
    /// method copies every shared node on its path first (`uniqueChild(at:)`), so it only writes nodes
    /// it owns alone, and owning the index value exclusively (Swift's `inout` rule) means owning those
    /// nodes exclusively. That is why the class can be `@unchecked Sendable`.
    ///
    /// Access: Swift checks every access to a class's stored `var` at run time for overlapping
    /// accesses, and those checks doubled the cost of a search. The arrays are `@exclusivity(unchecked)`
    /// instead: nodes never leave OrderedIndex, and its code never starts an access to a node's array
    /// while another to the same array is in progress (no `counts[i] += counts.remove(at: j)`).
    final class Node: @unchecked Sendable {
        /// Leaf: the keys. Internal: the separators between children.
        @exclusivity(unchecked) var keys: [Key]
        /// The children; empty in a leaf.
        @exclusivity(unchecked) var children: [Node]
        /// `counts[i]` is the number of keys under `children[i]`; empty in a leaf.
        @exclusivity(unchecked) var counts: [Int]

        /// A leaf holding keys.
        init(keys: [Key]) {
            self.keys = keys
            self.children = []
            self.counts = []
        }

        /// An internal node. Precondition: `separators.count == children.count - 1 == counts.count - 1`.
        init(separators: [Key], children: [Node], counts: [Int]) {
            self.keys = separators
            self.children = children
            self.counts = counts
        }

        /// A shallow copy: the copy shares this node's children, which stay immutable while shared.
        /// Its arrays share storage with this node's until first written, then get the same capacity.
        /// - Complexity: O(fan-out).
        func copy() -> Node {
            Node(separators: keys, children: children, counts: counts)
        }

        /// Elements in a new array with room for capacity, so that growing a node up to the point where
        /// it splits never reallocates.
        /// - Complexity: O(capacity).
        static func array<Elements: Collection>(_ elements: Elements, room capacity: Int) -> [Elements.Element] {
            var array: [Elements.Element] = []
            array.reserveCapacity(capacity)
            array.append(contentsOf: elements)
            return array
        }

        /// A leaf holding keys, with room for as many as make it split.
        /// - Complexity: O(fan-out).
        static func leaf(_ keys: some Collection<Key>) -> Node {
            Node(keys: array(keys, room: leafCapacity + 1))
        }

        /// An internal node, with room for as many children as make it split.
        /// - Complexity: O(fan-out).
        static func branch(
            separators: some Collection<Key>, children: some Collection<Node>, counts: some Collection<Int>
        ) -> Node {
            Node(
                separators: array(separators, room: branchCapacity),
                children: array(children, room: branchCapacity + 1),
                counts: array(counts, room: branchCapacity + 1)
            )
        }

        /// The child at index, copied first if anything else references it, so the caller may mutate it.
        /// - Complexity: O(1), or O(fan-out) when the child is shared.
        func uniqueChild(at index: Int) -> Node {
            if !isKnownUniquelyReferenced(&children[index]) {
                children[index] = children[index].copy()
            }
            return children[index]
        }

        /// Number of entries that decide whether the node is under- or overfull: keys in a leaf, children otherwise.
        func fill(height: Int) -> Int {
            height == 0 ? keys.count : children.count
        }

        /// Index of the first key not less than key (keys.count if none).
        /// - Complexity: O(fan-out); see `firstIndex(in:where:)`.
        func lowerBound(_ key: Key) -> Int {
            keys.withUnsafeBufferPointer { buffer in
                Self.firstIndex(in: buffer) { $0 >= key }
            }
        }

        /// Index of the first key greater than key (keys.count if none): in an internal node,
        /// the child whose range holds key.
        /// - Complexity: O(fan-out); see `firstIndex(in:where:)`.
        func upperBound(_ key: Key) -> Int {
            keys.withUnsafeBufferPointer { buffer in
                Self.firstIndex(in: buffer) { key < $0 }
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
        /// the search time for keys that hold byte arrays and helps plain structs too.
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

        /// Sum of `counts[0..<end]`: the number of keys under the children before `end`.
        /// - Complexity: O(fan-out).
        func countBefore(_ end: Int) -> Int {
            counts.withUnsafeBufferPointer { buffer in
                var sum = 0
                for index in 0..<end { sum &+= buffer[index] }
                return sum
            }
        }
    }
}
