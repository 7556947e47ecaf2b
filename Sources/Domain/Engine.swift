// Engine: the state plus open views and their shared order indexes; opens, scrolls, re-sorts and closes views.

/// The state, the open views, and one order index per (source, sort) shared by every view using it.
///
/// Each list's manual order is always indexed (by `TaskState`); other orders are indexed when a view
/// first needs them (in the background when the source has more than `backgroundBuildThreshold` items)
/// and dropped when the last view using them closes or changes sort.
/// A value type: keep one and mutate it in place (a shared copy pays an O(n) copy on its next mutation).
public struct Engine: Sendable {
    /// The lists and items.
    public internal(set) var state = TaskState()
    /// Sources larger than this are indexed by an `IndexBuild` off the message loop; smaller ones at once.
    public let backgroundBuildThreshold: Int

    var views: [ViewID: OpenView] = [:]
    /// Orders other than the lists' manual ones (which `state` keeps), ready to use.
    var indexes: [IndexSpec: TreeOrder] = [:]
    /// Indexes being built in the background.
    var builds: [IndexSpec: PendingBuild] = [:]
    var nextView: UInt64 = 1
    /// The client's day, the dues index and the smart groups' counts.
    var day = DayState()
    var nextBuild: UInt64 = 1
    /// Each smart list's rule and live count, in creation order.
    var tallies: [SmartListTally] = []
    /// The fire instants of the alerts not fired yet (`Engine+Reminders.swift`).
    var alerts = AlertSchedule()
    /// How many view refreshes took each way to their window operations (`Engine+WindowRanks.swift`).
    public internal(set) var windowPaths = WindowPaths()
    /// Whether a view's window operations may be derived from ranks (`operationsByRank`); tests turn it off to
    /// compare with the window diff.
    var derivesWindowsByRank = true

    /// An engine with an empty state.
    public init(backgroundBuildThreshold: Int = 50_000) {
        self.backgroundBuildThreshold = backgroundBuildThreshold
    }

    /// The current revision of the state (advanced by every successful `apply`).
    public var revision: UInt64 { state.revision }

    /// The item with this id, in full.
    /// - Complexity: O(1).
    public func item(_ id: ItemID) -> Item? { state.item(id) }

    /// Every list in manual order with its counts.
    /// - Complexity: O(number of lists).
    public func lists() -> [ListSummary] {
        state.orderedLists.map {
            ListSummary(list: $0, total: state.itemCount(in: $0.id), open: state.openItemCount(in: $0.id))
        }
    }

    /// The ids of the open views, in increasing order.
    public var openViews: [ViewID] { views.keys.sorted() }

    /// Opens a view on `source` (a list or a smart group), showing the items that match `filter`, divided
    /// into sections by `grouping`, in `sort`, through `window`.
    /// - Returns: its snapshot (version 1), plus a build to run when the order must be indexed in the background.
    /// - Throws: `invalidField("window")`, `notFound(list)`.
    /// - Complexity: O(log n + window) when the order is indexed; O(n log n) to index a small source.
    public mutating func openView(source: ViewSource, sort: Sort, filter: Filter = .all, grouping: Grouping = .none,
                                  window: Window) throws(DomainError) -> OpenedView {
        try openView(source: source, sort: sort, filter: filter, grouping: grouping, window: window, collapsed: [])
    }

    /// `openView`, with `collapsed` collapsed in the view's own order (a view reopened on a reloaded store).
    mutating func openView(source: ViewSource, sort: Sort, filter: Filter, grouping: Grouping, window: Window,
                           collapsed: Set<ItemID>) throws(DomainError) -> OpenedView {
        let window = try window.validated()
        if let list = source.list { _ = try state.existingList(list) }
        let source = try current(source)
        var spec = IndexSpec(source: source, sort: sort, filter: filter, grouping: grouping)
        if !collapsed.isEmpty { spec.owner = ViewID(nextView) }
        let build = prepareIndex(spec, collapsed: collapsed)
        let id = ViewID(nextView)
        nextView += 1
        views[id] = OpenView(id: id, spec: spec, window: window, version: 1, rows: [], lastCount: count(of: spec))
        views[id]!.lastEmpty = emptyReason(of: spec)
        refreshWindow(of: id)
        return OpenedView(snapshot: snapshot(of: views[id]!), build: build)
    }

    /// Moves a view's window (scrolling). Does not change the view's version.
    /// - Throws: `unknownView`, `invalidField("window")`.
    /// - Complexity: O(log n + window).
    public mutating func setWindow(_ view: ViewID, _ window: Window) throws(DomainError) -> ViewSnapshot {
        let window = try window.validated()
        guard views[view] != nil else { throw .unknownView(view) }
        views[view]!.window = window
        refreshWindow(of: view)
        return snapshot(of: views[view]!)
    }

    /// Changes a view's sort: a new generation, one `reset` change with version + 1.
    /// - Returns: the change, plus a build to run when the new order must be indexed in the background.
    /// - Throws: `unknownView`.
    public mutating func setSort(_ view: ViewID, _ sort: Sort) throws(DomainError) -> SortChanged {
        try reconfigure(view, sort: sort)
    }

    /// Changes any of a view's sort, filter and grouping (nil: kept): a new generation, one `reset` change
    /// with version + 1, even when nothing changed.
    /// - Returns: the change, plus a build to run when the new order must be indexed in the background.
    /// - Throws: `unknownView`.
    /// - Complexity: O(log n + window) when the new order is indexed; O(n log n) to index a small source.
    public mutating func reconfigure(_ view: ViewID, sort: Sort? = nil, filter: Filter? = nil,
                                     grouping: Grouping? = nil) throws(DomainError) -> SortChanged {
        guard let open = views[view] else { throw .unknownView(view) }
        let spec = IndexSpec(source: open.spec.source, sort: sort ?? open.spec.sort,
                             filter: filter ?? open.spec.filter, grouping: grouping ?? open.spec.grouping,
                             owner: open.spec.owner)
        let build = prepareIndex(spec, collapsed: collapsedItems(of: open.spec))
        views[view]!.spec = spec
        release(open.spec)
        views[view]!.version += 1
        refreshWindow(of: view)
        views[view]!.lastCount = count(of: spec)
        views[view]!.lastEmpty = emptyReason(of: spec)
        let current = views[view]!
        let change = ViewChange(view: view, version: current.version, count: count(of: spec),
                                window: current.window, state: viewState(of: spec),
                                operations: [.reset(rows: rows(of: current))], empty: current.lastEmpty)
        return SortChanged(change: change, build: build)
    }

    /// Closes a view; its order index is dropped if no other view uses it.
    /// - Throws: `unknownView`.
    public mutating func closeView(_ view: ViewID) throws(DomainError) {
        guard let open = views.removeValue(forKey: view) else { throw .unknownView(view) }
        release(open.spec)
    }

    /// A fresh snapshot of a view's window, for a client that lost track (a version gap).
    /// - Throws: `unknownView`.
    /// - Complexity: O(window).
    public func snapshot(_ view: ViewID) throws(DomainError) -> ViewSnapshot {
        guard let open = views[view] else { throw .unknownView(view) }
        return snapshot(of: open)
    }

    // MARK: Internals shared by the extensions.

    func snapshot(of view: OpenView) -> ViewSnapshot {
        ViewSnapshot(view: view.id, version: view.version, state: viewState(of: view.spec),
                     count: count(of: view.spec), window: view.window, rows: rows(of: view),
                     source: view.spec.source, sort: view.spec.sort, filter: view.spec.filter,
                     grouping: view.spec.grouping, empty: emptyReason(of: view.spec))
    }

    /// The ready order of `spec`, or nil while it is being built.
    func index(_ spec: IndexSpec) -> TreeOrder? {
        if spec.isManualOrder, let list = spec.source.list { return state.manualOrders[list] }
        return indexes[spec]
    }

    /// The rows of `view`'s window that exist (none while its order is being built).
    /// - Complexity: O(depth × log n + window).
    func windowRows(of view: OpenView) -> [TreeRow] {
        guard let index = index(view.spec) else { return [] }
        return index.rows(in: view.window.ranks(count: index.rowCount))
    }

    func rows(_ rows: [TreeRow]) -> [Row] {
        rows.map(itemRow)
    }

    /// The row a client sees of a tree order's row: the item as the state holds it now (never the record a key
    /// carries: a view's own copy of a manual order keeps keys whose records are stale) and where it sits.
    /// - Complexity: O(1).
    func itemRow(_ row: TreeRow) -> Row {
        let item = state.item(row.key.item)!
        let subtasks = state.subtaskCount(of: item.id)
        return .item(item, TreeFacts(depth: row.depth, children: subtasks.total, openChildren: subtasks.open,
                                     hasChildren: row.hasEntriesBelow, collapsed: row.collapsed, context: row.key.context))
    }

    /// The number of rows of a view in `spec` (items and section headers); nil while loading when it
    /// depends on a filter or sections.
    func count(of spec: IndexSpec) -> Int? {
        count(of: spec, index: index(spec))
    }

    /// `count(of: spec)` when `index` is `index(spec)`, already looked up.
    func count(of spec: IndexSpec, index: TreeOrder?) -> Int? {
        if let index { return index.rowCount + (spec.grouping == .none ? 0 : index.sections.count) }
        guard spec.filter == .all, spec.grouping == .none else { return nil }
        return sourceCount(spec.source)
    }

    func viewState(of spec: IndexSpec) -> ViewState {
        if !builds.isEmpty, let build = builds[spec] { return .loading(progress: build.progress) }
        return .ready
    }

    /// Makes sure `spec` is indexed or being indexed (an owned order with `collapsed` collapsed in it); returns
    /// the background build to start, if any.
    mutating func prepareIndex(_ spec: IndexSpec, collapsed: Set<ItemID> = []) -> IndexBuild? {
        guard !spec.isManualOrder, indexes[spec] == nil, builds[spec] == nil else { return nil }
        let orders = spec.source.list.map { [state.manualOrders[$0] ?? TreeOrder()] }
            ?? state.orderedLists.map { state.manualOrders[$0.id] ?? TreeOrder() }
        let build = IndexBuild(id: BuildID(nextBuild), spec: spec, orders: orders, context: keyContext,
                               collapsed: spec.owner == nil ? [] : collapsed)
        if build.count <= backgroundBuildThreshold {
            indexes[spec] = build.run().order
            return nil
        }
        nextBuild += 1
        builds[spec] = PendingBuild(id: build.id, context: build.context, collapsed: build.collapsed)
        return build
    }

    /// The items an owned order collapses, whether it is ready or still being built.
    func collapsedItems(of spec: IndexSpec) -> Set<ItemID> {
        guard spec.owner != nil else { return [] }
        return index(spec)?.collapsed ?? builds[spec]?.collapsed ?? []
    }

    /// Drops `spec`'s index (or pending build) when no open view uses it any more.
    mutating func release(_ spec: IndexSpec) {
        guard !views.values.contains(where: { $0.spec == spec }) else { return }
        indexes.removeValue(forKey: spec)
        builds.removeValue(forKey: spec)
    }
}

/// An open view: its order, its window and the keys of the rows the client holds.
struct OpenView: Sendable {
    let id: ViewID
    var spec: IndexSpec
    var window: Window
    var version: UInt64
    /// The window's item rows as last sent to the client.
    var rows: [TreeRow]
    /// The count last sent to the client.
    var lastCount: Int?
    /// The window's rows as last sent to the client (headers and items), in a grouped view; empty otherwise.
    var groupedRows: [Row] = []
    /// The empty reason last sent to the client.
    var lastEmpty: EmptyReason?
}

/// A background build in progress: the first value (as of the snapshot) of every item changed since.
struct PendingBuild: Sendable {
    let id: BuildID
    /// The day and list positions the build keys items with.
    let context: KeyContext
    var progress: Double = 0
    var snapshotValues: [ItemID: Item?] = [:]
    /// The items the order's owner collapses (the build collapses them too), kept here while it runs.
    var collapsed: Set<ItemID> = []
}
