// Collapsing and expanding: per view, the rows below an item hidden or shown again, in the view's own order.

extension Engine {
    /// Collapses (`collapse` true) or expands the items `ids` in `view` (nil: every item with rows below it, when
    /// collapsing; every collapsed item, when expanding). Collapsing hides the rows below an item in this view only;
    /// the view then keeps its own order (`IndexSpec.owner`), and keeps it while open.
    /// - Returns: the view's change (a new `count` and window operations bounded by the window), nil when its
    ///   rows stay as they were (the items were already so, or have nothing below them).
    /// - Throws: `unknownView`; `refused` with reason `notInView` for the first id (in `ids`' order) that is not
    ///   an item of the view (a row, or hidden by collapsing), one that names no item included; while the view's
    ///   order is being built it has no items (`ids` is refused, nil changes nothing).
    /// - Complexity: O(k × depth × log n) for k items, plus O(entries with subtasks) for the first collapse of a
    ///   view (its copy of the shared order's dictionary) and for `ids` nil.
    public mutating func setCollapsed(_ view: ViewID, ids: [ItemID]?, collapse: Bool) throws(DomainError) -> ViewChange? {
        guard let open = views[view] else { throw .unknownView(view) }
        let built = index(open.spec)
        let locate = place(in: open.spec)
        if let ids {
            let ids = try Validation.identifiers(ids, field: "ids")
            for id in ids where built == nil || locate(id).flatMap(built!.entry(at:)) == nil {
                throw .refused(reason: "notInView", message: "ids: item \(id) is not a row of view \(view)")
            }
        }
        guard var order = built else { return nil }
        let targets = ids ?? (collapse ? order.parents : Array(order.collapsed))
        var changed = false
        // An item enters the set only when it has items of the view below it.
        for id in targets where !collapse || order.hasEntriesBelow(id) {
            changed = order.setCollapsed(id, collapse, place: locate) || changed
        }
        var spec = open.spec
        if spec.owner == nil {
            // A shared order has nothing collapsed: only a collapse makes the view's own.
            guard collapse, !targets.isEmpty else { return nil }
            spec.owner = view
            views[view]!.spec = spec
            release(open.spec)
        }
        indexes[spec] = order
        guard changed else { return nil }
        var current = views[view]!
        let operations = spec.grouping == .none
            ? rediff(&current, changedContent: ChangedContent(unchanged: ()))
            : refreshGrouped(&current, changedContent: ChangedContent(unchanged: ()))
        let now = orderNow(spec, touched: true)
        guard !operations.isEmpty || !now.isUnchanged(for: current) else {
            views[view] = current
            return nil
        }
        current.version += 1
        current.lastCount = now.count
        current.lastEmpty = now.empty
        views[view] = current
        return ViewChange(view: view, version: current.version, count: now.count, window: current.window,
                          state: now.state, operations: operations, empty: now.empty)
    }
}
