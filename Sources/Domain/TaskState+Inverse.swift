// Inverse: the mutations that undo a recorded group of changes, refused when anything it touched changed since.

extension TaskState {
    /// The group of mutations that puts back, now, the values `changes` replaced: undo is the inverse of what a
    /// group changed, redo the inverse of what the undo changed.
    ///
    /// - An item the group created is deleted; one it deleted comes back with the same id; one it updated or moved
    ///   gets back every old field, its old list and its old position. A list likewise (a deleted list comes back
    ///   with all its items, which `changes` lists as deleted); a list the group created is deleted.
    /// - Every restored item gets revision (current revision, or the last one `changes` knows) + 1 and
    ///   `modifiedAt == time`; `createdAt`, `completedAt` and the other fields are the old ones.
    /// - A restored item or list whose old position another one (not touched by `changes`) has taken since
    ///   goes just before that one instead, so positions stay unique. A list `changes` updated without moving it
    ///   keeps its current position (it may have been moved since: that does not stop the undo).
    /// - The mutations carry all of that (`restoreItems`, `restoreLists` hold whole values): replaying them
    ///   elsewhere gives the same state. They come in this order: `deleteItems` (the created items), `deleteList`
    ///   (each created list, with the items moved into it), one `restoreLists`, one `restoreItems`.
    ///
    /// "Changed since" compares content: every field of an item but `revision` and `modifiedAt` (which undo and
    /// redo advance), every field of a list (but its position, when `changes` did not move it).
    /// - Parameters:
    ///   - changes: what one group changed (`Applied.changes`), recorded when it was applied.
    ///   - time: the time of the undo or redo: the `modifiedAt` of every restored item.
    /// - Returns: the group to apply with `Engine.apply`; empty when `changes` is.
    /// - Throws: `refused` naming the first item or list that stops it, with reason `changedSince` (its value is
    ///   not the recorded new one, it exists again after being deleted, or a list the group created holds items the
    ///   group did not put there), `deletedSince` (deleted since), or `listDeleted` (the list it is in or must go
    ///   back to was deleted since). Nothing is computed further, nothing is applied.
    /// - Complexity: O(k log n) for k items and lists in `changes`.
    public func inverse(of changes: Changes, at time: Timestamp) throws(DomainError) -> [Mutation] {
        try checkUnchanged(changes)
        try checkUnchangedSmartLists(changes)
        // Deleting a created item deletes its subtree: refused when subtasks were added to it since.
        let touched = Set(changes.items.map(\.id))
        // So does sending an item back to another list (its subtree follows it): refused too when it gained subtasks,
        // which would be left behind in a list without their parent.
        for change in changes.items where change.old == nil || change.old?.list != items[change.id]?.item.list {
            try forEachDescendant(of: change.id) { descendant throws(DomainError) in
                guard touched.contains(descendant.id) else {
                    throw .refused(reason: "changedSince", message: "item \(change.id) has gained subtask \(descendant.id) since")
                }
            }
        }
        var mutations: [Mutation] = []
        // Deleting a created item deletes its subtree: name only the created items whose parent was not created too,
        // so no chunk names an item a chunk before it deleted already.
        let createdIDs = Set(changes.items.filter { $0.old == nil }.map(\.id))
        let created = changes.items.filter { $0.old == nil && !($0.new?.parent.map(createdIDs.contains) ?? false) }.map(\.id)
        for start in stride(from: 0, to: created.count, by: Limits.idsPerMutation) {
            mutations.append(.deleteItems(ids: Array(created[start..<min(start + Limits.idsPerMutation, created.count)])))
        }
        // Deleting a created list also deletes the items moved into it; `restoreItems` brings those back.
        for change in changes.lists where change.old == nil {
            mutations.append(.deleteList(id: change.id))
        }
        let lists = restoredLists(changes)
        if !lists.isEmpty { mutations.append(.restoreLists(lists: lists)) }
        let items = restoredItems(changes, at: time)
        if !items.isEmpty { mutations.append(.restoreItems(items: items)) }
        for change in changes.smartLists where change.old == nil {
            mutations.append(.deleteSmartList(id: change.id))
        }
        let smartLists = changes.smartLists.compactMap { change -> SmartList? in
            guard var old = change.old else { return nil }
            if let new = change.new, new.position == old.position, let current = self.smartLists[change.id] {
                old.position = current.position
            }
            return old
        }
        if !smartLists.isEmpty { mutations.append(.restoreSmartLists(smartLists: smartLists)) }
        return mutations
    }

    /// Throws the first reason the state no longer holds the smart lists `changes` left.
    private func checkUnchangedSmartLists(_ changes: Changes) throws(DomainError) {
        let returning = Set(changes.lists.filter { $0.new == nil }.map(\.id))
        for change in changes.smartLists {
            let current = smartLists[change.id]
            if let new = change.new {
                guard let current else {
                    throw .refused(reason: "deletedSince", message: "smart list \(change.id) was deleted since")
                }
                let kept = change.old.map { $0.position == new.position } ?? false
                var moved = current
                moved.position = new.position
                guard current == new || (kept && moved == new) else {
                    throw .refused(reason: "changedSince", message: "smart list \(change.id) was changed since")
                }
            } else if current != nil {
                throw .refused(reason: "changedSince", message: "smart list \(change.id) was restored since")
            }
            for list in change.old?.rule.lists ?? [] where lists[list] == nil && !returning.contains(list) {
                throw .refused(reason: "listDeleted", message: "list \(list) of smart list \(change.id) was deleted since")
            }
        }
    }

    /// Throws the first reason the state no longer holds what `changes` left.
    private func checkUnchanged(_ changes: Changes) throws(DomainError) {
        var returning = Set<ListID>()
        for change in changes.lists {
            let current = lists[change.id]
            if let new = change.new {
                guard let current else {
                    throw .refused(reason: "deletedSince", message: "list \(change.id) was deleted since")
                }
                // A list the group did not move (renamed, recolored) may have been moved since: its place is not
                // what the group changed (and which lists a later `moveLists` repositions is its own choice).
                let kept = change.old.map { $0.position == new.position } ?? false
                guard current == new || (kept && current.hasSameFields(as: new)) else {
                    throw .refused(reason: "changedSince", message: "list \(change.id) was changed since")
                }
            } else {
                guard current == nil else {
                    throw .refused(reason: "changedSince", message: "list \(change.id) was restored since")
                }
                returning.insert(change.id)
            }
        }
        var arriving: [ListID: Int] = [:]
        for change in changes.items {
            let current = items[change.id]?.item
            if let new = change.new {
                guard let current else {
                    if lists[new.list] == nil {
                        throw .refused(reason: "listDeleted", message: "list \(new.list) of item \(change.id) was deleted since")
                    }
                    throw .refused(reason: "deletedSince", message: "item \(change.id) was deleted since")
                }
                guard current.hasSameContent(as: new) else {
                    throw .refused(reason: "changedSince", message: "item \(change.id) was changed since")
                }
                arriving[new.list, default: 0] += 1
            } else if current != nil {
                throw .refused(reason: "changedSince", message: "item \(change.id) was restored since")
            }
            if let old = change.old, lists[old.list] == nil, !returning.contains(old.list) {
                throw .refused(reason: "listDeleted", message: "list \(old.list) of item \(change.id) was deleted since")
            }
        }
        for change in changes.lists where change.old == nil && itemCount(in: change.id) != arriving[change.id] ?? 0 {
            throw .refused(reason: "changedSince", message: "list \(change.id) holds items added since")
        }
    }

    /// The old values of the lists `changes` updated, moved or deleted, each at a position no other list keeps: a
    /// list `changes` did not move keeps its current position.
    private func restoredLists(_ changes: Changes) -> [TaskList] {
        var restored = changes.lists.compactMap { change -> TaskList? in
            guard var old = change.old else { return nil }
            if let new = change.new, new.position == old.position, let current = lists[change.id] {
                old.position = current.position
            }
            return old
        }
        // Every list `changes` touched that exists now is deleted or restored: its position is free.
        let moving = Set(changes.lists.map(\.id))
        var floor: Position?
        for slot in restored.indices.sorted(by: { restored[$0].position < restored[$1].position }) {
            var probe = restored[slot]
            probe.id = ListID(0)
            let order = listOrder
            restored[slot].position = TaskState.unclaimed(
                probe.position, floor: floor, from: order.insertionRank(of: ListOrderKey(probe)), count: order.count
            ) { rank in
                let key = order.key(at: rank)
                return (key.position, !moving.contains(key.list))
            }
            floor = restored[slot].position
        }
        return restored
    }

    /// The old values of the items `changes` updated, moved or deleted, with their new revision and time,
    /// each at a position no other item of its list keeps.
    private func restoredItems(_ changes: Changes, at time: Timestamp) -> [Item] {
        var restored: [Item] = []
        // Every item `changes` touched that exists now is deleted or restored: its position is free.
        var moving = Set<ItemID>()
        for change in changes.items {
            if change.new != nil { moving.insert(change.id) }
            guard var item = change.old else { continue }
            item.revision = (items[change.id]?.item.revision ?? item.revision) + 1
            item.modifiedAt = time
            restored.append(item)
        }
        var slotsBySiblings: [SiblingGroup: [Int]] = [:]
        for (slot, item) in restored.enumerated() {
            slotsBySiblings[SiblingGroup(list: item.list, parent: item.parent), default: []].append(slot)
        }
        for (group, slots) in slotsBySiblings {
            // A list that comes back is empty now, and so is a parent with no subtasks: every old position is free.
            guard let siblings = manualOrders[group.list]?.siblings(under: group.parent) else { continue }
            var floor: Position?
            for slot in slots.sorted(by: { restored[$0].position < restored[$1].position }) {
                var probe = restored[slot]
                probe.id = ItemID(0)
                let rank = siblings.insertionRank(of: OrderKey(manual: probe))
                let first = rank < siblings.totalWeight ? siblings.entry(covering: rank).key : nil
                let last = siblings.isEmpty ? nil : siblings.entry(covering: siblings.totalWeight - 1).key
                restored[slot].position = TaskState.unclaimed(
                    probe.position, floor: floor, first: first, last: last,
                    next: { siblings.key(after: $0) }, previous: { siblings.key(before: $0) },
                    stays: { !moving.contains($0.item) })
                floor = restored[slot].position
            }
        }
        return restored
    }

    /// `wanted` when no sibling that stays has it; else a position just below that sibling, above every staying
    /// sibling below it and above `floor` (the last position given out among these siblings). `first` is the
    /// first sibling at or after `wanted` (nil: none), `last` the last sibling of all.
    /// - Complexity: O(log n), plus O(log n) per sibling that does not stay next to `wanted`.
    private static func unclaimed(_ wanted: Position, floor: Position?, first: OrderKey?, last: OrderKey?,
                                  next: (OrderKey) -> OrderKey?, previous: (OrderKey) -> OrderKey?,
                                  stays: (OrderKey) -> Bool) -> Position {
        var cursor = first
        var taken = false
        while let key = cursor, !taken {
            guard key.position == wanted else { break }
            taken = stays(key)
            cursor = next(key)
        }
        // Two restored entries wanting one position (changes not recorded from one state): let the restore refuse.
        guard taken, floor.map({ $0 < wanted }) ?? true else { return wanted }
        var lower = floor
        var below = first.map { previous($0) } ?? last
        while let key = below {
            if let floor, key.position <= floor { break }
            if stays(key) {
                lower = key.position
                break
            }
            below = previous(key)
        }
        return Position.between(lower, wanted)
    }

    /// `wanted` when no entry that stays in an order has it; else a position just below that entry, above
    /// every staying entry below it and above `floor` (the last position given out in this order).
    /// `rank` is the rank of the first entry at or after `wanted`; `entry` gives an entry's position and
    /// whether it stays.
    /// - Complexity: O(log n), plus O(log n) per entry that does not stay next to `wanted`.
    private static func unclaimed(_ wanted: Position, floor: Position?, from rank: Int, count: Int,
                                  entry: (Int) -> (position: Position, stays: Bool)) -> Position {
        var above = rank
        var taken = false
        while above < count, !taken {
            let (position, stays) = entry(above)
            guard position == wanted else { break }
            taken = stays
            above += 1
        }
        // Two restored entries wanting one position (changes not recorded from one state): let the restore refuse.
        guard taken, floor.map({ $0 < wanted }) ?? true else { return wanted }
        var lower = floor
        var below = rank - 1
        while below >= 0 {
            let (position, stays) = entry(below)
            if let floor, position <= floor { break }
            if stays {
                lower = position
                break
            }
            below -= 1
        }
        return Position.between(lower, wanted)
    }
}

/// The subtasks of one parent (nil: the top level) in one list: the items whose positions must differ.
struct SiblingGroup: Hashable {
    var list: ListID
    var parent: ItemID?
}

extension TaskList {
    /// Whether the two hold the same values in every field but `position`.
    func hasSameFields(as other: TaskList) -> Bool {
        var other = other
        other.position = position
        return self == other
    }
}

extension Item {
    /// Whether the two hold the same values in every field but `revision` and `modifiedAt`, the two fields that
    /// undo and redo advance.
    func hasSameContent(as other: Item) -> Bool {
        var other = other
        other.revision = revision
        other.modifiedAt = modifiedAt
        return self == other
    }
}

extension Engine {
    /// The group of mutations that undoes `changes` now: see `TaskState.inverse(of:at:)`. Apply it with `apply`;
    /// the inverse of the changes that returns is the redo.
    /// - Throws: `refused` with reason `changedSince`, `deletedSince` or `listDeleted`; nothing changes.
    /// - Complexity: O(k log n) for k items and lists in `changes`.
    public func inverse(of changes: Changes, at time: Timestamp) throws(DomainError) -> [Mutation] {
        try state.inverse(of: changes, at: time)
    }
}
