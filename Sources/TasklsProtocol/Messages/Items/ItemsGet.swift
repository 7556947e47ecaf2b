/// `items/get` (request): one item in full.

import Wire

/// `items/get` params: `{"id": ITEM_ID}`. The result is the item in full.
public struct ItemsGet: RequestMessage, Hashable {
    public typealias Result = Item
    public static let method = "items/get"

    /// The item.
    public var id: ItemID

    /// Makes the params.
    public init(id: ItemID) { self.id = id }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        id = try fields.required("id")
    }

    public var json: JSON { ["id": id.json] }

    public static let schema = TypeSchema.object("ItemsGet", doc: "items/get params; the result is the item in full.", [
        .required("id", ItemID.schema.reference, "The item."),
    ])
}
