// Restore mutations: lists and items stored back exactly as a recorded change had them (what undo and redo apply).

extension TaskState {
    /// Stores each list as given (a deleted one comes back empty), then checks that no two lists share a position.
    /// - Complexity: O(k log n) for k lists.
    mutating func restoreLists(_ restored: [TaskList], log: inout ChangeLog) throws(DomainError) {
        for list in restored {
            try Validation.listFields(ListFields(name: list.name, color: list.color, icon: list.icon))
            try Validation.position(list.position)
            if lists[list.id] == nil {
                try checkReturning(list.id.rawValue, name: "list \(list.id)",
                                   heldByOtherKind: items[ItemID(list.id.rawValue)] != nil)
            }
            putList(list.id, list, log: &log)
        }
        for list in restored {
            let stored = lists[list.id]!
            let rank = listOrder.rank(of: ListOrderKey(stored))!
            if TaskState.neighbourShares(stored.position, rank: rank, in: listOrder, position: \.position) {
                throw .refused(reason: "positionTaken",
                               message: "list \(list.id): another list already has position \(stored.position)")
            }
        }
    }

    /// Stores each item as given (a deleted one comes back), then checks that no two items of a list share a position.
    /// Its uid and extras come back with it (two items left with one uid refuse the group: `TaskState.apply`).
    /// - Complexity: O(k log n) for k items.
    mutating func restoreItems(_ restored: [Item], log: inout ChangeLog) throws(DomainError) {
        for item in restored {
            try TaskState.validate(item)
            _ = try existingList(item.list)
            if let current = items[item.id]?.item {
                guard item.revision > current.revision else {
                    throw .refused(reason: "changedSince",
                                   message: "item \(item.id) is at revision \(current.revision), later than the restored revision \(item.revision)")
                }
            } else {
                try checkReturning(item.id.rawValue, name: "item \(item.id)",
                                   heldByOtherKind: lists[ListID(item.id.rawValue)] != nil)
            }
            put(item.id, item, log: &log)
        }
        for item in restored {
            let stored = items[item.id]!.item
            try checkPositionFree(stored, name: "item \(item.id)")
            try checkParent(of: stored)
        }
    }

    /// Refuses an item (stored already) when a sibling has its position.
    /// - Complexity: O(log n).
    func checkPositionFree(_ stored: Item, name: String) throws(DomainError) {
        let siblings = manualOrders[stored.list]!.siblings(under: stored.parent)!
        let key = OrderKey(manual: stored)
        if siblings.key(before: key)?.position == stored.position || siblings.key(after: key)?.position == stored.position {
            throw .refused(reason: "positionTaken",
                           message: "\(name): another item of list \(stored.list) already has position \(stored.position)")
        }
    }

    /// Refuses an item whose parent is missing, in another list, its own ancestor, or too deep.
    func checkParent(of item: Item) throws(DomainError) {
        guard let parentID = item.parent else { return }
        guard let parent = items[parentID]?.item else { throw .notFound(kind: .item, ids: [parentID.rawValue]) }
        guard parent.list == item.list else {
            throw .refused(reason: "parentInOtherList", message: "parent: item \(parentID) is not in list \(item.list)")
        }
        var depth = 1
        var current = parent.parent
        while let id = current {
            guard id != item.id else {
                throw .refused(reason: "cycle", message: "parent: item \(item.id) would be its own ancestor")
            }
            depth += 1
            guard depth <= Limits.maxDepth else {
                throw .refused(reason: "tooDeep", message: "parent: item \(item.id) would be deeper than \(Limits.maxDepth)")
            }
            current = items[id]?.item.parent
        }
    }

    /// Refuses to bring back an id that no deleted record of this kind can have had: one never handed out,
    /// or one a record of the other kind holds (lists and items draw from one counter).
    private func checkReturning(_ raw: UInt64, name: String, heldByOtherKind: Bool) throws(DomainError) {
        guard raw > 0, raw < nextIdentifier, !heldByOtherKind else {
            throw .refused(reason: "identifierUnused", message: "\(name) cannot be restored: its id was never used for one")
        }
    }

    /// Whether the entry just before or just after `rank` in `order` has `position` too.
    private static func neighbourShares<Key: IndexKey>(_ position: Position, rank: Int, in order: OrderedIndex<Key>,
                                             position keyPosition: (Key) -> Position) -> Bool {
        (rank > 0 && keyPosition(order.key(at: rank - 1)) == position)
            || (rank + 1 < order.count && keyPosition(order.key(at: rank + 1)) == position)
    }

    /// Checks a restored item's fields as `createItem` would, plus what only a whole item carries.
    static func validate(_ item: Item) throws(DomainError) {
        try Validation.title(item.titleText)
        try Validation.notes(item.notes)
        try Validation.due(item.due)
        guard try Validation.tags(item.tags) == item.tags else {
            throw .invalidField(field: "tags", problem: "must be trimmed and without duplicates")
        }
        guard try Validation.alerts(item.alerts) == item.alerts else {
            throw .invalidField(field: "alerts", problem: "must be without duplicates")
        }
        guard item.parent != item.id else {
            throw .refused(reason: "cycle", message: "parent: item \(item.id) cannot be its own subtask")
        }
        guard item.done == (item.completedAt != nil) else {
            throw .invalidField(field: "completedAt", problem: "must be set exactly when the item is done")
        }
        try Validation.position(item.position)
        try Validation.repeats(item)
        guard item.occurrences.completed >= 0, item.occurrences.skipped >= 0,
              item.occurrences.recent.count <= min(Occurrences.recentLimit, item.occurrences.used) else {
            throw .invalidField(field: "occurrences", problem: "must count at least the recent occurrences it keeps")
        }
        try Validation.uid(item.uid)
        try Validation.extras(item.extras)
    }
}

extension Validation {
    /// A position read from outside (a restore) must have the shape `Position` makes.
    static func position(_ position: Position) throws(DomainError) {
        guard position.isWellFormed else {
            throw .invalidField(field: "position", problem: "must be a position key this server made")
        }
    }
}
