// A view's window operations from ranks: each changed item's row index before and after, with the window's bounds.

/// How many view refreshes derived their window operations from ranks and how many by a diff of the window.
public struct WindowPaths: Sendable, Equatable {
    /// Refreshes whose operations came from the changed items' ranks: O(changes × depth × log n).
    public var byRank = 0
    /// Of those, the refreshes of views with sections.
    public var byRankWithSections = 0
    /// Refreshes that diffed the window (`WindowDiff`): O(window).
    public var byDiff = 0

    public init() {}
}

/// One item whose entry a group changed, as a view's rows see it: whether it had a row before the group and has one
/// after, and at which ranks (in the whole order).
struct RankedChange {
    let id: ItemID
    /// Its rank before the group, nil when it had no row.
    let old: Int?
    /// Its rank after the group, nil when it has no row.
    let new: Int?
    /// Its row after the group.
    let row: TreeRow?
}

extension Engine {
    /// The operations that bring an ungrouped view's window from the rows its client holds to its order's rows now,
    /// derived from the ranks of the one item whose entry the group changed (if any) and of the items whose content
    /// changed, without reading the window: the same operations `rediff` finds (removals bottom up, the changed
    /// item's move, insertions top down, updates), so rows that only shift get none. `view.rows` becomes the
    /// window's rows now.
    ///
    /// Nil (nothing done) when the group is not one this settles: more than one entry changed (or lists were
    /// re-keyed), many items changed content, the changed entry stands for more than its own row (its subtree is
    /// shown below it), it comes or goes below a parent (the parent's row changes with it, and context rows may
    /// come or go), it changes parent, or a collapsed ancestor hides it. `rediff` settles those.
    /// - Complexity: O((1 + c) × depth × log n) for c items whose content changed: independent of the window's size,
    ///   but for moving the held rows' array past an inserted or removed row.
    func operationsByRank(_ view: inout OpenView, _ order: borrowing OrderNow,
                          changedContent: ChangedContent) -> [WindowOperation]? {
        guard derivesWindowsByRank, view.spec.grouping == .none, let index = order.index,
              let contentItems = changedContent.items, let oldCount = view.lastCount else { return nil }
        let newCount = index.rowCount
        let place = place(in: view.spec)
        var change: RankedChange?
        if order.touched {
            guard let single = order.single,
                  let ranked = ranked(single, in: index, place: place, countDelta: oldCount - newCount) else { return nil }
            change = ranked
        } else {
            guard oldCount == newCount else { return nil }
        }
        let start = view.window.start
        let oldRows = max(0, min(view.window.end, oldCount) - start)
        let newRows = max(0, min(view.window.end, newCount) - start)
        guard view.rows.count == oldRows else { return nil }
        let shift = WindowShift(start: start, oldRows: oldRows, newRows: newRows, old: change?.old, new: change?.new)
        if let oldIndex = shift.oldIndex, view.rows[oldIndex].item != change?.id { return nil }
        guard shift.leaving.count + shift.entering.count <= 4 else { return nil }
        var operations: [WindowOperation] = []
        let removals = shift.removals
        for removal in removals { operations.append(.remove(index: removal)) }
        // The changed item in the window before and after: moved when the kept rows before it differ, with its row
        // when its content changed or it sits differently; else updated when so.
        var moved: (from: Int, to: Int)?
        var updates: [(index: Int, row: TreeRow)] = []
        if let change, let row = change.row, let oldIndex = shift.oldIndex, let newIndex = shift.newIndex,
           let move = shift.move {
            let changed = changedContent.contains(change.id) || !view.rows[oldIndex].looksLike(row)
            if move.from != move.to {
                moved = move
                operations.append(.move(from: move.from, to: move.to, row: changed ? itemRow(row) : nil))
            } else if changed {
                updates.append((newIndex, row))
            }
        }
        var insertions = shift.entering.map { (index: shift.after($0), row: index.row(at: start + shift.after($0))) }
        if let change, let row = change.row, let newIndex = shift.newIndex, shift.oldIndex == nil {
            insertions.append((newIndex, row))
        }
        insertions.sort { $0.index < $1.index }
        for insertion in insertions { operations.append(.insert(index: insertion.index, row: itemRow(insertion.row))) }
        // Updates of the kept rows of other items whose content changed.
        for id in contentItems where id != change?.id {
            guard let rank = index.rank(of: id, place: place), rank >= start, rank < start + newRows,
                  shift.kept.contains(shift.other(atRank: rank)),
                  !updates.contains(where: { $0.index == rank - start }) else { continue }
            updates.append((rank - start, index.row(at: rank)))
        }
        updates.sort { $0.index < $1.index }
        for update in updates { operations.append(.update(index: update.index, row: itemRow(update.row))) }
        // The held rows follow the same operations.
        for removal in removals { view.rows.remove(at: removal) }
        if let moved, let row = change?.row {
            view.rows.remove(at: moved.from)
            view.rows.insert(row, at: moved.to)
        }
        for insertion in insertions { view.rows.insert(insertion.row, at: insertion.index) }
        if let newIndex = shift.newIndex, let row = change?.row { view.rows[newIndex] = row }
        for update in updates { view.rows[update.index] = update.row }
        if !operations.isEmpty, operations.count >= newRows { operations = [.reset(rows: rows(view.rows))] }
        return operations
    }

    /// `change`'s ranks before and after the group in `order` (current), when its row is one row (no subtree shown
    /// below it) that either stays under the same parent or comes or goes at the top level; nil otherwise.
    /// `countDelta` is the order's rows before the group less its rows now: with one entry changed, whether the
    /// item had a row before.
    /// - Complexity: O(depth × log n).
    func ranked(_ change: TreeChange, in order: TreeOrder, place: (ItemID) -> TreePlace?,
                countDelta: Int) -> RankedChange? {
        let entry = change.new.flatMap { order.entry(at: $0) }
        if let entry, entry.weight != 1 { return nil }
        let hadRow = (entry == nil ? 0 : 1) + countDelta
        guard hadRow == 0 || hadRow == 1 else { return nil }
        let old = hadRow == 1 ? change.old : nil
        if hadRow == 1, old == nil { return nil }
        let new = entry == nil ? nil : change.new
        switch (old, new) {
        case let (old?, new?): guard old.parent == new.parent else { return nil }
        case let (old?, nil): guard old.parent == nil else { return nil }
        case let (nil, new?): guard new.parent == nil else { return nil }
        case (nil, nil):
            // No row before or after; below a parent, the parent's row may change (its entries below come or go).
            guard change.old?.parent == nil, change.new?.parent == nil else { return nil }
            return RankedChange(id: change.id, old: nil, new: nil, row: nil)
        }
        var newRank: Int?
        if new != nil {
            guard let rank = order.rank(of: change.id, place: place) else { return nil }
            newRank = rank
        }
        var oldRank: Int?
        if let old {
            guard let siblings = order.siblings(under: old.parent) else { return nil }
            var base = 0
            if let parent = old.parent {
                guard let rank = order.rank(of: parent, place: place) else { return nil }
                base = rank + 1
            }
            // The old key's place among the entries now: past the item's own row when it now sorts before it.
            oldRank = base + siblings.insertionRank(of: old.key) - (new.map { $0.key < old.key ? 1 : 0 } ?? 0)
        }
        return RankedChange(id: change.id, old: oldRank, new: newRank, row: newRank.map { order.row(at: $0) })
    }
}
