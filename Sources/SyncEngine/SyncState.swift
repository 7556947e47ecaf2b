// SyncState: each shared list's state as the last sync left it (`sync-state.json` beside the store), written as the
// protocol's `ListSyncState`s, so every server puts it in its overview as it reads it, and `taskls sync status`
// prints it.

import TasklsProtocol
import Wire

/// Every shared list's state: `{"lists": [ListSyncState, …]}`.
public struct SyncState: Hashable, Sendable {
    public var lists: [ListSyncState] = []

    public init(lists: [ListSyncState] = []) { self.lists = lists }

    /// The side file it is kept in (the server reads it by this name too).
    public static let fileName = "sync-state.json"

    /// Replaces (or adds) the state of `state.list`.
    public mutating func set(_ state: ListSyncState) {
        if let index = lists.firstIndex(where: { $0.list == state.list }) { lists[index] = state } else { lists.append(state) }
    }

    public func state(of list: UInt64) -> ListSyncState? { lists.first { $0.list.rawValue == list } }

    public var json: JSON { ["lists": lists.json] }

    public init(json: JSON) throws(SyncError) {
        do {
            lists = try ObjectReader(json: json, path: "sync-state").required("lists")
        } catch {
            throw SyncError(error.message)
        }
    }
}
