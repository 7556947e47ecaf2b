// List mutations: create, update, delete and reorder lists.

extension TaskState {
    mutating func createList(_ id: ListID, _ fields: ListFields, before: ListID?,
                             journal: inout Journal) throws(DomainError) {
        try Validation.listFields(fields)
        let anchor = try before.map { id throws(DomainError) in try existingList(id) }
        try claim(id.rawValue, field: "id")
        let (lower, upper) = listGap(before: anchor)
        let list = TaskList(id: id, name: fields.name, color: fields.color, icon: fields.icon,
                            position: Position.between(lower, upper))
        putList(id, list, journal: &journal)
    }

    mutating func updateList(_ id: ListID, _ patch: ListPatch, journal: inout Journal) throws(DomainError) {
        try Validation.listPatch(patch)
        var list = try existingList(id)
        if let name = patch.name { list.name = name }
        if let color = patch.color { list.color = color.value }
        if let icon = patch.icon { list.icon = icon.value }
        // Text is stored as given: a new Unicode spelling of the same name is a change too.
        if let old = lists[id], list != old || !Validation.spelledAlike(list, old) { putList(id, list, journal: &journal) }
    }

    mutating func deleteList(_ id: ListID, journal: inout Journal) throws(DomainError) {
        _ = try existingList(id)
        empty(id, journal: &journal)
        putList(id, nil, journal: &journal)
    }

    mutating func moveLists(_ ids: [ListID], before: ListID?, journal: inout Journal) throws(DomainError) {
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
        let (lower, upper) = listGap(before: anchor, excluding: movedIDs)
        for (list, position) in zip(ordered, Position.between(lower, upper, count: ordered.count)) {
            var updated = list
            updated.position = position
            putList(list.id, updated, journal: &journal)
        }
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
