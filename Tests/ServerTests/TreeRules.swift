/// The tree rules of protocol.md's "Subtasks" that a client can check alone, on the rows of one window: where
/// each row says it sits (`parent`, `depth`), what it says is below it (`hasChildren`, `collapsed`) and why it
/// is there (`context`), against the rows around it.

import TasklsProtocol

/// A tree rule of protocol.md, as `ReferenceView` checks it on every window it holds. Each is a rule of
/// `ProtocolViolation` (its `rule` is `"tree: "` and the raw value).
enum TreeRule: String, CaseIterable {
    /// `depth` is 0 to 15, 0 exactly when `parent` is `null`.
    case depthRange
    /// `openChildren` is 0 to `children`; `hasChildren` only with `children` (a subtask in the view is a
    /// subtask), and exactly with it in a view of a list without a filter (every subtask is in it).
    case childCounts
    /// The parent, when a row of the window, is the nearest row above with a smaller depth, one less.
    case parentAbove
    /// A row with no shallower row above it in the window has its parent outside the window (above it).
    case parentOutsideWindow
    /// `collapsed` only with `hasChildren`.
    case collapsedWithoutChildren
    /// The row right below a collapsed row is not one of its descendants (no deeper than it).
    case descendantBelowCollapsed
    /// The row right below an expanded row with `hasChildren` is its subtask; a row whose parent is right above
    /// it has that parent expanded with `hasChildren`; the last row of the view has no subtask shown.
    case childrenShown
    /// A context row has a matching item below it (`hasChildren`; when its subtree is shown and ends in the
    /// window, a row in it that is not context, or a collapsed one, which hides the match); a view with no
    /// filter on a list has no context rows.
    case contextWithoutMatch
}

/// Checks the tree rules on the item rows of one window.
struct TreeRules {
    /// Whether the view has a filter (only then may it have context rows).
    var filtered: Bool
    /// Whether the view shows one list (then every subtask of an item is an item of the view, unless filtered).
    var ofOneList: Bool

    /// The rules `rows` (the window `window` of a view of `count` rows) break, each once per row, naming the view.
    /// - Complexity: O(rows × depth).
    func violations(of rows: [Row], window: Window, count: Int, view: ViewID) -> [ProtocolViolation] {
        var found: [ProtocolViolation] = []
        func report(_ rule: TreeRule, _ index: Int, _ what: String) {
            found.append(ProtocolViolation(
                "\(view) row \(window.start + index) (window \(window.start)..<\(window.end) of \(count) rows): \(what); window rows: "
                    + Self.describe(rows),
                rule: "tree: \(rule.rawValue)"))
        }
        /// The rows above the current one that are its ancestors in the window, innermost last.
        struct Open {
            var row: ItemRow
            /// Whether a row below it was seen that matches, or hides rows of which one matches (a collapsed row).
            var sawMatch: Bool
        }
        var path: [Open] = []
        var ids: Set<ItemID> = []
        for case .item(let row) in rows { ids.insert(row.id) }
        /// Pops the open rows the row at `index` (of `depth`) is not inside: their subtree ended in the window.
        func close(downTo depth: Int, at index: Int) {
            while let last = path.last, last.row.depth >= depth {
                path.removeLast()
                if last.row.context && !last.row.collapsed && last.row.hasChildren && !last.sawMatch {
                    report(.contextWithoutMatch, index - 1, "context row \(last.row.id) is expanded, but no row below it matches")
                }
            }
        }
        var previous: ItemRow?
        for (index, row) in rows.enumerated() {
            guard case .item(let item) = row else {
                // A section starts: every subtask is in its top-level ancestor's section.
                close(downTo: 0, at: index)
                previous = nil
                continue
            }
            checkAlone(item) { report($0, index, $1) }
            if let above = previous {
                if above.collapsed && item.depth > above.depth {
                    report(.descendantBelowCollapsed, index, "\(item.id) at depth \(item.depth) is right below collapsed \(above.id) at depth \(above.depth)")
                }
                if above.hasChildren && !above.collapsed && item.parent != above.id {
                    report(.childrenShown, index, "\(above.id) has children and is not collapsed, but the row below it is \(item.id), a subtask of \(item.parent.map(\.description) ?? "none")")
                }
                if item.parent == above.id && (!above.hasChildren || above.collapsed) {
                    report(.childrenShown, index, "\(item.id) is a subtask of the row above, \(above.id), which says hasChildren \(above.hasChildren), collapsed \(above.collapsed)")
                }
            }
            close(downTo: item.depth, at: index)
            if let parent = path.last {
                if item.parent != parent.row.id || item.depth != parent.row.depth + 1 {
                    report(.parentAbove, index, "\(item.id) (parent \(item.parent.map(\.description) ?? "none"), depth \(item.depth)) is below \(parent.row.id) at depth \(parent.row.depth), the nearest shallower row above it")
                }
            } else if let parent = item.parent, ids.contains(parent) {
                report(.parentOutsideWindow, index, "\(item.id)'s parent \(parent) is in the window, but not a shallower row above it")
            }
            if !item.context || item.collapsed { for open in path.indices { path[open].sawMatch = true } }
            path.append(Open(row: item, sawMatch: false))
            previous = item
        }
        if window.start + rows.count == count {
            // The window holds the end of the view: every subtree in it ended.
            close(downTo: 0, at: rows.count)
            if let last = previous, last.hasChildren && !last.collapsed {
                report(.childrenShown, rows.count - 1, "\(last.id), the view's last row, has children and is not collapsed")
            }
        }
        return found
    }

    /// The rules a row breaks alone.
    private func checkAlone(_ row: ItemRow, _ report: (TreeRule, String) -> Void) {
        if !(0...15).contains(row.depth) || (row.depth == 0) != (row.parent == nil) {
            report(.depthRange, "\(row.id) has depth \(row.depth) and parent \(row.parent.map(\.description) ?? "null")")
        }
        if row.openChildren < 0 || row.openChildren > row.children || (row.hasChildren && row.children == 0)
            || (ofOneList && !filtered && row.hasChildren != (row.children > 0)) {
            report(.childCounts, "\(row.id) has children \(row.children), openChildren \(row.openChildren), hasChildren \(row.hasChildren)")
        }
        if row.collapsed && !row.hasChildren { report(.collapsedWithoutChildren, "\(row.id) is collapsed without hasChildren") }
        if row.context && (!filtered || !row.hasChildren) {
            report(.contextWithoutMatch, "\(row.id) is a context row \(filtered ? "without hasChildren" : "in a view without a filter")")
        }
    }

    /// The rows, short: id, parent and depth, and the flags that are set.
    static func describe(_ rows: [Row]) -> String {
        rows.map { row in
            guard case .item(let item) = row else { return "[header]" }
            var flags = ""
            if item.hasChildren { flags += "+" }
            if item.collapsed { flags += "c" }
            if item.context { flags += "x" }
            return "\(item.id)<\(item.parent.map(\.description) ?? "-")@\(item.depth)\(flags)"
        }.joined(separator: " ")
    }
}
