// IndexBuild: indexing a large order off the message loop, then installing it and catching up.

/// A job that indexes one order from a snapshot of the state. Pure and `Sendable`: run it on any thread.
public struct IndexBuild: Sendable {
    /// Matches the result to the engine's pending build.
    public let id: BuildID
    /// The order being built.
    let spec: IndexSpec
    /// The manual orders of the source's lists as of the snapshot; their keys hold the items. Sharing them
    /// costs the engine O(1) per list now and a copy of each tree node the next mutations touch, never a copy
    /// of the state.
    let orders: [TreeOrder]
    /// The day and list positions as of the snapshot, to key items as the engine did then.
    let context: KeyContext
    /// The items the order's owner collapses.
    let collapsed: Set<ItemID>

    /// The sort of the order being built.
    public var sort: Sort { spec.sort }

    /// The number of items to look at (the source's items, before the filter).
    public var count: Int { orders.reduce(0) { $0 + $1.entryCount } }

    /// Builds the order, calling `progress` with values from 0 to 1 a few dozen times at most: the matching
    /// items and, as context, their ancestors.
    ///
    /// Each item is keyed as it is read (no copy of the items is kept), and only items with entries below them
    /// are looked up by id; the keys are handed on without a further copy where nothing is dropped, so the peak
    /// is about one key array and the tree built from it.
    /// - Complexity: O(n log n).
    public func run(progress: @Sendable (Double) -> Void = { _ in }) -> BuiltIndex {
        progress(0)
        let total = count
        var keys: [OrderKey] = []
        var parents: [ItemID?] = []
        var matches: [Bool] = []
        var parentSlots: [Int32] = []
        var slots: [ItemID: Int] = [:]
        var nested = false
        keys.reserveCapacity(spec.filter == .all ? total : 0)
        parents.reserveCapacity(spec.filter == .all ? total : 0)
        matches.reserveCapacity(spec.filter == .all ? total : 0)
        let step = max(1, total / 10)
        var offset = 0
        for order in orders {
            order.forEachEntry { manual in
                let item = manual.record!.item
                let keyed = context.keyed(item)
                let isMatch = spec.matches(keyed)
                let hasBelow = order.hasEntriesBelow(item.id)
                if isMatch || hasBelow {
                    // A parent is kept until its subtree is read; it goes if nothing below it matches.
                    if hasBelow { slots[item.id] = keys.count }
                    if item.parent != nil { nested = true }
                    parentSlots.append(Int32(item.parent.flatMap { slots[$0] } ?? -1))
                    keys.append(spec.entryKey(keyed))
                    parents.append(item.parent)
                    matches.append(isMatch)
                }
                offset += 1
                if offset % step == 0 { progress(0.3 * Double(offset) / Double(total)) }
            }
        }
        slots = [:]
        // Keep the matching entries and every ancestor of one (deepest first: a subtask comes after its parent).
        if !matches.allSatisfy({ $0 }) {
            var kept = matches
            if nested {
                for slot in keys.indices.reversed() where kept[slot] && parentSlots[slot] >= 0 {
                    kept[Int(parentSlots[slot])] = true
                }
            }
            var next = 0
            for slot in keys.indices where kept[slot] {
                keys.swapAt(next, slot)
                parents[next] = parents[slot]
                matches[next] = matches[slot]
                next += 1
            }
            keys.removeSubrange(next...)
            parents.removeSubrange(next...)
            matches.removeSubrange(next...)
        }
        parentSlots = []
        progress(0.6)
        // The orders come from a state that holds: every parent is among the entries, no cycle, no depth past the
        // limit, so nothing is refused.
        let places = collapsed.isEmpty ? [:]
            : Dictionary(uniqueKeysWithValues: keys.indices.map { (keys[$0].item, TreePlace(parent: parents[$0], key: keys[$0])) })
        var order: TreeOrder
        do {
            order = try TreeOrder(building: consume keys, parents: parents, matches: matches, grouping: spec.grouping)
        } catch {
            preconditionFailure("an order built from a consistent state was refused: \(error.message)")
        }
        for id in collapsed { _ = order.setCollapsed(id, true, place: { places[$0] }) }
        progress(1)
        return BuiltIndex(id: id, order: order)
    }
}

/// The result of `IndexBuild.run`, to hand to `Engine.install` on the message loop.
public struct BuiltIndex: Sendable {
    /// The build this came from.
    public let id: BuildID
    let order: TreeOrder
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
        indexes[spec] = built.order
        let caughtUp = pending.snapshotValues.map { id, snapshotValue in
            KeyChange(id: id, old: snapshotValue.map(pending.context.keyed), new: state.item(id).map { keyed($0) })
        }
        let oldParents = pending.snapshotValues.mapValues { $0?.parent }
        indexes[spec]!.apply(treeChanges(caughtUp, in: spec, oldParent: { oldParents[$0] ?? state.item($0)?.parent }),
                             place: place(in: spec))
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
