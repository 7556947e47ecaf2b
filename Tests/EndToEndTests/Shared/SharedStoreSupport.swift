/// Helpers for the tests of several `taskls` processes on one store: a client's model of one
/// view's window fed only by `view/changed`, and small readers of the JSON the server answers.

import TasklsProtocol
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

/// One open view as a client keeps it: the protocol's `ViewWindow`, built from a snapshot and then changed only
/// by each `view/changed` (read strictly as `ViewChanged`), plus how many changes it applied.
struct WindowModel {
    /// The window's rows and level.
    private(set) var kept: ViewWindow
    /// How many notifications were applied, and how many of them were one `reset`.
    private(set) var applied = 0
    private(set) var resets = 0

    /// The view's id, as the server spells it.
    var view: String { kept.view.description }
    /// The number of rows in the whole view.
    var count: Int { kept.count ?? 0 }
    /// The window's first index and its end.
    var start: Int { kept.window.start }
    var end: Int { kept.window.end }

    /// A view from a `lists/open` or `view/snapshot` result; nil when it is not a ready snapshot.
    init?(snapshot: JSON) {
        guard let snapshot = try? ViewSnapshotResult(json: snapshot, path: "result"), snapshot.state == .ready,
              let kept = try? ViewWindow(snapshot: snapshot) else { return nil }
        self.kept = kept
    }

    /// Applies one `view/changed`'s params; returns what was wrong with it (nothing is applied then), or nil.
    mutating func apply(_ params: JSON) -> String? {
        let change: ViewChanged
        do {
            change = try ViewChanged(json: params, path: "params")
        } catch {
            return "not a view/changed (\(error.message)): \(params.text)"
        }
        guard change.state == .ready else { return "not ready: \(params.text)" }
        do {
            switch try kept.apply(change) {
            case .applied(let change):
                applied += 1
                if case .reset? = change.operations.first { resets += 1 }
                return nil
            case .gap(let expected, let received): return "version \(received) after \(expected - 1): \(params.text)"
            case .ignoredUntilSnapshot: return "a change after a version gap: \(params.text)"
            }
        } catch {
            return error.message
        }
    }

    /// What differs from a fresh `view/snapshot` of the view (version, state, count, empty, window, rows), or nil.
    func difference(from snapshot: JSON) -> String? {
        guard let fresh = try? ViewSnapshotResult(json: snapshot, path: "result"), fresh.state == .ready else {
            return "\(view): not a ready snapshot: \(snapshot.text)"
        }
        return kept.difference(from: fresh)
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
