// Applying mutations: the state changes, then every shared index, then each affected view's window changeset.

extension Engine {
    /// Applies `mutations` as one atomic group and derives the change of every affected view from what changed.
    ///
    /// Views on a deleted list are closed (state `closed(reason: "listDeleted")`). A view gets a change only
    /// when its count, its window's rows or its state changed; a change outside its window carries no
    /// operations, only the new count.
    /// - Throws: the first refusal; nothing changed then (state, indexes and views are as before).
    /// - Complexity: O(k log n) for k items changed, plus O(w log w) per view whose window of w rows is touched;
    ///   a `moveLists` adds O(m log n) per open order that uses list positions (smart groups, sections by list)
    ///   for the m items of the lists it repositions: the side holding fewer items (`TaskState.moveLists`).
    public mutating func apply(_ mutations: [Mutation]) throws(DomainError) -> Applied {
        let changes = try state.apply(mutations)
        var viewChanges = closeViews(ofDeleted: changes.lists)
        viewChanges += propagate(keyChanges(for: changes), listsChanged: !changes.lists.isEmpty)
        viewChanges.sort { $0.view < $1.view }
        return Applied(changes: changes, viewChanges: viewChanges, revision: state.revision)
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
    ///   the m items of `listMoves` (nothing for them in other orders), plus O(w log w) per view whose window of
    ///   w rows is touched.
    mutating func propagate(_ items: [KeyChange], listMoves: [ListMove] = [], listsChanged: Bool = false,
                            contentChanged: Bool = true) -> [ViewChange] {
        var viewChanges: [ViewChange] = []
        logForBuilds(items, listMoves: listMoves)
        let ids = views.keys.sorted()
        // The orders in use, few: searched linearly, each updated once however many views share it, then
        // looked up once (its index, count and empty reason) for all its views.
        var orders: [OrderNow] = []
        for id in ids {
            let spec = views[id]!.spec
            if !orders.contains(where: { $0.spec == spec }) {
                // Time moving on changes no key of an order that does not depend on the day.
                let affected = (builds.isEmpty || builds[spec] == nil) && (contentChanged || spec.dependsOnDay)
                let lowest = affected ? update(spec, with: items, listMoves: listMoves) : nil
                orders.append(orderNow(spec, lowestTouched: lowest))
            }
        }
        let rekeyed = listMoves.reduce(0) { $0 + $1.itemCount }
        let changedContent = contentChanged
            ? ChangedContent(items, rekeyed: rekeyed, rekeyedIDs: { listMoves.flatMap(itemIDs) })
            : ChangedContent(unchanged: ())
        let single = items.count + rekeyed != 1 ? nil : items.first ?? rekeyedChange(listMoves.first { $0.itemCount == 1 }!)
        for id in ids {
            var view = views.removeValue(forKey: id)!
            let order = orders.firstIndex { $0.spec == view.spec }!
            if let change = refresh(&view, orders[order], changedContent: changedContent, single: single,
                                    listsChanged: listsChanged) {
                viewChanges.append(change)
            }
            views[id] = view
        }
        return viewChanges
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

    /// Remembers, for each pending build, the snapshot value of every item of its source changed since (and of
    /// every item of a moved list, for a build whose order uses list positions).
    private mutating func logForBuilds(_ items: [KeyChange], listMoves: [ListMove]) {
        for spec in Array(builds.keys) {
            for change in items where change.old.flatMap(spec.key) != nil || change.new.flatMap(spec.key) != nil {
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

    /// Brings `spec`'s index up to date (the manual order is already, in `state`): the item changes, then the
    /// items of the moved lists when `spec` uses list positions.
    /// - Returns: the lowest key, old or new, of any changed item in the source; nil when none is in it.
    /// - Complexity: O(k log n) for k item changes, plus O(m log n) for the m items of `listMoves` when `spec`
    ///   uses list positions.
    private mutating func update(_ spec: IndexSpec, with items: [KeyChange], listMoves: [ListMove]) -> OrderKey? {
        var lowest: OrderKey?
        let maintained = !spec.isManualOrder
        for change in items {
            let old = change.old.flatMap(spec.key)
            let new = change.new.flatMap(spec.key)
            if let old, lowest.map({ old < $0 }) ?? true { lowest = old }
            if let new, lowest.map({ new < $0 }) ?? true { lowest = new }
            guard maintained, old != new else { continue }
            reindex(spec, old: old.map { ($0, change.old!) }, new: new.map { ($0, change.new!) })
        }
        // An order that does not use list positions (a list's own view, mostly) keys nothing by them.
        guard spec.usesListPosition else { return lowest }
        for move in listMoves where spec.source.list.map({ $0 == move.list }) ?? true {
            rekey(spec, move, lowest: &lowest)
        }
        return lowest
    }

    /// Re-keys, in `spec`'s index (an order that uses list positions), the items of a list that moved: each
    /// key differs from its old one in `listPosition` only, so it is computed once and patched, and every key
    /// of the list shares one copy of the new position's bytes (which `OrderKey`'s comparison tells at once).
    /// - Complexity: O(m log n) for the list's m items.
    private mutating func rekey(_ spec: IndexSpec, _ move: ListMove, lowest: inout OrderKey?) {
        guard let order = state.manualOrders[move.list] else { return }
        let newBytes = move.new.bytes
        // In chunks: the keys of a large list are never all copied at once.
        var start = 0
        while start < order.count {
            let chunk = order.keys(in: start..<min(start + 4_096, order.count))
            start += chunk.count
            for manual in chunk {
                let item = manual.record!.item
                var keyed = Keyed(item: item, status: day.status(of: item), listPosition: move.old)
                guard let oldKey = spec.key(keyed) else { continue }
                var newKey = oldKey
                newKey.listPosition = newBytes
                if lowest.map({ oldKey < $0 }) ?? true { lowest = oldKey }
                if newKey < lowest! { lowest = newKey }
                let oldKeyed = keyed
                keyed.listPosition = move.new
                reindex(spec, old: (oldKey, oldKeyed), new: (newKey, keyed))
            }
        }
    }

    /// The ids of the items of a moved list.
    private func itemIDs(_ move: ListMove) -> [ItemID] {
        state.items(in: move.list, ranks: 0..<move.itemCount).map(\.id)
    }

    /// The key change of the one item of a moved list.
    private func rekeyedChange(_ move: ListMove) -> KeyChange {
        let item = state.items(in: move.list, ranks: 0..<1)[0]
        return KeyChange(id: item.id, old: keyed(item, listPosition: move.old), new: keyed(item, listPosition: move.new))
    }

    /// The change of one view after its index is current, or nil when nothing observable changed.
    private func refresh(_ view: inout OpenView, _ order: OrderNow, changedContent: ChangedContent,
                         single: KeyChange?, listsChanged: Bool) -> ViewChange? {
        guard !order.isLoading else {
            // Loading: only the count can change; the window has no rows yet.
            return order.isUnchanged(for: view) ? nil : bump(&view, order, operations: [])
        }
        let lowestTouched = order.lowestTouched
        if view.spec.grouping != .none, lowestTouched != nil || (listsChanged && view.spec.grouping == .list) {
            let operations = refreshGrouped(&view, changedContent: changedContent, lowestTouched: lowestTouched)
            return operations.isEmpty && order.isUnchanged(for: view) ? nil : bump(&view, order, operations: operations)
        }
        guard let lowestTouched else { return order.isUnchanged(for: view) ? nil : bump(&view, order, operations: []) }
        let index = order.index!
        if view.keys.count == view.window.end - view.window.start, let last = view.keys.last, last < lowestTouched {
            // The window is full and every change is below it: only the count can have changed.
            return order.isUnchanged(for: view) ? nil : bump(&view, order, operations: [])
        }
        if let single, var operations = shift(&view, by: single, in: index) {
            guard !operations.isEmpty || !order.isUnchanged(for: view) else { return nil }
            if !operations.isEmpty, operations.count >= view.keys.count {
                operations = [.reset(rows: rows(view.keys))]
            }
            return bump(&view, order, operations: operations)
        }
        let keys = index.keys(in: view.window.ranks(count: index.count))
        let old = view.keys.map(\.item)
        let new = keys.map(\.item)
        view.keys = keys
        let row: (ItemID) -> Row = { .item(state.item($0)!) }
        var operations = changedContent.isSmall
            ? WindowDiff.operations(old: old, new: new, touched: changedContent.touched, changed: changedContent.contains,
                                    row: row)
            : WindowDiff.operations(old: old, new: new, changed: changedContent.contains, row: row)
        if !operations.isEmpty, operations.count >= keys.count {
            operations = [.reset(rows: rows(keys))]
        }
        guard !operations.isEmpty || !order.isUnchanged(for: view) else { return nil }
        return bump(&view, order, operations: operations)
    }

    /// The operations for one item's change that leaves it outside a non-empty window before and after,
    /// shifting the window's rows by at most one (a row leaving or arriving above it); nil when the
    /// item is or becomes part of the window, which the keyed diff then handles.
    /// - Complexity: O(log n), plus O(w) to shift the kept keys.
    private func shift(_ view: inout OpenView, by change: KeyChange, in index: OrderedIndex<OrderKey>) -> [WindowOperation]? {
        guard let first = view.keys.first, let last = view.keys.last else { return nil }
        let full = view.keys.count == view.window.end - view.window.start
        func above(_ keyed: Keyed?) -> Bool? {
            guard let keyed, let key = view.spec.key(keyed) else { return false }
            if key < first { return true }
            return full && last < key ? false : nil
        }
        guard let wasAbove = above(change.old), let isAbove = above(change.new) else { return nil }
        switch (wasAbove, isAbove) {
        case (true, false):
            // A row left above: the window's rows move up one, and the row after them enters at the bottom.
            var operations: [WindowOperation] = [.remove(index: 0)]
            view.keys.removeFirst()
            if view.window.end - 1 < index.count {
                let entering = index.key(at: view.window.end - 1)
                view.keys.append(entering)
                operations.append(.insert(index: view.keys.count - 1, row: itemRow(entering)))
            }
            return operations
        case (false, true):
            // A row arrived above: the window's rows move down one, the last one leaves if the window was full.
            var operations: [WindowOperation] = []
            if full {
                view.keys.removeLast()
                operations.append(.remove(index: view.keys.count))
            }
            let entering = index.key(at: view.window.start)
            view.keys.insert(entering, at: 0)
            operations.append(.insert(index: 0, row: itemRow(entering)))
            return operations
        default:
            return []
        }
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
    /// The lowest key, old or new, of any changed item in the order; nil when none is in it.
    let lowestTouched: OrderKey?
    /// Whether the order's index is being built.
    let isLoading: Bool
    /// The ready index (`Engine.index(_:)`).
    let index: OrderedIndex<OrderKey>?
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
    func orderNow(_ spec: IndexSpec, lowestTouched: OrderKey?) -> OrderNow {
        let index = index(spec)
        let count = count(of: spec, index: index)
        return OrderNow(spec: spec, lowestTouched: lowestTouched, isLoading: !builds.isEmpty && builds[spec] != nil,
                        index: index, count: count, empty: emptyReason(of: spec, count: count),
                        state: viewState(of: spec))
    }
}

/// The items a group touched, and which of them show other content: few of them (the usual case) are kept
/// in arrays and diffed without hashing; many are kept in a set.
///
/// An item is touched when its key in some order may have changed (it was created, changed or deleted, or its
/// list moved); its content changed only when the item itself did. Rows are updated, and moves carry their
/// row, only for a change of content: a list's move re-keys its items without changing a row.
struct ChangedContent {
    /// Whether the group touched few enough items for `WindowDiff.operations(old:new:touched:changed:row:)`.
    let isSmall: Bool
    /// Every item the group touched, when `isSmall`.
    let touched: [ItemID]
    /// The touched items whose content changed, when `isSmall`.
    private let few: [ItemID]
    /// The touched items whose content changed, when not `isSmall`.
    private let many: Set<ItemID>

    /// - Parameters:
    ///   - changes: the items' key changes.
    ///   - rekeyed: how many more items were only re-keyed (their lists moved): touched, their content unchanged.
    ///   - rekeyedIDs: their ids, asked only when few items were touched in all.
    /// - Complexity: O(k) for k changes (plus the re-keyed ones, when few).
    init(_ changes: [KeyChange], rekeyed: Int = 0, rekeyedIDs: () -> [ItemID] = { [] }) {
        isSmall = changes.count + rekeyed <= 16
        let changed = changes.lazy.filter { $0.old?.item != $0.new?.item }.map(\.id)
        touched = isSmall ? changes.map(\.id) + rekeyedIDs() : []
        few = isSmall ? Array(changed) : []
        many = isSmall ? [] : Set(changed)
    }

    /// No row content changed (keys only): the window is diffed by hashing, with no row updated in place.
    init(unchanged: Void) {
        isSmall = false
        touched = []
        few = []
        many = []
    }

    /// Whether the item's content changed (every touched item whose value differs: `Changes` leaves out what
    /// ended as it began, and an item re-keyed by its list's move keeps its value).
    func contains(_ id: ItemID) -> Bool {
        isSmall ? few.contains(id) : many.contains(id)
    }
}
