// SyncState: each synced list's state as the last sync left it (`sync-state.json` beside the store), for
// `taskls sync status` and for every server's overview.

import Wire

/// The state of one synced list.
public struct ListSyncState: Hashable, Sendable {
    public enum Phase: String, Hashable, Sendable {
        /// A sync is under way.
        case syncing
        /// The last sync finished.
        case synced
        /// The server could not be reached (or answered 5xx): changes wait, and the next sync retries.
        case offline
        /// The last sync failed for a reason a retry alone does not mend (credentials refused, a calendar gone).
        case error
        /// A side looks suddenly empty: nothing was done, and the user must confirm (`taskls sync now --confirm`).
        case confirm
    }

    /// The list's id in the store.
    public var list: UInt64
    public var account: String
    public var calendar: String
    public var phase: Phase
    /// When the list was last synced in full (RFC 3339, UTC), if ever.
    public var syncedAt: String?
    /// What went wrong, or which side looks empty.
    public var message: String?
    /// Changes made here the server has not had yet.
    public var waiting: Int
    /// What the last sync found that the user should see (clashes and the values that lost, undeletions,
    /// duplicate uids, members that could not be read), newest sync's only.
    public var notices: [String]

    public init(list: UInt64, account: String, calendar: String, phase: Phase, syncedAt: String? = nil,
                message: String? = nil, waiting: Int = 0, notices: [String] = []) {
        self.list = list
        self.account = account
        self.calendar = calendar
        self.phase = phase
        self.syncedAt = syncedAt
        self.message = message
        self.waiting = waiting
        self.notices = notices
    }
}

/// Every synced list's state.
public struct SyncState: Hashable, Sendable {
    public var lists: [ListSyncState] = []

    public init(lists: [ListSyncState] = []) { self.lists = lists }

    public static let fileName = "sync-state.json"

    /// Replaces (or adds) the state of `state.list`.
    public mutating func set(_ state: ListSyncState) {
        if let index = lists.firstIndex(where: { $0.list == state.list }) { lists[index] = state } else { lists.append(state) }
    }

    public func state(of list: UInt64) -> ListSyncState? { lists.first { $0.list == list } }

    public var json: JSON {
        .object(["lists": .array(lists.map { state in
            ["list": .integer(Int64(state.list)), "account": .string(state.account), "calendar": .string(state.calendar),
             "state": .string(state.phase.rawValue), "syncedAt": state.syncedAt.map(JSON.string) ?? .null,
             "message": state.message.map(JSON.string) ?? .null, "waiting": .integer(Int64(state.waiting)),
             "notices": .array(state.notices.map(JSON.string))]
        })])
    }

    public init(json: JSON) throws(SyncError) {
        guard case .array(let values)? = json["lists"] else { throw SyncError("lists: an array is wanted") }
        for (index, value) in values.enumerated() {
            guard case .integer(let list)? = value["list"], list > 0, case .string(let account)? = value["account"],
                  case .string(let calendar)? = value["calendar"], case .string(let phaseName)? = value["state"],
                  let phase = ListSyncState.Phase(rawValue: phaseName), case .integer(let waiting)? = value["waiting"] else {
                throw SyncError("lists[\(index)]: list, account, calendar, state and waiting are wanted")
            }
            var notices: [String] = []
            if case .array(let texts)? = value["notices"] {
                for case .string(let text) in texts { notices.append(text) }
            }
            var syncedAt: String?
            if case .string(let text)? = value["syncedAt"] { syncedAt = text }
            var message: String?
            if case .string(let text)? = value["message"] { message = text }
            lists.append(ListSyncState(list: UInt64(list), account: account, calendar: calendar, phase: phase,
                                       syncedAt: syncedAt, message: message, waiting: Int(waiting), notices: notices))
        }
    }
}
