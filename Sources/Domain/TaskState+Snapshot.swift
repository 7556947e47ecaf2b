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
        let prepared = PreparedItems(capacity: items.count)
        for item in items { try prepared.add(item, nextIdentifier: nextIdentifier) }
        return prepared
    }

    /// A state from stored lists and items prepared by `prepareRestoring`, in their stored order. Their keys are
    /// moved into the state (each `PreparedItems` can be assembled once: precondition).
    /// - Complexity: O(n) when each list's items come in manual order (as snapshots store them), else O(n log n).
    public init(restoring lists: [TaskList], prepared: [PreparedItems], nextIdentifier: UInt64, revision: UInt64) throws(DomainError) {
        let itemCount = prepared.reduce(0) { $0 + $1.count }
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
        var keyCounts = [Int](repeating: 0, count: lists.count)
        var openCounts = [Int](repeating: 0, count: lists.count)
        // Whether any item of the list has a parent: a list without subtasks needs no array of parents.
        var hasSubtasks = [Bool](repeating: false, count: lists.count)
        // The stored sequence as runs of consecutive items of one list (a snapshot has one run per list).
        var runs: [(slot: Int, count: Int)] = []
        var itemTable: [ItemID: ItemRecord] = [:]
        itemTable.reserveCapacity(itemCount)
        var uids: [String: ItemID] = [:]
        var lastList = ListID(0)
        var lastSlot = -1
        // What each item adds was summed up by the thread that prepared its chunk (runs of one list, with their
        // open counts): here each item costs its entry in the table, its record moved in (no reference counted,
        // no item read), and its id read from its key. The checks refuse the same first item as reading the
        // items one by one would.
        for chunk in prepared {
            precondition(chunk.moved == 0 && chunk.recordsTaken == 0, "PreparedItems: assembled into a state already")
            var start = 0
            var nextUID = 0
            for run in chunk.runs {
                if run.list != lastList || lastSlot < 0 {
                    guard let slot = slots[run.list] else { throw .notFound(kind: .list, ids: [run.list.rawValue]) }
                    lastList = run.list
                    lastSlot = slot
                    runs.append((slot, 0))
                }
                runs[runs.count - 1].count += run.count
                keyCounts[lastSlot] += run.count
                openCounts[lastSlot] += run.open
                if run.hasParents { hasSubtasks[lastSlot] = true }
                for index in start..<(start + run.count) {
                    let id = chunk.keys[index].item
                    guard itemTable.updateValue(chunk.takeRecord(), forKey: id) == nil else {
                        throw .refused(reason: "identifierUsed", message: "item \(id) is stored twice")
                    }
                    if nextUID < chunk.uids.count && chunk.uids[nextUID].index == index {
                        let uid = chunk.uids[nextUID].uid
                        nextUID += 1
                        if let holder = uids.updateValue(id, forKey: uid) {
                            throw .refused(reason: "uidTaken", message: "item \(id): uid: \"\(uid)\" is already item \(holder)")
                        }
                    }
                }
                start += run.count
            }
        }
        for list in lists where itemTable[ItemID(list.id.rawValue)] != nil {
            throw .refused(reason: "identifierUsed", message: "item i\(list.id.rawValue) has the id of list \(list.id)")
        }

        // Each list's keys, moved (not copied: no reference counting) out of the chunks run by run. A buffer is
        // set to nil once its keys are handed on; the rest are released here if a check below refuses the state.
        var keysByList: [UnsafeMutableBufferPointer<OrderKey>?] = keyCounts.map { UnsafeMutableBufferPointer.allocate(capacity: $0) }
        defer {
            for case let keys? in keysByList {
                _ = keys.deinitialize()
                keys.deallocate()
            }
        }
        var filled = [Int](repeating: 0, count: lists.count)
        var chunkIndex = 0
        for run in runs {
            var left = run.count
            while left > 0 {
                let chunk = prepared[chunkIndex]
                let moved = min(left, chunk.count - chunk.moved)
                if moved > 0 {
                    let target = keysByList[run.slot]!.baseAddress! + filled[run.slot]
                    target.moveInitialize(from: chunk.keys.baseAddress! + chunk.moved, count: moved)
                    chunk.moved += moved
                    filled[run.slot] += moved
                    left -= moved
                }
                if chunk.moved == chunk.count { chunkIndex += 1 }
            }
        }

        var manualOrders: [ListID: TreeOrder] = [:]
        manualOrders.reserveCapacity(lists.count)
        var openCountsByList: [ListID: Int] = [:]
        openCountsByList.reserveCapacity(lists.count)
        var subtasks: [ItemID: SubtaskCount] = [:]
        for (slot, list) in lists.enumerated() {
            let tie = { (key: OrderKey) -> DomainError in
                .refused(reason: "positionTaken",
                         message: "item \(key.item): another item of list \(list.id) already has position \(key.position)")
            }
            let buffer = keysByList[slot]!
            keysByList[slot] = nil
            openCountsByList[list.id] = openCounts[slot]
            guard hasSubtasks[slot] else {
                defer { buffer.deallocate() }
                manualOrders[list.id] = try TreeOrder(buildingTopLevel: buffer, tie: tie)
                continue
            }
            let keys = Array(unsafeUninitializedCapacity: buffer.count) { target, initialized in
                target.baseAddress!.moveInitialize(from: buffer.baseAddress!, count: buffer.count)
                initialized = buffer.count
            }
            buffer.deallocate()
            let parents = keys.map { $0.record!.item.parent }
            for key in keys {
                let record = key.record!
                guard let parent = record.item.parent else { continue }
                guard parent != record.item.id else {
                    throw .refused(reason: "cycle", message: "item \(record.item.id) cannot be its own subtask")
                }
                subtasks[parent, default: SubtaskCount()].add(1, open: record.item.done ? 0 : 1)
            }
            manualOrders[list.id] = try TreeOrder(building: consume keys, parents: parents, tie: tie)
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

/// Stored items validated and boxed by `TaskState.prepareRestoring` (or added one by one), ready to be
/// assembled into a state: their keys and records are moved out of it then, not copied.
///
/// While it is filled (on the thread decoding its chunk, the items still in the cache) it sums up what the state
/// needs of each item: runs of items of one list, with how many are open and whether any has a parent, and the uids.
///
/// `@unchecked Sendable`: filled by one thread, then handed to the one that assembles the state, which alone
/// moves the keys out; nothing reads it from two threads at once.
public final class PreparedItems: @unchecked Sendable {
    /// A run of consecutive items of one list.
    struct Run {
        var list: ListID
        var count: Int
        /// Items of the run not done.
        var open: Int
        /// Whether an item of the run has a parent.
        var hasParents: Bool
    }

    /// Room for the keys; the first `filled` are initialized, and of those the first `moved` moved out already.
    let keys: UnsafeMutableBufferPointer<OrderKey>
    /// A second reference to each key's record, for the state's item table; the first `recordsTaken` moved out.
    private let records: UnsafeMutableBufferPointer<ItemRecord>
    private var filled = 0
    /// How many keys from the start the state being assembled has moved out.
    var moved = 0
    /// How many records from the start `takeRecord` has handed on.
    private(set) var recordsTaken = 0
    /// The items as runs of one list, in order.
    private(set) var runs: [Run] = []
    /// The items that have a uid: their index and uid, in order.
    private(set) var uids: [(index: Int, uid: String)] = []

    /// Room for `capacity` items.
    public init(capacity: Int) {
        keys = UnsafeMutableBufferPointer.allocate(capacity: capacity)
        records = UnsafeMutableBufferPointer.allocate(capacity: capacity)
    }

    deinit {
        if filled > moved { _ = UnsafeMutableBufferPointer(rebasing: keys[moved..<filled]).deinitialize() }
        if filled > recordsTaken { _ = UnsafeMutableBufferPointer(rebasing: records[recordsTaken..<filled]).deinitialize() }
        keys.deallocate()
        records.deallocate()
    }

    /// How many items.
    public var count: Int { filled }

    /// The next record, moved out (precondition: one is left).
    func takeRecord() -> ItemRecord {
        precondition(recordsTaken < filled, "PreparedItems: no record left")
        recordsTaken += 1
        return (records.baseAddress! + recordsTaken - 1).move()
    }

    /// Validates a stored item (as `TaskState.validate`, and its id below `nextIdentifier`) and adds it, boxed
    /// as the state keeps it. Precondition: fewer than `capacity` items so far.
    /// - Throws: the item's refusal (nothing is added).
    /// - Complexity: O(the item's size).
    public func add(_ item: consuming Item, nextIdentifier: UInt64) throws(DomainError) {
        precondition(filled < keys.count, "PreparedItems: more items than its capacity")
        try TaskState.validate(item)
        try TaskState.checkStored(item.id.rawValue, name: "item \(item.id)", below: nextIdentifier)
        let list = item.list
        let open = item.done ? 0 : 1
        let hasParent = item.parent != nil
        if let uid = item.uid { uids.append((filled, uid)) }
        let record = ItemRecord(item)
        var key = OrderKey(manualPosition: record.item.position, item: record.item.id)
        key.record = record
        keys.initializeElement(at: filled, to: key)
        records.initializeElement(at: filled, to: record)
        filled += 1
        if let last = runs.indices.last, runs[last].list == list {
            runs[last].count += 1
            runs[last].open += open
            runs[last].hasParents = runs[last].hasParents || hasParent
        } else {
            runs.append(Run(list: list, count: 1, open: open, hasParents: hasParent))
        }
    }
}
