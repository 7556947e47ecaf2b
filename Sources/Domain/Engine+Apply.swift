// Applying mutations: the state changes, then every shared index, then each affected view's window changeset.

extension Engine {
    /// Applies `mutations` as one atomic group and derives the change of every affected view from what changed.
    ///
    /// Views on a deleted list are closed (state `closed(reason: "listDeleted")`). A view gets a change only
    /// when its count, its window's rows or its state changed; a change outside its window carries no
    /// operations, only the new count.
    /// - Throws: the first refusal; nothing changed then (state, indexes and views are as before).
    /// - Complexity: O(k log n) for k items changed, plus, per view whose window is touched, O(depth × log n) when
    ///   one entry of its order changed (`operationsByRank`), else O(w log w) for its window of w rows;
    ///   a `moveLists` adds O(m log n) per open order that uses list positions (smart groups, sections by list)
    ///   for the m items of the lists it repositions: the side holding fewer items (`TaskState.moveLists`).
    public mutating func apply(_ mutations: [Mutation]) throws(DomainError) -> Applied {
        let changes = try state.apply(mutations)
        scheduleAlerts(for: changes)
        return Applied(changes: changes, viewChanges: settle(changes), revision: state.revision)
    }

    /// Brings every order up to date with a group's key changes (`keyChanges(for:)`) and derives each open view's
    /// change.
    /// - Complexity: as `propagate(_:listMoves:listsChanged:contentChanged:)`.
    mutating func propagate(_ changes: KeyChanges, listsChanged: Bool) -> [ViewChange] {
        propagate(changes.items, listMoves: changes.listMoves, listsChanged: listsChanged)
    }

    /// Brings every order up to date with `items`' key changes, then re-keys the items of `listMoves` in the
    /// orders that use list positions, and derives each open view's change.
    /// `contentChanged` is false when only the items' keys changed (time moving on), not their rows.
    /// - Complexity: O(k log n) per order for k changes, plus O(m log n) per order that uses list positions for
    ///   the m items of `listMoves` (nothing for them in other orders), plus, per view whose window is touched,
    ///   O(depth × log n) when one entry of its order changed, else O(w log w) for its window of w rows.
    mutating func propagate(_ items: [KeyChange], listMoves: [ListMove] = [], listsChanged: Bool = false,
                            contentChanged: Bool = true) -> [ViewChange] {
        var viewChanges: [ViewChange] = []
        logForBuilds(items, listMoves: listMoves)
        let ids = views.keys.sorted()
        let oldParents = items.count > 1 ? Dictionary(items.map { ($0.id, $0.old?.item.parent) }) { first, _ in first } : [:]
        // The orders in use, few: searched linearly, each updated once however many views share it, then
        // looked up once (its index, count and empty reason) for all its views.
        var orders: [OrderNow] = []
        for id in ids {
            let spec = views[id]!.spec
            if !orders.contains(where: { $0.spec == spec }) {
                // Time moving on changes no key of an order that does not depend on the day.
                let affected = (builds.isEmpty || builds[spec] == nil) && (contentChanged || spec.dependsOnDay)
                let changes = affected ? update(spec, with: items, listMoves: listMoves, oldParents: oldParents) : nil
                orders.append(orderNow(spec, touched: changes != nil))
                // Re-keyed lists are not among the changes: one change then does not stand for the whole group.
                // (Set in the array: a copy of an `OrderNow` retains every part of its order.)
                if listMoves.isEmpty, let changes, changes.count == 1 { orders[orders.count - 1].single = changes[0] }
            }
        }
        let rekeyed = listMoves.reduce(0) { $0 + $1.itemCount }
        let changedContent = contentChanged
            ? ChangedContent(items, rekeyed: rekeyed, parents: subtaskParents(items))
            : ChangedContent(unchanged: ())
        // Counted in a local: passing the engine's own property inout to a method of the engine would copy the engine.
        var paths = windowPaths
        for id in ids {
            var view = views.removeValue(forKey: id)!
            let order = orders.firstIndex { $0.spec == view.spec }!
            if let change = refresh(&view, orders[order], changedContent: changedContent, listsChanged: listsChanged,
                                    paths: &paths) {
                viewChanges.append(change)
            }
            views[id] = view
        }
        windowPaths = paths
        return viewChanges
    }

    /// The parents whose subtasks' counts a group changed (a subtask came, went, or was done or undone): their
    /// rows change though they did not.
    private func subtaskParents(_ items: [KeyChange]) -> [ItemID] {
        var parents: [ItemID] = []
        for change in items {
            let old = change.old?.item
            let new = change.new?.item
            guard old?.parent != new?.parent || old?.done != new?.done || (old == nil) != (new == nil) else { continue }
            if let parent = old?.parent { parents.append(parent) }
            if let parent = new?.parent, parent != old?.parent { parents.append(parent) }
        }
        return parents
    }

    /// Closes the views whose list was deleted and drops their indexes.
    mutating func closeViews(ofDeleted lists: [ListChange]) -> [ViewChange] {
        var changes: [ViewChange] = []
        for list in lists where list.new == nil {
            for id in views.keys.sorted() where views[id]!.spec.source.list == list.id {
                let view = views.removeValue(forKey: id)!
                changes.append(ViewChange(view: id, version: view.version + 1, count: nil, window: view.window,
                                          state: .closed(reason: "listDeleted"), operations: []))
                indexes.removeValue(forKey: view.spec)
                builds.removeValue(forKey: view.spec)
            }
        }
        return changes
    }

    /// Remembers, for each pending build, the snapshot value of every item of its scope changed since (and of
    /// every item of a moved list, for a build whose order uses list positions).
    private mutating func logForBuilds(_ items: [KeyChange], listMoves: [ListMove]) {
        for spec in Array(builds.keys) {
            for change in items where change.old.map({ spec.inScope($0.item) }) ?? false
                || change.new.map({ spec.inScope($0.item) }) ?? false {
                if builds[spec]!.snapshotValues.index(forKey: change.id) == nil {
                    builds[spec]!.snapshotValues.updateValue(change.old?.item, forKey: change.id)
                }
            }
            guard spec.usesListPosition else { continue }
            for move in listMoves where spec.source.list.map({ $0 == move.list }) ?? true {
                // Unchanged by the group (its key inputs but the list's position are the item's own).
                for item in state.items(in: move.list, ranks: 0..<move.itemCount)
                    where builds[spec]!.snapshotValues.index(forKey: item.id) == nil {
                    builds[spec]!.snapshotValues.updateValue(item, forKey: item.id)
                }
            }
        }
    }

    /// Where each item's entry sits in `spec`'s order now (nil: out of its scope).
    /// - Complexity: O(1) per call (it captures the item and list tables and the day, not a copy of the engine).
    func place(in spec: IndexSpec) -> (ItemID) -> TreePlace? {
        let items = state.items
        let lists = state.lists
        let day = day
        return { id in
            guard let item = items[id]?.item else { return nil }
            return spec.place(Keyed(item: item, status: day.status(of: item),
                                    listPosition: lists[item.list]?.positionBytes ?? Position.initial.bytes))
        }
    }

    /// The changes of `spec`'s order for a group's key changes: one per item in its scope whose entry may move,
    /// appear, go or change between match and context. `oldParent` gives an item's parent before the group.
    /// - Complexity: O(k × depth) for k changes (depths are computed only for several changes).
    func treeChanges(_ items: [KeyChange], in spec: IndexSpec, oldParent: (ItemID) -> ItemID?) -> [TreeChange] {
        var changes: [TreeChange] = []
        for change in items {
            let old = change.old.flatMap(spec.place)
            let new = change.new.flatMap(spec.place)
            guard old != nil || new != nil else { continue }
            let matches = change.new.map(spec.matches) ?? false
            if let old, let new, old == new, matches == change.old.map(spec.matches) { continue }
            changes.append(TreeChange(id: change.id, old: old, oldDepth: 0, new: new, newDepth: 0, matches: matches,
                                      deleted: change.new == nil))
        }
        guard changes.count > 1 else { return changes }
        for index in changes.indices {
            changes[index].newDepth = state.depth(of: changes[index].id)
            var depth = 0
            var current = oldParent(changes[index].id)
            while let parent = current, depth <= Limits.maxDepth {
                depth += 1
                current = oldParent(parent)
            }
            changes[index].oldDepth = depth
        }
        return changes
    }

    /// Brings `spec`'s order up to date (the manual order is already, in `state`): the item changes, then the
    /// top-level items of the moved lists when `spec` uses list positions.
    /// - Returns: the order's changes (its items' old and new places), nil when nothing in the order may have changed.
    /// - Complexity: O(k × depth × log n) for k item changes, plus O(m log n) for the m top-level items of
    ///   `listMoves` when `spec` uses list positions.
    private mutating func update(_ spec: IndexSpec, with items: [KeyChange], listMoves: [ListMove],
                                 oldParents: [ItemID: ItemID?]) -> [TreeChange]? {
        let changes = treeChanges(items, in: spec, oldParent: { id in oldParents[id] ?? state.item(id)?.parent })
        // The state keeps the manual order up to date; an item whose place stays changed only its row's content.
        guard !spec.isManualOrder else { return changes.isEmpty ? nil : changes }
        var touched = !changes.isEmpty
        // Taken out while it changes: the closure reads the state beside it.
        var order = indexes.removeValue(forKey: spec)!
        let table = state.items
        order.apply(changes, place: place(in: spec), parent: { table[$0]?.item.parent })
        if !order.collapsed.isEmpty {
            // A deleted item leaves a view's set of collapsed items, wherever it was deleted (its entry may have gone
            // with a move to another list, out of a list's view, and the set still held it).
            for change in items where change.new == nil { order.collapsed.remove(change.id) }
        }
        indexes[spec] = order
        // An order that does not use list positions (a list's own view, mostly) keys nothing by them.
        guard spec.usesListPosition else { return touched ? changes : nil }
        for move in listMoves where spec.source.list.map({ $0 == move.list }) ?? true {
            touched = rekey(spec, move) || touched
        }
        return touched ? changes : nil
    }

    /// Re-keys, in `spec`'s order (one that uses list positions), the top-level entries of a list that moved:
    /// each key differs from its old one in `listPosition` only (subtasks' keys carry none).
    /// - Complexity: O(m log n) for the list's m top-level items.
    private mutating func rekey(_ spec: IndexSpec, _ move: ListMove) -> Bool {
        guard let manual = state.manualOrders[move.list] else { return false }
        var touched = false
        var order = indexes.removeValue(forKey: spec)!
        TreeOrder.forEachKey(of: manual.top) { key in
            let item = key.record!.item
            let oldKey = spec.entryKey(Keyed(item: item, status: day.status(of: item), listPosition: move.old))
            var newKey = oldKey
            newKey.listPosition = move.new
            touched = order.rekeyTop(oldKey, to: newKey) || touched
        }
        indexes[spec] = order
        return touched
    }

    /// The change of one view after its order is current, or nil when nothing observable changed.
    private func refresh(_ view: inout OpenView, _ order: borrowing OrderNow, changedContent: ChangedContent,
                         listsChanged: Bool, paths: inout WindowPaths) -> ViewChange? {
        guard !order.isLoading else {
            // Loading: only the count can change; the window has no rows yet.
            return order.isUnchanged(for: view) ? nil : bump(&view, order, operations: [])
        }
        let contentTouched = changedContent.touches(view.rows)
        if view.spec.grouping != .none, order.touched || contentTouched || (listsChanged && view.spec.grouping == .list) {
            if let operations = groupedOperationsByRank(&view, order, changedContent: changedContent,
                                                        listsChanged: listsChanged) {
                paths.byRank += 1
                paths.byRankWithSections += 1
                return operations.isEmpty && order.isUnchanged(for: view) ? nil : bump(&view, order, operations: operations)
            }
            paths.byDiff += 1
            let operations = refreshGrouped(&view, changedContent: changedContent)
            return operations.isEmpty && order.isUnchanged(for: view) ? nil : bump(&view, order, operations: operations)
        }
        guard order.touched || contentTouched else {
            return order.isUnchanged(for: view) ? nil : bump(&view, order, operations: [])
        }
        if let single = order.single, !contentTouched {
            if isAfterWindow(single, of: view) {
                // One change, all of it after the full window: only the count can have changed.
                return order.isUnchanged(for: view) ? nil : bump(&view, order, operations: [])
            }
            if isBeforeWindow(single, of: view), var operations = shift(&view, in: order.index!) {
                // One change, all of it before the window: its rows shift, rows enter at one end and leave at the other.
                guard !operations.isEmpty || !order.isUnchanged(for: view) else { return nil }
                if !operations.isEmpty, operations.count >= view.rows.count { operations = [.reset(rows: rows(view.rows))] }
                return bump(&view, order, operations: operations)
            }
        }
        // Inside the window (or too close to tell cheaply): from ranks when one entry changed, else a diff.
        if let operations = operationsByRank(&view, order, changedContent: changedContent) {
            paths.byRank += 1
            return operations.isEmpty && order.isUnchanged(for: view) ? nil : bump(&view, order, operations: operations)
        }
        paths.byDiff += 1
        let operations = rediff(&view, changedContent: changedContent)
        guard !operations.isEmpty || !order.isUnchanged(for: view) else { return nil }
        return bump(&view, order, operations: operations)
    }

    /// The operations for a window whose rows all stayed as they were, in order, only shifted by rows added or
    /// removed before it: the rows entering at one end, those leaving at the other; nil when the shift is as large
    /// as the window (the diff decides then).
    /// - Complexity: O(depth × log n + rows entering and leaving).
    private func shift(_ view: inout OpenView, in order: TreeOrder) -> [WindowOperation]? {
        guard let first = view.rows.first,
              let rank = order.rank(of: first.item, place: place(in: view.spec)) else { return nil }
        let delta = rank - view.window.start
        guard delta != 0 else { return [] }
        guard abs(delta) < view.rows.count else { return nil }
        let capacity = view.window.end - view.window.start
        let available = max(0, min(view.window.end, order.rowCount) - view.window.start)
        var operations: [WindowOperation] = []
        if delta > 0 {
            // Rows arrived before the window: as many enter at its top, the bottom ones leave if it overflows.
            // The window's rows change in place (moved, not copied).
            let entering = order.rows(in: view.window.start..<(view.window.start + delta))
            while view.rows.count + entering.count > min(capacity, available) {
                operations.append(.remove(index: view.rows.count - 1))
                view.rows.removeLast()
            }
            for (offset, row) in entering.enumerated() { operations.append(.insert(index: offset, row: itemRow(row))) }
            view.rows.insert(contentsOf: entering, at: 0)
        } else {
            // Rows left before the window: its top ones leave, the rows after it enter at the bottom.
            let leaving = -delta
            for index in stride(from: leaving - 1, through: 0, by: -1) { operations.append(.remove(index: index)) }
            view.rows.removeFirst(leaving)
            let start = view.window.start + view.rows.count
            let entering = order.rows(in: start..<min(view.window.end, order.rowCount))
            for (offset, row) in entering.enumerated() { operations.append(.insert(index: view.rows.count + offset, row: itemRow(row))) }
            view.rows += entering
        }
        return operations
    }

    /// The operations that bring an ungrouped view's window from the rows its client holds to its order's rows
    /// now: a keyed diff, a row counted as changed when its item's content changed or it sits differently (depth,
    /// rows below, collapsed, context).
    /// - Complexity: O(depth × log n + w) for a window of w rows.
    func rediff(_ view: inout OpenView, changedContent: ChangedContent) -> [WindowOperation] {
        let rows = windowRows(of: view)
        var old: [ItemID: TreeRow] = [:]
        old.reserveCapacity(view.rows.count)
        for row in view.rows { old[row.item] = row }
        var new: [ItemID: TreeRow] = [:]
        new.reserveCapacity(rows.count)
        for row in rows { new[row.item] = row }
        let oldIDs = view.rows.map(\.item)
        view.rows = rows
        var operations = WindowDiff.operations(old: oldIDs, new: rows.map(\.item), changed: { id in
            changedContent.contains(id) || !(old[id]!.looksLike(new[id]!))
        }, row: { itemRow(new[$0]!) })
        if !operations.isEmpty, operations.count >= rows.count {
            operations = [.reset(rows: self.rows(rows))]
        }
        return operations
    }

    /// Advances a view's version and describes it with `operations`, as of `order`.
    private func bump(_ view: inout OpenView, _ order: OrderNow, operations: [WindowOperation]) -> ViewChange {
        view.version += 1
        view.lastCount = order.count
        view.lastEmpty = order.empty
        return ViewChange(view: view.id, version: view.version, count: order.count, window: view.window,
                          state: order.state, operations: operations, empty: order.empty)
    }
}

/// One order as `propagate` found it right after bringing its index up to date: what each of its views is
/// refreshed against, looked up once per mutation rather than once per view and question.
struct OrderNow {
    let spec: IndexSpec
    /// Whether the group may have changed anything in the order.
    let touched: Bool
    /// The group's one change of the order, when it made exactly one (and re-keyed no list).
    var single: TreeChange?
    /// Whether the order's index is being built.
    let isLoading: Bool
    /// The ready index (`Engine.index(_:)`).
    let index: TreeOrder?
    /// The number of rows of a view in this order (`Engine.count(of:)`).
    let count: Int?
    /// Why a view in this order is empty (`Engine.emptyReason(of:)`).
    let empty: EmptyReason?
    /// The state of a view in this order (`Engine.viewState(of:)`).
    let state: ViewState

    /// Whether a view's count and empty reason are as last sent.
    func isUnchanged(for view: OpenView) -> Bool {
        count == view.lastCount && empty == view.lastEmpty
    }
}

extension Engine {
    /// `spec`'s order as it is now, its index current.
    /// - Complexity: O(1).
    func orderNow(_ spec: IndexSpec, touched: Bool) -> OrderNow {
        let index = index(spec)
        let count = count(of: spec, index: index)
        return OrderNow(spec: spec, touched: touched, isLoading: !builds.isEmpty && builds[spec] != nil,
                        index: index, count: count, empty: emptyReason(of: spec, count: count),
                        state: viewState(of: spec))
    }
}

/// The items whose rows show other content after a group: the items themselves changed, or (parents) their
/// subtasks' counts did. Few of them (the usual case) are kept in an array and searched without hashing; many
/// in a set.
struct ChangedContent {
    /// Whether the items are few enough to search linearly.
    let isSmall: Bool
    private let few: [ItemID]
    private let many: Set<ItemID>

    /// - Parameters:
    ///   - changes: the items' key changes (an item whose value differs changed content; one only re-keyed did not).
    ///   - rekeyed: how many more items were only re-keyed (their lists moved): their content unchanged.
    ///   - parents: items whose subtasks' counts changed.
    /// - Complexity: O(k) for k changes.
    init(_ changes: [KeyChange], rekeyed: Int = 0, parents: [ItemID] = []) {
        let changed = changes.lazy.filter { $0.old?.item != $0.new?.item }.map(\.id)
        isSmall = changes.count + parents.count <= 16
        few = isSmall ? Array(changed) + parents : []
        many = isSmall ? [] : Set(changed).union(parents)
    }

    /// The items, when they are few (duplicates possible); nil when many.
    var items: [ItemID]? { isSmall ? few : nil }

    /// No row content changed (keys only).
    init(unchanged: Void) {
        isSmall = true
        few = []
        many = []
    }

    /// Whether the item's content changed.
    func contains(_ id: ItemID) -> Bool {
        isSmall ? few.contains(id) : many.contains(id)
    }

    /// Whether any of `rows` shows an item whose content changed.
    /// - Complexity: O(rows) when few items changed, else O(rows) hash lookups.
    func touches(_ rows: [TreeRow]) -> Bool {
        if isSmall && few.isEmpty { return false }
        return rows.contains { contains($0.item) }
    }
}
