// TaskState: the lists and items, their manual orders and counts, and the atomic application of mutation groups.

/// All lists and items, with each list's manual order and counts kept current.
///
/// A value type: copying it is O(1), but the first mutation of a shared copy copies its storage
/// (O(n)); keep one and mutate it in place. It changes only through `apply`.
public struct TaskState: Sendable {
    /// Every item, by id, each in the record its list's manual order shares.
    private(set) var items: [ItemID: ItemRecord] = [:]
    /// Every list, by id.
    public private(set) var lists: [ListID: TaskList] = [:]
    /// Every smart list, by id (few: listed in order by sorting them, `orderedSmartLists`).
    public internal(set) var smartLists: [SmartListID: SmartList] = [:]
    /// The lowest id a new list or item may take: one past every id ever applied, so ids are never reused.
    public private(set) var nextIdentifier: UInt64 = 1
    /// How many groups of mutations have changed something (a group that changes nothing leaves it).
    public private(set) var revision: UInt64 = 0

    /// The manual order of lists.
    private(set) var listOrder = OrderedIndex<ListOrderKey>()
    /// Each list's items in manual tree order (each among its siblings by ascending `OrderKey(manual:)`).
    private(set) var manualOrders: [ListID: TreeOrder] = [:]
    /// Each list's number of items not done.
    private var openCounts: [ListID: Int] = [:]
    /// The number of direct subtasks, and of those not done, of each item that has some.
    private(set) var subtasks: [ItemID: SubtaskCount] = [:]
    /// The reminders that have fired (`TaskState+Reminders.swift`).
    var reminderTable = ReminderTable()
    /// The item holding each `Item.uid` (kept by `place`, so every mutation, restore and rollback keeps it).
    private(set) var uids: [String: ItemID] = [:]
    /// The further items holding a uid `uids` gives to another, while a group is being applied: a group that
    /// leaves any here is refused with `uidTaken` (so it is empty between groups).
    private var sharedUIDs: [String: [ItemID]] = [:]

    /// An empty state.
    public init() {}

    /// A state made of these parts as they are, checked by nothing: for `init(restoring:...)`, which checks them.
    init(items: [ItemID: ItemRecord], lists: [ListID: TaskList], nextIdentifier: UInt64, revision: UInt64,
         listOrder: OrderedIndex<ListOrderKey>, manualOrders: [ListID: TreeOrder], openCounts: [ListID: Int],
         subtasks: [ItemID: SubtaskCount], uids: [String: ItemID]) {
        self.items = items
        self.uids = uids
        self.lists = lists
        self.nextIdentifier = nextIdentifier
        self.revision = revision
        self.listOrder = listOrder
        self.manualOrders = manualOrders
        self.openCounts = openCounts
        self.subtasks = subtasks
    }

    /// The item with this id.
    /// - Complexity: O(1).
    public func item(_ id: ItemID) -> Item? { items[id]?.item }

    /// The item whose `uid` is `uid` (the identity it had in the file it was imported from), if any; no two items
    /// share one. Strings are compared as Swift compares them (canonically equivalent spellings are one uid).
    /// - Complexity: O(length of `uid`).
    public func item(withUID uid: String) -> Item? { uids[uid].flatMap { items[$0]?.item } }

    /// The parent of the item with this id (nil at the top level, or for no item).
    /// - Complexity: O(1).
    func parent(of id: ItemID) -> ItemID? { items[id]?.item.parent }

    /// The number of items in all lists.
    public var itemCount: Int { items.count }

    /// The lists in their manual order.
    /// - Complexity: O(number of lists).
    public var orderedLists: [TaskList] {
        listOrder.allKeys.map { lists[$0.list]! }
    }

    /// How full the leaves of `list`'s manual order are (its top level): the keys over what its leaves hold at
    /// most, 0 to 1; nil for a list with no items.
    /// - Complexity: O(n / leaf capacity).
    public func manualOrderFill(of list: ListID) -> Double? {
        guard let order = manualOrders[list], !order.top.isEmpty else { return nil }
        return order.top.leafFill
    }

    /// The number of items in `list` (0 for an unknown list).
    /// - Complexity: O(1).
    public func itemCount(in list: ListID) -> Int {
        manualOrders[list]?.entryCount ?? 0
    }

    /// The number of items in `list` that are not done (0 for an unknown list).
    /// - Complexity: O(1).
    public func openItemCount(in list: ListID) -> Int {
        openCounts[list] ?? 0
    }

    /// The items of `list` at manual ranks `range` (clamped to the list), in tree order.
    /// - Complexity: O(depth × log n + range.count).
    public func items(in list: ListID, ranks range: Range<Int>) -> [Item] {
        guard let order = manualOrders[list] else { return [] }
        return order.rows(in: range).map { $0.key.record!.item }
    }

    /// The number of direct subtasks of `id`, and of those not done.
    /// - Complexity: O(1).
    public func subtaskCount(of id: ItemID) -> SubtaskCount { subtasks[id] ?? SubtaskCount() }

    /// The depth of an item: 0 at the top level, one more per ancestor.
    /// - Complexity: O(depth).
    public func depth(of id: ItemID) -> Int {
        var depth = 0
        var current = items[id]?.item.parent
        while let parent = current {
            depth += 1
            current = items[parent]?.item.parent
        }
        return depth
    }

    /// Where an item sits in its list's manual tree order.
    /// - Complexity: O(1).
    func manualPlace(_ id: ItemID) -> TreePlace? {
        guard let item = items[id]?.item else { return nil }
        return TreePlace(parent: item.parent, key: OrderKey(manual: item))
    }

    /// Applies `mutations` in order as one group: all of them, or, when one is refused, none.
    ///
    /// Advances `revision` by one when the group succeeds and changed something.
    /// - Returns: what changed, one entry per item and list touched.
    /// - Throws: the first refusal; the state is then exactly as before.
    /// - Complexity: O(k log n) for k items touched, except deleting a list: O(items in it).
    public mutating func apply(_ mutations: [Mutation]) throws(DomainError) -> Changes {
        try apply(mutations, keepIf: { _ in true })!
    }

    /// Applies `mutations` as `apply(_:)` does, then asks `keep` whether to keep what they changed (the store
    /// writes the group there); when it says no, rolls everything back and returns nil.
    ///
    /// A group that would leave two items with one `uid` is refused with reason `uidTaken` (checked once the whole
    /// group is applied, so a group may delete an item and insert another with its uid, in either order).
    public mutating func apply(_ mutations: [Mutation], keepIf keep: (Changes) -> Bool) throws(DomainError) -> Changes? {
        let log = try applyLogged(mutations)
        let changes = log.changes()
        guard keep(changes) else {
            rollback(log)
            return nil
        }
        if !changes.isEmpty { revision += 1 }
        return changes
    }

    /// Applies a group read back from the journal at load, exactly as `apply(_:)` would (the same checks, the
    /// same revision afterwards), without summarizing it as `Changes`: no view and no client exists yet to be told.
    /// - Throws: the first refusal; the state is then exactly as before.
    /// - Complexity: O(k log n) for k items touched; a group that touched one item is summarized in O(1).
    public mutating func replay(_ mutations: [Mutation]) throws(DomainError) {
        let log = try applyLogged(mutations)
        if TaskState.changesSomething(log) { revision += 1 }
    }

    /// Applies `mutations` in order, recording what each does, and refuses a group that would leave two items with
    /// one `uid`; on any refusal rolls everything back (the state is then exactly as before) and throws it.
    private mutating func applyLogged(_ mutations: [Mutation]) throws(DomainError) -> ChangeLog {
        var log = ChangeLog(nextIdentifier: nextIdentifier)
        do throws(DomainError) {
            for mutation in mutations {
                try apply(mutation, log: &log)
            }
            if let (uid, _) = sharedUIDs.first {
                throw DomainError.refused(reason: "uidTaken", message: "uid: \"\(uid)\" is already item \(uids[uid]!)")
            }
        } catch {
            rollback(log)
            throw error
        }
        return log
    }

    /// Whether `log` changed an item, a list or a smart list (what `apply` advances the revision for): at once
    /// for a single item's entry (the journal's usual record), else from the summary `changes()` makes.
    private static func changesSomething(_ log: ChangeLog) -> Bool {
        if log.entries.count == 1, case .item(_, let old, let new) = log.entries[0] { return old != new }
        return !log.changes().isEmpty
    }

    private mutating func apply(_ mutation: Mutation, log: inout ChangeLog) throws(DomainError) {
        switch mutation {
        case .createList(let id, let fields, let before):
            try createList(id, fields, before: before, log: &log)
        case .updateList(let id, let patch):
            try updateList(id, patch, log: &log)
        case .deleteList(let id):
            try deleteList(id, log: &log)
        case .moveLists(let ids, let before):
            try moveLists(ids, before: before, log: &log)
        case .createItem(let id, let list, let fields, let before, let parent, let time):
            try createItem(id, in: list, fields, before: before, parent: parent, at: time, log: &log)
        case .updateItems(let ids, let patch, let time):
            try updateItems(ids, patch, at: time, log: &log)
        case .advanceItems(let advances, let time):
            try advanceItems(advances, at: time, log: &log)
        case .deleteItems(let ids):
            try deleteItems(ids, log: &log)
        case .moveItems(let ids, let list, let before, let parent, let time):
            try moveItems(ids, toList: list, before: before, parent: parent, at: time, log: &log)
        case .restoreLists(let restored):
            try restoreLists(restored, log: &log)
        case .restoreItems(let restored):
            try restoreItems(restored, log: &log)
        case .insertItems(let inserted):
            try insertItems(inserted, log: &log)
        case .createSmartList(let id, let fields, let before):
            try createSmartList(id, fields, before: before, log: &log)
        case .updateSmartList(let id, let patch):
            try updateSmartList(id, patch, log: &log)
        case .deleteSmartList(let id):
            try deleteSmartList(id, log: &log)
        case .moveSmartLists(let ids, let before):
            try moveSmartLists(ids, before: before, log: &log)
        case .restoreSmartLists(let restored):
            try restoreSmartLists(restored, log: &log)
        case .fireReminders(let reminders, let time):
            try fireReminders(reminders, at: time, log: &log)
        case .dismissReminder(let key, let time):
            try dismissReminder(key, at: time, log: &log)
        case .snoozeReminder(let key, let until, let time):
            try snoozeReminder(key, until: until, at: time, log: &log)
        }
    }

    // MARK: Primitives: every change goes through these, and the change log can undo each.

    /// Claims `raw` as a new id, or refuses an id already used.
    mutating func claim(_ raw: UInt64, field: String) throws(DomainError) {
        guard raw >= nextIdentifier else {
            throw .refused(reason: "identifierUsed", message: "\(field): id \(raw) is already used (next free id is \(nextIdentifier))")
        }
        nextIdentifier = raw + 1
    }

    /// Moves `nextIdentifier` past `raw` (an id `insertItems` has checked is free), if it is not already.
    mutating func reserve(_ raw: UInt64) {
        if raw >= nextIdentifier { nextIdentifier = raw + 1 }
    }

    /// Replaces item `id` (nil: absent) and records it.
    /// - Complexity: O(log n).
    mutating func put(_ id: ItemID, _ new: Item?, log: inout ChangeLog) {
        let old = place(id, new)
        log.entries.append(.item(id, old: old, new: new))
        if let new, new.done, old?.done != true { dismissReminders(of: id, log: &log) }
    }

    /// Stores `new` as item `id` (nil: removes it) in the dictionary, its list's manual order and the
    /// counts; returns the item it replaces.
    @discardableResult
    private mutating func place(_ id: ItemID, _ new: Item?) -> Item? {
        let record = new.map(ItemRecord.init)
        let old = (record.map { items.updateValue($0, forKey: id) } ?? items.removeValue(forKey: id))?.item
        let oldPlace = old.map { TreePlace(parent: $0.parent, key: OrderKey(manual: $0)) }
        let newPlace = new.map { TreePlace(parent: $0.parent, key: OrderKey(manual: $0, record: record)) }
        // The key changes even when the position does not (it holds the record).
        if let old, let new, old.list == new.list, old.parent == new.parent {
            // Among the same siblings: its weight and every ancestor's stay as they are.
            manualOrders[new.list]!.replaceAmongSiblings(oldPlace!, with: newPlace!.key)
        } else if old == nil, let new, new.parent == nil, manualOrders[new.list]!.siblings(under: id) == nil {
            // A new top-level item: nothing below it, no ancestor.
            manualOrders[new.list]!.insertTopLeaf(newPlace!.key)
        } else if let old, new == nil, old.parent == nil, manualOrders[old.list]!.siblings(under: old.id) == nil {
            manualOrders[old.list]!.removeTopLeaf(oldPlace!.key)
        } else if let old, let new, old.list == new.list {
            applyToManualOrder(of: new.list, TreeChange(id: id, old: oldPlace, oldDepth: 0, new: newPlace, newDepth: 0, matches: true))
        } else {
            if let old {
                applyToManualOrder(of: old.list, TreeChange(id: id, old: oldPlace, oldDepth: 0, new: nil, newDepth: 0, matches: true))
            }
            if let new {
                applyToManualOrder(of: new.list, TreeChange(id: id, old: nil, oldDepth: 0, new: newPlace, newDepth: 0, matches: true))
            }
        }
        if let old, !old.done { openCounts[old.list, default: 0] -= 1 }
        if let new, !new.done { openCounts[new.list, default: 0] += 1 }
        if let parent = old?.parent { subtasks[parent, default: SubtaskCount()].add(-1, open: old!.done ? 0 : -1) }
        if let parent = new?.parent { subtasks[parent, default: SubtaskCount()].add(1, open: new!.done ? 0 : 1) }
        if let parent = old?.parent, subtasks[parent]?.total == 0 { subtasks[parent] = nil }
        if old?.uid != nil || new?.uid != nil, old?.uid != new?.uid {
            if let uid = old?.uid { unindexUID(uid, of: id) }
            if let uid = new?.uid { indexUID(uid, of: id) }
        }
        return old
    }

    /// Records that item `id` holds `uid` (in `sharedUIDs` when another item holds it already).
    private mutating func indexUID(_ uid: String, of id: ItemID) {
        // One hash of the uid in the usual case (no other holder).
        if let holder = uids.updateValue(id, forKey: uid), holder != id {
            uids[uid] = holder
            sharedUIDs[uid, default: []].append(id)
        }
    }

    /// Makes room for `count` more items in the tables keyed by id and uid (an import inserts many at once), so they
    /// grow once instead of doubling their way up.
    mutating func reserveRoom(forItems count: Int) {
        items.reserveCapacity(items.count + count)
        uids.reserveCapacity(uids.count + count)
    }

    /// Records that item `id` no longer holds `uid` (another holder, if any, takes its place in `uids`).
    private mutating func unindexUID(_ uid: String, of id: ItemID) {
        if uids[uid] == id {
            if var others = sharedUIDs.removeValue(forKey: uid), let next = others.popLast() {
                uids[uid] = next
                if !others.isEmpty { sharedUIDs[uid] = others }
            } else {
                uids.removeValue(forKey: uid)
            }
        } else if var others = sharedUIDs.removeValue(forKey: uid), let slot = others.firstIndex(of: id) {
            others.remove(at: slot)
            if !others.isEmpty { sharedUIDs[uid] = others }
        }
    }

    /// Applies one item's change to `list`'s manual order. The places of the other items come from the item table,
    /// captured alone: capturing `self` would share the order being changed and copy its dictionary of subtasks.
    /// - Complexity: O(depth × log n).
    private mutating func applyToManualOrder(of list: ListID, _ change: TreeChange) {
        let items = self.items
        manualOrders[list]!.apply([change]) { id in
            guard let item = items[id]?.item, item.list == list else { return nil }
            return TreePlace(parent: item.parent, key: OrderKey(manual: item))
        }
    }

    /// Replaces list `id` (nil: absent) and records it. A list is deleted only once emptied.
    mutating func putList(_ id: ListID, _ new: TaskList?, log: inout ChangeLog) {
        let old = lists[id]
        replaceList(id, old: old, new: new)
        log.entries.append(.list(id, old: old, new: new))
    }

    private mutating func replaceList(_ id: ListID, old: TaskList?, new: TaskList?) {
        if let old { listOrder.remove(ListOrderKey(old)) }
        if let new {
            lists[id] = new
            listOrder.insert(ListOrderKey(new))
            if old == nil {
                manualOrders[id] = TreeOrder()
                openCounts[id] = 0
            }
        } else {
            lists.removeValue(forKey: id)
            manualOrders.removeValue(forKey: id)
            openCounts.removeValue(forKey: id)
        }
    }

    /// Removes every item of `list` at once and records them.
    /// - Complexity: O(items in the list).
    mutating func empty(_ list: ListID, log: inout ChangeLog) {
        let order = manualOrders[list] ?? TreeOrder()
        var removed: [Item] = []
        removed.reserveCapacity(order.entryCount)
        order.forEachEntry { key in
            let item = items.removeValue(forKey: key.item)!.item
            if let uid = item.uid { unindexUID(uid, of: item.id) }
            removed.append(item)
            subtasks[key.item] = nil
        }
        manualOrders[list] = TreeOrder()
        let openCount = openCounts[list] ?? 0
        openCounts[list] = 0
        log.entries.append(.emptied(list, order: order, items: removed, openCount: openCount))
    }

    private mutating func rollback(_ log: ChangeLog) {
        for entry in log.entries.reversed() {
            switch entry {
            case .item(let id, let old, _):
                place(id, old)
            case .list(let id, let old, let new):
                replaceList(id, old: new, new: old)
            case .smartList(let id, let old, _):
                smartLists[id] = old
            case .emptied(let list, let order, let removed, let openCount):
                manualOrders[list] = order
                openCounts[list] = openCount
                order.forEachEntry { key in items[key.item] = key.record! }
                for item in removed {
                    if let parent = item.parent { subtasks[parent, default: SubtaskCount()].add(1, open: item.done ? 0 : 1) }
                    if let uid = item.uid { indexUID(uid, of: item.id) }
                }
            case .reminder(let key, let old, _):
                reminderTable.put(key, old)
            }
        }
        nextIdentifier = log.nextIdentifier
    }

    // MARK: Lookups used by the mutations.

    /// The item, or `notFound` naming every missing id.
    func existingItems(_ ids: [ItemID]) throws(DomainError) -> [Item] {
        var found: [Item] = []
        var missing: [UInt64] = []
        for id in ids {
            if let item = items[id]?.item { found.append(item) } else { missing.append(id.rawValue) }
        }
        guard missing.isEmpty else { throw .notFound(kind: .item, ids: missing) }
        return found
    }

    /// The item's record, or `notFound`: for reading a few fields of an item without copying it whole.
    func existingRecord(_ id: ItemID) throws(DomainError) -> ItemRecord {
        guard let record = items[id] else { throw .notFound(kind: .item, ids: [id.rawValue]) }
        return record
    }

    /// The list, or `notFound`.
    func existingList(_ id: ListID) throws(DomainError) -> TaskList {
        guard let list = lists[id] else { throw .notFound(kind: .list, ids: [id.rawValue]) }
        return list
    }

    /// The positions just below and at `before` among the subtasks of `parent` (nil: the top level) in `list`'s
    /// manual order (nil `before`: after the last of them), skipping items in `excluded`.
    /// - Complexity: O(log n) in one descent, plus O(log n) per excluded neighbour beyond `before`'s leaf.
    func manualGap(in list: ListID, under parent: ItemID?, before: ItemRecord?,
                   excluding excluded: Set<ItemID> = []) -> (Position?, Position?) {
        let bound = before.map { OrderKey(manualPosition: $0.item.position, item: $0.item.id) }
        let lower = manualOrders[list]!.siblings(under: parent)?.nearestValue(below: bound) { key in
            excluded.contains(key.item) ? nil : key.position
        }
        return (lower, before?.item.position)
    }

    /// The positions just below and at `before` in the order of lists, skipping `excluded`.
    func listGap(before: TaskList?, excluding excluded: Set<ListID> = []) -> (Position?, Position?) {
        var rank = before.map { listOrder.rank(of: ListOrderKey($0))! } ?? listOrder.count
        rank -= 1
        while rank >= 0 {
            let key = listOrder.key(at: rank)
            if !excluded.contains(key.list) { return (key.position, before?.position) }
            rank -= 1
        }
        return (nil, before?.position)
    }
}

/// The direct subtasks of an item: how many, and how many are not done.
public struct SubtaskCount: Hashable, Sendable {
    /// Direct subtasks.
    public var total = 0
    /// Direct subtasks not done.
    public var open = 0

    public init(total: Int = 0, open: Int = 0) {
        self.total = total
        self.open = open
    }

    mutating func add(_ total: Int, open: Int) {
        self.total += total
        self.open += open
    }
}
