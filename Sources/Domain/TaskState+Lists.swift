// List mutations: create, update, delete and reorder lists.

extension TaskState {
    mutating func createList(_ id: ListID, _ fields: ListFields, before: ListID?,
                             log: inout ChangeLog) throws(DomainError) {
        try Validation.listFields(fields)
        let anchor = try before.map { id throws(DomainError) in try existingList(id) }
        try claim(id.rawValue, field: "id")
        let (lower, upper) = listGap(before: anchor)
        let list = TaskList(id: id, name: fields.name, color: fields.color, icon: fields.icon,
                            position: Position.between(lower, upper))
        putList(id, list, log: &log)
    }

    mutating func updateList(_ id: ListID, _ patch: ListPatch, log: inout ChangeLog) throws(DomainError) {
        try Validation.listPatch(patch)
        var list = try existingList(id)
        if let name = patch.name { list.name = name }
        if let color = patch.color { list.color = color.value }
        if let icon = patch.icon { list.icon = icon.value }
        // Text is stored as given: a new Unicode spelling of the same name is a change too.
        if let old = lists[id], list != old || !Validation.spelledAlike(list, old) { putList(id, list, log: &log) }
    }

    mutating func deleteList(_ id: ListID, log: inout ChangeLog) throws(DomainError) {
        _ = try existingList(id)
        empty(id, log: &log)
        putList(id, nil, log: &log)
        dropFromSmartLists(id, log: &log)
    }

    /// Moves the lists `ids` as a block, in their current relative order, before `before` (nil: to the end).
    ///
    /// Moving a block is the same as moving the lists it jumps over to its other side: of the two, the side
    /// holding fewer items (plus one per list) gets new positions, the other keeps its own (on a tie, the
    /// block moves). Either way the resulting order is the same; which lists changed is what `Changes` records.
    /// The choice depends only on the state, so every process replaying the mutation makes the same one.
    /// - Complexity: O((k + j) log n) for the k lists of the block and the j lists counted on the other side
    ///   (counting stops once that side holds more than the block): O(k + min(block, jumped)) lists re-keyed.
    ///   An engine then re-keys the items of the repositioned lists in every order that uses list positions.
    mutating func moveLists(_ ids: [ListID], before: ListID?, log: inout ChangeLog) throws(DomainError) {
        let ids = try Validation.identifiers(ids, field: "ids")
        let missing = ids.filter { lists[$0] == nil }.map(\.rawValue)
        guard missing.isEmpty else { throw .notFound(kind: .list, ids: missing) }
        let anchor = try before.map { id throws(DomainError) in try existingList(id) }
        let movedIDs = Set(ids)
        if let anchor, movedIDs.contains(anchor.id) {
            throw .refused(reason: "beforeInBlock", message: "before: list \(anchor.id) is one of the lists moved")
        }
        let ordered = ids.map { lists[$0]! }.sorted { ListOrderKey($0) < ListOrderKey($1) }
        // A block already where it would go changes nothing (its lists keep their positions).
        guard !isInPlace(ordered, before: anchor) else { return }
        let repositioned = jumpedOver(ordered, movedIDs, before: anchor) ?? {
            let (lower, upper) = listGap(before: anchor, excluding: movedIDs)
            return Array(zip(ordered, Position.between(lower, upper, count: ordered.count)))
        }()
        for (list, position) in repositioned {
            var updated = list
            updated.position = position
            putList(list.id, updated, log: &log)
        }
    }

    /// The lists `block` jumps over when moved before `anchor` (nil: to the end), each with the position that puts
    /// it on the block's other side (the block keeping its positions), when they hold fewer items, plus one per
    /// list, than the block; nil otherwise. Those ranked between the block's first list and `anchor` go just
    /// before the block's first list; those from `anchor` to the block's last list go just after its last.
    /// - Complexity: O((k + j) log n) for the k lists of the block and the j lists counted before deciding.
    private func jumpedOver(_ block: [TaskList], _ blockIDs: Set<ListID>,
                            before anchor: TaskList?) -> [(TaskList, Position)]? {
        let budget = block.reduce(0) { $0 + itemCount(in: $1.id) + 1 }
        let first = listOrder.rank(of: ListOrderKey(block.first!))!
        let last = listOrder.rank(of: ListOrderKey(block.last!))!
        let end = anchor.map { listOrder.rank(of: ListOrderKey($0))! } ?? listOrder.count
        var cost = 0
        /// The lists not in the block at `ranks`, or nil once they hold as much as the block.
        func others(_ ranks: Range<Int>) -> [TaskList]? {
            var found: [TaskList] = []
            for rank in ranks {
                let key = listOrder.key(at: rank)
                guard !blockIDs.contains(key.list) else { continue }
                cost += itemCount(in: key.list) + 1
                guard cost < budget else { return nil }
                found.append(lists[key.list]!)
            }
            return found
        }
        guard let below = others(first + 1..<max(first + 1, end)),
              let above = others(min(end, last)..<last) else { return nil }
        let lower = first > 0 ? listOrder.key(at: first - 1).position : nil
        let upper = last + 1 < listOrder.count ? listOrder.key(at: last + 1).position : nil
        return Array(zip(below, Position.between(lower, block.first!.position, count: below.count)))
            + Array(zip(above, Position.between(block.last!.position, upper, count: above.count)))
    }

    /// Whether `block` (in its current order) is already a run of consecutive lists followed by `anchor` (nil:
    /// ending the order of lists): moving it there would leave the order as it is.
    /// - Complexity: O(k log n) for k lists in the block.
    private func isInPlace(_ block: [TaskList], before anchor: TaskList?) -> Bool {
        guard let first = block.first, let start = listOrder.rank(of: ListOrderKey(first)) else { return false }
        for (offset, list) in block.enumerated().dropFirst() where listOrder.key(at: start + offset).list != list.id {
            return false
        }
        let next = start + block.count
        guard let anchor else { return next == listOrder.count }
        return next < listOrder.count && listOrder.key(at: next).list == anchor.id
    }
}
