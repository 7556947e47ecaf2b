/// `smartLists/create` (request): saves a filter over some or all lists as a smart list.

import Wire

/// `smartLists/create` params: `{"name": NAME, "color"?: COLOR | null, "icon"?: ICON | null, "filter"?: FILTER,
/// "lists"?: [LIST_ID, ...] | null, "before"?: SMART_LIST_ID | null}`.
public struct SmartListsCreate: RequestMessage, Hashable {
    public typealias Result = SmartListResult
    public static let method = "smartLists/create"

    /// 1 to 200 characters.
    public var name: String
    /// A color, or nil (absent or `null`): none.
    public var color: String?
    /// An icon, or nil (absent or `null`): none.
    public var icon: String?
    /// Its filter; absent: everything.
    public var filter: Filter
    /// Its source lists; nil (absent or `null`): every list.
    public var lists: [ListID]?
    /// The smart list to go before; nil (absent or `null`): last.
    public var before: SmartListID?

    /// Makes the params.
    public init(name: String, color: String? = nil, icon: String? = nil, filter: Filter = Filter(), lists: [ListID]? = nil,
                before: SmartListID? = nil) {
        self.name = name
        self.color = color
        self.icon = icon
        self.filter = filter
        self.lists = lists
        self.before = before
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        name = try fields.required("name")
        color = try fields.nullable("color")
        icon = try fields.nullable("icon")
        filter = try fields.optional("filter") ?? Filter()
        lists = try fields.nullable("lists")
        before = try fields.nullable("before")
        if let lists, Set(lists).count != lists.count { throw .invalidParams("\(fields.path("lists")): lists an id twice") }
    }

    public var json: JSON {
        var object: JSONObject = ["name": .string(name)]
        object["color"] = color.map(JSON.string)
        object["icon"] = icon.map(JSON.string)
        object["filter"] = filter.json
        object["lists"] = lists?.json
        object["before"] = before?.json
        return .object(object)
    }

    public static let schema = TypeSchema.object("SmartListsCreate", doc: "smartLists/create params.", [
        .required("name", .string, "1 to 200 characters."),
        .optional("color", .string, nullable: true, "A color (at most 64 characters); null: none."),
        .optional("icon", .string, nullable: true, "An icon (at most 64 characters); null: none."),
        .optional("filter", Filter.schema.reference, "Which items it holds; absent: every item of its source lists."),
        .optional("lists", .array(ListID.schema.reference), nullable: true, "Its source lists, no repeats; absent or null: every list."),
        .optional("before", SmartListID.schema.reference, nullable: true, "The smart list to go before; absent or null: last."),
    ])
}

/// What `smartLists/create` and `smartLists/update` answer: the smart list with its count, the store's revision, and
/// (update only) whether anything changed.
public struct SmartListResult: ProtocolValue, Hashable {
    /// The smart list after the request.
    public var smartList: SmartList
    /// The store's revision after the request.
    public var revision: UInt64
    /// `smartLists/update` only: false when every member given already had that value (the revision stayed).
    public var changed: Bool?

    /// Makes the result.
    public init(smartList: SmartList, revision: UInt64, changed: Bool? = nil) {
        self.smartList = smartList
        self.revision = revision
        self.changed = changed
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        smartList = try fields.required("smartList")
        revision = try fields.counter("revision")
        changed = try fields.optional("changed")
    }

    public var json: JSON {
        var object: JSONObject = ["smartList": smartList.json, "revision": revision.json]
        object["changed"] = changed.map(JSON.bool)
        return .object(object)
    }

    public static let schema = TypeSchema.object("SmartListResult", doc: "smartLists/create's and smartLists/update's result.", [
        .required("smartList", SmartList.schema.reference, "The smart list after the request, with its count."),
        .required("revision", .integer, "The store's revision after the request."),
        .optional("changed", .boolean, "smartLists/update only: false when nothing changed (the revision stayed)."),
    ])
}
