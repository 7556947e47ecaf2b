/// The open view as the client sees it: its snapshot, kept exact by applying each `view/changed`.

import Wire

/// The REPL's copy of one open view, exactly as an editor pane keeps it.
struct ViewModel {
    /// The server's view id (`v1`).
    var id: String
    /// The last version applied; a notification with any other next version means a gap.
    var version: Int
    /// `ready`, `loading` or `error`.
    var state: String
    /// Loading progress from 0 to 1.
    var progress: Double
    /// Rows in the whole view (nil while in error).
    var count: Int?
    /// `noItems` or `noMatches` when the view is empty.
    var empty: String?
    /// The error's message and whether retrying can help.
    var error: (message: String, retryable: Bool)?
    /// The window's first index and its end.
    var start: Int
    var end: Int
    /// The rows of the window, from `start`.
    var rows: [Row]
    /// The sort, filter and sections as the server echoed them.
    var sort: JSON
    var filter: JSON
    var sections: String
    /// The list id (nil for a smart group) and the smart group's id.
    var list: String?
    var group: String?

    /// The view of a snapshot (`lists/open`, `view/setWindow`, `view/snapshot`).
    init?(snapshot: JSON) {
        guard case .string(let id)? = snapshot["view"] else { return nil }
        self.id = id
        version = snapshot["version"]?.intValue ?? 0
        state = "ready"
        progress = 0
        count = nil
        start = 0
        end = 0
        rows = []
        sort = ["by": "manual", "direction": "ascending"]
        filter = [:]
        sections = "none"
        list = snapshot["list"]?.stringValue
        group = snapshot["group"]?.stringValue
        take(snapshot)
    }

    /// Takes a snapshot's values (keeping what it leaves out, such as the sort of a loading view).
    mutating func take(_ snapshot: JSON) {
        version = snapshot["version"]?.intValue ?? version
        takeLevel(snapshot)
        if let sort = snapshot["sort"] { self.sort = sort }
        if let filter = snapshot["filter"] { self.filter = filter }
        if let sections = snapshot["sections"]?.stringValue { self.sections = sections }
        rows = snapshot["rows"]?.arrayValue.compactMap(Row.init) ?? []
    }

    /// Takes the state, count, empty reason, progress, error and window of a snapshot or notification.
    private mutating func takeLevel(_ message: JSON) {
        state = message["state"]?.stringValue ?? state
        count = message["count"]?.intValue
        empty = message["empty"]?.stringValue
        progress = message["progress"]?.doubleValue ?? (state == "loading" ? progress : 0)
        if let error = message["error"] {
            self.error = (error["message"]?.stringValue ?? "the store failed", error["retryable"] == .bool(true))
        } else {
            self.error = nil
        }
        if let window = message["window"], let start = window["start"]?.intValue, let end = window["end"]?.intValue {
            self.start = start
            self.end = end
        }
        if state != "ready" { rows = [] }
    }

    /// Applies a `view/changed` notification; returns what changed, one entry per op that moved
    /// an item, or nil when its version does not follow ours (the caller fetches a snapshot).
    mutating func apply(_ change: JSON) -> [ChangeNote]? {
        guard let next = change["version"]?.intValue, next == version + 1 else { return nil }
        version = next
        takeLevel(change)
        var notes: [ChangeNote] = []
        for op in change["ops"]?.arrayValue ?? [] {
            let row = op["row"].flatMap(Row.init)
            switch op["op"]?.stringValue {
            case "insert":
                guard let row, let index = op["index"]?.intValue, index <= rows.count else { return nil }
                rows.insert(row, at: index)
                if !row.isHeader { notes.append(.inserted(row, at: start + index)) }
            case "remove":
                guard let index = op["index"]?.intValue, index < rows.count else { return nil }
                let removed = rows.remove(at: index)
                if !removed.isHeader { notes.append(.removed(removed, from: start + index)) }
            case "move":
                guard let from = op["from"]?.intValue, let to = op["to"]?.intValue, from < rows.count else { return nil }
                let moved = row ?? rows[from]
                rows.remove(at: from)
                guard to <= rows.count else { return nil }
                rows.insert(moved, at: to)
                if !moved.isHeader { notes.append(.moved(moved, from: start + from, to: start + to)) }
            case "update":
                guard let row, let index = op["index"]?.intValue, index < rows.count else { return nil }
                let old = rows[index]
                rows[index] = row
                if !row.isHeader { notes.append(.updated(old: old, new: row, at: start + index)) }
            case "reset":
                let old = rows
                rows = op["rows"]?.arrayValue.compactMap(Row.init) ?? []
                notes += Self.difference(from: old, to: rows, start: start)
                notes.append(.reset)
            default:
                return nil
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
                if before != row { notes.append(.updated(old: before, new: row, at: start + index)) }
            } else {
                notes.append(.inserted(row, at: start + index))
            }
        }
        return notes
    }

    /// The row at view index `index`, when the window shows it.
    func row(at index: Int) -> Row? {
        let offset = index - start
        return offset >= 0 && offset < rows.count ? rows[offset] : nil
    }

    /// Whether rows can be reordered by index (manual ascending order).
    var isManual: Bool { sort["by"]?.stringValue == "manual" && sort["direction"]?.stringValue != "descending" }
}

/// One change a notification made to the window, as the compact line after a command says it.
enum ChangeNote: Equatable {
    case inserted(Row, at: Int)
    case removed(Row, from: Int)
    case moved(Row, from: Int, to: Int)
    case updated(old: Row, new: Row, at: Int)
    /// The whole window was replaced.
    case reset
}
