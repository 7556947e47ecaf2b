// Sections: the live item count of each section of a grouped order, and the rows (headers and items) of a window.

/// The non-empty sections of one grouped order, in order, each with its item count.
struct SectionCounts: Sendable {
    struct Entry: Sendable {
        var section: SectionID
        var rank: Int32
        /// The list's position, for sections by list.
        var listPosition: [UInt8]?
        var count: Int

        func precedes(_ other: Entry) -> Bool {
            if rank != other.rank { return rank < other.rank }
            guard let left = listPosition, let right = other.listPosition else { return false }
            return compareBytes(left, right) < 0
        }
    }

    /// The non-empty sections, in order.
    private(set) var entries: [Entry] = []

    /// Adds `delta` items to `keyed`'s section in `grouping`, which now sits at `keyed`'s list position.
    /// - Complexity: O(sections).
    mutating func add(_ delta: Int, _ keyed: Keyed, _ grouping: Grouping) {
        guard let section = grouping.section(of: keyed.item, status: keyed.status) else { return }
        var entry = Entry(section: section, rank: section.rank,
                          listPosition: grouping == .list ? keyed.listPosition.bytes : nil, count: delta)
        if let at = entries.firstIndex(where: { $0.section == section }) {
            entry.count += entries[at].count
            if delta < 0 { entry.listPosition = entries[at].listPosition }
            entries.remove(at: at)
        }
        guard entry.count > 0 else { return }
        let at = entries.firstIndex { entry.precedes($0) } ?? entries.count
        entries.insert(entry, at: at)
    }
}

extension Engine {
    /// The non-empty sections of `spec`'s order; none when it is not grouped or not ready.
    func sections(of spec: IndexSpec) -> [SectionCounts.Entry] {
        spec.grouping == .none ? [] : sectionCounts[spec]?.entries ?? []
    }

    /// The number of items in `source`, whatever the filter.
    /// - Complexity: O(1).
    func sourceCount(_ source: ViewSource) -> Int {
        switch source {
        case .list(let list): state.itemCount(in: list)
        case .group(let group): day.counts[group]
        }
    }

    /// Why a view in `spec` is empty, nil when it is not (or its count is unknown).
    func emptyReason(of spec: IndexSpec) -> EmptyReason? {
        emptyReason(of: spec, count: count(of: spec))
    }

    /// Why a view in `spec` with `count` rows (`count(of: spec)`, already known) is empty.
    func emptyReason(of spec: IndexSpec, count: Int?) -> EmptyReason? {
        guard count == 0 else { return nil }
        return sourceCount(spec.source) == 0 ? .noItems : .noMatches
    }

    /// Moves an item's key in `spec`'s maintained index from `old` to `new` (nil: absent), keeping the
    /// section counts.
    /// - Complexity: O(log n + sections).
    mutating func reindex(_ spec: IndexSpec, old: (key: OrderKey, keyed: Keyed)?, new: (key: OrderKey, keyed: Keyed)?) {
        switch (old, new) {
        case let (old?, new?): indexes[spec]!.replace(old.key, with: new.key)
        case let (old?, nil): indexes[spec]!.remove(old.key)
        case let (nil, new?): indexes[spec]!.insert(new.key)
        case (nil, nil): return
        }
        guard spec.grouping != .none else { return }
        if let old { sectionCounts[spec, default: SectionCounts()].add(-1, old.keyed, spec.grouping) }
        if let new { sectionCounts[spec, default: SectionCounts()].add(1, new.keyed, spec.grouping) }
    }

    /// The header row of a section.
    func header(_ entry: SectionCounts.Entry) -> Row {
        let title: String
        switch entry.section {
        case .due(let bucket):
            title = ["Overdue", "Today", "Tomorrow", "Next 7 Days", "Later", "No Date"][bucket.rawValue]
        case .priority(let priority):
            title = ["No Priority", "Low", "Medium", "High"][priority.rank]
        case .list(let list):
            title = state.lists[list]?.name ?? ""
        case .done(let done):
            title = done ? "Done" : "Not Done"
        }
        return .header(SectionHeader(section: entry.section, title: title, count: entry.count))
    }

    /// The rows of a view's window as the client holds them.
    func rows(of view: OpenView) -> [Row] {
        view.spec.grouping == .none ? rows(view.keys) : view.groupedRows
    }

    /// Recomputes the rows of `view`'s window from its order (no rows while loading).
    /// - Complexity: O(log n + window + sections).
    mutating func refreshWindow(of view: ViewID) {
        let (keys, rows) = windowContent(of: views[view]!)
        views[view]!.keys = keys
        views[view]!.groupedRows = rows
    }

    /// The item keys of a view's window and, in a grouped view, all its rows (headers and items).
    /// In a grouped view, section s's header is at row (items before s) + s, its items just after it.
    /// - Complexity: O(log n + window + sections).
    func windowContent(of view: OpenView) -> (keys: [OrderKey], rows: [Row]) {
        guard let index = index(view.spec) else { return ([], []) }
        guard view.spec.grouping != .none else { return (windowKeys(of: view), []) }
        var keys: [OrderKey] = []
        var rows: [Row] = []
        var rowStart = 0
        var itemStart = 0
        for entry in sections(of: view.spec) {
            let rowEnd = rowStart + 1 + entry.count
            if rowStart >= view.window.end { break }
            if rowEnd > view.window.start {
                if view.window.start <= rowStart { rows.append(header(entry)) }
                let lower = max(view.window.start, rowStart + 1) - (rowStart + 1)
                let upper = min(view.window.end, rowEnd) - (rowStart + 1)
                if lower < upper {
                    let sectionKeys = index.keys(in: itemStart + lower..<itemStart + upper)
                    keys += sectionKeys
                    rows += sectionKeys.map { .item(state.item($0.item)!) }
                }
            }
            rowStart = rowEnd
            itemStart += entry.count
        }
        return (keys, rows)
    }

    /// The change of a grouped view after its index and section counts are current: a keyed diff of its
    /// window's rows, headers included (a header whose count or title changed is updated).
    /// - Complexity: O(log n + sections + w log w) for a window of w rows.
    func refreshGrouped(_ view: inout OpenView, changedContent: ChangedContent, lowestTouched: OrderKey?) -> [WindowOperation] {
        if let lowestTouched, view.groupedRows.count == view.window.end - view.window.start,
           case .item? = view.groupedRows.last, let last = view.keys.last, last < lowestTouched {
            // The window is full, ends with an item, and every change is below that item: only the counts of
            // its headers can change.
            return updatedHeaders(&view)
        }
        let (keys, rows) = windowContent(of: view)
        let oldRows = view.groupedRows
        view.keys = keys
        view.groupedRows = rows
        var oldHeaders: [RowID: Row] = [:]
        for row in oldRows { if case .header = row { oldHeaders[row.id] = row } }
        var newRows: [RowID: Row] = [:]
        for row in rows { newRows[row.id] = row }
        var operations = WindowDiff.operations(old: oldRows.map(\.id), new: rows.map(\.id), changed: { id in
            switch id {
            case .item(let item): changedContent.contains(item)
            case .header: oldHeaders[id] != newRows[id]
            }
        }, row: { newRows[$0]! })
        if !operations.isEmpty, operations.count >= rows.count { operations = [.reset(rows: rows)] }
        return operations
    }
}

extension Engine {
    /// Updates of the window's headers whose count changed, the rows staying where they are.
    /// - Complexity: O(window + sections).
    func updatedHeaders(_ view: inout OpenView) -> [WindowOperation] {
        let entries = sections(of: view.spec)
        var operations: [WindowOperation] = []
        for index in view.groupedRows.indices {
            // Matched in place: copying each item row whole would retain every field of its item.
            guard case .header(let old) = view.groupedRows[index],
                  let entry = entries.first(where: { $0.section == old.section }), entry.count != old.count else { continue }
            let updated = header(entry)
            view.groupedRows[index] = updated
            operations.append(.update(index: index, row: updated))
        }
        return operations
    }
}
