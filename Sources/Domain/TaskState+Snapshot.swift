// Snapshots: a whole state read out list by list, and built back at once from what a snapshot stored.

extension TaskState {
    /// A state holding exactly these lists and items (as a snapshot stored them), with these counters.
    ///
    /// Checks everything `restoreLists` and `restoreItems` would: every field and position well formed, ids
    /// unique across lists and items, each between 1 and `nextIdentifier - 1`, uids unique, every item's list present,
    /// no two lists and no two items of one list at one position.
    /// - Throws: `refused` with reason `identifierUsed` (an id given twice), `identifierUnused` (an id 0 or
    ///   not below `nextIdentifier`), `positionTaken`, `uidTaken` (two items with one uid); `notFound` for an
    ///   item's missing list; `invalidField`.
    /// - Complexity: O(n log n) for n lists and items; O(n) when each list's items come in manual order.
    public init(restoring lists: [TaskList], items: [Item], nextIdentifier: UInt64, revision: UInt64) throws(DomainError) {
        try self.init(restoring: lists, itemChunks: [items], nextIdentifier: nextIdentifier, revision: revision)
    }

    /// As `init(restoring:items:nextIdentifier:revision:)`, with the items in consecutive chunks (as decoded
    /// in parallel), so that they need not be copied into one array first.
    public init(restoring lists: [TaskList], itemChunks: [[Item]], nextIdentifier: UInt64, revision: UInt64) throws(DomainError) {
        var prepared: [PreparedItems] = []
        prepared.reserveCapacity(itemChunks.count)
        for items in itemChunks { prepared.append(try TaskState.prepareRestoring(items, nextIdentifier: nextIdentifier)) }
        try self.init(restoring: lists, prepared: prepared, nextIdentifier: nextIdentifier, revision: revision)
    }

    /// Validates stored items and boxes them as the state keeps them: the part of a restore that can run on
    /// several threads at once, a chunk each (`init(restoring:prepared:nextIdentifier:revision:)` assembles them).
    /// - Complexity: O(items in the chunk).
    public static func prepareRestoring(_ items: [Item], nextIdentifier: UInt64) throws(DomainError) -> PreparedItems {
        var keys: [OrderKey] = []
        keys.reserveCapacity(items.count)
        for item in items {
            try TaskState.validate(item)
            try TaskState.checkStored(item.id.rawValue, name: "item \(item.id)", below: nextIdentifier)
            keys.append(OrderKey(manual: item, record: ItemRecord(item)))
        }
        return PreparedItems(keys: keys)
    }

    /// A state from stored lists and items prepared by `prepareRestoring`, in their stored order.
    /// - Complexity: O(n) when each list's items come in manual order (as snapshots store them), else O(n log n).
    public init(restoring lists: [TaskList], prepared: [PreparedItems], nextIdentifier: UInt64, revision: UInt64) throws(DomainError) {
        let itemCount = prepared.reduce(0) { $0 + $1.keys.count }
        var listTable: [ListID: TaskList] = [:]
        listTable.reserveCapacity(lists.count)
        var listKeys: [ListOrderKey] = []
        listKeys.reserveCapacity(lists.count)
        for list in lists {
            try Validation.listFields(ListFields(name: list.name, color: list.color, icon: list.icon))
            try Validation.position(list.position)
            try TaskState.checkStored(list.id.rawValue, name: "list \(list.id)", below: nextIdentifier)
            guard listTable.updateValue(list, forKey: list.id) == nil else {
                throw .refused(reason: "identifierUsed", message: "list \(list.id) is stored twice")
            }
            listKeys.append(ListOrderKey(list))
        }
        listKeys.sort()
        for index in listKeys.indices.dropFirst() where listKeys[index - 1].position == listKeys[index].position {
            throw .refused(reason: "positionTaken",
                           message: "list \(listKeys[index].list): another list already has position \(listKeys[index].position)")
        }

        // Each list's slot in `keysByList` and `openCounts`: an item costs one lookup of its list, or none
        // when it is in the same list as the item before it (as in a snapshot).
        var slots: [ListID: Int] = [:]
        slots.reserveCapacity(lists.count)
        for (slot, list) in lists.enumerated() { slots[list.id] = slot }
        var keysByList = [[OrderKey]](repeating: [], count: lists.count)
        var openCounts = [Int](repeating: 0, count: lists.count)
        var itemTable: [ItemID: ItemRecord] = [:]
        itemTable.reserveCapacity(itemCount)
        var uids: [String: ItemID] = [:]
        var lastList = ListID(0)
        var lastSlot = -1
        for chunk in prepared {
            for key in chunk.keys {
                let item = key.record!.item
                if item.list != lastList || lastSlot < 0 {
                    guard let slot = slots[item.list] else { throw .notFound(kind: .list, ids: [item.list.rawValue]) }
                    lastList = item.list
                    lastSlot = slot
                }
                guard itemTable.updateValue(key.record!, forKey: item.id) == nil else {
                    throw .refused(reason: "identifierUsed", message: "item \(item.id) is stored twice")
                }
                if let uid = item.uid, let holder = uids.updateValue(item.id, forKey: uid) {
                    throw .refused(reason: "uidTaken", message: "item \(item.id): uid: \"\(uid)\" is already item \(holder)")
                }
                keysByList[lastSlot].append(key)
                if !item.done { openCounts[lastSlot] += 1 }
            }
        }
        for list in lists where itemTable[ItemID(list.id.rawValue)] != nil {
            throw .refused(reason: "identifierUsed", message: "item i\(list.id.rawValue) has the id of list \(list.id)")
        }

        var manualOrders: [ListID: TreeOrder] = [:]
        manualOrders.reserveCapacity(lists.count)
        var openCountsByList: [ListID: Int] = [:]
        openCountsByList.reserveCapacity(lists.count)
        var subtasks: [ItemID: SubtaskCount] = [:]
        for (slot, list) in lists.enumerated() {
            var keys: [OrderKey] = []
            swap(&keys, &keysByList[slot])
            let parents = keys.map { $0.record!.item.parent }
            for key in keys {
                let item = key.record!.item
                guard let parent = item.parent else { continue }
                guard parent != item.id else {
                    throw .refused(reason: "cycle", message: "item \(item.id) cannot be its own subtask")
                }
                subtasks[parent, default: SubtaskCount()].add(1, open: item.done ? 0 : 1)
            }
            manualOrders[list.id] = try TreeOrder(building: keys, parents: parents) { key in
                .refused(reason: "positionTaken",
                         message: "item \(key.item): another item of list \(list.id) already has position \(key.position)")
            }
            openCountsByList[list.id] = openCounts[slot]
        }
        self.init(items: itemTable, lists: listTable, nextIdentifier: nextIdentifier, revision: revision,
                  listOrder: OrderedIndex.build(sorted: listKeys), manualOrders: manualOrders, openCounts: openCountsByList,
                  subtasks: subtasks, uids: uids)
    }

    /// Every list, in manual order: what a snapshot stores of lists.
    /// - Complexity: O(number of lists).
    public var allLists: [TaskList] { orderedLists }

    /// What a snapshot stores, shared with this state rather than copied: the lists and each list's manual
    /// order (copy-on-write trees whose items are immutable records). Taking it is O(lists), and mutating the
    /// state afterwards copies only the paths it touches, never the item table, so a snapshot can be written
    /// on another thread while the state goes on changing.
    public var stored: StoredState {
        StoredState(lists: orderedLists, manualOrders: manualOrders, nextIdentifier: nextIdentifier, revision: revision,
                    itemCount: itemCount, smartLists: orderedSmartLists, reminderTable: reminderTable)
    }

    /// Calls `body` with every item: list by list in the lists' manual order, each list's items in manual order.
    /// - Complexity: O(n), without copying the items into one array.
    public func forEachItem(_ body: (Item) -> Void) {
        stored.forEachItem(body)
    }

    /// Refuses a stored id that no record can have: 0, or one not yet handed out.
    @inline(__always)
    static func checkStored(_ raw: UInt64, name: @autoclosure () -> String,
                                    below nextIdentifier: UInt64) throws(DomainError) {
        guard raw > 0, raw < nextIdentifier else {
            throw .refused(reason: "identifierUnused",
                           message: "\(name()) cannot be stored: its id is not below the next free id \(nextIdentifier)")
        }
    }

}

/// A state as a snapshot stores it: the lists in manual order, each list's items in manual order, and the
/// counters. Shares its trees with the state it came from (`TaskState.stored`).
public struct StoredState: Sendable {
    /// The lists, in manual order.
    public let lists: [TaskList]
    let manualOrders: [ListID: TreeOrder]
    public let nextIdentifier: UInt64
    public let revision: UInt64
    public let itemCount: Int
    /// The smart lists, in manual order.
    public let smartLists: [SmartList]
    /// The records of fired reminders, shared with the state.
    let reminderTable: ReminderTable

    /// The records of fired reminders, oldest last instant first.
    /// - Complexity: O(r) for r records.
    public var reminders: [Reminder] { reminderTable.all }

    /// Every item, list by list in manual order, each list's in manual tree order (a parent before its subtasks).
    /// - Complexity: O(n), reading the trees a chunk at a time.
    public func forEachItem(_ body: (Item) -> Void) {
        for list in lists {
            manualOrders[list.id]?.forEachEntry { key in body(key.record!.item) }
        }
    }
}

/// Stored items validated and boxed by `TaskState.prepareRestoring`, ready to be assembled into a state.
public struct PreparedItems: Sendable {
    let keys: [OrderKey]

    /// How many items.
    public var count: Int { keys.count }
}
