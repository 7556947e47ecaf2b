/// A synced list's state, as the overview carries it and `sync/now` answers it.

import Wire

/// Where a synced list's sync stands.
public enum SyncPhase: String, CaseIterable, ProtocolValue, Hashable {
    /// A sync is under way.
    case syncing
    /// The last sync finished; `syncedAt` says when.
    case synced
    /// The server could not be reached (or answered 5xx): `waiting` changes wait, and the next sync retries.
    case offline
    /// The last sync failed for a reason a retry alone does not mend (credentials refused, a calendar gone):
    /// `message` says which.
    case error
    /// A side looks suddenly empty (a wiped server, a wrong URL): nothing was done, and the user must confirm
    /// (`sync/now` with `confirm`); `message` says which side.
    case confirm

    public init(json: JSON, path: String) throws(ResponseError) {
        self = try named(json, path: path) { "unknown sync state '\($0)'; expected syncing, synced, offline, error or confirm" }
    }

    public var json: JSON { .string(rawValue) }

    public static let schema = TypeSchema.enumeration("SyncPhase", doc: "Where a synced list's sync stands.", [
        .init("syncing", "A sync is under way."),
        .init("synced", "The last sync finished (syncedAt says when)."),
        .init("offline", "The server could not be reached or answered 5xx: waiting changes wait; the next sync retries."),
        .init("error", "The last sync failed for a reason a retry alone does not mend; message says which."),
        .init("confirm", "A side looks suddenly empty: nothing was done until sync/now with confirm; message says which side."),
    ])
}

/// How far a sync has got sending a list's changes: `{"sent": 120, "total": 1000}`.
public struct SyncProgress: ProtocolValue, Hashable {
    /// Changes the server has taken so far in this round (creations, changes, deletions; refused ones count too).
    public var sent: Int
    /// Changes this round sends.
    public var total: Int

    public init(sent: Int, total: Int) {
        self.sent = sent
        self.total = total
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        sent = try fields.nonNegative("sent")
        total = try fields.nonNegative("total")
        guard sent <= total else { throw .invalidParams("\(path).sent: must not be above total") }
    }

    public var json: JSON { ["sent": .integer(Int64(sent)), "total": .integer(Int64(total))] }

    public static let schema = TypeSchema.object("SyncProgress", doc: "How far a sync has got sending a list's changes.", [
        .required("sent", .integer, "Changes sent so far in this round (those the server refused count too)."),
        .required("total", .integer, "Changes this round sends."),
    ])
}

/// `{"list": "l3", "account": "home", "calendar": "/ann/groceries/", "state": "synced", "syncedAt": "…", "message": null,
/// "waiting": 0, "progress": null, "notices": []}`.
public struct ListSyncState: ProtocolValue, Hashable {
    /// The list.
    public var list: ListID
    /// The account's name (`taskls sync add --name`).
    public var account: String
    /// The calendar's href on the account's server.
    public var calendar: String
    public var state: SyncPhase
    /// When the list last finished a sync (RFC 3339, UTC), or nil before its first.
    public var syncedAt: String?
    /// What went wrong (`offline`, `error`) or which side looks empty (`confirm`); nil otherwise.
    public var message: String?
    /// Changes made here that the server has not had yet.
    public var waiting: Int
    /// While `syncing` and sending: how far it has got; nil otherwise.
    public var progress: SyncProgress?
    /// What the last sync found the user should see: a clash on the same field with the value that lost, a deletion
    /// undone by an edit on the other side, a uid held twice by the calendar, a member that could not be read.
    public var notices: [String]

    public init(list: ListID, account: String, calendar: String, state: SyncPhase, syncedAt: String? = nil,
                message: String? = nil, waiting: Int = 0, progress: SyncProgress? = nil, notices: [String] = []) {
        self.list = list
        self.account = account
        self.calendar = calendar
        self.state = state
        self.syncedAt = syncedAt
        self.message = message
        self.waiting = waiting
        self.progress = progress
        self.notices = notices
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        list = try fields.required("list")
        account = try fields.required("account")
        calendar = try fields.required("calendar")
        state = try fields.required("state")
        syncedAt = try fields.requiredNullable("syncedAt")
        message = try fields.requiredNullable("message")
        waiting = try fields.required("waiting")
        // Absent in what a sync program older than `progress` wrote: read as null.
        progress = try fields.nullable("progress")
        notices = try fields.required("notices")
    }

    public var json: JSON {
        ["list": list.json, "account": .string(account), "calendar": .string(calendar), "state": state.json,
         "syncedAt": syncedAt.json, "message": message.json, "waiting": .integer(Int64(waiting)),
         "progress": progress?.json ?? .null, "notices": .array(notices.map(JSON.string))]
    }

    public static let schema = TypeSchema.object("ListSyncState", doc: "A synced list's state (Overview.sync, sync/now).", [
        .required("list", ListID.schema.reference, "The list."),
        .required("account", .string, "The account's name."),
        .required("calendar", .string, "The calendar's href on the account's server."),
        .required("state", SyncPhase.schema.reference, "Where its sync stands."),
        .required("syncedAt", .string, nullable: true, "When it last finished a sync (RFC 3339, UTC); null before its first."),
        .required("message", .string, nullable: true, "What went wrong (offline, error) or which side looks empty (confirm); null otherwise."),
        .required("waiting", .integer, "Changes made here that the server has not had yet."),
        .required("progress", SyncProgress.schema.reference, nullable: true, "While syncing and sending: how far it has got; null otherwise."),
        .required("notices", .array(.string), "What its last sync found the user should see (clashes with the value that lost, undeletions, duplicate uids, unreadable members)."),
    ])
}
