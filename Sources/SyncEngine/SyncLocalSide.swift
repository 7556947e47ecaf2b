// SyncLocalSide: the list's side of a sync, as the engine sees it — the store's list, or a table in a test.

import Domain
import Sync

/// The local side of one list's sync.
public protocol SyncLocalSide: Sendable {
    /// Plans the sync against the list's tasks as they are at this moment (by uid, with no list name), and applies
    /// the plan's local actions (`applyLocal`, `deleteLocal`) as one step before anything else can change the list,
    /// so an edit made meanwhile is never overwritten by a plan that did not see it.
    /// - Returns: the plan, its local actions applied.
    /// - Throws: when the list is gone or the actions are refused; then nothing changed.
    func planAndApply(_ planning: @escaping @Sendable ([String: ExchangeTask]) -> SyncPlan) async throws(ListSyncFailure) -> SyncPlan
}

/// Why one list's sync stopped.
public enum ListSyncFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// A request to the server failed.
    case server(CalDAVFailureText)
    /// The list's side refused (the list is gone, a task the server sent is invalid here).
    case local(String)

    public var description: String {
        switch self {
        case .server(let failure): failure.text
        case .local(let message): message
        }
    }
}

/// A server failure as the user reads it, with whether a later sync may succeed on its own.
public struct CalDAVFailureText: Hashable, Sendable {
    public var text: String
    /// The server could not be reached or answered 5xx: the sync is retried later on its own.
    public var isTransient: Bool

    public init(text: String, isTransient: Bool) {
        self.text = text
        self.isTransient = isTransient
    }
}
