// A grouped view's window operations from ranks: the changed item's row before and after, past the section headers.

extension Engine {
    /// `operationsByRank` for a view with sections, whose rows are each section's header then its rows: the same
    /// operations `refreshGrouped` finds, from the changed item's rank and section before and after (a row's index in
    /// the view is its rank in the order plus the headers up to its own), with the headers whose counts changed
    /// updated. `view.groupedRows` and `view.rows` become the window's rows now.
    ///
    /// Nil (nothing done) where `operationsByRank` gives up, and when a section comes or goes (or lists changed, in
    /// sections by list): `refreshGrouped` settles those.
    /// - Complexity: O((1 + c) × depth × log n + sections × (log sections + depth × log n)) for c items whose content
    ///   changed: independent of the window's size, but for moving the held rows' arrays past a row.
    func groupedOperationsByRank(_ view: inout OpenView, _ order: borrowing OrderNow, changedContent: ChangedContent,
                                 listsChanged: Bool) -> [WindowOperation]? {
        guard derivesWindowsByRank, view.spec.grouping != .none, !(listsChanged && view.spec.grouping == .list),
              let index = order.index, let contentItems = changedContent.items, let oldCount = view.lastCount else {
            return nil
        }
        let entries = sections(of: view.spec)
        let slots = index.sections.keys.sorted { $0.precedes($1) }
        guard slots.count == entries.count else { return nil }
        // The sections now: each one's first rank in the order, and its header's rank in the view.
        var starts: [Int] = []
        var total = 0
        for entry in entries {
            starts.append(total)
            total += entry.rows
        }
        func section(ofRank rank: Int) -> Int { (starts.lastIndex { $0 <= rank }) ?? 0 }
        let newCount = index.rowCount + entries.count
        let place = place(in: view.spec)
        var change: RankedChange?
        var oldSection: Int?
        var newSection: Int?
        if order.touched {
            // With the same sections before and after (checked below), the view's rows less the order's are theirs.
            guard let single = order.single,
                  let ranked = ranked(single, in: index, place: place, countDelta: oldCount - newCount) else { return nil }
            if let new = ranked.new { newSection = section(ofRank: new) }
            if ranked.old != nil {
                if let old = single.old, old.parent == nil {
                    guard let at = slots.firstIndex(of: index.slot(old.key)) else { return nil }
                    oldSection = at
                } else {
                    oldSection = newSection
                }
                guard oldSection != nil else { return nil }
            }
            // No section came: the changed item's section now held other rows, or held it already.
            if let newSection, newSection != oldSection, entries[newSection].rows < 2 { return nil }
            change = ranked
        } else {
            guard oldCount == newCount else { return nil }
        }
        let start = view.window.start
        let oldRows = max(0, min(view.window.end, oldCount) - start)
        let newRows = max(0, min(view.window.end, newCount) - start)
        guard view.groupedRows.count == oldRows else { return nil }
        // The headers' ranks in the view before and after.
        var oldHeaders: [Int] = []
        var newHeaders: [Int] = []
        var oldTotal = 0
        for (at, entry) in entries.enumerated() {
            newHeaders.append(starts[at] + at)
            oldHeaders.append(oldTotal + at)
            oldTotal += entry.rows - (newSection == at ? 1 : 0) + (oldSection == at ? 1 : 0)
        }
        var headers = oldHeaders.filter { $0 >= start && $0 < start + oldRows }.map { $0 - start }
        for header in headers {
            guard case .header = view.groupedRows[header] else { return nil }
        }
        guard view.rows.count == oldRows - headers.count else { return nil }
        let shift = WindowShift(start: start, oldRows: oldRows, newRows: newRows,
                                old: change?.old.map { $0 + oldSection! + 1 }, new: change?.new.map { $0 + newSection! + 1 })
        if let oldIndex = shift.oldIndex, view.groupedRows[oldIndex].id != change.map({ .item($0.id) }) { return nil }
        guard shift.leaving.count + shift.entering.count <= 4 else { return nil }
        /// The row at rank `rank` of the view now: a header, or an item's row (with its tree row).
        func row(atViewRank rank: Int) -> (row: Row, tree: TreeRow?) {
            let at = newHeaders.lastIndex { $0 <= rank } ?? 0
            if newHeaders[at] == rank { return (header(entries[at]), nil) }
            let tree = index.row(at: rank - at - 1)
            return (itemRow(tree), tree)
        }
        var operations: [WindowOperation] = []
        let removals = shift.removals
        for removal in removals { operations.append(.remove(index: removal)) }
        let changedRow = change?.row.map { (row: itemRow($0), tree: $0) }
        var moved: (from: Int, to: Int)?
        var updates: [(index: Int, row: Row, tree: TreeRow?)] = []
        if let change, let changedRow, let oldIndex = shift.oldIndex, let newIndex = shift.newIndex, let move = shift.move {
            let changed = changedContent.contains(change.id) || view.groupedRows[oldIndex] != changedRow.row
            if move.from != move.to {
                moved = move
                operations.append(.move(from: move.from, to: move.to, row: changed ? changedRow.row : nil))
            } else if changed {
                updates.append((newIndex, changedRow.row, changedRow.tree))
            }
        }
        var insertions = shift.entering.map { other in
            let index = shift.after(other)
            let found = row(atViewRank: start + index)
            return (index: index, row: found.row, tree: found.tree)
        }
        if let changedRow, let newIndex = shift.newIndex, shift.oldIndex == nil {
            insertions.append((newIndex, changedRow.row, changedRow.tree))
        }
        insertions.sort { $0.index < $1.index }
        for insertion in insertions { operations.append(.insert(index: insertion.index, row: insertion.row)) }
        // Updates of the kept rows of other items whose content changed, and of headers whose counts changed.
        for id in contentItems where id != change?.id {
            guard let rank = index.rank(of: id, place: place) else { continue }
            let viewRank = rank + section(ofRank: rank) + 1
            guard viewRank >= start, viewRank < start + newRows, shift.kept.contains(shift.other(atRank: viewRank)),
                  !updates.contains(where: { $0.index == viewRank - start }) else { continue }
            let tree = index.row(at: rank)
            updates.append((viewRank - start, itemRow(tree), tree))
        }
        for (at, rank) in newHeaders.enumerated() where rank >= start && rank < start + newRows {
            let other = shift.other(atRank: rank)
            guard shift.kept.contains(other) else { continue }
            let now = header(entries[at])
            if view.groupedRows[shift.before(other)] != now { updates.append((rank - start, now, nil)) }
        }
        updates.sort { $0.index < $1.index }
        for update in updates { operations.append(.update(index: update.index, row: update.row)) }
        // The held rows follow the same operations; `headers` keeps where the headers are among them.
        func itemIndex(_ index: Int) -> Int { index - headers.count { $0 < index } }
        func remove(at index: Int) {
            if let header = headers.firstIndex(of: index) { headers.remove(at: header) } else { view.rows.remove(at: itemIndex(index)) }
            view.groupedRows.remove(at: index)
            for at in headers.indices where headers[at] > index { headers[at] -= 1 }
        }
        func insert(_ row: Row, _ tree: TreeRow?, at index: Int) {
            for at in headers.indices where headers[at] >= index { headers[at] += 1 }
            view.groupedRows.insert(row, at: index)
            if let tree { view.rows.insert(tree, at: itemIndex(index)) } else { headers.append(index) }
        }
        for removal in removals { remove(at: removal) }
        if let moved, let changedRow {
            remove(at: moved.from)
            insert(changedRow.row, changedRow.tree, at: moved.to)
        }
        for insertion in insertions { insert(insertion.row, insertion.tree, at: insertion.index) }
        if let newIndex = shift.newIndex, let changedRow {
            view.groupedRows[newIndex] = changedRow.row
            view.rows[itemIndex(newIndex)] = changedRow.tree
        }
        for update in updates {
            view.groupedRows[update.index] = update.row
            if let tree = update.tree { view.rows[itemIndex(update.index)] = tree }
        }
        if !operations.isEmpty, operations.count >= newRows { operations = [.reset(rows: view.groupedRows)] }
        return operations
    }
}
