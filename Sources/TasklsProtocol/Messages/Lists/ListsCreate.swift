/// `lists/create` (request): a new list.

import Wire

/// `lists/create` params: `{"name": NAME, "color"?: COLOR | null, "icon"?: ICON | null, "before"?: LIST_ID | null}`.
public struct ListsCreate: RequestMessage, Hashable {
    public typealias Result = ListsCreateResult
    public static let method = "lists/create"

    /// 1 to 200 characters (the server checks).
    public var name: String
    /// A color of at most 64 characters; nil (absent or `null`): none.
    public var color: String?
    /// An icon of at most 64 characters; nil (absent or `null`): none.
    public var icon: String?
    /// The list to go before; nil (absent or `null`): last.
    public var before: ListID?

    /// Makes the params.
    public init(name: String, color: String? = nil, icon: String? = nil, before: ListID? = nil) {
        self.name = name
        self.color = color
        self.icon = icon
        self.before = before
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        name = try fields.required("name")
        color = try fields.nullable("color")
        icon = try fields.nullable("icon")
        before = try fields.nullable("before")
    }

    public var json: JSON {
        var object: JSONObject = ["name": .string(name)]
        object["color"] = color.map(JSON.string)
        object["icon"] = icon.map(JSON.string)
        object["before"] = before?.json
        return .object(object)
    }

    public static let schema = TypeSchema.object("ListsCreate", doc: "lists/create params.", [
        .required("name", .string, "1 to 200 characters, not only white space."),
        .optional("color", .string, nullable: true, "At most 64 characters; null: none."),
        .optional("icon", .string, nullable: true, "At most 64 characters; null: none."),
        .optional("before", ListID.schema.reference, nullable: true, "The list to go before; absent or null: last."),
    ])
}

/// What `lists/create` answers: the new list with its counts, and the store's revision.
public struct ListsCreateResult: ProtocolValue, Hashable {
    /// The new list.
    public var list: TaskList
    /// The store's revision after the change.
    public var revision: UInt64

    /// Makes the result.
    public init(list: TaskList, revision: UInt64) {
        self.list = list
        self.revision = revision
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        list = try fields.required("list")
        revision = try fields.counter("revision")
    }

    public var json: JSON { ["list": list.json, "revision": revision.json] }

    public static let schema = TypeSchema.object("ListsCreateResult", doc: "lists/create's result.", [
        .required("list", TaskList.schema.reference, "The new list, with its counts."),
        .required("revision", .integer, "The store's revision after the change."),
    ])
}
