// TreeOrder: an order of items as a tree, each item among its siblings, with rows counted through collapsed entries.

/// Where an entry sits in a tree order: under its parent (nil: at the top level), at its key among its siblings.
struct TreePlace: Equatable, Sendable {
    var parent: ItemID?
    var key: OrderKey
}

/// One item's change as a tree order sees it: where its entry may have been, and where it goes.
struct TreeChange: Sendable {
    var id: ItemID
    /// Where the item's entry was, if it had one (it may have had none: it did not match and nothing below it
    /// did); nil when the item was not in the order's source at all.
    var old: TreePlace?
    /// Its depth in the tree before the change (for the order of detaching: shallowest first).
    var oldDepth: Int
    /// Where the item's entry goes when it matches or something below it does; nil when it is gone or not
    /// in the source.
    var new: TreePlace?
    /// Its depth after the change (for the order of attaching: deepest first).
    var newDepth: Int
    /// Whether the item itself matches the order's filter and source after the change.
    var matches: Bool
    /// Whether the item is deleted (it then leaves the collapsed set; an item that only leaves the order stays in it).
    var deleted = false
}

/// The items a group changes, as `TreeOrder.apply` asks about them.
enum Changing {
    case one(ItemID)
    case many(Set<ItemID>)

    func contains(_ id: ItemID) -> Bool {
        switch self {
        case .one(let only): only == id
        case .many(let ids): ids.contains(id)
        }
    }
}

/// A section's slot in a grouped tree order: its rank, and the list's position for sections by list.
struct SectionSlot: Hashable, Sendable {
    var rank: Int32
    var listPosition: [UInt8]?

    init(rank: Int32, listPosition: [UInt8]?) {
        self.rank = rank
        self.listPosition = listPosition
    }

    func precedes(_ other: SectionSlot) -> Bool {
        if rank != other.rank { return rank < other.rank }
        guard let left = listPosition, let right = other.listPosition else { return false }
        return compareBytes(left, right) < 0
    }
}

/// What a section of a grouped tree order holds: its rows (as shown: collapsed rows left out) and its
/// matching items (collapsed or not; context rows not).
struct SectionTally: Sendable, Equatable {
    var rows = 0
    var matching = 0
}

/// An order of items as a tree: the top-level entries in one `OrderedIndex`, the entries below an entry in
/// another, keyed by its id. An entry is an item that matches the order's filter and source, or an ancestor
/// of one (a context entry, `OrderKey.context`). An entry's weight is the number of rows it stands for:
/// itself, plus the weights of the entries below it unless it is collapsed. So the rank of a row is found by
/// descending: O(depth × log n).
///
/// A value: copying it is O(entries with subtasks) (the dictionary), and the indexes are shared copy-on-write.
/// Its stored properties are changed only by its own methods (here and in `TreeOrder+Build.swift`).
struct TreeOrder: Sendable {
    /// The top-level entries.
    var top = OrderedIndex<OrderKey>()
    /// The entries below each entry that has some, among themselves.
    var below: [ItemID: OrderedIndex<OrderKey>] = [:]
    /// The entries whose rows below are hidden.
    var collapsed: Set<ItemID> = []
    /// The number of matching entries strictly below each entry that has some.
    var matchingBelow: [ItemID: Int] = [:]
    /// Each section's rows and matching items, when the order is grouped.
    var sections: [SectionSlot: SectionTally] = [:]
    /// How the order's top-level entries are divided into sections (`sections` is kept unless `.none`).
    let grouping: Grouping
    /// Whether the order keeps `sections`.
    var grouped: Bool { grouping != .none }
    /// The number of entries, at every depth, shown or collapsed.
    var entryCount = 0
    /// The number of matching entries.
    var matchingCount = 0

    init(grouping: Grouping = .none) {
        self.grouping = grouping
    }

    /// The section of a top-level entry: its rank, and its list's position in sections by list.
    func slot(_ key: OrderKey) -> SectionSlot {
        SectionSlot(rank: key.section, listPosition: grouping == .list ? key.listPosition : nil)
    }

    /// The number of rows (collapsed entries' rows below left out).
    /// - Complexity: O(1).
    var rowCount: Int { top.totalWeight }

    /// The entries below `parent` (nil: the top level), if any.
    func siblings(under parent: ItemID?) -> OrderedIndex<OrderKey>? {
        guard let parent else { return top }
        return below[parent]
    }

    /// Whether `id` has entries below it.
    func hasEntriesBelow(_ id: ItemID) -> Bool { below[id] != nil }

    /// The stored entry at `place`, nil when there is none.
    /// - Complexity: O(log n).
    func entry(at place: TreePlace) -> OrderKey? {
        siblings(under: place.parent)?.member(equalTo: place.key)
    }

    /// The weight an entry for `id` has: itself, and the rows below it unless collapsed.
    private func weight(of id: ItemID) -> Int {
        1 + (collapsed.contains(id) ? 0 : below[id]?.totalWeight ?? 0)
    }

    /// Matching entries in the subtree of an entry: itself if it matches, and those below it.
    private func matchingSubtree(_ key: OrderKey) -> Int {
        (key.context ? 0 : 1) + (matchingBelow[key.item] ?? 0)
    }

    // MARK: Changing entries

    /// Applies a group's changes: detaches every changed item's old entry (shallowest first), then attaches
    /// each where it now goes (deepest first, so a parent is attached with everything below it), creating
    /// context entries for ancestors that gain a matching descendant and removing those that lose their last.
    ///
    /// `place(id)` tells where an unchanged item's entry is (its parent and its key); it is asked only for
    /// items not among `changes`. `parent(id)`, when given, tells an unchanged item's parent more cheaply.
    /// - Complexity: O(k × depth × log n) for k changes.
    mutating func apply(_ changes: [TreeChange], place: (ItemID) -> TreePlace?, parent: ((ItemID) -> ItemID?)? = nil) {
        guard !changes.isEmpty else { return }
        if changes.count == 1, let old = changes[0].old, let new = changes[0].new, old.parent == new.parent,
           !changes[0].deleted, let stored = entry(at: old), stored.context == !changes[0].matches {
            // One entry moving among its siblings, as much a match as it was, with its subtree: nothing above it
            // changes (the usual edit of a sort key).
            replaceAmongSiblings(stored, under: old.parent, with: new.key)
            return
        }
        // One entry moving to another parent, as much a match as it was, with its subtree: the ancestors they
        // share (from the nearest) keep their matching counts, and their weights unless context entries come or
        // go on the way or a collapsed item on one side hides the change, so neither walk up goes past the
        // nearest; its weight is checked once after.
        var shared: ItemID?
        if changes.count == 1, let old = changes[0].old, let new = changes[0].new, !changes[0].deleted,
           let stored = entry(at: old), stored.context == !changes[0].matches {
            if let parent {
                shared = nearestCommonAncestor(old.parent, new.parent, parent: parent)
            } else {
                shared = nearestCommonAncestor(old.parent, new.parent, parent: { place($0)?.parent })
            }
        }
        // One change (the usual case, and every change the state's own orders see) needs no set.
        let changing = changes.count == 1 ? Changing.one(changes[0].id) : .many(Set(changes.map(\.id)))
        let detaching = changes.count == 1 ? changes : changes.sorted { $0.oldDepth < $1.oldDepth }
        for change in detaching {
            if change.deleted { collapsed.remove(change.id) }
            guard let old = change.old, let removed = remove(at: old) else { continue }
            if old.parent == nil { tally(removed, rows: Int(removed.weight), matching: matchingSubtree(removed), sign: -1) }
            // Its subtree's matching entries leave the old ancestors.
            propagate(from: old.parent, matchingDelta: -matchingSubtree(removed), changing: changing, place: place, stop: shared)
        }
        let attaching = changes.count == 1 ? changes : changes.sorted { $0.newDepth > $1.newDepth }
        for change in attaching {
            guard let new = change.new, change.matches || below[change.id] != nil else {
                // Gone, or no longer an entry: what was below it stays (it is attached elsewhere or gone too), counted
                // until the last of it leaves (a list's manual order takes a group one item at a time: a subtree
                // moved to another list or deleted leaves it parent first).
                if below[change.id] == nil { matchingBelow[change.id] = nil }
                continue
            }
            var key = new.key
            key.context = !change.matches
            key.weight = Int(weight(of: change.id))
            insert(key, under: new.parent)
            if new.parent == nil { tally(key, rows: Int(key.weight), matching: matchingSubtree(key), sign: 1) }
            propagate(from: new.parent, matchingDelta: matchingSubtree(key), changing: changing, place: place, stop: shared)
        }
        // The shared ancestor's weight changes when context entries came or went on the way, or a collapsed item
        // hid one side: then upwards.
        if let shared, let at = place(shared) { refreshWeight(at, place: place) }
    }

    /// Collapses (hides the rows below) or expands an item; nothing when it already is. An item collapsed while
    /// nothing is below it (or while it has no entry) is in the set all the same, and hides the entries that come
    /// below it later: which items may enter the set is the view's rule (`Engine.setCollapsed`), and an order built
    /// again for another filter or sort keeps its view's whole set.
    /// - Returns: whether the order's rows changed.
    /// - Complexity: O(depth × log n).
    mutating func setCollapsed(_ id: ItemID, _ isCollapsed: Bool, place: (ItemID) -> TreePlace?) -> Bool {
        guard isCollapsed != collapsed.contains(id) else { return false }
        if isCollapsed { collapsed.insert(id) } else { collapsed.remove(id) }
        guard below[id] != nil, let at = place(id) else { return false }
        refreshWeight(at, place: place)
        return true
    }

    /// Replaces the entry at `place` with `key` among the same siblings (an order where every entry matches,
    /// like a list's manual order): its weight and context flag stay, so nothing above it changes.
    /// - Complexity: O(log n).
    mutating func replaceAmongSiblings(_ place: TreePlace, with key: OrderKey) {
        guard let stored = entry(at: place) else { return }
        replaceAmongSiblings(stored, under: place.parent, with: key)
    }

    /// Replaces `stored`, an entry under `parent`, with `key` among the same siblings, keeping its weight and
    /// context flag.
    /// - Complexity: O(log n).
    private mutating func replaceAmongSiblings(_ stored: OrderKey, under parent: ItemID?, with key: OrderKey) {
        var updated = key
        updated.weight = stored.weight
        updated.context = stored.context
        replace(stored, with: updated, under: parent)
        if parent == nil, grouped {
            let matching = matchingSubtree(stored)
            tally(stored, rows: stored.weight, matching: matching, sign: -1)
            tally(updated, rows: updated.weight, matching: matching, sign: 1)
        }
    }

    /// Inserts a matching top-level entry with nothing below it.
    /// - Complexity: O(log n).
    mutating func insertTopLeaf(_ key: OrderKey) {
        var key = key
        key.weight = 1
        key.context = false
        insert(key, under: nil)
        tally(key, rows: 1, matching: 1, sign: 1)
    }

    /// Removes a top-level entry with nothing below it.
    /// - Complexity: O(log n).
    mutating func removeTopLeaf(_ key: OrderKey) {
        guard let removed = remove(at: TreePlace(parent: nil, key: key)) else { return }
        tally(removed, rows: removed.weight, matching: matchingSubtree(removed), sign: -1)
        collapsed.remove(removed.item)
    }

    /// The entries that have entries below them.
    /// - Complexity: O(such entries).
    var parents: [ItemID] { Array(below.keys) }

    /// Moves a top-level entry from `old` to `new` (keys of one item differing in their list's position, or
    /// section), keeping its weight, context flag and its section's tally right.
    /// - Returns: whether it had an entry.
    /// - Complexity: O(log n).
    mutating func rekeyTop(_ old: OrderKey, to new: OrderKey) -> Bool {
        guard let stored = entry(at: TreePlace(parent: nil, key: old)) else { return false }
        var updated = new
        updated.weight = stored.weight
        updated.context = stored.context
        let matching = matchingSubtree(stored)
        tally(stored, rows: Int(stored.weight), matching: matching, sign: -1)
        top.replace(stored, with: updated)
        tally(updated, rows: Int(updated.weight), matching: matching, sign: 1)
        return true
    }

    /// Removes the entry at `place` (its entries below stay, keyed by its id). The caller keeps the tallies.
    private mutating func remove(at place: TreePlace) -> OrderKey? {
        guard let stored = entry(at: place) else { return nil }
        if let parent = place.parent {
            below[parent]!.remove(stored)
            if below[parent]!.isEmpty { below[parent] = nil }
        } else {
            top.remove(stored)
        }
        entryCount -= 1
        if !stored.context { matchingCount -= 1 }
        return stored
    }

    /// Inserts an entry. The caller keeps the tallies.
    private mutating func insert(_ key: OrderKey, under parent: ItemID?) {
        if let parent {
            below[parent, default: OrderedIndex()].insert(key)
        } else {
            top.insert(key)
        }
        entryCount += 1
        if !key.context { matchingCount += 1 }
    }

    /// Adds (`sign` 1) or takes away (-1) `rows` and `matching` to the tally of the section of top-level `key`.
    private mutating func tally(_ key: OrderKey, rows: Int, matching: Int, sign: Int) {
        guard grouped else { return }
        let slot = slot(key)
        var tally = sections[slot] ?? SectionTally()
        tally.rows += sign * rows
        tally.matching += sign * matching
        sections[slot] = tally.rows == 0 && tally.matching == 0 ? nil : tally
    }

    /// After the entries below `start` changed (their matching entries by `matchingDelta`): walks up from it
    /// through unchanged ancestors, fixing each one's weight and matching count, creating a context entry for
    /// an ancestor that has none and removing a context entry left with nothing below; stops at an ancestor
    /// that is itself changing (it is attached later, with its own counts), and where nothing more changes.
    private mutating func propagate(from start: ItemID?, matchingDelta: Int, changing: Changing,
                                    place: (ItemID) -> TreePlace?, stop: ItemID? = nil) {
        var current = start
        var delta = matchingDelta
        while let id = current, id != stop {
            let oldBelow = matchingBelow[id] ?? 0
            let newBelow = oldBelow + delta
            matchingBelow[id] = newBelow == 0 ? nil : newBelow
            if changing.contains(id) { return }
            guard let at = place(id) else { return }
            let isTop = at.parent == nil
            if below[id] != nil {
                // An entry with entries below it stays: its weight is set in the descent that finds it.
                let weight = Int(weight(of: id))
                if let stored = updateEntry(at: at, { $0.weight = weight }) {
                    if isTop {
                        tally(stored, rows: Int(stored.weight), matching: (stored.context ? 0 : 1) + oldBelow, sign: -1)
                        var updated = stored
                        updated.weight = weight
                        tally(updated, rows: weight, matching: matchingSubtree(updated), sign: 1)
                    }
                    if weight == stored.weight && delta == 0 { return }
                    current = at.parent
                    continue
                }
            }
            guard let stored = entry(at: at) else {
                // Entries leaving from below an item with no entry: it left before them (see `apply`), and its
                // ancestors have already counted its whole subtree out. Only arriving entries make a context entry.
                guard below[id] != nil, delta > 0 else { return }
                // An ancestor with no entry gains one, as context: its subtree's matching entries are new to
                // its ancestors.
                var key = at.key
                key.context = true
                key.weight = Int(weight(of: id))
                insert(key, under: at.parent)
                delta = matchingSubtree(key)
                if isTop { tally(key, rows: Int(key.weight), matching: delta, sign: 1) }
                current = at.parent
                continue
            }
            if isTop { tally(stored, rows: Int(stored.weight), matching: (stored.context ? 0 : 1) + oldBelow, sign: -1) }
            if stored.context && below[id] == nil {
                // A context entry with nothing left below it goes.
                _ = remove(at: at)
                matchingBelow[id] = nil
                current = at.parent
                continue
            }
            let weight = Int(weight(of: id))
            var updated = stored
            updated.weight = weight
            if weight != stored.weight { replace(stored, with: updated, under: at.parent) }
            if isTop { tally(updated, rows: Int(weight), matching: matchingSubtree(updated), sign: 1) }
            if weight == stored.weight && delta == 0 { return }
            current = at.parent
        }
    }

    /// The nearest item that is `first` or an ancestor of it, and `second` or an ancestor of it; nil when they
    /// share none (or either is the top level).
    /// - Complexity: O(depth) calls of `parent`, O(depth²) comparisons.
    private func nearestCommonAncestor(_ first: ItemID?, _ second: ItemID?, parent: (ItemID) -> ItemID?) -> ItemID? {
        var chain: [ItemID] = []
        var current = first
        while let id = current, chain.count <= Limits.maxDepth {
            chain.append(id)
            current = parent(id)
        }
        current = second
        var steps = 0
        while let id = current, steps <= Limits.maxDepth {
            if chain.contains(id) { return id }
            current = parent(id)
            steps += 1
        }
        return nil
    }

    /// Changes the entry at `place` in place (`OrderedIndex.update`); returns it as it was, nil when there is none.
    /// - Complexity: O(log n).
    private mutating func updateEntry(at place: TreePlace, _ change: (inout OrderKey) -> Void) -> OrderKey? {
        if let parent = place.parent { return below[parent]?.update(place.key, change) }
        return top.update(place.key, change)
    }

    private mutating func replace(_ old: OrderKey, with new: OrderKey, under parent: ItemID?) {
        if let parent { below[parent]!.replace(old, with: new) } else { top.replace(old, with: new) }
    }

    /// Recomputes the weight of the entry at `place` and of its ancestors, up to the first that stays.
    private mutating func refreshWeight(_ place: TreePlace, place locate: (ItemID) -> TreePlace?) {
        var at: TreePlace? = place
        while let current = at, let stored = entry(at: current) {
            let weight = Int(weight(of: stored.item))
            guard weight != stored.weight else { return }
            var updated = stored
            updated.weight = weight
            replace(stored, with: updated, under: current.parent)
            if current.parent == nil { tally(stored, rows: Int(weight) - Int(stored.weight), matching: 0, sign: 1) }
            at = current.parent.flatMap(locate)
        }
    }
}
