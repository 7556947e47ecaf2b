// IndexBuild: indexing a large order off the message loop, then installing it and catching up.

/// A job that indexes one order from a snapshot of the state. Pure and `Sendable`: run it on any thread.
public struct IndexBuild: Sendable {
    /// Matches the result to the engine's pending build.
    public let id: BuildID
    /// The order being built.
    let spec: IndexSpec
    /// The manual orders of the source's lists as of the snapshot; their keys hold the items. Sharing them
    /// costs the engine O(1) now and a copy of each tree node the next mutations touch, never a copy of the state.
    let orders: [OrderedIndex<OrderKey>]
    /// The day and list positions as of the snapshot, to key items as the engine did then.
    let context: KeyContext

    /// The sort of the order being built.
    public var sort: Sort { spec.sort }

    /// The number of items to look at (the source's items, before the filter).
    public var count: Int { orders.reduce(0) { $0 + $1.count } }

    /// Builds the index, calling `progress` with values from 0 to 1 a few dozen times at most.
    /// - Complexity: O(n log n).
    public func run(progress: @Sendable (Double) -> Void = { _ in }) -> BuiltIndex {
        progress(0)
        let total = count
        var keys: [OrderKey] = []
        var sections = SectionCounts()
        keys.reserveCapacity(spec.filter == .all ? total : 0)
        let step = max(1, total / 10)
        var offset = 0
        for order in orders {
            for manual in order.allKeys {
                let keyed = context.keyed(manual.record!.item)
                if let key = spec.key(keyed) {
                    keys.append(key)
                    if spec.grouping != .none { sections.add(1, keyed, spec.grouping) }
                }
                offset += 1
                if offset % step == 0 { progress(0.3 * Double(offset) / Double(total)) }
            }
        }
        keys.sort()
        progress(0.9)
        let index = OrderedIndex(sorted: keys)
        progress(1)
        return BuiltIndex(id: id, index: index, sectionCounts: sections)
    }
}

/// The result of `IndexBuild.run`, to hand to `Engine.install` on the message loop.
public struct BuiltIndex: Sendable {
    /// The build this came from.
    public let id: BuildID
    let index: OrderedIndex<OrderKey>
    let sectionCounts: SectionCounts
}

extension Engine {
    /// The builds some view still waits for; a build not among them would be dropped by
    /// `install`, so it need not run at all.
    /// - Complexity: O(pending builds).
    public var pendingBuilds: Set<BuildID> { Set(builds.values.map(\.id)) }

    /// Installs a finished build: catches up with every item changed since its snapshot, and turns the
    /// views waiting for it `ready` with one `reset` each (version + 1).
    ///
    /// A build nobody waits for any more (its views closed or re-sorted, its list deleted) is dropped.
    /// - Returns: the waiting views' changes, in view-id order.
    /// - Complexity: O(k log n) for k items changed since the snapshot, plus O(window) per view.
    public mutating func install(_ built: BuiltIndex) -> [ViewChange] {
        guard let spec = builds.first(where: { $0.value.id == built.id })?.key,
              let pending = builds.removeValue(forKey: spec) else { return [] }
        indexes[spec] = built.index
        sectionCounts[spec] = built.sectionCounts
        for (id, snapshotValue) in pending.snapshotValues {
            let old = snapshotValue.map(pending.context.keyed)
            let new = state.item(id).map { keyed($0) }
            reindex(spec, old: old.flatMap { keyed in spec.key(keyed).map { ($0, keyed) } },
                    new: new.flatMap { keyed in spec.key(keyed).map { ($0, keyed) } })
        }
        var changes: [ViewChange] = []
        for id in views.keys.sorted() where views[id]!.spec == spec {
            views[id]!.version += 1
            refreshWindow(of: id)
            views[id]!.lastCount = count(of: spec)
            views[id]!.lastEmpty = emptyReason(of: spec)
            let view = views[id]!
            changes.append(ViewChange(view: id, version: view.version, count: count(of: spec), window: view.window,
                                      state: .ready, operations: [.reset(rows: rows(of: view))], empty: view.lastEmpty))
        }
        return changes
    }

    /// Records a build's progress and tells the views waiting for it (version + 1, state `loading`, no
    /// operations). Call it sparingly: a few times per build, not per item.
    /// - Returns: the waiting views' changes, in view-id order; none for an unknown or finished build, or
    ///   when the progress is the one the views already show.
    public mutating func reportProgress(_ build: BuildID, _ progress: Double) -> [ViewChange] {
        guard let spec = builds.first(where: { $0.value.id == build })?.key else { return [] }
        let progress = min(max(progress, 0), 1)
        guard progress != builds[spec]!.progress else { return [] }
        builds[spec]!.progress = progress
        var changes: [ViewChange] = []
        for id in views.keys.sorted() where views[id]!.spec == spec {
            views[id]!.version += 1
            views[id]!.lastCount = count(of: spec)
            views[id]!.lastEmpty = emptyReason(of: spec)
            let view = views[id]!
            changes.append(ViewChange(view: id, version: view.version, count: count(of: spec), window: view.window,
                                      state: viewState(of: spec), operations: [], empty: view.lastEmpty))
        }
        return changes
    }
}
