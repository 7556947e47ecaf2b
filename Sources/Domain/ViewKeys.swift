// View keys: whether an item belongs to a view order (source and filter) and its key there (section, list, sort).

/// Everything an item's key in any view order depends on: the item, its due's status on the engine's
/// day, and its list's position (its bytes: `TaskList.positionBytes`, shared by the keys that carry them).
struct Keyed: Sendable {
    var item: Item
    var status: DueStatus
    var listPosition: [UInt8]
}

/// One item's key inputs before and after a change (nil: absent). The item may be unchanged while its
/// status or its list's position changed.
struct KeyChange: Sendable {
    var id: ItemID
    var old: Keyed?
    var new: Keyed?
}

/// A list whose position a group changed. Its items' keys change only in the orders that use list positions,
/// and only there: by their `listPosition`, nothing else (their rows stay as they are).
struct ListMove: Sendable {
    var list: ListID
    /// The list's position bytes before and after (`TaskList.positionBytes`: the arrays its items' keys share).
    var old: [UInt8]
    var new: [UInt8]
    /// The number of items in the list after the group.
    var itemCount: Int
}

/// What a group changed, as the orders see it: each changed item's key inputs, then the lists whose position
/// changed (whose items are re-keyed after the item changes, in the orders that use list positions).
struct KeyChanges: Sendable {
    var items: [KeyChange]
    var listMoves: [ListMove] = []
}

/// Which order an index holds: a source, filtered, grouped and sorted.
struct IndexSpec: Hashable, Sendable {
    var source: ViewSource
    var sort: Sort
    var filter: Filter = .all
    var grouping: Grouping = .none
    /// The view whose collapsed items this order hides (its own copy); nil for the order every view without
    /// collapsed items shares.
    var owner: ViewID? = nil

    /// Hashes the source, the sort and the grouping, not the filter: the engine looks orders up on every
    /// mutation, and a filter's strings and arrays cost more to hash than they tell orders apart (equal
    /// specs still hash alike).
    /// - Complexity: O(1).
    func hash(into hasher: inout Hasher) {
        hasher.combine(source)
        hasher.combine(sort)
        hasher.combine(grouping)
        hasher.combine(owner)
    }

    /// Whether this is a list's manual ascending order of all its items, which `TaskState` always keeps.
    var isManualOrder: Bool {
        sort == .manual && filter == .all && grouping == .none && source.list != nil && owner == nil
    }

    /// This order without its owner's collapsed items: the one views without any share.
    var shared: IndexSpec {
        var spec = self
        spec.owner = nil
        return spec
    }

    /// Whether keys carry the list's position: grouped by list, or any smart group (its manual order, and
    /// the first tie-breaker of its other sorts, is the lists' order first).
    var usesListPosition: Bool { grouping == .list || source.list == nil }

    /// Whether the list's position is compared before the sort's field: sections by list, or a smart group's
    /// manual order.
    var listPositionLeads: Bool { grouping == .list || (source.list == nil && sort.field == .manual) }

    /// Whether membership or sections depend on the day.
    var dependsOnDay: Bool {
        grouping == .dueBucket || source == .today || source == .overdue
    }

    /// The key of `keyed` in this order, nil when it does not match (not in the source or filtered out).
    /// - Complexity: O(1), plus the filter's text search.
    func key(_ keyed: Keyed) -> OrderKey? {
        guard matches(keyed) else { return nil }
        return entryKey(keyed)
    }

    /// Whether the item matches: in the source and the filter.
    func matches(_ keyed: Keyed) -> Bool {
        source.contains(keyed.item, status: keyed.status) && filter.matches(keyed.item)
    }

    /// Whether the item can have an entry in this order at all (as a match or as context): it is in the list
    /// of a list's view; any item is, in a smart group.
    func inScope(_ item: Item) -> Bool {
        source.list.map { item.list == $0 } ?? true
    }

    /// The key of `keyed` among its siblings in this order, whether it matches or not: a top-level item's key
    /// carries its section and, where the order uses them, its list's position; a subtask's key does not (its
    /// siblings share its list and its parent's section).
    /// - Complexity: O(1).
    func entryKey(_ keyed: Keyed) -> OrderKey {
        var key = OrderKey(keyed.item, sort)
        guard keyed.item.parent == nil else { return key }
        if let section = grouping.section(of: keyed.item, status: keyed.status) { key.section = section.rank }
        if usesListPosition {
            key.listPosition = keyed.listPosition
            key.listLeads = listPositionLeads
            key.listDescending = grouping != .list && sort.field == .manual && sort.direction == .descending
        }
        return key
    }

    /// Where `keyed`'s entry sits in this order, nil when the item is out of its scope.
    func place(_ keyed: Keyed) -> TreePlace? {
        inScope(keyed.item) ? TreePlace(parent: keyed.item.parent, key: entryKey(keyed)) : nil
    }
}

/// What a background build needs to key items exactly as the engine does at its snapshot.
struct KeyContext: Sendable {
    var day: DayState
    var listPositions: [ListID: [UInt8]]

    func keyed(_ item: Item) -> Keyed {
        Keyed(item: item, status: day.status(of: item), listPosition: listPositions[item.list] ?? Position.initial.bytes)
    }
}

extension Engine {
    /// The key inputs of `item` now; `listPosition` (position bytes) overrides its list's current position.
    func keyed(_ item: Item, listPosition: [UInt8]? = nil) -> Keyed {
        Keyed(item: item, status: day.status(of: item),
              listPosition: listPosition ?? state.lists[item.list]?.positionBytes ?? Position.initial.bytes)
    }

    /// The key inputs of `item` as the background builds see the engine now.
    var keyContext: KeyContext {
        KeyContext(day: day, listPositions: state.lists.mapValues(\.positionBytes))
    }

    /// Whether any open view or pending build orders by list position.
    var anyOrderUsesListPosition: Bool {
        views.values.contains { $0.spec.usesListPosition } || builds.keys.contains { $0.usesListPosition }
    }

    /// The key changes of a group's changes, recording them in the day state. Items of a list whose position
    /// changed are keyed with its old position; the list is then reported in `listMoves` (only when some order
    /// uses list positions: any smart-group view, whose ties follow the lists' order, or a view grouped by list),
    /// and `propagate` re-keys its items in those orders alone.
    /// - Complexity: O(k) for k items changed. A `moveLists` repositions the side that holds fewer items
    ///   (`TaskState.moveLists`): `propagate` then pays O(m log n) for its m items in each order that uses list
    ///   positions, and nothing in the others.
    mutating func keyChanges(for changes: Changes) -> KeyChanges {
        var oldPositions: [ListID: [UInt8]] = [:]
        var moved: [ListMove] = []
        for list in changes.lists {
            guard let old = list.old else { continue }
            oldPositions[list.id] = old.positionBytes
            if let new = list.new, new.position != old.position {
                moved.append(ListMove(list: list.id, old: old.positionBytes, new: new.positionBytes,
                                      itemCount: state.itemCount(in: list.id)))
            }
        }
        var result: [KeyChange] = []
        result.reserveCapacity(changes.items.count)
        // The keys first, the day's record after: a closure reading the engine while its day changes would copy it.
        for change in changes.items {
            var old: Keyed?
            if let item = change.old { old = keyed(item, listPosition: oldPositions[item.list]) }
            var new: Keyed?
            if let item = change.new { new = keyed(item, listPosition: oldPositions[item.list]) }
            result.append(KeyChange(id: change.id, old: old, new: new))
        }
        for change in changes.items { day.record(old: change.old, new: change.new) }
        return KeyChanges(items: result, listMoves: anyOrderUsesListPosition ? moved : [])
    }
}
