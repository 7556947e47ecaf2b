// Duplicating items: the mutations that copy items, each right after its original.

extension TaskState {
    /// The mutations that copy the items `ids`, in one group: the copy of `ids[k]` gets the identifier
    /// `firstIdentifier + k` and goes right after its original (and the original's subtasks) in the original's list,
    /// as its next sibling (before the sibling that follows the original, so copies of neighbours interleave: a, a',
    /// b, b'). A copy is of the item alone, not of its subtasks. A copy has the original's title, notes, due, repeat rule (not its history),
    /// priority, tags, alerts and extras (not its uid: it is another task, the file's task is the original); it is not
    /// done, and it is created and modified at `time`.
    /// - Throws: `notFound` naming every unknown id (nothing is copied).
    /// - Complexity: O(k log n) for k items.
    public func duplicates(of ids: [ItemID], firstIdentifier: UInt64, at time: Timestamp) throws(DomainError) -> [Mutation] {
        let originals = try existingItems(ids)
        var mutations: [Mutation] = []
        mutations.reserveCapacity(originals.count)
        for (offset, original) in originals.enumerated() {
            let fields = ItemFields(title: original.title, notes: original.notes, done: false, due: original.due,
                                    priority: original.priority, tags: original.tags, repeatRule: original.repeatRule,
                                    alerts: original.alerts, extras: original.extras)
            mutations.append(.createItem(id: ItemID(firstIdentifier + UInt64(offset)), list: original.list, fields: fields,
                                         before: item(after: original)?.id, parent: original.parent.map { .set($0) }, at: time))
        }
        return mutations
    }

    /// The sibling just after `item` in its list's manual order; nil when it is the last of its siblings.
    /// - Complexity: O(log n).
    func item(after item: Item) -> Item? {
        manualOrders[item.list]?.siblings(under: item.parent)?.key(after: OrderKey(manual: item))?.record?.item
    }
}
