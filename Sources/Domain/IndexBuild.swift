// IndexBuild: indexing a large order off the message loop, then installing it and catching up.

/// A job that indexes one order from a snapshot of the state. Pure and `Sendable`: run it on any thread.
public struct IndexBuild: Sendable {
    /// Matches the result to the engine's pending build.
    public let id: BuildID
    /// The order being built.
    public let sort: Sort
    /// The source's manual order as of the snapshot; its keys hold the items. Sharing it costs the engine
    /// O(1) now and a copy of each tree node the next mutations touch, never a copy of the whole state.
    let order: OrderedIndex<OrderKey>

    /// The number of items to index.
    public var count: Int { order.count }

    /// Builds the index, calling `progress` with values from 0 to 1 a few dozen times at most.
    /// - Complexity: O(n log n).
    public func run(progress: @Sendable (Double) -> Void = { _ in }) -> BuiltIndex {
        progress(0)
        var keys: [OrderKey] = []
        keys.reserveCapacity(order.count)
        let step = max(1, order.count / 10)
        for (offset, manual) in order.allKeys.enumerated() {
            keys.append(OrderKey(manual.record!.item, sort))
            if offset % step == step - 1 { progress(0.3 * Double(offset + 1) / Double(order.count)) }
        }
        keys.sort()
        progress(0.9)
        let index = OrderedIndex(sorted: keys)
        progress(1)
        return BuiltIndex(id: id, index: index)
    }
}

/// The result of `IndexBuild.run`, to hand to `Engine.install` on the message loop.
public struct BuiltIndex: Sendable {
    /// The build this came from.
    public let id: BuildID
    let index: OrderedIndex<OrderKey>
}

extension Engine {
    /// Installs a finished build: catches up with every item changed since its snapshot, and turns the
    /// views waiting for it `ready` with one `reset` each (version + 1).
    ///
    /// A build nobody waits for any more (its views closed or re-sorted, its list deleted) is dropped.
    /// - Returns: the waiting views' changes, in view-id order.
    /// - Complexity: O(k log n) for k items changed since the snapshot, plus O(window) per view.
    public mutating func install(_ built: BuiltIndex) -> [ViewChange] {
        guard let spec = builds.first(where: { $0.value.id == built.id })?.key,
              let pending = builds.removeValue(forKey: spec) else { return [] }
        var index = built.index
        for (id, snapshotValue) in pending.snapshotValues {
            if let old = snapshotValue, spec.source.contains(old) { index.remove(OrderKey(old, spec.sort)) }
            if let new = state.item(id), spec.source.contains(new) { index.insert(OrderKey(new, spec.sort)) }
        }
        indexes[spec] = index
        var changes: [ViewChange] = []
        for id in views.keys.sorted() where views[id]!.spec == spec {
            views[id]!.version += 1
            views[id]!.keys = windowKeys(of: views[id]!)
            views[id]!.lastCount = count(of: spec)
            let view = views[id]!
            changes.append(ViewChange(view: id, version: view.version, count: count(of: spec), window: view.window,
                                      state: .ready, operations: [.reset(rows: rows(view.keys))]))
        }
        return changes
    }

    /// Records a build's progress and tells the views waiting for it (version + 1, state `loading`, no
    /// operations). Call it sparingly: a few times per build, not per item.
    /// - Returns: the waiting views' changes, in view-id order; none for an unknown or finished build.
    public mutating func reportProgress(_ build: BuildID, _ progress: Double) -> [ViewChange] {
        guard let spec = builds.first(where: { $0.value.id == build })?.key else { return [] }
        builds[spec]!.progress = min(max(progress, 0), 1)
        var changes: [ViewChange] = []
        for id in views.keys.sorted() where views[id]!.spec == spec {
            views[id]!.version += 1
            views[id]!.lastCount = count(of: spec)
            let view = views[id]!
            changes.append(ViewChange(view: id, version: view.version, count: count(of: spec), window: view.window,
                                      state: viewState(of: spec), operations: []))
        }
        return changes
    }
}
