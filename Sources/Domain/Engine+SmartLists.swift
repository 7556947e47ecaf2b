// Smart lists in the engine: their live counts, kept per changed item, and their views, re-sourced or closed.

/// A smart list's rule and live count, as the engine tallies it.
struct SmartListTally: Sendable {
    var id: SmartListID
    var rule: SmartListRule
    var count: Int
    /// The fields of an item `rule` reads.
    var fieldsRead: ItemFieldSet

    init(id: SmartListID, rule: SmartListRule, count: Int) {
        self.id = id
        self.rule = rule
        self.count = count
        fieldsRead = rule.fieldsRead
    }
}

/// A smart list with its live count, for the overview.
public struct SmartListSummary: Hashable, Sendable {
    /// The smart list.
    public var smartList: SmartList
    /// How many items it holds.
    public var count: Int

    public init(smartList: SmartList, count: Int) {
        self.smartList = smartList
        self.count = count
    }
}

extension ViewSource {
    /// The source of a view on `smartList`: its id and its rule now.
    public static func smartList(_ smartList: SmartList) -> ViewSource {
        .smartList(smartList.id, smartList.rule)
    }
}

extension Engine {
    /// Every smart list in its manual order with its count.
    /// - Complexity: O(s log s) for s smart lists.
    public func smartLists() -> [SmartListSummary] {
        state.orderedSmartLists.map { SmartListSummary(smartList: $0, count: smartListCount($0.id) ?? 0) }
    }

    /// The number of items smart list `id` holds (nil: no such smart list).
    /// - Complexity: O(s) for s smart lists.
    public func smartListCount(_ id: SmartListID) -> Int? {
        tallies.first { $0.id == id }?.count
    }

    /// The source of a view on smart list `id`, with its current rule.
    /// - Throws: `notFound(smartList)`.
    public func smartListSource(_ id: SmartListID) throws(DomainError) -> ViewSource {
        .smartList(try state.existingSmartList(id))
    }

    /// `source` with a smart list's rule as the state holds it now (a view reopened on a reloaded store).
    func current(_ source: ViewSource) throws(DomainError) -> ViewSource {
        guard case .smartList(let id, _) = source else { return source }
        return try smartListSource(id)
    }

    /// Counts every smart list from scratch.
    /// - Complexity: O(n × s) for n items and s smart lists.
    mutating func tallyAllSmartLists() {
        tallies = state.orderedSmartLists.map { SmartListTally(id: $0.id, rule: $0.rule, count: 0) }
        guard !tallies.isEmpty else { return }
        state.forEachItem { item in
            var foldedNotes: [UInt8]?
            for slot in tallies.indices where tallies[slot].rule.contains(item, foldedNotes: &foldedNotes) {
                tallies[slot].count += 1
            }
        }
    }

    /// Keeps the smart lists' counts for a group's changed items, each evaluated before and after against every
    /// smart list's rule as it was before the group. A rule that reads none of the fields a change changed is
    /// skipped (retitling an item tests only the rules with text), and an item's notes are folded at most once.
    /// - Complexity: O(k × s) for k changed items and s smart lists (plus the filters' text searches).
    mutating func tally(_ items: [ItemChange]) {
        guard !tallies.isEmpty else { return }
        for change in items {
            var oldNotes: [UInt8]?
            var newNotes: [UInt8]?
            let changed = change.old.flatMap { old in change.new.map { ItemFieldSet(changedFrom: old, to: $0) } }
            for slot in tallies.indices {
                if let changed, changed.isDisjoint(with: tallies[slot].fieldsRead) { continue }
                let before = change.old.map { tallies[slot].rule.contains($0, foldedNotes: &oldNotes) } ?? false
                let after = change.new.map { tallies[slot].rule.contains($0, foldedNotes: &newNotes) } ?? false
                if before != after { tallies[slot].count += after ? 1 : -1 }
            }
        }
    }

    /// Closes the views of the smart lists a group deleted.
    mutating func closeViews(ofDeleted smartLists: [SmartListChange]) -> [ViewChange] {
        var changes: [ViewChange] = []
        for change in smartLists where change.new == nil {
            for id in views.keys.sorted() where views[id]!.spec.source.smartList == change.id {
                let view = views.removeValue(forKey: id)!
                changes.append(ViewChange(view: id, version: view.version + 1, count: nil, window: view.window,
                                          state: .closed(reason: "smartListDeleted"), operations: []))
                release(view.spec)
            }
        }
        return changes
    }

    /// Takes out the views of the smart lists whose rule a group changed, before the group's items are
    /// propagated: they are reopened on the new rule afterwards (`reopen`), with one `reset` each. Each comes with
    /// the items its own order collapses (kept collapsed in the new one).
    mutating func takeViews(ofChanged smartLists: [SmartListChange]) -> [(view: OpenView, collapsed: Set<ItemID>)] {
        let changed = Set(smartLists.filter { $0.old != nil && $0.new != nil && $0.old!.rule != $0.new!.rule }.map(\.id))
        guard !changed.isEmpty else { return [] }
        var taken: [(view: OpenView, collapsed: Set<ItemID>)] = []
        for id in views.keys.sorted() {
            guard let smartList = views[id]!.spec.source.smartList, changed.contains(smartList) else { continue }
            let collapsed = collapsedItems(of: views[id]!.spec)
            let view = views.removeValue(forKey: id)!
            release(view.spec)
            taken.append((view, collapsed))
        }
        return taken
    }

    /// Recounts the smart lists a group created or whose rule it changed, and forgets the deleted ones.
    /// - Complexity: O(n) per smart list created or re-ruled (a scan of every item); O(s) otherwise.
    mutating func recount(_ smartLists: [SmartListChange]) {
        for change in smartLists {
            let slot = tallies.firstIndex { $0.id == change.id }
            guard let new = change.new else {
                if let slot { tallies.remove(at: slot) }
                continue
            }
            if let slot, tallies[slot].rule == new.rule { continue }
            var count = 0
            let body = { (item: Item) in if new.rule.contains(item) { count += 1 } }
            if let lists = new.rule.lists {
                // Only its source lists' items.
                for list in lists { state.manualOrders[list]?.forEachEntry { body($0.record!.item) } }
            } else {
                state.forEachItem(body)
            }
            let tally = SmartListTally(id: new.id, rule: new.rule, count: count)
            if let slot { tallies[slot] = tally } else { tallies.append(tally) }
        }
    }

    /// Reopens views taken out by `takeViews` on their smart list's rule now: each gets one `reset` (version + 1),
    /// as after `view/filter`. Their order is indexed at once, whatever its size.
    /// - Complexity: O(n log n) per new order (one per distinct sort, filter and sections among the views).
    mutating func reopen(_ taken: [(view: OpenView, collapsed: Set<ItemID>)]) -> [ViewChange] {
        var changes: [ViewChange] = []
        for (var view, collapsed) in taken {
            guard case .smartList(let id, _) = view.spec.source, let smartList = state.smartLists[id] else { continue }
            view.spec.source = .smartList(smartList)
            if index(view.spec) == nil, builds[view.spec] == nil {
                let orders = state.orderedLists.map { state.manualOrders[$0.id] ?? TreeOrder() }
                let build = IndexBuild(id: BuildID(0), spec: view.spec, orders: orders, context: keyContext,
                                       collapsed: view.spec.owner == nil ? [] : collapsed.filter { state.item($0) != nil })
                indexes[view.spec] = build.run().order
            }
            view.version += 1
            views[view.id] = view
            refreshWindow(of: view.id)
            let current = views[view.id]!
            views[view.id]!.lastCount = count(of: current.spec)
            views[view.id]!.lastEmpty = emptyReason(of: current.spec)
            changes.append(ViewChange(view: view.id, version: current.version, count: count(of: current.spec),
                                      window: current.window, state: viewState(of: current.spec),
                                      operations: [.reset(rows: rows(of: current))], empty: views[view.id]!.lastEmpty))
        }
        return changes
    }

    /// Applies a group's changes beyond the state: smart lists' counts, closed and re-sourced views, every order.
    mutating func settle(_ changes: Changes) -> [ViewChange] {
        var viewChanges = closeViews(ofDeleted: changes.lists)
        viewChanges += closeViews(ofDeleted: changes.smartLists)
        let taken = takeViews(ofChanged: changes.smartLists)
        tally(changes.items)
        recount(changes.smartLists)
        viewChanges += propagate(keyChanges(for: changes), listsChanged: !changes.lists.isEmpty)
        viewChanges += reopen(taken)
        viewChanges.sort { $0.view < $1.view }
        return viewChanges
    }
}
