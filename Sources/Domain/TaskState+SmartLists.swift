// Smart list mutations: create, update, delete, reorder and restore smart lists; a deleted list leaves their sources.

extension TaskState {
    /// The smart lists in their manual order (position, then id).
    /// - Complexity: O(s log s) for s smart lists (they are few).
    public var orderedSmartLists: [SmartList] {
        smartLists.values.sorted(by: TaskState.precedes)
    }

    /// Whether `lhs` comes before `rhs` in the manual order of smart lists.
    static func precedes(_ lhs: SmartList, _ rhs: SmartList) -> Bool {
        lhs.position != rhs.position ? lhs.position < rhs.position : lhs.id < rhs.id
    }

    /// The smart list, or `notFound`.
    func existingSmartList(_ id: SmartListID) throws(DomainError) -> SmartList {
        guard let smartList = smartLists[id] else { throw .notFound(kind: .smartList, ids: [id.rawValue]) }
        return smartList
    }

    /// Replaces smart list `id` (nil: absent) and records it.
    mutating func putSmartList(_ id: SmartListID, _ new: SmartList?, log: inout ChangeLog) {
        let old = smartLists[id]
        smartLists[id] = new
        log.entries.append(.smartList(id, old: old, new: new))
    }

    mutating func createSmartList(_ id: SmartListID, _ fields: SmartListFields, before: SmartListID?,
                                  log: inout ChangeLog) throws(DomainError) {
        try Validation.listFields(ListFields(name: fields.name, color: fields.color, icon: fields.icon))
        try checkSources(fields.rule.lists)
        let anchor = try before.map { id throws(DomainError) in try existingSmartList(id) }
        try claim(id.rawValue, field: "id")
        let (lower, upper) = smartListGap(before: anchor, excluding: [])
        putSmartList(id, SmartList(id: id, name: fields.name, color: fields.color, icon: fields.icon,
                                   rule: fields.rule, position: Position.between(lower, upper)), log: &log)
    }

    mutating func updateSmartList(_ id: SmartListID, _ patch: SmartListPatch, log: inout ChangeLog) throws(DomainError) {
        try Validation.listPatch(ListPatch(name: patch.name, color: patch.color, icon: patch.icon))
        var smartList = try existingSmartList(id)
        if let lists = patch.lists { try checkSources(lists.value) }
        if let name = patch.name { smartList.name = name }
        if let color = patch.color { smartList.color = color.value }
        if let icon = patch.icon { smartList.icon = icon.value }
        if let filter = patch.filter { smartList.rule.filter = filter }
        if let lists = patch.lists { smartList.rule.lists = lists.value }
        let old = smartLists[id]!
        if smartList != old || !smartList.isSpelledAlike(old) { putSmartList(id, smartList, log: &log) }
    }

    mutating func deleteSmartList(_ id: SmartListID, log: inout ChangeLog) throws(DomainError) {
        _ = try existingSmartList(id)
        putSmartList(id, nil, log: &log)
    }

    /// Moves smart lists as a block before `before` (nil: to the end); the block gets new positions between its
    /// new neighbours. A block already there changes nothing.
    /// - Complexity: O(s log s) for s smart lists.
    mutating func moveSmartLists(_ ids: [SmartListID], before: SmartListID?, log: inout ChangeLog) throws(DomainError) {
        let ids = try Validation.identifiers(ids, field: "ids")
        let missing = ids.filter { smartLists[$0] == nil }.map(\.rawValue)
        guard missing.isEmpty else { throw .notFound(kind: .smartList, ids: missing) }
        let anchor = try before.map { id throws(DomainError) in try existingSmartList(id) }
        let moved = Set(ids)
        if let anchor, moved.contains(anchor.id) {
            throw .refused(reason: "beforeInBlock", message: "before: smart list \(anchor.id) is one of the smart lists moved")
        }
        let order = orderedSmartLists
        let block = order.filter { moved.contains($0.id) }
        let rest = order.filter { !moved.contains($0.id) }
        let insertion = anchor.map { anchor in rest.firstIndex { $0.id == anchor.id }! } ?? rest.count
        let result = Array(rest[..<insertion]) + block + Array(rest[insertion...])
        guard result.map(\.id) != order.map(\.id) else { return }
        let (lower, upper) = smartListGap(before: anchor, excluding: moved)
        for (smartList, position) in zip(block, Position.between(lower, upper, count: block.count)) {
            var updated = smartList
            updated.position = position
            putSmartList(smartList.id, updated, log: &log)
        }
    }

    /// Stores each smart list as given (a deleted one comes back), then checks that no two share a position.
    mutating func restoreSmartLists(_ restored: [SmartList], log: inout ChangeLog) throws(DomainError) {
        for smartList in restored {
            try TaskState.validate(smartList)
            try checkSources(smartList.rule.lists)
            if smartLists[smartList.id] == nil {
                let raw = smartList.id.rawValue
                guard raw > 0, raw < nextIdentifier, lists[ListID(raw)] == nil, items[ItemID(raw)] == nil else {
                    throw .refused(reason: "identifierUnused",
                                   message: "smart list \(smartList.id) cannot be restored: its id was never used for one")
                }
            }
            putSmartList(smartList.id, smartList, log: &log)
        }
        try checkSmartListPositions()
    }

    /// Stores the smart lists a snapshot holds into a state just restored from it (`init(restoring:...)`).
    /// - Throws: as `restoreSmartLists`, and `identifierUsed` for an id given twice or held by a list or an item.
    /// - Complexity: O(s log s) for s smart lists.
    public mutating func restoreSnapshotSmartLists(_ stored: [SmartList]) throws(DomainError) {
        for smartList in stored {
            try TaskState.validate(smartList)
            try checkSources(smartList.rule.lists)
            try TaskState.checkStored(smartList.id.rawValue, name: "smart list \(smartList.id)", below: nextIdentifier)
            let raw = smartList.id.rawValue
            guard smartLists.updateValue(smartList, forKey: smartList.id) == nil,
                  lists[ListID(raw)] == nil, items[ItemID(raw)] == nil else {
                throw .refused(reason: "identifierUsed", message: "smart list \(smartList.id) is stored twice")
            }
        }
        try checkSmartListPositions()
    }

    /// Removes `list` from every smart list drawing from it (an emptied set then matches nothing).
    /// - Complexity: O(s) for s smart lists.
    mutating func dropFromSmartLists(_ list: ListID, log: inout ChangeLog) {
        for smartList in orderedSmartLists where smartList.rule.lists?.contains(list) ?? false {
            var updated = smartList
            updated.rule.lists!.remove(list)
            putSmartList(smartList.id, updated, log: &log)
        }
    }

    /// Refuses source lists that do not exist (`notFound`, naming them in ascending order).
    private func checkSources(_ sources: Set<ListID>?) throws(DomainError) {
        guard let sources else { return }
        let missing = sources.filter { lists[$0] == nil }.map(\.rawValue).sorted()
        guard missing.isEmpty else { throw .notFound(kind: .list, ids: missing) }
    }

    private func checkSmartListPositions() throws(DomainError) {
        let order = orderedSmartLists
        for index in order.indices.dropFirst() where order[index - 1].position == order[index].position {
            throw .refused(reason: "positionTaken",
                           message: "smart list \(order[index].id): another smart list already has position \(order[index].position)")
        }
    }

    private static func validate(_ smartList: SmartList) throws(DomainError) {
        try Validation.listFields(ListFields(name: smartList.name, color: smartList.color, icon: smartList.icon))
        try Validation.position(smartList.position)
    }

    /// The positions just below and at `before` in the order of smart lists, skipping `excluded`.
    private func smartListGap(before anchor: SmartList?, excluding excluded: Set<SmartListID>) -> (Position?, Position?) {
        let lower = orderedSmartLists.last { smartList in
            !excluded.contains(smartList.id) && (anchor.map { TaskState.precedes(smartList, $0) } ?? true)
        }
        return (lower?.position, anchor?.position)
    }
}
