// Locating an item's row in a view: where a pane finds a task again after rows came or went far from its window.

/// Where an item shows in a view: the index of its row, or of the row that hides it.
public struct Location: Sendable, Equatable {
    /// The row's index in the whole view (header rows counted in a view with sections).
    public var index: Int
    /// The item whose row is at `index`: the item itself, or the outermost collapsed ancestor that hides it.
    public var row: ItemID

    public init(index: Int, row: ItemID) {
        self.index = index
        self.row = row
    }
}

extension Engine {
    /// Where `item` shows in `view` now, at the view's current version: its own row (a context row included), or,
    /// when collapsed ancestors hide it, the row of the outermost of them; nil when the view has no row for it
    /// (out of its source or filter, or the view is loading).
    /// - Throws: `.unknownView`; `.notFound` when no item is `item`.
    /// - Complexity: O(depth × log n + sections).
    public func locate(_ item: ItemID, in view: ViewID) throws(DomainError) -> (location: Location?, version: UInt64) {
        guard let open = views[view] else { throw .unknownView(view) }
        guard state.item(item) != nil else { throw .notFound(kind: .item, ids: [item.rawValue]) }
        let locate = place(in: open.spec)
        // An item with no entry has no row, even under a collapsed ancestor that has one.
        guard let order = index(open.spec), locate(item).flatMap(order.entry(at:)) != nil else { return (nil, open.version) }
        var shown = item
        var current = state.item(item)?.parent
        while let ancestor = current {
            if order.collapsed.contains(ancestor) { shown = ancestor }
            current = state.item(ancestor)?.parent
        }
        guard let rank = order.rank(of: shown, place: locate) else { return (nil, open.version) }
        return (Location(index: viewIndex(ofRank: rank, in: open.spec), row: shown), open.version)
    }

    /// The view index of the item row at `rank` in `spec`'s order: the rank itself, plus one header for each
    /// section up to the row's own in a grouped order.
    /// - Complexity: O(sections × (log sections + depth × log n)).
    private func viewIndex(ofRank rank: Int, in spec: IndexSpec) -> Int {
        guard spec.grouping != .none else { return rank }
        var headers = 0
        var start = 0
        for entry in sections(of: spec) {
            headers += 1
            if rank < start + entry.rows { break }
            start += entry.rows
        }
        return rank + headers
    }
}
