// Repeating items: completing one moves it on to its next occurrence instead of marking it done, skipping one
// moves it on without a completion; both record the occurrence in the item's history.

extension TaskState {
    /// The group of mutations `items/update` applies for `patch` on `ids`, and the items it moves on.
    ///
    /// Without `done: true` it is the one `updateItems`. With it, a named item that is not done and, once the rest
    /// of the patch is applied, has a repeat rule with a next occurrence (`RepeatRule.next(after:completedAt:today:
    /// zone:occurrence:)`, the occurrence being the history's `used` plus one) is moved on (`advanceItems`, outcome
    /// `completed`) instead of becoming done; every other item becomes done as `updateItems` makes it (its rule
    /// ended, or it has none). The group: `updateItems` with the patch but `done` (when it changes anything
    /// else), `updateItems` with `done: true` for the items not moved on, `advanceItems` for the others, in that
    /// order, so a rule or due the patch sets counts.
    /// - Parameters:
    ///   - today: the client's day (`dueFuture` on dates), `zone` its zone's offsets (times keep their wall clock).
    /// - Throws: `notFound` (every unknown id), and what the mutations would be refused with.
    /// - Complexity: O(k log n) for k items, plus each rule's search.
    public func completionMutations(_ ids: [ItemID], _ patch: ItemPatch, at time: Timestamp, today: CalendarDate,
                                    zone: some ZoneOffsets) throws(DomainError) -> (mutations: [Mutation], advanced: [ItemID]) {
        guard patch.done == true else { return ([.updateItems(ids: ids, patch: patch, at: time)], []) }
        let named = try Validation.identifiers(ids, field: "ids")
        var advances: [Advance] = []
        for item in try existingItems(named) where !item.done {
            let rule = patch.repeatRule.map(\.value) ?? item.repeatRule
            let due = patch.due.map(\.value) ?? item.due
            guard let rule, let due else { continue }
            if let next = rule.next(after: due, completedAt: time, today: today, zone: zone, occurrence: item.occurrences.used + 1) {
                advances.append(Advance(id: item.id, next: next, outcome: .completed))
            }
        }
        var rest = patch
        rest.done = nil
        var mutations: [Mutation] = []
        if !rest.isEmpty { mutations.append(.updateItems(ids: named, patch: rest, at: time)) }
        let advanced = Set(advances.map(\.id))
        let plain = named.filter { !advanced.contains($0) }
        if !plain.isEmpty { mutations.append(.updateItems(ids: plain, patch: ItemPatch(done: true), at: time)) }
        if !advances.isEmpty { mutations.append(.advanceItems(advances: advances, at: time)) }
        return (mutations, advances.map(\.id))
    }

    /// The mutation `items/skip` applies: each item moved on to its next occurrence with the occurrence it leaves
    /// recorded as skipped (done or not: a skipped item is not done at its next occurrence).
    /// - Throws: `notFound` (every unknown id); `notRepeating` naming every item without a rule; `repeatEnded`
    ///   naming every item whose rule has no next occurrence (COUNT used up, past UNTIL). Nothing is skipped then.
    /// - Complexity: O(k log n) for k items, plus each rule's search.
    public func skipMutations(_ ids: [ItemID], at time: Timestamp, today: CalendarDate,
                              zone: some ZoneOffsets) throws(DomainError) -> [Mutation] {
        let items = try existingItems(try Validation.identifiers(ids, field: "ids"))
        let single = items.filter { $0.repeatRule == nil }.map(\.id)
        guard single.isEmpty else {
            throw .refusedItems(reason: "notRepeating", message: "\(Self.names(single)) \(single.count == 1 ? "does" : "do") not repeat",
                                ids: single)
        }
        var advances: [Advance] = []
        var ended: [ItemID] = []
        for item in items {
            let rule = item.repeatRule!
            if let due = item.due,
               let next = rule.next(after: due, completedAt: time, today: today, zone: zone, occurrence: item.occurrences.used + 1) {
                advances.append(Advance(id: item.id, next: next, outcome: .skipped))
            } else {
                ended.append(item.id)
            }
        }
        guard ended.isEmpty else {
            throw .refusedItems(reason: "repeatEnded", message: "the repeat of \(Self.names(ended)) has ended: there is no next occurrence to skip to",
                                ids: ended)
        }
        return [.advanceItems(advances: advances, at: time)]
    }

    mutating func advanceItems(_ advances: [Advance], at time: Timestamp, log: inout ChangeLog) throws(DomainError) {
        let ids = try Validation.identifiers(advances.map(\.id), field: "ids")
        for (item, advance) in zip(try existingItems(ids), advances) {
            guard item.repeatRule != nil, let due = item.due else {
                throw .refusedItems(reason: "notRepeating", message: "\(item.id) does not repeat", ids: [item.id])
            }
            try Validation.due(advance.next)
            var updated = item
            updated.occurrences = item.occurrences.adding(Occurrence(due: due, outcome: advance.outcome, at: time))
            updated.due = advance.next
            updated.done = false
            updated.completedAt = nil
            updated.modifiedAt = time
            updated.revision += 1
            put(item.id, updated, log: &log)
            // The occurrence is over, done or skipped: its reminders are answered (the next due's fire in their turn).
            dismissReminders(of: item.id, log: &log)
            // The next occurrence's checklist starts again.
            var reopened: [Item] = []
            forEachDescendant(of: item.id) { if $0.done { reopened.append($0) } }
            for descendant in reopened {
                put(descendant.id, TaskState.patched(descendant, ItemPatch(done: false), at: time), log: &log)
            }
        }
    }

    private static func names(_ ids: [ItemID]) -> String {
        ids.map(\.description).joined(separator: ", ")
    }
}
