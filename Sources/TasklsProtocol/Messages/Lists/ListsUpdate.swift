/// `lists/update` (request): renames, recolors or changes the icon of a list.

import Wire

/// `lists/update` params: `{"id": LIST_ID, "name"?: NAME, "color"?: COLOR | null, "icon"?: ICON | null}`.
public struct ListsUpdate: RequestMessage {
    public typealias Result = ListsUpdateResult
    public static let method = "lists/update"

    /// The list.
    public var id: ListID
    /// A new name; nil leaves it.
    public var name: String?
    /// A new color, `.cleared` (`null`) to remove it, `.unchanged` (absent) to leave it.
    public var color: Patch<String>
    /// A new icon, `.cleared` (`null`) to remove it, `.unchanged` (absent) to leave it.
    public var icon: Patch<String>

    /// Makes the params.
    public init(id: ListID, name: String? = nil, color: Patch<String> = .unchanged, icon: Patch<String> = .unchanged) {
        self.id = id
        self.name = name
        self.color = color
        self.icon = icon
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        id = try fields.required("id")
        name = try fields.optional("name")
        color = try fields.patch("color")
        icon = try fields.patch("icon")
    }

    public var json: JSON {
        var object: JSONObject = ["id": id.json]
        object["name"] = name.map(JSON.string)
        color.write("color", into: &object)
        icon.write("icon", into: &object)
        return .object(object)
    }

    public static let schema = TypeSchema.object("ListsUpdate", doc: "lists/update params: an absent member is left alone.", [
        .required("id", ListID.schema.reference, "The list."),
        .optional("name", .string, "A new name: 1 to 200 characters."),
        .optional("color", .string, nullable: true, "A new color (at most 64 characters); null clears it."),
        .optional("icon", .string, nullable: true, "A new icon (at most 64 characters); null clears it."),
    ])
}

/// What `lists/update` answers: the list, the store's revision, and whether anything changed.
public struct ListsUpdateResult: ProtocolValue, Hashable {
    /// The list after the request, with its counts.
    public var list: TaskList
    /// The store's revision after the request.
    public var revision: UInt64
    /// false when every field given already had that value (spelling included): the revision stayed.
    public var changed: Bool

    /// Makes the result.
    public init(list: TaskList, revision: UInt64, changed: Bool) {
        self.list = list
        self.revision = revision
        self.changed = changed
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        list = try fields.required("list")
        revision = try fields.counter("revision")
        changed = try fields.required("changed")
    }

    public var json: JSON { ["list": list.json, "revision": revision.json, "changed": .bool(changed)] }

    public static let schema = TypeSchema.object("ListsUpdateResult", doc: "lists/update's result.", [
        .required("list", TaskList.schema.reference, "The list after the request, with its counts."),
        .required("revision", .integer, "The store's revision after the request."),
        .required("changed", .boolean, "false when every field given already had that value: the revision stayed."),
    ])
}
