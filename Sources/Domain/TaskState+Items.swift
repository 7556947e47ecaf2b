// Item mutations: create, update, delete and move items, each validating everything before it changes anything.

extension TaskState {
    mutating func createItem(_ id: ItemID, in list: ListID, _ fields: ItemFields, before: ItemID?,
                             at time: Timestamp, log: inout ChangeLog) throws(DomainError) {
        let fields = try Validation.fields(fields)
        _ = try existingList(list)
        let anchor = try before.map { id throws(DomainError) in try existingRecord(id) }
        if let anchor, anchor.item.list != list {
            throw .refused(reason: "beforeInOtherList", message: "before: item \(anchor.item.id) is not in list \(list)")
        }
        try claim(id.rawValue, field: "id")
        let (lower, upper) = manualGap(in: list, before: anchor)
        let item = Item(id: id, list: list, fields: fields, position: Position.between(lower, upper), at: time)
        put(id, item, log: &log)
    }

    mutating func updateItems(_ ids: [ItemID], _ patch: ItemPatch, at time: Timestamp,
                              log: inout ChangeLog) throws(DomainError) {
        let patch = try Validation.patch(patch)
        let ids = try Validation.identifiers(ids, field: "ids")
        for item in try existingItems(ids) {
            let updated = TaskState.patched(item, patch, at: time)
            if updated != item { put(item.id, updated, log: &log) }
        }
    }

    mutating func deleteItems(_ ids: [ItemID], log: inout ChangeLog) throws(DomainError) {
        let ids = try Validation.identifiers(ids, field: "ids")
        _ = try existingItems(ids)
        for id in ids { put(id, nil, log: &log) }
    }

    mutating func moveItems(_ ids: [ItemID], toList: ListID?, before: ItemID?, at time: Timestamp,
                            log: inout ChangeLog) throws(DomainError) {
        let ids = try Validation.identifiers(ids, field: "ids")
        let moved = try existingItems(ids)
        if let toList { _ = try existingList(toList) }
        let anchor = try before.map { id throws(DomainError) in try existingRecord(id) }
        let movedIDs = Set(ids)
        if let anchor, movedIDs.contains(anchor.item.id) {
            throw .refused(reason: "beforeInBlock", message: "before: item \(anchor.item.id) is one of the items moved")
        }
        let destination: ListID
        if let toList {
            destination = toList
        } else if let anchor {
            destination = anchor.item.list
        } else if moved.allSatisfy({ $0.list == moved[0].list }) {
            destination = moved[0].list
        } else {
            throw .refused(reason: "ambiguousList", message: "list: the items are in several lists; name the destination list")
        }
        if let anchor, anchor.item.list != destination {
            throw .refused(reason: "beforeInOtherList", message: "before: item \(anchor.item.id) is not in list \(destination)")
        }
        let ordered = blockOrder(moved)
        // A block already where it would go changes nothing (its items keep their positions and revisions).
        guard !isInPlace(ordered, in: destination, before: anchor) else { return }
        let (lower, upper) = manualGap(in: destination, before: anchor, excluding: movedIDs)
        let positions = Position.between(lower, upper, count: ordered.count)
        for (item, position) in zip(ordered, positions) {
            var updated = item
            updated.list = destination
            updated.position = position
            updated.modifiedAt = time
            updated.revision += 1
            put(item.id, updated, log: &log)
        }
    }

    /// Whether `block` (in its current order) is already a run of consecutive items of `list`'s manual order
    /// followed by `anchor` (nil: ending the list): moving it there would leave the order as it is.
    /// - Complexity: O(k log n) for k items in the block.
    private func isInPlace(_ block: [Item], in list: ListID, before anchor: ItemRecord?) -> Bool {
        guard let first = block.first, block.allSatisfy({ $0.list == list }), let order = manualOrders[list],
              let start = order.rank(of: OrderKey(manual: first)) else { return false }
        for (offset, item) in block.enumerated().dropFirst() where order.key(at: start + offset).item != item.id {
            return false
        }
        let next = start + block.count
        guard let anchor else { return next == order.count }
        return next < order.count && order.key(at: next).item == anchor.item.id
    }

    /// The items in their current order: by their list's place among lists, then by manual position.
    private func blockOrder(_ items: [Item]) -> [Item] {
        guard items.count > 1 else { return items }
        var listRanks: [ListID: Int] = [:]
        for item in items where listRanks[item.list] == nil {
            listRanks[item.list] = listOrder.rank(of: ListOrderKey(lists[item.list]!))!
        }
        return items.sorted { lhs, rhs in
            let left = listRanks[lhs.list]!
            let right = listRanks[rhs.list]!
            return left != right ? left < right : OrderKey(manual: lhs) < OrderKey(manual: rhs)
        }
    }

    /// `item` with `patch` applied; its time and revision advance only if something changed.
    static func patched(_ item: Item, _ patch: ItemPatch, at time: Timestamp) -> Item {
        var updated = item
        if let title = patch.title { updated.title = title }
        if let notes = patch.notes { updated.notes = notes }
        if let done = patch.done, done != item.done {
            updated.done = done
            updated.completedAt = done ? time : nil
        }
        if let due = patch.due { updated.due = due.value }
        if let priority = patch.priority { updated.priority = priority }
        if let tags = patch.tags { updated.tags = tags }
        // Text is stored as given: a new Unicode spelling of the same text is a change too.
        if updated != item || !Validation.spelledAlike(updated, item) {
            updated.modifiedAt = time
            updated.revision += 1
        }
        return updated
    }
}
