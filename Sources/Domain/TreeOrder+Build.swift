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
            top = try TreeOrder.sortedIndex(keys, tie: tie)
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
        var groups: [ItemID?: [OrderKey]] = [:]
        for (slot, var key) in keys.enumerated() {
            key.weight = Int(sizes[slot])
            key.context = !(matches?[slot] ?? true)
            groups[parents[slot], default: []].append(key)
        }
        for (parent, group) in groups {
            let index = try TreeOrder.sortedIndex(group, tie: tie)
            if let parent {
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
        if !keys.indices.dropFirst().allSatisfy({ keys[$0 - 1] < keys[$0] }) {
            var unsorted = keys  // the same memory, sorted in place
            unsorted.sort()
        }
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

    /// An index of `keys`, sorted unless they already are; refuses two keys at one position.
    private static func sortedIndex(_ keys: consuming [OrderKey], tie: ((OrderKey) -> DomainError)?) throws(DomainError) -> OrderedIndex<OrderKey> {
        if !keys.indices.dropFirst().allSatisfy({ keys[$0 - 1] < keys[$0] }) { keys.sort() }
        if let tie {
            for index in keys.indices.dropFirst() where keys[index - 1].position == keys[index].position {
                throw tie(keys[index])
            }
        }
        return OrderedIndex.build(sorted: keys)
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
