// Index-addressed moves: translating "move these rows of my view to here" into a move by ids.

extension Engine {
    /// Translates a move of the `count` rows at indexes `from ..< from + count` of `view`, with the rows of their
    /// subtrees shown right after them (the rows after the block deeper than its shallowest row), into a
    /// `moveItems` mutation, for the server to apply right away; nil when `to` equals `from` (the block is dropped
    /// where it is: nothing changes). `to` is the index the block's first row has after the move, counted in the
    /// view without the whole block, as in a `move` operation.
    ///
    /// Only a view in manual ascending order can be reordered, and only its item rows. The block keeps the
    /// view's order and lands by the rows around it in the view without it, `previous` (before `to`) and `next`
    /// (at `to`), at a depth from `next`'s (when it is an item of the same section; else 0) to `previous`'s + 1
    /// (its own when it is collapsed; 0 when there is no item before `to` in the section), by default `next`'s
    /// (protocol.md, `items/move`):
    /// - at `previous`'s depth + 1: the first subtasks of `previous`;
    /// - at a depth d up to `previous`'s: just after S, the ancestor-or-self of `previous` at depth d, among S's
    ///   siblings (after S's whole subtree, shown or not), in S's list;
    /// - when there is no item before `to` in its section: just before the item of the row at `to`, as its
    ///   sibling, if that row is an item of the same section;
    /// - else, after a list's header (a view grouped by list), at the end of that list's top level;
    /// - else (no item row of the section is left), just after the block's own last item, among its siblings.
    ///
    /// In a grouped view, index `to` counts the headers as they were (a header whose section the block empties
    /// stays counted) and the block joins the section of the row just before it; it may change section only in
    /// a view grouped by list (it moves to that list).
    /// - Throws: `unknownView`; `staleVersion` when `seenVersion` is not the view's version; `refused` with
    ///   reason `sortedView` for any other sort, `viewLoading` while loading, `crossSection` for a move between sections
    ///   of a view not grouped by list; `invalidField("count")` below 1, `invalidField("from")` when the rows are
    ///   out of range or name a header, `invalidField("to")` out of range or before the first header,
    ///   `invalidField("depth")` outside the depths the drop allows.
    /// - Complexity: O(rows moved × log n + depth × log n + sections).
    public func moveMutation(view: ViewID, from: Int, count: Int, to target: Int, depth wanted: Int? = nil,
                             seenVersion: UInt64, at time: Timestamp) throws(DomainError) -> Mutation? {
        guard let open = views[view] else { throw .unknownView(view) }
        guard seenVersion == open.version else {
            throw .staleVersion(view: view, seen: seenVersion, current: open.version)
        }
        guard open.spec.sort == .manual else {
            throw .refused(reason: "sortedView",
                           message: "view \(view) is not in manual ascending order; rows can only be reordered in manual order")
        }
        guard let order = index(open.spec) else {
            throw .refused(reason: "viewLoading", message: "view \(view) is still loading; its rows cannot be moved yet")
        }
        let layout = RowLayout(sections: sections(of: open.spec), grouped: open.spec.grouping != .none, items: order.rowCount)
        guard from >= 0 else { throw .invalidField(field: "from", problem: "must not be negative") }
        guard count >= 1 else { throw .invalidField(field: "count", problem: "must be at least 1") }
        guard from < layout.count else {
            throw .invalidField(field: "from", problem: "must be below the view's count, \(layout.count), got \(from)")
        }
        guard count <= layout.count - from else {
            throw .invalidField(field: "count", problem: "from + count must be at most the view's count, \(layout.count)")
        }
        let named = from..<(from + count)
        guard named.allSatisfy({ layout.row($0).rank != nil }) else {
            throw .invalidField(field: "from", problem: "rows \(named) must name item rows only, not section headers")
        }
        // The block carries the rows shown below its rows.
        let shallowest = named.map { order.row(at: layout.row($0).rank!).depth }.min()!
        var end = named.upperBound
        while end < layout.count, let rank = layout.row(end).rank, order.row(at: rank).depth > shallowest { end += 1 }
        let rows = from..<end
        let block = rows.map(layout.row)
        let remaining = layout.count - rows.count
        guard (0...remaining).contains(target), target > 0 || !layout.grouped || remaining == 0 else {
            throw .invalidField(field: "to", problem: "must be within \(layout.grouped ? 1 : 0)...\(remaining)")
        }
        // Dropped where it is: whatever the view hides around it, the client asked for no change.
        guard target != from || wanted != nil else { return nil }
        let ids = order.rows(in: block.first!.rank!..<block.last!.rank! + 1).map(\.item)
        let moving = Set(ids)
        // The rows around the block's destination, in the view without the block.
        let original = { (index: Int) in layout.row(index < rows.lowerBound ? index : index + rows.count) }
        let previousRow = target > 0 ? original(target - 1) : nil
        let nextRow = target < remaining ? original(target) : nil
        let section = previousRow?.section ?? nextRow?.section ?? block[0].section
        let previous = previousRow?.rank.map { order.row(at: $0) }
        let next = nextRow.flatMap { $0.section == section ? $0.rank : nil }.map { order.row(at: $0) }
        let lowest = next?.depth ?? 0
        let highest = previous.map { $0.depth + ($0.collapsed ? 0 : 1) } ?? lowest
        if let wanted, !(lowest...max(lowest, highest)).contains(wanted) {
            throw .invalidField(field: "depth", problem: lowest == highest
                ? "must be \(lowest) at index \(target), got \(wanted)"
                : "must be within \(lowest)...\(highest) at index \(target), got \(wanted)")
        }
        // After the depth, as protocol.md orders the checks.
        if layout.grouped, open.spec.grouping != .list, block.contains(where: { $0.section != section }) {
            throw .refused(reason: "crossSection",
                           message: "view \(view) is grouped by \(open.spec.grouping.rawValue); items can only move within their section")
        }
        let depth = wanted ?? min(max(next?.depth ?? 0, lowest), max(lowest, highest))
        // Dropped where it is at its own depth: nothing changes.
        if target == from, depth == shallowest { return nil }
        if let previous {
            let after = state.item(previous.item)!
            if depth == previous.depth + 1 {
                return .moveItems(ids: ids, toList: after.list, before: firstSubtask(of: after, skipping: moving),
                                  parent: .set(after.id), at: time)
            }
            var anchor = after
            for _ in 0..<(previous.depth - depth) { anchor = state.item(anchor.parent!)! }
            return .moveItems(ids: ids, toList: anchor.list, before: successor(of: anchor, skipping: moving),
                              parent: anchor.parent.map { .set($0) } ?? .clear, at: time)
        }
        if let next {
            let anchor = state.item(next.item)!
            return .moveItems(ids: ids, toList: anchor.list, before: anchor.id,
                              parent: anchor.parent.map { .set($0) } ?? .clear, at: time)
        }
        if case .list(let list)? = layout.sections.indices.contains(section) ? layout.sections[section].section : nil {
            return .moveItems(ids: ids, toList: list, before: nil, parent: .clear, at: time)
        }
        let last = state.item(block.compactMap { $0.rank }.map { order.row(at: $0) }.last { $0.depth == shallowest }!.item)!
        return .moveItems(ids: ids, toList: last.list, before: successor(of: last, skipping: moving),
                          parent: last.parent.map { .set($0) } ?? .clear, at: time)
    }

    /// The sibling after `item` in its list's manual order that is not in `skipped`; nil at the end of its siblings.
    /// - Complexity: O(log n × (1 + skipped siblings)).
    private func successor(of item: Item, skipping skipped: Set<ItemID>) -> ItemID? {
        guard let siblings = state.manualOrders[item.list]!.siblings(under: item.parent) else { return nil }
        var key = siblings.key(after: OrderKey(manual: item))
        while let candidate = key, skipped.contains(candidate.item) { key = siblings.key(after: candidate) }
        return key?.item
    }

    /// The first subtask of `item` that is not in `skipped`; nil when there is none.
    private func firstSubtask(of item: Item, skipping skipped: Set<ItemID>) -> ItemID? {
        guard let subtasks = state.manualOrders[item.list]!.siblings(under: item.id), !subtasks.isEmpty else { return nil }
        var key: OrderKey? = subtasks.entry(covering: 0).key
        while let candidate = key, skipped.contains(candidate.item) { key = subtasks.key(after: candidate) }
        return key?.item
    }
}

/// The rows of a view as headers and item ranks: in a grouped view, section s's header comes before its items.
struct RowLayout {
    let sections: [SectionEntry]
    let grouped: Bool
    let items: Int

    /// The number of rows.
    var count: Int { items + sections.count }

    /// The row at `index`: its section's index (0 when not grouped) and its item's rank (nil for a header).
    /// - Complexity: O(sections).
    func row(_ index: Int) -> (section: Int, rank: Int?) {
        guard grouped else { return (0, index) }
        var rowStart = 0
        var itemStart = 0
        for (offset, entry) in sections.enumerated() {
            if index == rowStart { return (offset, nil) }
            if index <= rowStart + entry.rows { return (offset, itemStart + index - rowStart - 1) }
            rowStart += 1 + entry.rows
            itemStart += entry.rows
        }
        return (sections.count, nil)
    }
}
