/// Helpers for the tests of several `taskls` processes on one store: a client's model of one
/// view's window fed only by `view/changed`, and small readers of the JSON the server answers.

import TestSupport
import Transcript
import Wire

extension JSON {
    /// An integer member's value.
    func integer(_ key: String) -> Int64? {
        if case .integer(let value)? = self[key] { return value }
        return nil
    }

    /// The elements of an array member.
    func elements(_ key: String) -> [JSON]? {
        if case .array(let elements)? = self[key] { return elements }
        return nil
    }

    /// `error.code` of an error response.
    var errorCode: Int64? { self["error"]?.integer("code") }

    /// An array of id strings.
    static func ids(_ ids: [String]) -> JSON { .array(ids.map { .string($0) }) }
}

/// One open view as a client keeps it: built from a snapshot, then changed only by applying each `view/changed`
/// as protocol.md says (versions one by one; ops sequential and window-relative).
struct WindowModel {
    let view: String
    private(set) var version: Int64
    private(set) var count: Int
    private(set) var start: Int
    private(set) var end: Int
    /// The rows `start ..< min(end, count)`.
    private(set) var rows: [JSON]
    /// How many notifications were applied, and how many of them were one `reset`.
    private(set) var applied = 0
    private(set) var resets = 0

    /// A view from a `lists/open` or `view/snapshot` result; nil when it is not a ready snapshot.
    init?(snapshot: JSON) {
        guard case .string(let view)? = snapshot["view"], let version = snapshot.integer("version"),
              snapshot.string("state") == "ready", let count = snapshot.integer("count"),
              let start = snapshot["window"]?.integer("start"), let end = snapshot["window"]?.integer("end"),
              let rows = snapshot.elements("rows") else { return nil }
        self.view = view
        self.version = version
        self.count = Int(count)
        self.start = Int(start)
        self.end = Int(end)
        self.rows = rows
    }

    /// The number of rows the window holds for `count`.
    private func expectedRows(_ count: Int) -> Int { max(0, min(end, count) - start) }

    /// Applies one `view/changed`'s params; returns what was wrong with it (nothing is applied then), or nil.
    mutating func apply(_ params: JSON) -> String? {
        let text = params.text
        guard let version = params.integer("version") else { return "no version: \(text)" }
        guard version == self.version + 1 else { return "version \(version) after \(self.version): \(text)" }
        guard params.string("state") == "ready", let count = params.integer("count") else { return "not ready: \(text)" }
        guard params["window"]?.integer("start") == Int64(start), params["window"]?.integer("end") == Int64(end) else {
            return "the window moved: \(text)"
        }
        guard let operations = params.elements("ops") else { return "no ops: \(text)" }
        var rows = self.rows
        var reset = false
        for operation in operations {
            let index = operation.integer("index").map(Int.init)
            switch operation.string("op") {
            case "insert":
                guard let index, index >= 0, index <= rows.count, let row = operation["row"] else { return "bad insert \(operation.text) on \(rows.count) rows: \(text)" }
                rows.insert(row, at: index)
            case "remove":
                guard let index, index >= 0, index < rows.count else { return "bad remove \(operation.text) on \(rows.count) rows: \(text)" }
                rows.remove(at: index)
            case "move":
                guard let from = operation.integer("from").map(Int.init), let to = operation.integer("to").map(Int.init),
                      from >= 0, from < rows.count, to >= 0, to < rows.count else { return "bad move \(operation.text) on \(rows.count) rows: \(text)" }
                var row = rows.remove(at: from)
                if let moved = operation["row"] {
                    guard moved["id"] == row["id"] else { return "a move carries another row: \(text)" }
                    row = moved
                }
                rows.insert(row, at: to)
            case "update":
                guard let index, index >= 0, index < rows.count, let row = operation["row"], row["id"] == rows[index]["id"] else {
                    return "bad update \(operation.text) on \(rows.count) rows: \(text)"
                }
                rows[index] = row
            case "reset":
                guard operations.count == 1, let newRows = operation.elements("rows") else { return "bad reset: \(text)" }
                rows = newRows
                reset = true
            default:
                return "unknown op \(operation.text): \(text)"
            }
        }
        let expected = max(0, min(end, Int(count)) - start)
        guard rows.count == expected else { return "the ops leave \(rows.count) rows where count \(count) means \(expected): \(text)" }
        guard Set(rows.compactMap { $0["id"] }).count == rows.count else { return "a row twice in the window: \(text)" }
        self.version = version
        self.count = Int(count)
        self.rows = rows
        applied += 1
        if reset { resets += 1 }
        return nil
    }

    /// What differs from a fresh `view/snapshot` of the view (version, count, window, rows), or nil.
    func difference(from snapshot: JSON) -> String? {
        guard let fresh = WindowModel(snapshot: snapshot) else { return "\(view): not a ready snapshot: \(snapshot.text)" }
        var differences: [String] = []
        if fresh.version != version { differences.append("version: client \(version), server \(fresh.version)") }
        if fresh.count != count { differences.append("count: client \(count), server \(fresh.count)") }
        if fresh.start != start || fresh.end != end { differences.append("window: client [\(start), \(end)), server [\(fresh.start), \(fresh.end))") }
        if !JSON.array(fresh.rows).isCanonicallyEqual(to: .array(rows)) {
            differences.append("rows:\n  client: \(JSON.array(rows).text)\n  server: \(JSON.array(fresh.rows).text)")
        }
        return differences.isEmpty ? nil : "\(view): " + differences.joined(separator: "; ")
    }
}

/// The `taskls: error:` lines of a server's stderr (read once it has exited).
func errorLines(_ server: StoreServer) -> [String] {
    server.process.standardError.split(separator: "\n").map(String.init).filter { $0.hasPrefix("taskls: error:") }
}

/// Each line of a `TASKLS_CRASH_LOG` file (`N name`).
func crashLogSteps(_ path: String) -> [String] {
    String(decoding: readFile(path) ?? [], as: UTF8.self).split(separator: "\n").map(String.init)
}
