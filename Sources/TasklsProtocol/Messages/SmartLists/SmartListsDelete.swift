/// `smartLists/delete` (request): deletes a smart list (never an item).

import Wire

/// `smartLists/delete` params: `{"id": SMART_LIST_ID}`. Answered with `ListsDeleteResult` (`{"revision": R}`).
public struct SmartListsDelete: RequestMessage, Hashable {
    public typealias Result = ListsDeleteResult
    public static let method = "smartLists/delete"

    /// The smart list.
    public var id: SmartListID

    /// Makes the params.
    public init(id: SmartListID) { self.id = id }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        id = try fields.required("id")
    }

    public var json: JSON { ["id": id.json] }

    public static let schema = TypeSchema.object("SmartListsDelete", doc: "smartLists/delete params.", [
        .required("id", SmartListID.schema.reference, "The smart list to delete (its items stay where they are)."),
    ])
}
