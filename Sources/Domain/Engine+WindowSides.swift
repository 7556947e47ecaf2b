// Where one change lies against a view's window: wholly after it (only the count changes) or wholly before it
// (the window's rows shift), found by comparing top-level ancestors, and when they are the same, the change's path
// in the tree with the window's edge rows'.

extension Engine {
    /// Whether every row `change` touches (its item's rows before and after, with their subtrees, and context rows
    /// of ancestors that come or go) comes after the view's window, which is full.
    ///
    /// In tree order a row comes after another when, at the first level where their paths from the top level part,
    /// its ancestor-or-self sorts after the other's. A change inside the subtree of the window's last row (which a
    /// context row may lose), or of an item whose own path holds the changed item, is not after it.
    /// - Complexity: O(depth) parent lookups and a few key computations per place.
    func isAfterWindow(_ change: TreeChange, of view: OpenView) -> Bool {
        guard let last = view.rows.last, view.rows.count == view.window.end - view.window.start else { return false }
        // First by top-level ancestors, which most changes settle: the last row's is the window's last top-level row.
        if let lastRoot = view.rows.last(where: { $0.depth == 0 })?.key ?? rootKey(of: last, in: view.spec),
           rootsOf(change, in: view.spec, allSatisfy: { lastRoot < $0 }) {
            return true
        }
        let path = ancestry(of: last.item)
        guard !path.contains(change.id) else { return false }
        return [change.old, change.new].allSatisfy { place in
            place.map { side(of: change.id, at: $0, against: last, path: path, in: view.spec) == .after } ?? true
        }
    }

    /// Whether every row `change` touches comes before the view's window: at the first level where the change's
    /// path and the window's first row's part, the change's sorts first (so it is neither that row's ancestor nor
    /// inside its subtree).
    /// - Complexity: O(depth) parent lookups and a few key computations per place.
    func isBeforeWindow(_ change: TreeChange, of view: OpenView) -> Bool {
        guard let first = view.rows.first else { return false }
        if let firstRoot = rootKey(of: first, in: view.spec), rootsOf(change, in: view.spec, allSatisfy: { $0 < firstRoot }) {
            return true
        }
        let path = ancestry(of: first.item)
        guard !path.contains(change.id) else { return false }
        return [change.old, change.new].allSatisfy { place in
            place.map { side(of: change.id, at: $0, against: first, path: path, in: view.spec) == .before } ?? true
        }
    }

    /// Whether the keys of the top-level entries whose subtrees hold `change`'s old and new places all pass
    /// `test` (a place it has not passes; a root that cannot be found fails). A change under the same parent has
    /// one root, searched once.
    /// - Complexity: O(depth) key computations.
    private func rootsOf(_ change: TreeChange, in spec: IndexSpec, allSatisfy test: (OrderKey) -> Bool) -> Bool {
        if let old = change.old {
            guard let root = rootKey(of: old, in: spec), test(root) else { return false }
            if let new = change.new, new.parent != nil, new.parent == old.parent { return true }
        }
        guard let new = change.new else { return true }
        guard let root = rootKey(of: new, in: spec) else { return false }
        return test(root)
    }

    /// The key of the top-level entry whose subtree holds `place`: its own key at the top level.
    private func rootKey(of place: TreePlace, in spec: IndexSpec) -> OrderKey? {
        guard let parent = place.parent else { return place.key }
        return rootKey(of: parent, in: spec)
    }

    /// The key of the top-level entry whose subtree holds a window's `row`: the row's own key at the top level
    /// (a row's key is its entry's as of the view's last refresh, and a change of that item is never before or
    /// after the window it is in).
    private func rootKey(of row: TreeRow, in spec: IndexSpec) -> OrderKey? {
        row.depth == 0 ? row.key : rootKey(of: row.item, in: spec)
    }

    /// The key of the top-level ancestor of `id` (or of `id` itself at the top level) in `spec`'s order.
    /// - Complexity: O(depth).
    private func rootKey(of id: ItemID, in spec: IndexSpec) -> OrderKey? {
        var top = id
        var steps = 0
        while let parent = state.parent(of: top), steps <= Limits.maxDepth {
            top = parent
            steps += 1
        }
        guard steps <= Limits.maxDepth, let item = state.item(top) else { return nil }
        return spec.entryKey(keyed(item))
    }

    /// The ids from the top level down to `id`, itself last.
    /// - Complexity: O(depth).
    private func ancestry(of id: ItemID) -> [ItemID] {
        var path = [id]
        while let parent = state.parent(of: path[path.count - 1]), path.count <= Limits.maxDepth { path.append(parent) }
        return path.reversed()
    }

    /// Where item `id` at `place` (its row and its subtree's) lies against `row`, whose ancestry is `path`: before
    /// or after it where their paths part, else (one path holds the other) overlapping.
    private func side(of id: ItemID, at place: TreePlace, against row: TreeRow, path: [ItemID],
                      in spec: IndexSpec) -> WindowSide {
        var own: [ItemID] = []
        if let parent = place.parent { own = ancestry(of: parent) }
        own.append(id)
        for level in 0..<min(own.count, path.count) where own[level] != path[level] {
            // Siblings (under the same parent, or both at the top level): their keys decide.
            let ownKey = level == own.count - 1 ? place.key : key(of: own[level], in: spec)
            let rowKey = level == path.count - 1 ? row.key : key(of: path[level], in: spec)
            guard let ownKey, let rowKey else { return .overlapping }
            return ownKey < rowKey ? .before : .after
        }
        return .overlapping
    }

    /// The key of item `id`'s entry in `spec`'s order now.
    private func key(of id: ItemID, in spec: IndexSpec) -> OrderKey? {
        state.item(id).map { spec.entryKey(keyed($0)) }
    }
}

/// Where a change lies against a row of a window, in the view's tree order.
enum WindowSide {
    case before, after, overlapping
}
