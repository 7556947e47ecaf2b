/// A list as the server writes it.

import Wire

/// `{"id": "l1", "name": "Inbox", "color": "blue", "icon": null, "open": 3, "total": 5}`.
public struct TaskList: ProtocolValue, Hashable {
    /// The list's id.
    public var id: ListID
    /// 1 to 200 characters.
    public var name: String
    /// A free string of at most 64 characters, or nil (written as `null`).
    public var color: String?
    /// A free string of at most 64 characters, or nil (written as `null`).
    public var icon: String?
    /// How many of its items are not done, when the server counts them (left out when nil).
    public var open: Int?
    /// How many items it holds, when the server counts them (left out when nil).
    public var total: Int?

    /// Makes a list.
    public init(id: ListID, name: String, color: String? = nil, icon: String? = nil, open: Int? = nil, total: Int? = nil) {
        self.id = id
        self.name = name
        self.color = color
        self.icon = icon
        self.open = open
        self.total = total
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        id = try fields.required("id")
        name = try fields.required("name")
        color = try fields.requiredNullable("color")
        icon = try fields.requiredNullable("icon")
        open = try fields.optional("open")
        total = try fields.optional("total")
    }

    public var json: JSON {
        var object: JSONObject = ["id": id.json, "name": .string(name), "color": color.json, "icon": icon.json]
        object["open"] = open.map { .integer(Int64($0)) }
        object["total"] = total.map { .integer(Int64($0)) }
        return .object(object)
    }

    public static let schema = TypeSchema.object("TaskList", doc: "A list.", [
        .required("id", ListID.schema.reference, "The list's id."),
        .required("name", .string, "1 to 200 characters, not only white space."),
        .required("color", .string, nullable: true, "A free string of at most 64 characters; null: none."),
        .required("icon", .string, nullable: true, "A free string of at most 64 characters; null: none."),
        .optional("open", .integer, "How many of its items are not done."),
        .optional("total", .integer, "How many items it holds."),
    ])
}
