// Reading a tree order by rows: the rows of a range of ranks, the rank of an item, the row at a rank.

/// One row of a tree order: its entry and where it sits.
struct TreeRow: Sendable {
    /// The entry's key (with its weight and context flag).
    var key: OrderKey
    /// The number of ancestors above it.
    var depth: Int
    /// Whether entries sit below it in this order (shown or collapsed).
    var hasEntriesBelow: Bool
    /// Whether its entries below are hidden.
    var collapsed: Bool

    var item: ItemID { key.item }

    /// Whether the row would look the same to a client, as far as the order decides (not the item's content).
    func looksLike(_ other: TreeRow) -> Bool {
        depth == other.depth && hasEntriesBelow == other.hasEntriesBelow && collapsed == other.collapsed
            && key.context == other.key.context
    }
}

extension TreeOrder {
    /// The rows at ranks `range`, clamped to the order's rows.
    /// - Complexity: O(depth × log n + range.count).
    func rows(in range: Range<Int>) -> [TreeRow] {
        let clamped = range.clamped(to: 0..<rowCount)
        var rows: [TreeRow] = []
        rows.reserveCapacity(clamped.count)
        append(top, depth: 0, range: clamped, to: &rows)
        return rows
    }

    /// Appends the rows of the entries of `index` (and below them) whose ranks, counted from the index's
    /// first row, are in `range`.
    private func append(_ index: OrderedIndex<OrderKey>, depth: Int, range: Range<Int>, to rows: inout [TreeRow]) {
        guard !range.isEmpty else { return }
        var start = index.entry(covering: range.lowerBound).start
        for key in index.keys(in: range) {
            let weight = Int(key.weight)
            if start >= range.lowerBound { rows.append(row(key, depth: depth)) }
            if weight > 1 {
                let lower = max(range.lowerBound, start + 1) - (start + 1)
                let upper = min(range.upperBound, start + weight) - (start + 1)
                if lower < upper { append(below[key.item]!, depth: depth + 1, range: lower..<upper, to: &rows) }
            }
            start += weight
        }
    }

    private func row(_ key: OrderKey, depth: Int) -> TreeRow {
        let hasBelow = below[key.item] != nil
        return TreeRow(key: key, depth: depth, hasEntriesBelow: hasBelow, collapsed: hasBelow && collapsed.contains(key.item))
    }

    /// The row at `rank`. Precondition: `0 <= rank < rowCount`.
    /// - Complexity: O(depth × log n).
    func row(at rank: Int) -> TreeRow {
        var index = top
        var remaining = rank
        var depth = 0
        while true {
            let (key, start) = index.entry(covering: remaining)
            if remaining == start { return row(key, depth: depth) }
            remaining -= start + 1
            index = below[key.item]!
            depth += 1
        }
    }

    /// The rank of `id`'s row, nil when it has no entry or a collapsed ancestor hides it. `place` tells where
    /// each entry is (the order must be current: no group half applied).
    /// - Complexity: O(depth × log n).
    func rank(of id: ItemID, place: (ItemID) -> TreePlace?) -> Int? {
        var rank = 0
        var current = id
        var isItem = true
        while true {
            guard let at = place(current), let siblings = siblings(under: at.parent),
                  let siblingRank = siblings.rank(of: at.key) else { return nil }
            rank += siblingRank + (isItem ? 0 : 1)
            isItem = false
            guard let parent = at.parent else { return rank }
            if collapsed.contains(parent) { return nil }
            current = parent
        }
    }

    /// The rows of the subtree of the row at `rank` (itself and the rows shown below it).
    /// - Complexity: O(depth × log n).
    func subtreeRows(at rank: Int) -> Int {
        Int(row(at: rank).key.weight)
    }
}

extension TreeOrder {
    /// Calls `body` with every entry, in tree order (a parent before the entries below it).
    /// - Complexity: O(n), reading the indexes a chunk at a time.
    func forEachEntry<Failure: Error>(_ body: (OrderKey) throws(Failure) -> Void) throws(Failure) {
        try forEachEntry(of: top, body)
    }

    /// Calls `body` with every entry below `id`, in tree order.
    /// - Complexity: O(s) for the s entries below it.
    func forEachEntry<Failure: Error>(below id: ItemID, _ body: (OrderKey) throws(Failure) -> Void) throws(Failure) {
        guard let index = below[id] else { return }
        try forEachEntry(of: index, body)
    }

    private func forEachEntry<Failure: Error>(of index: OrderedIndex<OrderKey>,
                                              _ body: (OrderKey) throws(Failure) -> Void) throws(Failure) {
        try TreeOrder.forEachKey(of: index) { key throws(Failure) in
            try body(key)
            if let under = below[key.item] { try forEachEntry(of: under, body) }
        }
    }

    /// Calls `body` with every key of `index` in order, fetching them a chunk at a time (a chunk always starts
    /// at a key's first row, so no key is read twice).
    static func forEachKey<Failure: Error>(of index: OrderedIndex<OrderKey>,
                                           _ body: (OrderKey) throws(Failure) -> Void) throws(Failure) {
        var start = 0
        let total = index.totalWeight
        while start < total {
            for key in index.keys(in: start..<min(start + 4_096, total)) {
                try body(key)
                start += Int(key.weight)
            }
        }
    }

    /// How many levels sit below `id` (0 when none), counted up to `limit + 1` at most.
    /// - Complexity: O(s) for the s entries within `limit` levels below it.
    func height(below id: ItemID, limit: Int) -> Int {
        guard let index = below[id] else { return 0 }
        guard limit > 0 else { return 1 }
        var deepest = 1
        TreeOrder.forEachKey(of: index) { key in
            guard deepest <= limit, below[key.item] != nil else { return }
            deepest = max(deepest, 1 + height(below: key.item, limit: limit - 1))
        }
        return deepest
    }
}

extension TreeOrder {
    /// Every entry in tree order (for tests and diagnostics).
    /// - Complexity: O(n).
    var allKeys: [OrderKey] {
        var keys: [OrderKey] = []
        keys.reserveCapacity(entryCount)
        forEachEntry { keys.append($0) }
        return keys
    }

    /// Checks every structural invariant (for tests): each index's own, each entry's weight (1, plus the weights
    /// below it unless collapsed), the entry and matching counts, no empty index below an entry, no index below an
    /// item that has no entry, no matching count for an item with nothing below it, no context entry without entries
    /// below, and the sections' tallies.
    /// - Complexity: O(n).
    func checkInvariants() {
        var entries = 0
        var matching = 0
        var reached = Set<ItemID>()
        var tallies: [SectionSlot: SectionTally] = [:]
        func check(_ index: OrderedIndex<OrderKey>) -> (rows: Int, matching: Int) {
            index.checkInvariants()
            var rows = 0
            var matched = 0
            TreeOrder.forEachKey(of: index) { key in
                entries += 1
                reached.insert(key.item)
                if !key.context { matching += 1 }
                var weight = 1
                var subtree = key.context ? 0 : 1
                if let under = below[key.item] {
                    let inner = check(under)
                    if !collapsed.contains(key.item) { weight += inner.rows }
                    subtree += inner.matching
                    precondition((matchingBelow[key.item] ?? 0) == inner.matching, "matchingBelow of \(key.item) is wrong")
                } else {
                    precondition(!key.context, "context entry \(key.item) has nothing below it")
                    precondition(matchingBelow[key.item] == nil, "matchingBelow of a leaf \(key.item)")
                }
                precondition(key.weight == weight, "entry \(key.item) weighs \(key.weight), not \(weight)")
                rows += weight
                matched += subtree
            }
            return (rows, matched)
        }
        _ = check(top)
        for (parent, index) in below { precondition(!index.isEmpty, "an empty index below \(parent)") }
        if grouped {
            TreeOrder.forEachKey(of: top) { key in
                var tally = tallies[slot(key)] ?? SectionTally()
                tally.rows += key.weight
                tally.matching += (key.context ? 0 : 1) + (matchingBelow[key.item] ?? 0)
                tallies[slot(key)] = tally
            }
            precondition(tallies == sections, "section tallies \(sections) differ from the entries' \(tallies)")
        }
        precondition(entries == entryCount, "entryCount \(entryCount), entries \(entries)")
        precondition(matching == matchingCount, "matchingCount \(matchingCount), matching entries \(matching)")
        for parent in below.keys { precondition(reached.contains(parent), "entries below \(parent), which has no entry") }
        for parent in matchingBelow.keys {
            precondition(below[parent] != nil, "matchingBelow of \(parent), which has nothing below it")
        }
    }
}
