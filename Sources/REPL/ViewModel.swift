/// The open view as the client sees it: its snapshot, kept exact by applying each `view/changed`.

import TasklsProtocol
import Wire

/// The REPL's copy of one open view, exactly as an editor pane keeps it: the window's rows in the protocol's
/// `ViewWindow`, and beside them the sort, filter, sections and source the table's title line shows.
struct ViewModel {
    /// The window's rows and level (version, state, count, empty reason).
    private(set) var kept: ViewWindow
    /// The sort, filter and sections: as the server echoed them, or as the REPL last set them.
    var sort: Sort
    var filter: Filter
    var sections: Sections
    /// What the view shows: a list or a smart group.
    let source: ViewSource

    /// The view of a snapshot (`lists/open`).
    init(snapshot: ViewSnapshotResult) throws(CommandError) {
        do {
            kept = try ViewWindow(snapshot: snapshot)
        } catch {
            throw CommandError("the server's snapshot of the view cannot be shown: \(error.message)")
        }
        sort = snapshot.sort
        filter = snapshot.filter
        sections = snapshot.sections
        source = snapshot.source
    }

    /// The server's view id (`v1`).
    var id: ViewID { kept.view }
    /// The last version applied.
    var version: UInt64 { kept.version }
    /// `ready`, `loading` (with its progress), `closed` or `error` (with why).
    var state: ViewState { kept.state }
    /// Rows in the whole view (nil while in error).
    var count: Int? { kept.count }
    /// Why the view is empty, when it is.
    var empty: EmptyReason? { kept.empty }
    /// The window's first index.
    var start: Int { kept.window.start }
    /// The rows of the window, from `start`.
    var rows: [Row] { kept.rows }
    /// Loading progress from 0 to 1 (0 unless loading).
    var progress: Double {
        if case .loading(let progress) = state { return progress }
        return 0
    }
    /// Why the view is in error, when it is.
    var error: ViewError? {
        if case .error(let error) = state { return error }
        return nil
    }
    /// The list the view shows (nil for a smart group).
    var list: ListID? {
        if case .list(let list) = source { return list }
        return nil
    }

    /// Takes a snapshot (`view/setWindow`, `view/snapshot`): the client starts again from it.
    mutating func take(_ snapshot: ViewSnapshotResult) {
        do {
            try kept.resynchronize(snapshot)
        } catch {
            // Whatever the server says now is what the view is.
            guard let fresh = try? ViewWindow(snapshot: snapshot) else { return }
            kept = fresh
        }
        sort = snapshot.sort
        filter = snapshot.filter
        sections = snapshot.sections
    }

    /// Applies a `view/changed` notification; returns what changed, one entry per op that moved
    /// an item, or nil when it does not apply (a version gap, or a change protocol.md does not allow):
    /// the caller then fetches a snapshot.
    ///
    /// A moved row is noted with where it was in the window before the change and where it is after it (the ops'
    /// own indexes are those between one op and the next), and with the row it was.
    /// - Complexity: O(window) per notification.
    mutating func apply(_ change: ViewChanged) -> [ChangeNote]? {
        let wasReady = state.isReady
        let before = rows
        guard case .applied(let applied)? = try? kept.apply(change) else { return nil }
        func index(of row: Row, in rows: [Row]) -> Int? { rows.firstIndex { $0.id == row.id } }
        var notes: [ChangeNote] = []
        // A view that is not ready has no rows: nothing came or went that a line could name.
        let ready = change.state.isReady
        for operation in applied.operations {
            switch operation {
            case .inserted(let row, let index) where ready && !row.isHeader: notes.append(.inserted(row, at: start + index))
            case .removed(let row, let index) where ready && !row.isHeader: notes.append(.removed(row, from: start + index))
            case .moved(let row, let from, let to) where ready && !row.isHeader:
                let old = index(of: row, in: before).map { (before[$0], $0) } ?? (row, from)
                notes.append(.moved(old: old.0, new: row, from: start + old.1, to: start + (index(of: row, in: rows) ?? to)))
            case .updated(let old, let new, let index) where ready && !new.isHeader: notes.append(.updated(old: old, new: new, at: start + index))
            case .reset(let old):
                // After loading (the view was not ready) a reset is a re-index, not rows that came: the table
                // is shown again instead of a line per row.
                if ready && wasReady { notes += Self.difference(from: old, to: rows, start: start) }
                notes.append(.reset)
            default: break
            }
        }
        return notes
    }

    /// What a reset changed, by id: rows that left (bottom up), then rows that came or changed (top down).
    static func difference(from old: [Row], to new: [Row], start: Int) -> [ChangeNote] {
        let newIDs = Set(new.map(\.id))
        var notes: [ChangeNote] = []
        for (index, row) in old.enumerated().reversed() where !row.isHeader && !newIDs.contains(row.id) {
            notes.append(.removed(row, from: start + index))
        }
        let oldRows = Dictionary(old.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for (index, row) in new.enumerated() where !row.isHeader {
            if let before = oldRows[row.id] {
                if !before.showsTheSame(as: row) { notes.append(.updated(old: before, new: row, at: start + index)) }
            } else {
                notes.append(.inserted(row, at: start + index))
            }
        }
        return notes
    }

    /// Whether the view has sections: then items are numbered from 1 at the top of the window, headers not
    /// counted; without sections, an item's number is its row in the view (the footer's and `goto`'s numbers).
    var numbersInWindow: Bool { sections != .none }

    /// The view indexes of the window's items in order.
    /// - Complexity: O(window).
    var itemIndexes: [Int] { rows.indices.filter { !rows[$0].isHeader }.map { start + $0 } }

    /// The view index of the item the table numbers `number`, when the window shows it.
    /// - Complexity: O(window).
    func index(ofItemNumber number: Int) -> Int? {
        if numbersInWindow {
            let indexes = itemIndexes
            return number >= 1 && number <= indexes.count ? indexes[number - 1] : nil
        }
        guard number >= 1, case .item? = row(at: number - 1) else { return nil }
        return number - 1
    }

    /// The numbers the table shows for the window's items, first and last (nil when it shows none).
    /// - Complexity: O(window).
    var shownNumbers: (first: Int, last: Int)? {
        let indexes = itemIndexes
        guard let first = indexes.first, let last = indexes.last else { return nil }
        return (itemNumber(atIndex: first), itemNumber(atIndex: last))
    }

    /// The number the table shows for the item at view index `index`: without sections, `index + 1`; with
    /// sections, one more than the rows before it in the window that are not headers (for an item that has just
    /// left the window, the number it had, as long as the headers before it stayed).
    /// - Complexity: O(window).
    func itemNumber(atIndex index: Int) -> Int {
        guard numbersInWindow else { return index + 1 }
        let offset = max(0, index - start)
        return 1 + offset - rows[..<min(offset, rows.count)].filter(\.isHeader).count
    }

    /// The row at view index `index`, when the window shows it.
    func row(at index: Int) -> Row? { kept.row(at: index) }
}

/// One change a notification made to the window, as the compact line after a command says it.
enum ChangeNote: Equatable {
    case inserted(Row, at: Int)
    case removed(Row, from: Int)
    case moved(old: Row, new: Row, from: Int, to: Int)
    case updated(old: Row, new: Row, at: Int)
    /// The whole window was replaced.
    case reset
}
