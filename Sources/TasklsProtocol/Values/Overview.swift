/// The lists overview: what `lists/list` answers and `lists/changed` pushes.

import Wire

/// The overview a pane's home screen shows: every list in manual order with its counts, the smart
/// groups with theirs, the client's day, and the store's revision. While the store is loading or has failed: no lists,
/// every group at 0, revision 0, and `store`.
public struct Overview: ProtocolValue, Hashable {
    /// The lists, in their manual order, each with `open` and `total`.
    public var lists: [TaskList]
    /// The smart groups, in the order today, scheduled, overdue, all, completed.
    public var groups: [GroupSummary]
    /// The store's revision when the overview was taken.
    public var revision: UInt64
    /// The client's day when the overview was taken, `YYYY-MM-DD`, in the time zone given at `initialize`: the day
    /// clients show due dates relative to ("today", "2 days ago").
    public var today: String
    /// The store's status, while it is loading or has failed (left out otherwise).
    public var store: StoreStatusResult?
    /// The smart lists, in their manual order, each with its count.
    public var smartLists: [SmartList]
    /// Each shared list's sync state, in the order the lists were shared (left out when no list is shared).
    public var sync: [ListSyncState]?

    /// Makes an overview.
    public init(lists: [TaskList], groups: [GroupSummary], revision: UInt64, today: String, store: StoreStatusResult? = nil,
                smartLists: [SmartList] = [], sync: [ListSyncState]? = nil) {
        self.sync = sync
        self.lists = lists
        self.groups = groups
        self.smartLists = smartLists
        self.revision = revision
        self.today = today
        self.store = store
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        lists = try fields.required("lists")
        groups = try fields.required("groups")
        revision = try fields.counter("revision")
        today = try fields.required("today")
        store = try fields.optional("store")
        smartLists = try fields.required("smartLists")
        sync = try fields.optional("sync")
    }

    public var json: JSON {
        var object: JSONObject = ["lists": lists.json, "groups": groups.json, "smartLists": smartLists.json,
                                  "revision": revision.json, "today": .string(today)]
        object["store"] = store?.json
        object["sync"] = sync?.json
        return .object(object)
    }

    public static let schema = TypeSchema.object("Overview", doc: "The lists overview (lists/list, lists/changed).", [
        .required("lists", .array(TaskList.schema.reference), "Every list in manual order, each with open and total."),
        .required("groups", .array(GroupSummary.schema.reference), "The smart groups: today, scheduled, overdue, all, completed."),
        .required("smartLists", .array(SmartList.schema.reference), "Every smart list in its manual order, each with its count (none while the store is loading or has failed)."),
        .required("revision", .integer, "The store's revision when the overview was taken."),
        .required("today", .string, "The client's day (YYYY-MM-DD) in the time zone given at initialize, when the overview was taken; a new overview is pushed when it changes."),
        .optional("store", StoreStatusResult.schema.reference, "Present exactly while the store is loading or has failed (then there are no lists, every group is at 0, revision 0)."),
        .optional("sync", .array(ListSyncState.schema.reference), "Each shared list's sync state (taskls sync share), in the order the lists were shared; left out when no list is shared. A new overview is pushed when one changes."),
    ])
}

/// A smart group in the overview, with its live count.
public struct GroupSummary: ProtocolValue, Hashable {
    /// The group.
    public var id: SmartGroup
    /// Its title: Today, Scheduled, Overdue, All, Completed.
    public var name: String
    /// How many items it holds.
    public var count: Int

    /// Makes a group summary.
    public init(id: SmartGroup, name: String, count: Int) {
        self.id = id
        self.name = name
        self.count = count
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        id = try fields.required("id")
        name = try fields.required("name")
        count = try fields.required("count")
    }

    public var json: JSON { ["id": id.json, "name": .string(name), "count": .integer(Int64(count))] }

    public static let schema = TypeSchema.object("GroupSummary", doc: "A smart group with its live count.", [
        .required("id", SmartGroup.schema.reference, "The group."),
        .required("name", .string, "Its title: Today, Scheduled, Overdue, All, Completed."),
        .required("count", .integer, "How many items it holds."),
    ])
}
