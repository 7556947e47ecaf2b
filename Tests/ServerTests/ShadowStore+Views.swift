/// The rows each open view shows, as protocol.md's "Subtasks" makes them of the shadow store's trees: the items
/// matching the view's filter and their ancestors (context rows), less those below a collapsed item; and what
/// `view/collapse` and `view/expand` do to a view's collapsed items.

import TasklsProtocol

/// An open view of a list, as far as its rows depend on the session's requests.
struct ShadowView {
    var list: ListID
    var sort: Sort
    /// Only `done` and `priorityAtLeast` are drawn: the filters whose matches the test knows exactly.
    var filter: Filter
    /// The view's collapsed items: each entered when it had items of the view below it, and stays until it is
    /// expanded or deleted (protocol.md, "Collapsing").
    var collapsed: Set<ItemID> = []
    /// Whether a `view/collapse` with something to collapse was ever sent to it (the server then keeps the view's
    /// own copy of its order while it is open; see `KnownBugs.collapsedManualViewsKeepStaleRows`).
    var ownsOrder = false

    /// Whether `item` passes the filter.
    func matches(_ item: Item) -> Bool {
        switch filter.done {
        case .any: break
        case .done: if !item.done { return false }
        case .notDone: if item.done { return false }
        }
        if let least = filter.priorityAtLeast, Self.rank(item.priority) < Self.rank(least) { return false }
        return true
    }

    static func rank(_ priority: Priority) -> Int { Priority.allCases.firstIndex(of: priority)! }
}

/// A row as the shadow store expects it: where the item sits in the view's tree.
struct ShadowRow: Equatable, CustomStringConvertible {
    var id: ItemID
    var parent: ItemID?
    var depth: Int
    var hasChildren: Bool
    var collapsed: Bool
    var context: Bool

    var description: String {
        "\(id)<\(parent.map(\.description) ?? "-")@\(depth)\(hasChildren ? "+" : "")\(collapsed ? "c" : "")\(context ? "x" : "")"
    }
}

extension ShadowStore {
    /// The items of `view` (matching, or ancestors of a matching item), each with whether it matches.
    /// - Complexity: O(items of its list).
    func members(of view: ShadowView) -> [ItemID: Bool] {
        var members: [ItemID: Bool] = [:]
        @discardableResult
        func visit(_ place: Place) -> Bool {
            var any = false
            for id in items(at: place) {
                let below = visit(.under(id))
                let matches = view.matches(items[id]!)
                if matches || below {
                    members[id] = matches
                    any = true
                }
            }
            return any
        }
        visit(.top(view.list))
        return members
    }

    /// The rows of `view` in manual ascending order (its rows in any order, as a set): its items in tree order,
    /// less those below a collapsed item.
    /// - Complexity: O(items of its list).
    func rows(of view: ShadowView) -> [ShadowRow] {
        // Without a filter every item is a member, and matches.
        let members = view.filter == .all ? nil : members(of: view)
        var rows: [ShadowRow] = []
        func visit(_ place: Place, depth: Int) {
            for id in items(at: place) {
                guard let matches = members.map({ $0[id] }) ?? true else { continue }
                let subtasks = items(at: .under(id))
                let hasChildren = members.map { members in subtasks.contains { members[$0] != nil } } ?? !subtasks.isEmpty
                let collapsed = hasChildren && view.collapsed.contains(id)
                rows.append(ShadowRow(id: id, parent: place.parentItem, depth: depth, hasChildren: hasChildren,
                                      collapsed: collapsed, context: !matches))
                if !collapsed { visit(.under(id), depth: depth + 1) }
            }
        }
        visit(.top(view.list), depth: 0)
        return rows
    }

    /// What `view/collapse` (`collapse` true) or `view/expand` does: `notInView` for the first id that is not an
    /// item of the view, else the store with the view's collapsed items changed.
    func folding(_ id: ViewID, _ target: CollapseTarget, collapse: Bool) -> TreeOutcome {
        guard var view = views[id] else { return .refused("unknownView") }
        let members = members(of: view)
        let hasItemsBelow = { (item: ItemID) in self.items(at: .under(item)).contains { members[$0] != nil } }
        let targets: [ItemID]
        switch target {
        case .ids(let ids):
            if ids.contains(where: { members[$0] == nil }) { return .refused("notInView") }
            targets = ids
        case .all:
            targets = collapse ? Array(members.keys) : Array(view.collapsed)
        }
        // The server makes the view's own order on a collapse naming items, or of `all` when some item has items
        // below it.
        if collapse, case .ids = target { view.ownsOrder = true }
        if collapse && targets.contains(where: hasItemsBelow) { view.ownsOrder = true }
        for item in targets {
            if !collapse {
                view.collapsed.remove(item)
            } else if hasItemsBelow(item) {
                view.collapsed.insert(item)
            }
        }
        var next = self
        next.views[id] = view
        return .applied(next)
    }
}
