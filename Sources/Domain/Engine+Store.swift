// Engine and the store: an engine built around a loaded state, views opened under ids reserved while it loaded,
// and mutation groups kept only when the store has written them.

extension Engine {
    /// An engine holding `state` (as loaded from a store), with its dues and smart-group counts evaluated in
    /// `today`, and view ids continuing after `previous`'s (so ids reserved while loading stay unique).
    /// - Complexity: O(n log n); run it off the message loop for a large state.
    public init(state: TaskState, today: Today, backgroundBuildThreshold: Int = 50_000) {
        self.init(backgroundBuildThreshold: backgroundBuildThreshold)
        self.state = state
        day.previous = today
        day.today = today
        // Items with a due are counted one by one; the rest can only be in All or Completed, which the
        // lists' counts give at once.
        var dues: [DueKey] = []
        var openWithDue = 0, doneWithDue = 0
        var alerted: [Item] = []
        state.forEachItem { item in
            if !item.alerts.isEmpty { alerted.append(item) }
            guard let key = DueKey(item) else { return }
            dues.append(key)
            day.count(item, status: today.status(of: item.due), by: 1)
            if item.done { doneWithDue += 1 } else { openWithDue += 1 }
        }
        let open = state.lists.keys.reduce(0) { $0 + state.openItemCount(in: $1) }
        day.counts[.all] += open - openWithDue
        day.counts[.completed] += state.itemCount - open - doneWithDue
        dues.sort()
        day.dues = OrderedIndex.build(sorted: dues)
        tallyAllSmartLists()
        buildAlertSchedule(alerted)
    }

    /// Continues view and build ids after `previous`'s, so ids handed out by an engine this one replaces stay
    /// unique (a build started by the old engine can then never be installed into this one).
    public mutating func continueViewIDs(after previous: Engine) {
        nextView = max(nextView, previous.nextView)
        nextBuild = max(nextBuild, previous.nextBuild)
    }

    /// The id the next view will have, claimed now for a view the server keeps until the state is there.
    public mutating func reserveViewID() -> ViewID {
        defer { nextView += 1 }
        return ViewID(nextView)
    }

    /// Opens a view under an id reserved earlier (`reserveViewID`), at `version`: the client last saw
    /// `version - 1`, so the snapshot is sent to it as a `reset` change.
    /// - Throws: as `openView`.
    public mutating func openView(reserved id: ViewID, version: UInt64, source: ViewSource, sort: Sort, filter: Filter,
                                  grouping: Grouping, window: Window, collapsed: Set<ItemID> = []) throws(DomainError) -> OpenedView {
        let saved = nextView
        nextView = id.rawValue
        defer { nextView = max(saved, id.rawValue + 1) }
        // The items it collapsed stay collapsed (those deleted meanwhile are forgotten).
        var opened = try openView(source: source, sort: sort, filter: filter, grouping: grouping, window: window,
                                  collapsed: collapsed.filter { state.item($0) != nil })
        views[id]!.version = version
        opened.snapshot.version = version
        return opened
    }

    /// Every open view's definition and version, and closes them all (for a store that is reloaded).
    public mutating func detachViews() -> [DetachedView] {
        let detached = views.keys.sorted().map { id in
            let view = views[id]!
            return DetachedView(id: id, version: view.version, source: view.spec.source, sort: view.spec.sort,
                                filter: view.spec.filter, grouping: view.spec.grouping, window: view.window,
                                collapsed: collapsedItems(of: view.spec))
        }
        views.removeAll()
        indexes.removeAll()
        builds.removeAll()
        return detached
    }

    /// Applies `mutations` like `apply(_:)`, then asks `keep` whether to keep what they changed (the store
    /// writes the group there). When it says no, the state is rolled back and no view changes: nil.
    /// - Complexity: as `apply(_:)`.
    public mutating func apply(_ mutations: [Mutation], keepIf keep: (Changes) -> Bool) throws(DomainError) -> Applied? {
        guard let changes = try state.apply(mutations, keepIf: keep) else { return nil }
        scheduleAlerts(for: changes)
        return Applied(changes: changes, viewChanges: settle(changes), revision: state.revision)
    }
}

/// A view taken out of an engine, to be opened again under the same id once a state is there.
public struct DetachedView: Hashable, Sendable {
    public var id: ViewID
    public var version: UInt64
    public var source: ViewSource
    public var sort: Sort
    public var filter: Filter
    public var grouping: Grouping
    public var window: Window
    /// The items it collapses.
    public var collapsed: Set<ItemID>

    public init(id: ViewID, version: UInt64, source: ViewSource, sort: Sort, filter: Filter, grouping: Grouping, window: Window,
                collapsed: Set<ItemID> = []) {
        self.collapsed = collapsed
        self.id = id
        self.version = version
        self.source = source
        self.sort = sort
        self.filter = filter
        self.grouping = grouping
        self.window = window
    }
}
