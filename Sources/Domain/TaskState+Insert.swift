// Inserting whole items: what an import makes, each item exactly as given, parents before their subtasks.

extension TaskState {
    /// Creates each item as given, in order (see `Mutation.insertItems` for what is refused).
    /// - Complexity: O(k × depth × log n) for k items.
    mutating func insertItems(_ inserted: [Item], log: inout ChangeLog) throws(DomainError) {
        reserveRoom(forItems: inserted.count)
        let firstFree = nextIdentifier
        for (index, given) in inserted.enumerated() {
            let name = "items[\(index)]"
            let item: Item
            do throws(DomainError) {
                item = try TaskState.validateInserted(given)
            } catch {
                throw error.naming(name)
            }
            let raw = item.id.rawValue
            guard raw < UInt64.max else {
                throw .invalidField(field: name + ".id", problem: "must be below \(UInt64.max)")
            }
            guard raw >= firstFree else {
                throw .refused(reason: "identifierUsed",
                               message: "\(name).id: id \(raw) is already used (next free id is \(firstFree))")
            }
            guard items[item.id] == nil else {
                throw .refused(reason: "identifierUsed", message: "\(name).id: item \(item.id) is inserted twice")
            }
            _ = try existingList(item.list)
            if let parentID = item.parent {
                guard let parent = items[parentID]?.item else { throw .notFound(kind: .item, ids: [parentID.rawValue]) }
                guard parent.list == item.list else {
                    throw .refused(reason: "parentInOtherList",
                                   message: "\(name).parent: item \(parentID) is not in list \(item.list)")
                }
            }
            try checkDepth(under: item.parent, height: 0)
            reserve(raw)
            put(item.id, item, log: &log)
            try checkPositionFree(item, name: name)
        }
    }

    /// An inserted item checked as `createItem` checks fields (tags and alerts normalized), plus what only a whole
    /// item carries (`validate`), and a revision of at least 1.
    private static func validateInserted(_ given: Item) throws(DomainError) -> Item {
        var item = given
        item.tags = try Validation.tags(given.tags)
        item.alerts = try Validation.alerts(given.alerts)
        try validate(item)
        guard item.revision >= 1 else { throw .invalidField(field: "revision", problem: "must be at least 1") }
        return item
    }
}

extension DomainError {
    /// This error with its field named inside `path` (`items[3]` makes `title` `items[3].title`); other errors as
    /// they are.
    func naming(_ path: String) -> DomainError {
        guard case .invalidField(let field, let problem) = self else { return self }
        return .invalidField(field: path + "." + field, problem: problem)
    }
}
