/// What applying one `view/changed` did to a client's window, op by op: what a client shows as changes.

import Wire

/// One `view/changed` as `ViewWindow` applied it.
public struct AppliedChange: Sendable, Hashable {
    /// What each op did, in order; indexes are window-relative, as the op's.
    public var operations: [AppliedOperation]
    /// The rules of form the change broke although it applied exactly (`ViewWindowViolation.Rule.leavesRowsExact`).
    public var lapses: [ViewWindowViolation]

    /// Makes the record of an applied change.
    public init(operations: [AppliedOperation], lapses: [ViewWindowViolation]) {
        self.operations = operations
        self.lapses = lapses
    }
}

/// What one op did. Indexes are window-relative: index 0 is the row at `window.start`.
public enum AppliedOperation: Sendable, Hashable {
    /// `row` came in at `index`.
    case inserted(Row, at: Int)
    /// `row` left from `index`.
    case removed(Row, at: Int)
    /// `row` (its new content, when the op carried it) moved from `from` to `to`.
    case moved(Row, from: Int, to: Int)
    /// The row at `index` changed from `old` to `new`.
    case updated(old: Row, new: Row, at: Int)
    /// Every row was replaced; `old` are the rows before (the new ones are the window's rows).
    case reset(old: [Row])
}

extension Row {
    /// The row's id: an item's id (`i42`), or a section header's (`s:due:today`); unique within a view.
    public var id: String {
        switch self {
        case .item(let row): row.id.description
        case .header(let row): row.id
        }
    }
}

/// The ops of one change applied in order to a copy of the rows, with every index checked.
struct Applying {
    /// The rows as the ops so far left them.
    var rows: [Row]
    let change: ViewChanged
    let path: String
    private(set) var operations: [AppliedOperation] = []
    private(set) var lapses: [ViewWindowViolation] = []
    private(set) var isReset = false
    /// The ids removed so far, to tell a remove and insert of one row (which protocol.md asks to be a move).
    private var removed: Set<String> = []

    init(rows: [Row], change: ViewChanged, path: String) {
        self.rows = rows
        self.change = change
        self.path = path
    }

    /// Applies the op at `position` of the change.
    mutating func apply(_ operation: WindowOperation, at position: Int) throws(ViewWindowViolation) {
        // Described only when something is wrong: building it for every op would cost more than applying it.
        let rowCount = rows.count
        func opPath() -> String { "\(path).ops[\(position)] \(operation.json.text) on \(rowCount) rows" }
        switch operation {
        case .insert(let index, let row):
            try check(index, upTo: rows.count, opPath)
            guard !rows.contains(where: { $0.id == row.id }) else {
                throw ViewWindowViolation(.duplicateRow, "\(opPath()): inserts row \(row.id), which is already in the window: \(change.json.text)")
            }
            if removed.contains(row.id) {
                lapses.append(ViewWindowViolation(
                    .removedAndInserted,
                    "\(opPath()): row \(row.id) was removed and inserted again in one change; protocol.md: \"An edit that changes an item's position in a sorted view is a move with the row\". Notification: \(change.json.text)"))
            }
            rows.insert(row, at: index)
            operations.append(.inserted(row, at: index))
        case .remove(let index):
            try check(index, upTo: rows.count - 1, opPath)
            let row = rows.remove(at: index)
            removed.insert(row.id)
            operations.append(.removed(row, at: index))
        case .move(let from, let to, let row):
            try check(from, upTo: rows.count - 1) { opPath() + ".from" }
            let moving = rows.remove(at: from)
            try check(to, upTo: rows.count) { opPath() + ".to" }
            var moved = moving
            if let row {
                guard row.id == moving.id else {
                    throw ViewWindowViolation(
                        .rowIdentityChanged, "\(opPath()): the row's id \(row.id) is not the moved row's \(moving.id): \(change.json.text)")
                }
                if row == moving {
                    lapses.append(ViewWindowViolation(
                        .moveRepeatsRow,
                        "\(opPath()): the move carries the row unchanged; protocol.md: \"row is present exactly when its content changed too\". Notification: \(change.json.text)"))
                }
                moved = row
            }
            if to == from {
                lapses.append(ViewWindowViolation(
                    .moveInPlace, "\(opPath()): a move to the index it came from; protocol.md: \"never equal to F\". Notification: \(change.json.text)"))
            }
            rows.insert(moved, at: to)
            operations.append(.moved(moved, from: from, to: to))
        case .update(let index, let row):
            try check(index, upTo: rows.count - 1, opPath)
            let old = rows[index]
            guard row.id == old.id else {
                throw ViewWindowViolation(
                    .rowIdentityChanged,
                    "\(opPath()): an update replaced row \(old.id) by \(row.id); an update never moves a row: \(change.json.text)")
            }
            if row == old {
                lapses.append(ViewWindowViolation(
                    .updateRepeatsRow, "\(opPath()): an update with the row the client already has; protocol.md: \"Every op changes the window\". Notification: \(change.json.text)"))
            }
            rows[index] = row
            operations.append(.updated(old: old, new: row, at: index))
        case .reset(let newRows):
            guard change.ops.count == 1 else {
                throw ViewWindowViolation(
                    .resetNotAlone, "\(opPath()): a reset is always alone; this change has \(change.ops.count) ops: \(change.json.text)")
            }
            operations.append(.reset(old: rows))
            rows = newRows
            isReset = true
        }
    }

    /// Throws when `index` is outside `0...upper` (which holds nothing when `upper` is negative).
    private func check(_ index: Int, upTo upper: Int, _ path: () -> String) throws(ViewWindowViolation) {
        guard index >= 0, index <= upper else {
            let message = upper < 0
                ? "\(path()): index \(index), but there is no row to address"
                : "\(path()): index \(index) out of range 0...\(upper)"
            throw ViewWindowViolation(.indexOutOfRange, "\(message): \(change.json.text)")
        }
    }
}
