// Building a tree order at once: from a list's stored items (a snapshot), or from keys already made (an index build).

extension TreeOrder {
    /// A tree order of the entries `keys` (each carrying its parent in `parents`, nil at the top level; each
    /// matching when `matches` says so, or when it is nil; the others context), none collapsed: each sibling group
    /// sorted (already sorted ones are taken as they are) and weighted by its subtree's size. Every parent must be
    /// among the entries.
    /// - Throws: what `tie` makes of two siblings at one position, when it is given (a list's own order; siblings of
    ///   several lists, in a smart group, may share positions), and what `depths` throws.
    /// - Complexity: O(n) when each sibling group comes sorted (as a snapshot stores them, in tree order), else
    ///   O(n log n).
    ///
    /// `keys` is consumed: handed its last use, the order sorts and flags the caller's array in place rather than a copy.
    init(building keys: consuming [OrderKey], parents: [ItemID?], matches: [Bool]? = nil, grouping: Grouping = .none,
         tie: ((OrderKey) -> DomainError)? = nil) throws(DomainError) {
        self.init(grouping: grouping)
        let matchCount = matches.map { $0.reduce(0) { $0 + ($1 ? 1 : 0) } } ?? keys.count
        guard parents.contains(where: { $0 != nil }) else {
            // No subtasks: one sibling group, every weight 1.
            if let matches { for slot in keys.indices where !matches[slot] { keys[slot].context = true } }
            entryCount = keys.count
            matchingCount = matchCount
            let run = keys.indices
            top = try keys.withUnsafeMutableBufferPointer { buffer throws(DomainError) in
                try TreeOrder.indexes(of: buffer, runs: [run], tie: tie)[0]
            }
            if grouped { TreeOrder.forEachKey(of: top) { tallyBuilt($0) } }
            return
        }
        var slots: [ItemID: Int] = [:]
        slots.reserveCapacity(keys.count)
        for (slot, key) in keys.enumerated() { slots[key.item] = slot }
        let depths = try TreeOrder.depths(of: keys, parents: parents, slots: slots)
        // Subtree sizes, deepest first.
        var sizes = [Int](repeating: 1, count: keys.count)
        var matching = matches.map { $0.map { $0 ? 1 : 0 } } ?? [Int](repeating: 1, count: keys.count)
        var byDepth = [[Int]](repeating: [], count: Limits.maxDepth + 1)
        for slot in keys.indices { byDepth[depths[slot]].append(slot) }
        for depth in stride(from: Limits.maxDepth, through: 1, by: -1) {
            for slot in byDepth[depth] {
                let parentSlot = slots[parents[slot]!]!
                sizes[parentSlot] += sizes[slot]
                matching[parentSlot] += matching[slot]
            }
        }
        // Each sibling group made one run of `keys`, in place (no copy of the keys: 80 bytes each), then sorted
        // where it is not already, then moved into its index.
        var groupParents: [ItemID?] = [nil]
        var destinations = [UInt32](repeating: 0, count: keys.count)
        var groupNumbers: [ItemID: UInt32] = [:]
        for slot in keys.indices {
            keys[slot].weight = Int(sizes[slot])
            keys[slot].context = !(matches?[slot] ?? true)
            guard let parent = parents[slot] else { continue }
            if let number = groupNumbers[parent] {
                destinations[slot] = number
            } else {
                destinations[slot] = UInt32(groupParents.count)
                groupNumbers[parent] = UInt32(groupParents.count)
                groupParents.append(parent)
            }
        }
        let runs = TreeOrder.gatherGroups(&keys, groups: &destinations, groupCount: groupParents.count)
        let indexes = try keys.withUnsafeMutableBufferPointer { buffer throws(DomainError) in
            try TreeOrder.indexes(of: buffer, runs: runs, tie: tie)
        }
        for (number, index) in indexes.enumerated() {
            if let parent = groupParents[number] {
                below[parent] = index
                let parentSlot = slots[parent]!
                let own = (matches?[parentSlot] ?? true) ? 1 : 0
                if matching[parentSlot] - own > 0 { matchingBelow[parent] = matching[parentSlot] - own }
            } else {
                top = index
            }
        }
        entryCount = keys.count
        matchingCount = matchCount
        if grouped { TreeOrder.forEachKey(of: top) { tallyBuilt($0) } }
    }

    /// A list's manual order of top-level entries only (no entry has a parent), none collapsed, every entry
    /// matching: the keys are sorted in place unless they already are (as a snapshot stores them), then moved
    /// into the order's leaves without a copy. `keys` is left uninitialized whether this returns or throws; the
    /// caller still deallocates it.
    /// - Throws: what `tie` makes of two entries at one position.
    /// - Complexity: O(n) when the keys come sorted, else O(n log n).
    init(buildingTopLevel keys: UnsafeMutableBufferPointer<OrderKey>, tie: (OrderKey) -> DomainError) throws(DomainError) {
        self.init(grouping: .none)
        if !keys.indices.dropFirst().allSatisfy({ keys[$0 - 1] < keys[$0] }) { TreeOrder.sortInPlace(keys) }
        for index in keys.indices.dropFirst() where keys[index - 1].position == keys[index].position {
            let refusal = tie(keys[index])
            _ = keys.deinitialize()
            throw refusal
        }
        entryCount = keys.count
        matchingCount = keys.count
        top = OrderedIndex.build(moving: keys)
    }

    /// Counts a built top-level entry in its section's tally.
    private mutating func tallyBuilt(_ key: OrderKey) {
        let slot = slot(key)
        var tally = sections[slot] ?? SectionTally()
        tally.rows += Int(key.weight)
        tally.matching += (key.context ? 0 : 1) + (matchingBelow[key.item] ?? 0)
        sections[slot] = tally
    }

    /// Moves each key to the run of its group, in place: `groups` holds each slot's group number (0 to
    /// `groupCount` - 1) and is used up; within a run the keys keep their order. Returns each group's run.
    /// - Complexity: O(n): a counting sort of the slots, then one swap per key along the permutation's cycles.
    private static func gatherGroups(_ keys: inout [OrderKey], groups destinations: inout [UInt32],
                                     groupCount: Int) -> [Range<Int>] {
        var starts = [Int](repeating: 0, count: groupCount + 1)
        for group in destinations { starts[Int(group) + 1] += 1 }
        for group in 0..<groupCount { starts[group + 1] += starts[group] }
        var next = starts
        for slot in destinations.indices {
            let group = Int(destinations[slot])
            destinations[slot] = UInt32(next[group])
            next[group] += 1
        }
        // The key at `slot` belongs at `destinations[slot]`: each swap puts one key where it belongs.
        keys.withUnsafeMutableBufferPointer { keys in
            for slot in keys.indices {
                while Int(destinations[slot]) != slot {
                    let target = Int(destinations[slot])
                    keys.swapAt(slot, target)
                    destinations.swapAt(slot, target)
                }
            }
        }
        return (0..<groupCount).map { starts[$0]..<starts[$0 + 1] }
    }

    /// The index of each run of `keys`, each sorted in place unless it already is, refusing two keys of one run at
    /// one position when `tie` is given (before any key is moved). The keys are moved into the indexes and the
    /// buffer is filled again with a key that holds no reference, so its owner releases nothing twice.
    private static func indexes(of keys: UnsafeMutableBufferPointer<OrderKey>, runs: [Range<Int>],
                                tie: ((OrderKey) -> DomainError)?) throws(DomainError) -> [OrderedIndex<OrderKey>] {
        for run in runs {
            let group = UnsafeMutableBufferPointer(rebasing: keys[run])
            if !group.indices.dropFirst().allSatisfy({ group[$0 - 1] < group[$0] }) { sortInPlace(group) }
            if let tie {
                for index in group.indices.dropFirst() where group[index - 1].position == group[index].position {
                    throw tie(group[index])
                }
            }
        }
        let indexes = runs.map { OrderedIndex.build(moving: UnsafeMutableBufferPointer(rebasing: keys[$0])) }
        keys.initialize(repeating: OrderKey(manualPosition: .initial, item: ItemID(0)))
        return indexes
    }

    /// Sorts `keys` (unique) by sorting their slots, 4 bytes each, then moving each key once to its place along the
    /// permutation's cycles: the standard library's sort of the keys themselves would take a scratch copy of half
    /// of them (80 bytes a key) and move the keys around O(n log n) times.
    /// - Complexity: O(n log n) comparisons, O(n) swaps; 4 bytes per key, and the sort's scratch of half as many.
    static func sortInPlace(_ keys: inout [OrderKey]) {
        keys.withUnsafeMutableBufferPointer { sortInPlace($0) }
    }

    /// `sortInPlace` of the keys in a buffer.
    static func sortInPlace(_ keys: UnsafeMutableBufferPointer<OrderKey>) {
        guard keys.count > 1 else { return }
        precondition(keys.count <= Int(UInt32.max), "TreeOrder.sortInPlace needs fewer than 2^32 keys")
        var order = Array(0..<UInt32(keys.count))
        order.sort { keys[Int($0)] < keys[Int($1)] }
        // Slot i takes the key at order[i]: each cycle of the permutation is walked once, a slot marked done (order[i]
        // = i) as it receives its key.
        for start in keys.indices where order[start] != UInt32(start) {
            var current = start
            while true {
                let source = Int(order[current])
                order[current] = UInt32(current)
                if source == start { break }
                keys.swapAt(current, source)
                current = source
            }
        }
    }

    /// Each entry's depth, refusing a parent that is not among the entries, a cycle, or a depth past the limit.
    /// - Complexity: O(n).
    private static func depths(of keys: [OrderKey], parents: [ItemID?], slots: [ItemID: Int]) throws(DomainError) -> [Int] {
        var depths = [Int](repeating: -1, count: keys.count)
        var chain: [Int] = []
        for start in keys.indices where depths[start] < 0 {
            chain.removeAll(keepingCapacity: true)
            var slot = start
            var base = 0
            while true {
                chain.append(slot)
                guard let parent = parents[slot] else { base = 0; break }
                guard let parentSlot = slots[parent] else {
                    throw .refused(reason: "parentInOtherList",
                                   message: "item \(keys[slot].item): its parent \(parent) is not an item of its list")
                }
                if depths[parentSlot] >= 0 { base = depths[parentSlot] + 1; break }
                guard chain.count <= Limits.maxDepth + 1, parentSlot != start else {
                    throw .refused(reason: chain.count > Limits.maxDepth + 1 ? "tooDeep" : "cycle",
                                   message: "item \(keys[start].item): its parents go round or deeper than \(Limits.maxDepth)")
                }
                slot = parentSlot
            }
            for (offset, slot) in chain.reversed().enumerated() { depths[slot] = base + offset }
            if depths[start] > Limits.maxDepth {
                throw .refused(reason: "tooDeep", message: "item \(keys[start].item) is deeper than \(Limits.maxDepth)")
            }
        }
        return depths
    }
}
