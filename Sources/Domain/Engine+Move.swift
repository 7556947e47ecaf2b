// Index-addressed moves: translating "move these rows of my view to here" into a move by ids.

extension Engine {
    /// Translates a move of the `count` rows at indexes `from ..< from + count` of `view` into a `moveItems`
    /// mutation, for the server to apply right away; nil when `to` equals `from` (the block is dropped where it
    /// is: nothing changes). `to` is the index the block's first row has after the move, as in a `move`
    /// operation: 0 moves the block to the top, `count - rows.count` to the bottom. The version is checked
    /// first, then the sort, then the ranges.
    ///
    /// Only a view in manual ascending order can be reordered, and only its item rows. The block keeps the
    /// view's order and lands by the rows around it in the view without it (protocol.md, `items/move`):
    /// - just after the item of the row before `to`, in that item's list (before any item of that list that
    ///   follows it and the view does not show);
    /// - when the row before `to` is not an item (`to` 0, or a section header), just before the item of the
    ///   row at `to`, in its list, if that row is an item of the same section;
    /// - else, after a list's header (a view grouped by list), at the end of that list;
    /// - else (no item row of the section is left), just after the block's own last item, in its list.
    ///
    /// In a grouped view, index `to` counts the headers as they were (a header whose section the block empties
    /// stays counted) and the block joins the section of the row just before it; it may change section only in
    /// a view grouped by list (it moves to that list).
    /// - Throws: `unknownView`; `staleVersion` when `seenVersion` is not the view's version; `refused` with
    ///   reason `sortedView` for any other sort, `viewLoading` while loading, `crossSection` for a move between sections
    ///   of a view not grouped by list; `invalidField("count")` below 1, `invalidField("from")` when the rows are
    ///   out of range or name a header, `invalidField("to")` out of range or before the first header.
    /// - Complexity: O(count · log n + sections).
    public func moveMutation(view: ViewID, from: Int, count: Int, to target: Int, seenVersion: UInt64,
                             at time: Timestamp) throws(DomainError) -> Mutation? {
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
        let layout = RowLayout(sections: sections(of: open.spec), grouped: open.spec.grouping != .none, items: order.count)
        guard from >= 0 else { throw .invalidField(field: "from", problem: "must not be negative") }
        guard count >= 1 else { throw .invalidField(field: "count", problem: "must be at least 1") }
        guard from < layout.count else {
            throw .invalidField(field: "from", problem: "must be below the view's count, \(layout.count), got \(from)")
        }
        guard count <= layout.count - from else {
            throw .invalidField(field: "count", problem: "from + count must be at most the view's count, \(layout.count)")
        }
        let rows = from..<(from + count)
        let block = rows.map(layout.row)
        guard block.allSatisfy({ $0.rank != nil }) else {
            throw .invalidField(field: "from", problem: "rows \(rows) must name item rows only, not section headers")
        }
        let remaining = layout.count - rows.count
        guard (0...remaining).contains(target), target > 0 || !layout.grouped || remaining == 0 else {
            throw .invalidField(field: "to", problem: "must be within \(layout.grouped ? 1 : 0)...\(remaining)")
        }
        // Dropped where it is: whatever the view hides around it, the client asked for no change.
        guard target != from else { return nil }
        let ids = order.keys(in: block.first!.rank!..<block.last!.rank! + 1).map(\.item)
        // The rows around the block's destination, in the view without the block.
        let original = { (index: Int) in layout.row(index < rows.lowerBound ? index : index + rows.count) }
        let previous = target > 0 ? original(target - 1) : nil
        let next = target < remaining ? original(target) : nil
        let section = previous?.section ?? next?.section ?? block[0].section
        if layout.grouped, open.spec.grouping != .list, block.contains(where: { $0.section != section }) {
            throw .refused(reason: "crossSection",
                           message: "view \(view) is grouped by \(open.spec.grouping.rawValue); items can only move within their section")
        }
        if let rank = previous?.rank {
            let after = state.item(order.key(at: rank).item)!
            return .moveItems(ids: ids, toList: after.list, before: successor(of: after, skipping: Set(ids)), at: time)
        }
        if let next, next.section == section, let rank = next.rank {
            let anchor = state.item(order.key(at: rank).item)!
            return .moveItems(ids: ids, toList: anchor.list, before: anchor.id, at: time)
        }
        if case .list(let list)? = layout.sections.indices.contains(section) ? layout.sections[section].section : nil {
            return .moveItems(ids: ids, toList: list, before: nil, at: time)
        }
        let last = state.item(ids.last!)!
        return .moveItems(ids: ids, toList: last.list, before: successor(of: last, skipping: Set(ids)), at: time)
    }

    /// The item after `item` in its list's manual order that is not in `skipped`; nil at the end.
    /// - Complexity: O(log n + skipped.count).
    private func successor(of item: Item, skipping skipped: Set<ItemID>) -> ItemID? {
        let order = state.manualOrders[item.list]!
        var rank = order.insertionRank(of: OrderKey(manual: item)) + 1
        while rank < order.count {
            let candidate = order.key(at: rank).item
            if !skipped.contains(candidate) { return candidate }
            rank += 1
        }
        return nil
    }
}

/// The rows of a view as headers and item ranks: in a grouped view, section s's header comes before its items.
struct RowLayout {
    let sections: [SectionCounts.Entry]
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
            if index <= rowStart + entry.count { return (offset, itemStart + index - rowStart - 1) }
            rowStart += 1 + entry.count
            itemStart += entry.count
        }
        return (sections.count, nil)
    }
}
