/// A reference client written from protocol.md alone: it keeps each open view's window as JSON
/// rows, applies every `view/changed` exactly as the protocol describes, and refuses loudly
/// anything the protocol forbids.

import TestSupport
import Wire

/// Something the server sent that protocol.md does not allow, as a client saw it.
struct ProtocolViolation: Error, Equatable, CustomStringConvertible {
    /// A short name of the rule broken, for lapses (see `ReferenceView.lapses`); empty otherwise.
    var rule: String
    var description: String
    init(_ description: String, rule: String = "") {
        self.rule = rule
        self.description = description
    }
}

/// A view's window: the row indexes `start ..< end`.
struct ViewWindow: Equatable, CustomStringConvertible {
    var start: Int
    var end: Int

    init(start: Int, end: Int) {
        self.start = start
        self.end = end
    }

    var json: JSON { ["start": .integer(Int64(start)), "end": .integer(Int64(end))] }
    var description: String { "[\(start), \(end))" }
}

/// What applying one `view/changed` did.
enum ChangeOutcome: Equatable {
    /// The version followed and the ops were applied.
    case applied
    /// The version did not follow: the client missed something and must call `view/snapshot`.
    /// Nothing was applied; later changes are ignored until `resynchronize`.
    case gap(expected: Int64, received: Int64)
    /// The view was already waiting for a snapshot after a gap; the change was ignored.
    case ignoredUntilSnapshot
}

/// One open view as a client holds it: built from a snapshot, then changed only by
/// `view/changed` notifications, `view/setWindow` and `view/snapshot` results.
struct ReferenceView {
    /// The most rows a window may span (protocol.md, "Views").
    static let maximumWindow = 1_000
    /// The sort fields and directions protocol.md names.
    static let sortFields: Set<String> = ["manual", "title", "due", "priority", "created", "modified"]
    static let sortDirections: Set<String> = ["ascending", "descending"]
    static let priorities: Set<String> = ["none", "low", "medium", "high"]

    let id: String
    private(set) var list: String
    private(set) var sort: JSON
    private(set) var version: Int64
    private(set) var state: String
    private(set) var count: Int
    private(set) var window: ViewWindow
    private(set) var progress: Double?
    /// The window's rows, `window.start ..< min(window.end, count)`, as the server sent them.
    private(set) var rows: [JSON]
    /// Set by a version gap; cleared by the next snapshot.
    private(set) var awaitingSnapshot = false
    /// The highest version seen in a notification, so a resynchronising snapshot is not older.
    private var highestVersionSeen: Int64
    /// Breaches of the rules about the form of a change that still leave the rows exact (a
    /// notification that should have been one reset, a row that moved by remove and insert,
    /// a move that repeats an unchanged row). Applying goes on; `ReferenceClient` collects them.
    var lapses: [ProtocolViolation] = []

    /// A view from a snapshot (`lists/open`, `view/setWindow` or `view/snapshot` result).
    init(snapshot: JSON) throws(ProtocolViolation) {
        let parsed = try Self.parseSnapshot(snapshot, expectedView: nil)
        id = parsed.view
        list = parsed.list
        sort = parsed.sort
        version = parsed.version
        state = parsed.state
        count = parsed.count
        window = parsed.window
        progress = parsed.progress
        rows = parsed.rows
        highestVersionSeen = parsed.version
    }

    /// Takes a `view/setWindow` result: same view, same version, the rows of the new window.
    /// After a gap it is a snapshot like any other, and the client starts again from it.
    mutating func setWindow(_ snapshot: JSON) throws(ProtocolViolation) {
        if awaitingSnapshot { return try resynchronize(snapshot) }
        let parsed = try Self.parseSnapshot(snapshot, expectedView: id)
        guard parsed.version == version else {
            throw ProtocolViolation(
                "\(id): view/setWindow changed the version from \(version) to \(parsed.version); protocol.md: \"The version does not change\"")
        }
        take(parsed)
    }

    /// Starts again from a `view/snapshot` result, as a client does after a gap.
    mutating func resynchronize(_ snapshot: JSON) throws(ProtocolViolation) {
        let parsed = try Self.parseSnapshot(snapshot, expectedView: id)
        guard parsed.version >= highestVersionSeen else {
            throw ProtocolViolation("\(id): snapshot version \(parsed.version) is older than version \(highestVersionSeen) already notified")
        }
        take(parsed)
        awaitingSnapshot = false
        highestVersionSeen = parsed.version
    }

    /// Applies one `view/changed` notification's params.
    ///
    /// The version must be exactly one more than the last one; any other version is a gap (the
    /// caller decides whether that is expected). The ops apply in order to the rows as the ops
    /// before them left them, and must leave exactly the rows `count` and `window` imply.
    mutating func apply(_ params: JSON) throws(ProtocolViolation) -> ChangeOutcome {
        let path = "view/changed(\(id))"
        let version = try Self.integer(params["version"], "\(path).version")
        guard try Self.string(params["view"], "\(path).view") == id else {
            throw ProtocolViolation("\(path): routed to the wrong view: \(params.text)")
        }
        if awaitingSnapshot {
            highestVersionSeen = max(highestVersionSeen, version)
            return .ignoredUntilSnapshot
        }
        guard version == self.version + 1 else {
            awaitingSnapshot = true
            highestVersionSeen = max(highestVersionSeen, version)
            return .gap(expected: self.version + 1, received: version)
        }
        let state = try Self.string(params["state"], "\(path).state")
        guard state == "ready" || state == "loading" else {
            throw ProtocolViolation("\(path).state: \"\(state)\" is not a state a view/changed may carry")
        }
        let count = try Self.count(params["count"], "\(path).count")
        let window = try Self.window(params["window"], "\(path).window")
        guard window == self.window else {
            throw ProtocolViolation("\(path).window: \(window) but the client's window is \(self.window); only view/setWindow moves it")
        }
        let operations = try Self.array(params["ops"], "\(path).ops")
        var rows = self.rows
        var isReset = false
        var removed: Set<JSON> = []
        for (position, operation) in operations.enumerated() {
            let opPath = "\(path).ops[\(position)] \(operation.text) on \(rows.count) rows"
            switch try Self.string(operation["op"], "\(opPath).op") {
            case "insert":
                let index = try Self.index(operation["index"], upTo: rows.count, opPath)
                let row = try checkedRow(operation["row"], "\(opPath).row: a row entering the window must carry its data;")
                guard !rows.contains(where: { $0["id"] == row["id"] }) else {
                    throw ProtocolViolation("\(opPath): inserts a row whose id is already in the window")
                }
                if let id = row["id"], removed.contains(id) {
                    lapses.append(ProtocolViolation(
                        "\(opPath): row \(id.text) was removed and inserted again in one change; protocol.md: \"An edit that changes an item's position in a sorted view is a move with the row\". Notification: \(params.text)",
                        rule: "move, not remove and insert"))
                }
                rows.insert(row, at: index)
            case "remove":
                let index = try Self.index(operation["index"], upTo: rows.count - 1, opPath)
                if let id = rows[index]["id"] { removed.insert(id) }
                rows.remove(at: index)
            case "move":
                let from = try Self.index(operation["from"], upTo: rows.count - 1, "\(opPath).from")
                let moving = rows.remove(at: from)
                let to = try Self.index(operation["to"], upTo: rows.count, "\(opPath).to")
                var moved = moving
                if operation["row"] != nil {
                    moved = try checkedRow(operation["row"], "\(opPath).row")
                    guard moved["id"] == moving["id"] else {
                        throw ProtocolViolation("\(opPath): the row's id \(moved["id"]?.text ?? "?") is not the moved row's \(moving["id"]?.text ?? "?")")
                    }
                    if moved.isCanonicallyEqual(to: moving) {
                        lapses.append(ProtocolViolation(
                            "\(opPath): the move carries the row unchanged; protocol.md: \"row is present when its content changed too\". Notification: \(params.text)",
                            rule: "move row only when changed"))
                    }
                }
                rows.insert(moved, at: to)
            case "update":
                let index = try Self.index(operation["index"], upTo: rows.count - 1, opPath)
                let row = try checkedRow(operation["row"], "\(opPath).row: an update must carry the new row;")
                guard row["id"] == rows[index]["id"] else {
                    throw ProtocolViolation("\(opPath): an update replaced row \(rows[index]["id"]?.text ?? "?") by another id; an update never moves a row")
                }
                rows[index] = row
            case "reset":
                guard operations.count == 1 else {
                    throw ProtocolViolation("\(opPath): a reset must be alone, this notification has \(operations.count) ops")
                }
                let newRows = try Self.array(operation["rows"], "\(opPath).rows")
                rows = []
                for (rowPosition, newRow) in newRows.enumerated() {
                    rows.append(try checkedRow(newRow, "\(opPath).rows[\(rowPosition)]"))
                }
                isReset = true
            case let other:
                throw ProtocolViolation("\(opPath): unknown op \"\(other)\"")
            }
        }
        var progress: Double?
        if state == "loading" {
            progress = try Self.progress(params["progress"], "\(path).progress")
        }
        let expected = Self.windowLength(state: state, count: count, window: window)
        guard rows.count == expected else {
            throw ProtocolViolation(
                "\(path): after the ops the window holds \(rows.count) rows, but state \(state), count \(count) and window \(window) mean \(expected)")
        }
        try Self.checkUnique(rows, path)
        // Counted against the window's size, the reading that asks least: as many ops as the
        // window can hold rows are as many as its rows, whichever of before or after is meant.
        let capacity = window.end - window.start
        if !isReset && !operations.isEmpty && capacity > 0 && operations.count >= capacity {
            lapses.append(ProtocolViolation(
                "\(path): \(operations.count) ops for a window of \(capacity) rows (holding \(self.rows.count) before, \(rows.count) after); protocol.md: \"When the ops would be as many as the rows of the window, the server sends one reset instead\". Notification: \(params.text)",
                rule: "reset when ops are as many as rows"))
        }
        let visible = isReset || state == "loading" || state != self.state || count != self.count
            || !JSON.array(rows).isCanonicallyEqual(to: .array(self.rows))
        guard visible else {
            throw ProtocolViolation(
                "\(path): a notification with nothing a client can see changed (same rows, count and state): \(params.text)")
        }
        self.version = version
        self.state = state
        self.count = count
        self.progress = progress
        self.rows = rows
        highestVersionSeen = version
        return .applied
    }

    /// Compares this view with a fresh snapshot of it; returns what differs, or `nil`.
    func difference(from snapshot: JSON) -> String? {
        let parsed: ParsedSnapshot
        do { parsed = try Self.parseSnapshot(snapshot, expectedView: id) } catch { return error.description }
        var differences: [String] = []
        if parsed.version != version { differences.append("version: client \(version), server \(parsed.version)") }
        if parsed.state != state { differences.append("state: client \(state), server \(parsed.state)") }
        if parsed.count != count { differences.append("count: client \(count), server \(parsed.count)") }
        if parsed.window != window { differences.append("window: client \(window), server \(parsed.window)") }
        if !parsed.sort.isCanonicallyEqual(to: sort) { differences.append("sort: client \(sort.text), server \(parsed.sort.text)") }
        if !JSON.array(parsed.rows).isCanonicallyEqual(to: .array(rows)) {
            differences.append("rows differ:\n  client: \(JSON.array(rows).text)\n  server: \(JSON.array(parsed.rows).text)")
        }
        return differences.isEmpty ? nil : "\(id): " + differences.joined(separator: "; ")
    }

    /// Records a sort the server acknowledged with `view/sort` (its reset carries the rows).
    mutating func sorted(by sort: JSON) { self.sort = sort }

    // MARK: Parsing what the server sent

    private struct ParsedSnapshot {
        var view: String
        var list: String
        var sort: JSON
        var version: Int64
        var state: String
        var count: Int
        var window: ViewWindow
        var progress: Double?
        var rows: [JSON]
    }

    private mutating func take(_ parsed: ParsedSnapshot) {
        list = parsed.list
        sort = parsed.sort
        version = parsed.version
        state = parsed.state
        count = parsed.count
        window = parsed.window
        progress = parsed.progress
        rows = parsed.rows
    }

    private static func parseSnapshot(_ snapshot: JSON, expectedView: String?) throws(ProtocolViolation) -> ParsedSnapshot {
        let view = try string(snapshot["view"], "snapshot.view")
        let path = "snapshot(\(view))"
        if let expectedView, view != expectedView {
            throw ProtocolViolation("\(path): asked for view \(expectedView), got a snapshot of \(view)")
        }
        let list = try string(snapshot["list"], "\(path).list")
        let version = try integer(snapshot["version"], "\(path).version")
        guard version >= 1 else { throw ProtocolViolation("\(path).version: \(version) is below 1") }
        let state = try string(snapshot["state"], "\(path).state")
        guard state == "ready" || state == "loading" else {
            throw ProtocolViolation("\(path).state: \"\(state)\" is not ready or loading")
        }
        let count = try self.count(snapshot["count"], "\(path).count")
        let window = try self.window(snapshot["window"], "\(path).window")
        let sort = try self.sort(snapshot["sort"], "\(path).sort")
        var progress: Double?
        if state == "loading" { progress = try self.progress(snapshot["progress"], "\(path).progress") }
        let rowValues = try array(snapshot["rows"], "\(path).rows")
        var rows: [JSON] = []
        for (position, row) in rowValues.enumerated() {
            rows.append(try checkRow(row, list: list, "\(path).rows[\(position)]"))
        }
        let expected = windowLength(state: state, count: count, window: window)
        guard rows.count == expected else {
            throw ProtocolViolation("\(path): \(rows.count) rows, but state \(state), count \(count) and window \(window) mean \(expected)")
        }
        try checkUnique(rows, path)
        return ParsedSnapshot(
            view: view, list: list, sort: sort, version: version, state: state, count: count, window: window,
            progress: progress, rows: rows)
    }

    /// The rows a window holds: `start ..< min(end, count)` when ready, none while loading.
    private static func windowLength(state: String, count: Int, window: ViewWindow) -> Int {
        state == "ready" ? max(0, min(window.end, count) - window.start) : 0
    }

    private func checkedRow(_ value: JSON?, _ path: String) throws(ProtocolViolation) -> JSON {
        guard let value else { throw ProtocolViolation("\(path) missing") }
        return try Self.checkRow(value, list: list, path)
    }

    /// A row must have a kind and an id; an item row carries exactly what a pane renders.
    private static func checkRow(_ row: JSON, list: String, _ path: String) throws(ProtocolViolation) -> JSON {
        guard case .object = row else { throw ProtocolViolation("\(path): a row must be an object, got \(row.text)") }
        let kind = try string(row["kind"], "\(path).kind")
        _ = try string(row["id"], "\(path).id")
        guard kind == "item" else { return row }
        guard try string(row["list"], "\(path).list") == list else {
            throw ProtocolViolation("\(path): an item row of list \(row["list"]?.text ?? "?") in a view of \(list): \(row.text)")
        }
        _ = try string(row["title"], "\(path).title")
        guard case .bool? = row["done"] else { throw ProtocolViolation("\(path).done: expected a boolean in \(row.text)") }
        guard case .bool? = row["hasNotes"] else { throw ProtocolViolation("\(path).hasNotes: expected a boolean in \(row.text)") }
        switch row["due"] {
        case .null?, .string?: break
        default: throw ProtocolViolation("\(path).due: expected a string or null in \(row.text)")
        }
        guard priorities.contains(try string(row["priority"], "\(path).priority")) else {
            throw ProtocolViolation("\(path).priority: not one of \(priorities.sorted()) in \(row.text)")
        }
        for (position, tag) in try array(row["tags"], "\(path).tags").enumerated() {
            _ = try string(tag, "\(path).tags[\(position)]")
        }
        _ = try integer(row["revision"], "\(path).revision")
        for absent in ["notes", "completed", "created", "modified"] where row[absent] != nil {
            throw ProtocolViolation("\(path): an item row leaves out \(absent), got \(row.text)")
        }
        return row
    }

    private static func checkUnique(_ rows: [JSON], _ path: String) throws(ProtocolViolation) {
        var seen: Set<JSON> = []
        for row in rows {
            guard let id = row["id"], seen.insert(id).inserted else {
                throw ProtocolViolation("\(path): row id \(row["id"]?.text ?? "?") twice in the window")
            }
        }
    }

    private static func sort(_ value: JSON?, _ path: String) throws(ProtocolViolation) -> JSON {
        guard let value, case .object = value else { throw ProtocolViolation("\(path): expected a sort object, got \(value?.text ?? "nothing")") }
        let by = try string(value["by"], "\(path).by")
        let direction = try string(value["direction"], "\(path).direction")
        guard sortFields.contains(by), sortDirections.contains(direction) else {
            throw ProtocolViolation("\(path): unknown sort \(value.text)")
        }
        return value
    }

    private static func window(_ value: JSON?, _ path: String) throws(ProtocolViolation) -> ViewWindow {
        let start = try integer(value?["start"], "\(path).start")
        let end = try integer(value?["end"], "\(path).end")
        guard start >= 0, end >= start, end - start <= Int64(maximumWindow) else {
            throw ProtocolViolation("\(path): [\(start), \(end)) is not a window")
        }
        return ViewWindow(start: Int(start), end: Int(end))
    }

    private static func count(_ value: JSON?, _ path: String) throws(ProtocolViolation) -> Int {
        let count = try integer(value, path)
        guard count >= 0 else { throw ProtocolViolation("\(path): negative count \(count)") }
        return Int(count)
    }

    private static func progress(_ value: JSON?, _ path: String) throws(ProtocolViolation) -> Double {
        let progress: Double
        switch value {
        case .integer(let number)?: progress = Double(number)
        case .double(let number)?: progress = number
        default: throw ProtocolViolation("\(path): a loading view must carry a progress number, got \(value?.text ?? "nothing")")
        }
        guard (0...1).contains(progress) else { throw ProtocolViolation("\(path): \(progress) is outside 0...1") }
        return progress
    }

    /// An index in `0...upper`; an empty range (`upper` < 0) has none.
    private static func index(_ value: JSON?, upTo upper: Int, _ path: String) throws(ProtocolViolation) -> Int {
        let index = try integer(value, path)
        guard index >= 0, index <= Int64(upper) else {
            throw ProtocolViolation(upper < 0 ? "\(path): index \(index), but there is no row to address" : "\(path): index \(index) out of range 0...\(upper)")
        }
        return Int(index)
    }

    static func integer(_ value: JSON?, _ path: String) throws(ProtocolViolation) -> Int64 {
        guard case .integer(let number)? = value else { throw ProtocolViolation("\(path): expected an integer, got \(value?.text ?? "nothing")") }
        return number
    }

    static func string(_ value: JSON?, _ path: String) throws(ProtocolViolation) -> String {
        guard case .string(let text)? = value else { throw ProtocolViolation("\(path): expected a string, got \(value?.text ?? "nothing")") }
        return text
    }

    static func array(_ value: JSON?, _ path: String) throws(ProtocolViolation) -> [JSON] {
        guard case .array(let elements)? = value else { throw ProtocolViolation("\(path): expected an array, got \(value?.text ?? "nothing")") }
        return elements
    }
}

/// Every view a client has open, fed with the server's notifications in the order they came.
struct ReferenceClient {
    private(set) var views: [String: ReferenceView] = [:]
    /// Views the server closed, with the reason it gave.
    private(set) var closedByServer: [String: String] = [:]
    /// Lapses of every view (see `ReferenceView.lapses`), in the order they were seen.
    private(set) var lapses: [ProtocolViolation] = []

    /// Takes the lapses seen so far.
    mutating func takeLapses() -> [ProtocolViolation] {
        defer { lapses.removeAll() }
        return lapses
    }

    /// Opens a view from a `lists/open` result, which is always version 1.
    @discardableResult
    mutating func open(_ snapshot: JSON) throws(ProtocolViolation) -> String {
        let view = try ReferenceView(snapshot: snapshot)
        guard view.version == 1 else { throw ProtocolViolation("lists/open answered \(view.id) at version \(view.version), not 1") }
        guard views[view.id] == nil, closedByServer[view.id] == nil else {
            throw ProtocolViolation("lists/open reused the view id \(view.id)")
        }
        views[view.id] = view
        return view.id
    }

    /// Takes a `view/setWindow` result.
    mutating func setWindow(_ view: String, _ snapshot: JSON) throws(ProtocolViolation) {
        guard views[view] != nil else { throw ProtocolViolation("setWindow answered for \(view), which the client does not have open") }
        try views[view]!.setWindow(snapshot)
    }

    /// Starts a view again from a `view/snapshot` result.
    mutating func resynchronize(_ view: String, _ snapshot: JSON) throws(ProtocolViolation) {
        guard views[view] != nil else { throw ProtocolViolation("snapshot answered for \(view), which the client does not have open") }
        try views[view]!.resynchronize(snapshot)
    }

    /// Records a `view/sort` answer `{"view", "version"}`: its version is that of the reset just applied.
    mutating func sorted(_ view: String, by sort: JSON, answer: JSON) throws(ProtocolViolation) {
        guard let current = views[view] else { throw ProtocolViolation("view/sort answered for \(view), which the client does not have open") }
        guard try ReferenceView.string(answer["view"], "view/sort result.view") == view else {
            throw ProtocolViolation("view/sort result names another view: \(answer.text)")
        }
        let version = try ReferenceView.integer(answer["version"], "view/sort result.version")
        guard version == current.version else {
            throw ProtocolViolation("view/sort answered version \(version), but the last view/changed of \(view) was version \(current.version)")
        }
        views[view]!.sorted(by: sort)
    }

    /// Forgets a view the client closed with `view/close`.
    mutating func close(_ view: String) { views[view] = nil }

    /// Applies one notification from the server. Returns the views it changed with what applying did.
    mutating func receive(_ method: String, _ params: JSON?) throws(ProtocolViolation) -> (view: String, outcome: ChangeOutcome?) {
        guard let params, case .object = params else {
            throw ProtocolViolation("\(method): params must be an object, got \(params?.text ?? "nothing")")
        }
        let view = try ReferenceView.string(params["view"], "\(method).view")
        switch method {
        case "view/changed":
            guard views[view] != nil else {
                throw ProtocolViolation("view/changed for \(view), which is not open (closed or never opened): \(params.text)")
            }
            let outcome = try views[view]!.apply(params)
            lapses += views[view]!.lapses
            views[view]!.lapses.removeAll()
            return (view, outcome)
        case "view/closed":
            guard views[view] != nil else { throw ProtocolViolation("view/closed for \(view), which is not open: \(params.text)") }
            let reason = try ReferenceView.string(params["reason"], "view/closed.reason")
            guard reason == "listDeleted" else { throw ProtocolViolation("view/closed with unknown reason \"\(reason)\"") }
            views[view] = nil
            closedByServer[view] = reason
            return (view, nil)
        default:
            throw ProtocolViolation("unexpected notification \(method): \(params.text)")
        }
    }
}
