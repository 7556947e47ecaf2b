/// `smartLists/update` (request): renames a smart list or changes its color, icon, filter or source lists.

import Wire

/// `smartLists/update` params: `{"id": SMART_LIST_ID, "name"?: NAME, "color"?: COLOR | null, "icon"?: ICON | null,
/// "filter"?: FILTER, "lists"?: [LIST_ID, ...] | null}`; an absent member is left alone.
public struct SmartListsUpdate: RequestMessage {
    public typealias Result = SmartListResult
    public static let method = "smartLists/update"

    /// The smart list.
    public var id: SmartListID
    /// A new name; nil leaves it.
    public var name: String?
    /// A new color, `.cleared` (`null`) to remove it, `.unchanged` (absent) to leave it.
    public var color: Patch<String>
    /// A new icon, `.cleared` (`null`) to remove it, `.unchanged` (absent) to leave it.
    public var icon: Patch<String>
    /// A new filter (replacing the whole filter); nil leaves it.
    public var filter: Filter?
    /// New source lists, `.cleared` (`null`) for every list, `.unchanged` (absent) to leave them.
    public var lists: Patch<[ListID]>

    /// Makes the params.
    public init(id: SmartListID, name: String? = nil, color: Patch<String> = .unchanged, icon: Patch<String> = .unchanged,
                filter: Filter? = nil, lists: Patch<[ListID]> = .unchanged) {
        self.id = id
        self.name = name
        self.color = color
        self.icon = icon
        self.filter = filter
        self.lists = lists
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        id = try fields.required("id")
        name = try fields.optional("name")
        color = try fields.patch("color")
        icon = try fields.patch("icon")
        filter = try fields.optional("filter")
        lists = try fields.patch("lists")
        if case .set(let ids) = lists, Set(ids).count != ids.count {
            throw .invalidParams("\(fields.path("lists")): lists an id twice")
        }
    }

    public var json: JSON {
        var object: JSONObject = ["id": id.json]
        object["name"] = name.map(JSON.string)
        color.write("color", into: &object)
        icon.write("icon", into: &object)
        object["filter"] = filter?.json
        lists.write("lists", into: &object)
        return .object(object)
    }

    public static let schema = TypeSchema.object("SmartListsUpdate", doc: "smartLists/update params: an absent member is left alone.", [
        .required("id", SmartListID.schema.reference, "The smart list."),
        .optional("name", .string, "A new name: 1 to 200 characters."),
        .optional("color", .string, nullable: true, "A new color (at most 64 characters); null clears it."),
        .optional("icon", .string, nullable: true, "A new icon (at most 64 characters); null clears it."),
        .optional("filter", Filter.schema.reference, "A new filter, replacing the whole filter."),
        .optional("lists", .array(ListID.schema.reference), nullable: true, "New source lists, no repeats; null: every list."),
    ])
}
