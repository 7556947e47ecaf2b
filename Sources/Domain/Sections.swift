// Sections: the live counts of each section of a grouped order, and the rows (headers and items) of a window.

/// One non-empty section of a grouped order, as its view shows it.
struct SectionEntry: Sendable {
    /// Which section.
    var section: SectionID
    /// The rows it spans after its header (collapsed rows left out).
    var rows: Int
    /// Its matching items (the header's count: collapsed ones counted, context rows not).
    var count: Int
}

extension Engine {
    /// The non-empty sections of `spec`'s order, in order; none when it is not grouped or not ready.
    /// - Complexity: O(sections × (log sections + depth × log n)).
    func sections(of spec: IndexSpec) -> [SectionEntry] {
        guard spec.grouping != .none, let order = index(spec) else { return [] }
        let slots = order.sections.keys.sorted { $0.precedes($1) }
        var entries: [SectionEntry] = []
        entries.reserveCapacity(slots.count)
        var start = 0
        for slot in slots {
            let tally = order.sections[slot]!
            let first = order.row(at: start).key.item
            let item = state.item(first)!
            let section = spec.grouping.section(of: item, status: day.status(of: item))!
            entries.append(SectionEntry(section: section, rows: tally.rows, count: tally.matching))
            start += tally.rows
        }
        return entries
    }

    /// The number of items in `source`, whatever the filter.
    /// - Complexity: O(1).
    func sourceCount(_ source: ViewSource) -> Int {
        switch source {
        case .list(let list): state.itemCount(in: list)
        case .group(let group): day.counts[group]
        case .smartList(let id, _): smartListCount(id) ?? 0
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

    /// The header row of a section.
    func header(_ entry: SectionEntry) -> Row {
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
        view.spec.grouping == .none ? rows(view.rows) : view.groupedRows
    }

    /// Recomputes the rows of `view`'s window from its order (no rows while loading).
    /// - Complexity: O(log n + window + sections).
    mutating func refreshWindow(of view: ViewID) {
        let (items, rows) = windowContent(of: views[view]!)
        views[view]!.rows = items
        views[view]!.groupedRows = rows
    }

    /// The item rows of a view's window and, in a grouped view, all its rows (headers and items).
    /// In a grouped view, section s's header is at row (rows of the sections before s) + s, its rows just after it.
    /// - Complexity: O(depth × log n + window + sections).
    func windowContent(of view: OpenView) -> (items: [TreeRow], rows: [Row]) {
        guard let index = index(view.spec) else { return ([], []) }
        guard view.spec.grouping != .none else { return (windowRows(of: view), []) }
        var keys: [TreeRow] = []
        var rows: [Row] = []
        var rowStart = 0
        var itemStart = 0
        for entry in sections(of: view.spec) {
            let rowEnd = rowStart + 1 + entry.rows
            if rowStart >= view.window.end { break }
            if rowEnd > view.window.start {
                if view.window.start <= rowStart { rows.append(header(entry)) }
                let lower = max(view.window.start, rowStart + 1) - (rowStart + 1)
                let upper = min(view.window.end, rowEnd) - (rowStart + 1)
                if lower < upper {
                    let sectionRows = index.rows(in: itemStart + lower..<itemStart + upper)
                    keys += sectionRows
                    rows += sectionRows.map(itemRow)
                }
            }
            rowStart = rowEnd
            itemStart += entry.rows
        }
        return (keys, rows)
    }

    /// The change of a grouped view after its index and section counts are current: a keyed diff of its
    /// window's rows, headers included (a header whose count or title changed is updated).
    /// - Complexity: O(depth × log n + sections + w) for a window of w rows.
    func refreshGrouped(_ view: inout OpenView, changedContent: ChangedContent) -> [WindowOperation] {
        let (items, rows) = windowContent(of: view)
        let oldRows = view.groupedRows
        view.rows = items
        view.groupedRows = rows
        var oldByID: [RowID: Row] = [:]
        for row in oldRows { oldByID[row.id] = row }
        var newRows: [RowID: Row] = [:]
        for row in rows { newRows[row.id] = row }
        var operations = WindowDiff.operations(old: oldRows.map(\.id), new: rows.map(\.id), changed: { id in
            switch id {
            case .item(let item): changedContent.contains(item) || oldByID[id] != newRows[id]
            case .header: oldByID[id] != newRows[id]
            }
        }, row: { newRows[$0]! })
        if !operations.isEmpty, operations.count >= rows.count { operations = [.reset(rows: rows)] }
        return operations
    }
}
