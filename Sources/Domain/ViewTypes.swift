// The values views hand out: windows, rows, states, window operations, snapshots and changes.

/// A view's window: the half-open range of ranks `[start, end)` the client shows.
/// `end` may exceed the view's count; the window's rows are the part that exists.
public struct Window: Hashable, Sendable {
    /// The first rank in the window.
    public var start: Int
    /// One past the last rank in the window.
    public var end: Int

    /// Makes a window; `Engine` refuses `start < 0`, `end < start` and more than `Limits.windowRows` rows.
    public init(start: Int, end: Int) {
        self.start = start
        self.end = end
    }

    /// The ranks of the window that exist in a view of `count` rows.
    func ranks(count: Int) -> Range<Int> {
        min(start, count)..<min(end, count)
    }

    func validated() throws(DomainError) -> Window {
        guard start >= 0, end >= start else {
            throw .invalidField(field: "window", problem: "must have 0 <= start <= end")
        }
        guard end - start <= Limits.windowRows else {
            throw .invalidField(field: "window", problem: "must span at most \(Limits.windowRows) rows")
        }
        return self
    }
}

/// A row's identity within its view: stable across changes, unique within the view.
public enum RowID: Hashable, Sendable {
    /// The row showing this item.
    case item(ItemID)
    /// The header row of this section.
    case header(SectionID)
}

/// One row of a view: an item, or the header placed before a section's items.
public enum Row: Hashable, Sendable {
    /// An item, in full, and where it sits in the view.
    case item(Item, TreeFacts)
    /// A section's header, with its live count.
    case header(SectionHeader)

    /// The row's stable identity.
    public var id: RowID {
        switch self {
        case .item(let item, _): .item(item.id)
        case .header(let header): .header(header.section)
        }
    }
}

/// Where an item row sits in its view's tree, and its subtasks.
public struct TreeFacts: Hashable, Sendable {
    /// Its number of ancestors.
    public var depth: Int
    /// Its direct subtasks.
    public var children: Int
    /// Its direct subtasks not done.
    public var openChildren: Int
    /// Whether the view has rows below it (shown or collapsed).
    public var hasChildren: Bool
    /// Whether the view hides its rows below.
    public var collapsed: Bool
    /// Whether it is shown only as an ancestor of a matching item (it does not match itself).
    public var context: Bool

    public init(depth: Int = 0, children: Int = 0, openChildren: Int = 0, hasChildren: Bool = false,
                collapsed: Bool = false, context: Bool = false) {
        self.depth = depth
        self.children = children
        self.openChildren = openChildren
        self.hasChildren = hasChildren
        self.collapsed = collapsed
        self.context = context
    }
}

/// Why a view with no rows is empty.
public enum EmptyReason: String, Hashable, Sendable {
    /// Its source (the list or smart group) has no items.
    case noItems
    /// Its source has items but the filter matches none of them.
    case noMatches
}

/// A view's state: a level, not an event.
public enum ViewState: Hashable, Sendable {
    /// The window's rows are exact.
    case ready
    /// The view's order is being indexed in the background; the window has no rows yet.
    /// `progress` runs from 0 to 1.
    case loading(progress: Double)
    /// The view is closed and will change no more; `reason` says why (`listDeleted`).
    case closed(reason: String)
    /// The view cannot show its rows: the store failed to open or to write. `retryable` says whether
    /// trying again (the server's retry) can help without a person doing something first.
    case error(message: String, retryable: Bool)
}

/// One step of a change to a window. Indexes are window-relative (0 is the row at rank `window.start`)
/// and sequential: each refers to the window as left by the operations before it.
public enum WindowOperation: Hashable, Sendable {
    /// Insert `row` at `index`; rows from `index` on shift down by one.
    case insert(index: Int, row: Row)
    /// Remove the row at `index`; the rows after it shift up by one.
    case remove(index: Int)
    /// Remove the row at `from`, then insert it at `to` in the resulting window. `row` is the row's new
    /// content when it changed, nil when the client's copy is still current.
    case move(from: Int, to: Int, row: Row?)
    /// Replace the row at `index` with `row` (same identity, new content); never moves a row.
    case update(index: Int, row: Row)
    /// Replace the whole window with `rows`.
    case reset(rows: [Row])
}

/// A view as it is now: what opening it or asking for a resync returns.
public struct ViewSnapshot: Hashable, Sendable {
    /// The view's id.
    public var view: ViewID
    /// The view's version; the next change notification will carry `version + 1`.
    public var version: UInt64
    /// The view's state.
    public var state: ViewState
    /// The number of rows in the whole view. Known for list sources even while loading; nil when unknown.
    public var count: Int?
    /// The window.
    public var window: Window
    /// The rows of the window that exist (none while loading).
    public var rows: [Row]
    /// What the view shows.
    public var source: ViewSource
    /// Its order.
    public var sort: Sort
    /// Which items of the source it shows.
    public var filter: Filter = .all
    /// How it is divided into sections.
    public var grouping: Grouping = .none
    /// When `count` is 0, why; nil otherwise (and while the count is unknown).
    public var empty: EmptyReason? = nil

    public init(view: ViewID, version: UInt64, state: ViewState, count: Int?, window: Window, rows: [Row],
                source: ViewSource, sort: Sort, filter: Filter, grouping: Grouping, empty: EmptyReason? = nil) {
        self.view = view
        self.version = version
        self.state = state
        self.count = count
        self.window = window
        self.rows = rows
        self.source = source
        self.sort = sort
        self.filter = filter
        self.grouping = grouping
        self.empty = empty
    }
}

/// One change to one view: apply `operations` in order to the window at `version - 1` to get the
/// window at `version`. Only sent when something observable (count, rows or state) changed.
public struct ViewChange: Hashable, Sendable {
    /// The view's id.
    public var view: ViewID
    /// The new version: exactly one more than the previous one of this view.
    public var version: UInt64
    /// The number of rows in the whole view after the change; nil when unknown or closed.
    public var count: Int?
    /// The window the operations refer to (unchanged by changes).
    public var window: Window
    /// The view's state after the change.
    public var state: ViewState
    /// The operations, sequential and window-relative; a `reset` is always alone.
    public var operations: [WindowOperation]
    /// When `count` is 0, why; nil otherwise (a change of it alone is a change).
    public var empty: EmptyReason? = nil

    public init(view: ViewID, version: UInt64, count: Int?, window: Window, state: ViewState,
                operations: [WindowOperation], empty: EmptyReason? = nil) {
        self.view = view
        self.version = version
        self.count = count
        self.window = window
        self.state = state
        self.operations = operations
        self.empty = empty
    }
}

/// What `Engine.apply` did: the changes, the change of every affected view, and the new revision.
public struct Applied: Hashable, Sendable {
    /// What changed in the state.
    public var changes: Changes
    /// One change per affected view, in view-id order.
    public var viewChanges: [ViewChange]
    /// `TaskState.revision` after the group.
    public var revision: UInt64
}

/// A view just opened: its snapshot, and the background index build to run when its order
/// must first be indexed (`Engine.install` the result).
public struct OpenedView: Sendable {
    /// The view as it is now (`loading` when `build` is not nil).
    public var snapshot: ViewSnapshot
    /// A build for the server to run off its message loop, or nil.
    public var build: IndexBuild?
}

/// A view whose sort changed: its `reset` change, and the index build to run if the order must be indexed.
public struct SortChanged: Sendable {
    /// The change: one `reset`, version + 1 (state `loading` with no rows when `build` is not nil).
    public var change: ViewChange
    /// A build for the server to run off its message loop, or nil.
    public var build: IndexBuild?
}

/// A list with its counts, as the lists overview shows it.
public struct ListSummary: Hashable, Sendable {
    /// The list.
    public var list: TaskList
    /// How many items it holds.
    public var total: Int
    /// How many of them are not done.
    public var open: Int
}
