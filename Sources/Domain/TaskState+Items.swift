// Item mutations: create, update, delete and move items, each validating everything before it changes anything.

extension TaskState {
    mutating func createItem(_ id: ItemID, in list: ListID, _ fields: ItemFields, before: ItemID?,
                             parent choice: Clearable<ItemID>?, at time: Timestamp, log: inout ChangeLog) throws(DomainError) {
        let parent: ItemID? = if case .set(let id)? = choice { id } else { nil }
        let fields = try Validation.fields(fields)
        _ = try existingList(list)
        try checkExist([before, parent])
        let anchor = try before.map { id throws(DomainError) in try existingRecord(id) }
        let parentRecord = try parent.map { id throws(DomainError) in try existingRecord(id) }
        if let parentRecord, parentRecord.item.list != list {
            throw .refused(reason: "parentInOtherList", message: "parent: item \(parentRecord.item.id) is not in list \(list)")
        }
        if let anchor, anchor.item.list != list {
            throw .refused(reason: "beforeInOtherList", message: "before: item \(anchor.item.id) is not in list \(list)")
        }
        if let anchor, choice != nil, anchor.item.parent != parent {
            throw .refused(reason: "beforeNotChild", message: parent.map {
                "before: item \(anchor.item.id) is not a subtask of \($0)" } ?? "before: item \(anchor.item.id) is not at the top level")
        }
        let destination = choice == nil ? anchor?.item.parent : parent
        try checkDepth(under: destination, height: 0)
        try claim(id.rawValue, field: "id")
        let (lower, upper) = manualGap(in: list, under: destination, before: anchor)
        let item = Item(id: id, list: list, fields: fields, position: Position.between(lower, upper), parent: destination,
                        at: time)
        try Validation.repeats(item)
        put(id, item, log: &log)
    }

    mutating func updateItems(_ ids: [ItemID], _ patch: ItemPatch, at time: Timestamp,
                              log: inout ChangeLog) throws(DomainError) {
        let patch = try Validation.patch(patch)
        let ids = try Validation.identifiers(ids, field: "ids")
        let named = Set(ids)
        var completed: [ItemID] = []
        for item in try existingItems(ids) {
            let updated = TaskState.patched(item, patch, at: time)
            try Validation.repeats(updated)
            if updated != item { put(item.id, updated, log: &log) }
            if patch.done == true { completed.append(item.id) }
        }
        // Completing an item completes its open descendants (those the patch named are done already).
        for id in completed {
            forEachDescendant(of: id) { descendant in
                guard !descendant.done, !named.contains(descendant.id) else { return }
                put(descendant.id, TaskState.patched(descendant, ItemPatch(done: true), at: time), log: &log)
            }
        }
    }

    mutating func deleteItems(_ ids: [ItemID], log: inout ChangeLog) throws(DomainError) {
        let ids = try Validation.identifiers(ids, field: "ids")
        let named = Set(ids)
        for item in try existingItems(ids) where !hasAncestor(of: item, in: named) {
            // A parent, then its subtree, parents before their subtasks.
            var subtree: [ItemID] = []
            forEachDescendant(of: item.id) { subtree.append($0.id) }
            put(item.id, nil, log: &log)
            for id in subtree { put(id, nil, log: &log) }
        }
    }

    mutating func moveItems(_ ids: [ItemID], toList: ListID?, before: ItemID?, parent: Clearable<ItemID>?,
                            at time: Timestamp, log: inout ChangeLog) throws(DomainError) {
        let ids = try Validation.identifiers(ids, field: "ids")
        let named = Set(ids)
        // Items inside another moved item's subtree ride along with it.
        let moved = try existingItems(ids).filter { !hasAncestor(of: $0, in: named) }
        let movedIDs = Set(moved.map(\.id))
        if let toList { _ = try existingList(toList) }
        if case .set(let id)? = parent { try checkExist([before, id]) } else { try checkExist([before]) }
        let anchor = try before.map { id throws(DomainError) in try existingRecord(id) }
        let parentRecord: ItemRecord?
        switch parent {
        case .set(let id)?: parentRecord = try existingRecord(id)
        case .clear?: parentRecord = nil
        case nil: parentRecord = anchor.flatMap { $0.item.parent.flatMap { items[$0] } }
        }
        let destination: ListID
        if let toList {
            destination = toList
        } else if let parentRecord {
            destination = parentRecord.item.list
        } else if let anchor {
            destination = anchor.item.list
        } else if moved.allSatisfy({ $0.list == moved[0].list }) {
            destination = moved[0].list
        } else {
            throw .refused(reason: "ambiguousList", message: "list: the items are in several lists; name the destination list")
        }
        if let anchor, named.contains(anchor.item.id) || hasAncestor(of: anchor.item, in: movedIDs) {
            throw .refused(reason: "beforeInBlock", message: "before: item \(anchor.item.id) is one of the items moved")
        }
        if let parentRecord, movedIDs.contains(parentRecord.item.id) || hasAncestor(of: parentRecord.item, in: movedIDs) {
            let top = movedIDs.contains(parentRecord.item.id) ? parentRecord.item.id : ancestor(of: parentRecord.item, in: movedIDs)!
            throw .refused(reason: "cycle", message: parentRecord.item.id == top
                ? "parent: item \(top) is one of the items moved; an item cannot be its own subtask"
                : "parent: item \(parentRecord.item.id) is inside the subtree of \(top), which is moved")
        }
        // A parent taken from `before` is not the request's: `before` in another list is what is wrong then.
        if parent != nil, let parentRecord, parentRecord.item.list != destination {
            throw .refused(reason: "parentInOtherList", message: "parent: item \(parentRecord.item.id) is not in list \(destination)")
        }
        if let anchor, anchor.item.list != destination {
            throw .refused(reason: "beforeInOtherList", message: "before: item \(anchor.item.id) is not in list \(destination)")
        }
        let destinationParent = parentRecord?.item.id
        if let anchor, anchor.item.parent != destinationParent {
            throw .refused(reason: "beforeNotChild", message: destinationParent.map {
                "before: item \(anchor.item.id) is not a subtask of \($0)" } ?? "before: item \(anchor.item.id) is not at the top level")
        }
        let ordered = blockOrder(moved)
        for item in ordered where depth(of: item.id) < depth(under: destinationParent) {
            // Only a block moved deeper can break the limit.
            try checkDepth(under: destinationParent, height: height(of: item.id, limit: Limits.maxDepth))
        }
        // A block already where it would go changes nothing (its items keep their positions and revisions).
        guard !isInPlace(ordered, in: destination, under: destinationParent, before: anchor) else { return }
        let (lower, upper) = manualGap(in: destination, under: destinationParent, before: anchor, excluding: movedIDs)
        let positions = Position.between(lower, upper, count: ordered.count)
        for (item, position) in zip(ordered, positions) {
            let changesList = item.list != destination
            var updated = item
            updated.list = destination
            updated.parent = destinationParent
            updated.position = position
            updated.modifiedAt = time
            updated.revision += 1
            var subtree: [Item] = []
            if changesList { forEachDescendant(of: item.id) { subtree.append($0) } }
            put(item.id, updated, log: &log)
            // Its subtree follows it to the other list, parents before their subtasks.
            for descendant in subtree {
                var follower = descendant
                follower.list = destination
                follower.modifiedAt = time
                follower.revision += 1
                put(descendant.id, follower, log: &log)
            }
        }
    }

    /// Whether `block` (in its current order) is already a run of consecutive subtasks of `parent` in `list`,
    /// followed by `anchor` (nil: ending them): moving it there would leave the order as it is.
    /// - Complexity: O(k log n) for k items in the block.
    private func isInPlace(_ block: [Item], in list: ListID, under parent: ItemID?, before anchor: ItemRecord?) -> Bool {
        guard block.allSatisfy({ $0.list == list && $0.parent == parent }),
              let siblings = manualOrders[list]?.siblings(under: parent) else { return false }
        for (item, next) in zip(block, block.dropFirst()) where siblings.key(after: OrderKey(manual: item))?.item != next.id {
            return false
        }
        return siblings.key(after: OrderKey(manual: block.last!))?.item == anchor?.item.id
    }

    /// The items in their current order: by their list's place among lists, then by their rank in the list's
    /// manual tree order.
    private func blockOrder(_ items: [Item]) -> [Item] {
        guard items.count > 1 else { return items }
        var listRanks: [ListID: Int] = [:]
        for item in items where listRanks[item.list] == nil {
            listRanks[item.list] = listOrder.rank(of: ListOrderKey(lists[item.list]!))!
        }
        let ranks = Dictionary(uniqueKeysWithValues: items.map { item in
            (item.id, manualOrders[item.list]!.rank(of: item.id, place: { self.manualPlace($0) })!)
        })
        return items.sorted { lhs, rhs in
            let left = listRanks[lhs.list]!
            let right = listRanks[rhs.list]!
            return left != right ? left < right : ranks[lhs.id]! < ranks[rhs.id]!
        }
    }

    // MARK: The tree

    /// Calls `body` with every descendant of `id`, in tree order (a subtask before its own subtasks).
    /// - Complexity: O(s) for the s items of the subtree.
    func forEachDescendant<Failure: Error>(of id: ItemID, _ body: (Item) throws(Failure) -> Void) throws(Failure) {
        guard let item = items[id]?.item, let order = manualOrders[item.list] else { return }
        try order.forEachEntry(below: id) { key throws(Failure) in try body(key.record!.item) }
    }

    /// Refuses with `notFound` naming every id given that names no item (`before` and `parent` together).
    func checkExist(_ ids: [ItemID?]) throws(DomainError) {
        let missing = ids.compactMap { $0 }.filter { items[$0] == nil }.map(\.rawValue)
        guard missing.isEmpty else { throw .notFound(kind: .item, ids: missing) }
    }

    /// Whether an ancestor of `item` is in `ids`.
    /// - Complexity: O(depth).
    func hasAncestor(of item: Item, in ids: Set<ItemID>) -> Bool {
        ancestor(of: item, in: ids) != nil
    }

    /// The nearest ancestor of `item` in `ids`.
    func ancestor(of item: Item, in ids: Set<ItemID>) -> ItemID? {
        guard !ids.isEmpty else { return nil }
        var current = item.parent
        while let id = current {
            if ids.contains(id) { return id }
            current = items[id]?.item.parent
        }
        return nil
    }

    /// The depth a subtask of `parent` has (0 under nil: the top level).
    func depth(under parent: ItemID?) -> Int {
        parent.map { depth(of: $0) + 1 } ?? 0
    }

    /// How many levels sit below `id` (0 for an item without subtasks), counted up to `limit` + 1.
    /// - Complexity: O(s) for the s items of the subtree within `limit` levels.
    func height(of id: ItemID, limit: Int) -> Int {
        guard let item = items[id]?.item, let order = manualOrders[item.list] else { return 0 }
        return order.height(below: id, limit: limit)
    }

    /// Refuses a subtree of `height` levels below its top placed under `parent` when it would end deeper than
    /// `Limits.maxDepth`.
    func checkDepth(under parent: ItemID?, height: Int) throws(DomainError) {
        let top = depth(under: parent)
        guard top + height > Limits.maxDepth else { return }
        let deepest = top + height
        if let parent, height == 0 {
            throw .refused(reason: "tooDeep", message: "parent: item \(parent) is at depth \(top - 1); its subtasks would be at depth \(top) (at most \(Limits.maxDepth))")
        }
        throw .refused(reason: "tooDeep", message: "parent: the moved subtree would reach depth \(deepest) under \(parent.map { "item \($0)" } ?? "the top level") (at most \(Limits.maxDepth))")
    }

    // MARK: Indent and outdent

    /// The move that makes the items (after dropping those inside another's subtree; all must then share a
    /// parent) the last subtasks of the sibling just before the first of them.
    /// - Throws: `notFound`, `notSiblings`, `noPreviousSibling`; the move itself checks the depth.
    public func indentMutation(_ ids: [ItemID], at time: Timestamp) throws(DomainError) -> Mutation {
        let tops = try siblingBlock(ids)
        let first = tops[0]
        guard let previous = manualOrders[first.list]!.siblings(under: first.parent)!.key(before: OrderKey(manual: first))
        else {
            throw .refused(reason: "noPreviousSibling", message: "ids: item \(first.id) has no previous sibling to become a subtask of")
        }
        return .moveItems(ids: tops.map(\.id), toList: nil, before: nil, parent: .set(previous.item), at: time)
    }

    /// The move that makes the items (as in `indentMutation`) siblings of their parent, right after it.
    /// - Throws: `notFound`, `notSiblings`, `topLevel`.
    public func outdentMutation(_ ids: [ItemID], at time: Timestamp) throws(DomainError) -> Mutation {
        let tops = try siblingBlock(ids)
        guard let parentID = tops[0].parent, let parent = items[parentID]?.item else {
            throw .refused(reason: "topLevel", message: "ids: item \(tops[0].id) is at the top level")
        }
        let next = manualOrders[parent.list]!.siblings(under: parent.parent)!.key(after: OrderKey(manual: parent))
        return .moveItems(ids: tops.map(\.id), toList: nil, before: next?.item,
                          parent: parent.parent.map { .set($0) } ?? .clear, at: time)
    }

    /// The items named, less those inside another's subtree, in tree order; refused unless they share a parent.
    private func siblingBlock(_ ids: [ItemID]) throws(DomainError) -> [Item] {
        let ids = try Validation.identifiers(ids, field: "ids")
        let named = Set(ids)
        let tops = blockOrder(try existingItems(ids).filter { !hasAncestor(of: $0, in: named) })
        for item in tops.dropFirst() where item.parent != tops[0].parent || item.list != tops[0].list {
            throw .refused(reason: "notSiblings", message: "ids: items \(tops[0].id) and \(item.id) have different parents")
        }
        return tops
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
        if let rule = patch.repeatRule { updated.repeatRule = rule.value }
        if let alerts = patch.alerts { updated.alerts = alerts }
        // Text is stored as given: a new Unicode spelling of the same text is a change too.
        if updated != item || !Validation.spelledAlike(updated, item) {
            updated.modifiedAt = time
            updated.revision += 1
        }
        return updated
    }
}
