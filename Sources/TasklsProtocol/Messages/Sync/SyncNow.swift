/// `sync/now` (request): syncs the store's shared lists with their CalDAV calendars, and answers when done.

import Wire

/// `sync/now` params: `{"lists": ["l3"], "confirm": false}`, both optional.
public struct SyncNow: RequestMessage, Hashable {
    public typealias Result = SyncNowResult
    public static let method = "sync/now"

    /// The lists to sync (each must be shared); nil: every shared list.
    public var lists: [ListID]?
    /// Mirror a side that looks suddenly empty (a list in `confirm`); default false.
    public var confirm: Bool?

    public init(lists: [ListID]? = nil, confirm: Bool? = nil) {
        self.lists = lists
        self.confirm = confirm
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        lists = fields.contains("lists") ? try fields.identifiers("lists") : nil
        confirm = try fields.optional("confirm")
    }

    public var json: JSON {
        var object: JSONObject = [:]
        object["lists"] = lists?.json
        object["confirm"] = confirm.map(JSON.bool)
        return .object(object)
    }

    public static let schema = TypeSchema.object("SyncNow", doc: "sync/now params.", [
        .optional("lists", .array(ListID.schema.reference), "The lists to sync, each shared, at least one, none twice; left out: every shared list."),
        .optional("confirm", .boolean, "Mirror a side that looks suddenly empty (a list in confirm); default false."),
    ])
}

/// One list's sync, as `sync/now` answers it.
public struct SyncedList: ProtocolValue, Hashable {
    /// The list's state after the sync (`synced`, `offline`, `error` or `confirm`).
    public var sync: ListSyncState
    /// Tasks sent to the server (created, changed or deleted there).
    public var sent: Int
    /// Tasks changed here from the server's.
    public var received: Int

    public init(sync: ListSyncState, sent: Int, received: Int) {
        self.sync = sync
        self.sent = sent
        self.received = received
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        sync = try fields.required("sync")
        sent = try fields.required("sent")
        received = try fields.required("received")
    }

    public var json: JSON { ["sync": sync.json, "sent": .integer(Int64(sent)), "received": .integer(Int64(received))] }

    public static let schema = TypeSchema.object("SyncedList", doc: "One list's sync (sync/now).", [
        .required("sync", ListSyncState.schema.reference, "The list's state after the sync."),
        .required("sent", .integer, "Tasks sent to the server (created, changed or deleted there)."),
        .required("received", .integer, "Tasks changed here from the server's."),
    ])
}

/// What `sync/now` answers: each list synced, in the order they were.
public struct SyncNowResult: ProtocolValue, Hashable {
    public var lists: [SyncedList]

    public init(lists: [SyncedList]) { self.lists = lists }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        lists = try fields.required("lists")
    }

    public var json: JSON { ["lists": lists.json] }

    public static let schema = TypeSchema.object("SyncNowResult", doc: "What sync/now answers.", [
        .required("lists", .array(SyncedList.schema.reference), "Each list synced, in order (every list failed or synced on its own)."),
    ])
}
