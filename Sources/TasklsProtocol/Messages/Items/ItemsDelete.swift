/// `items/delete` (request): deletes items, all or none.

import Wire

/// `items/delete` params: `{"ids": [ITEM_ID, ...]}`.
public struct ItemsDelete: RequestMessage, Hashable {
    public typealias Result = ItemsDeleteResult
    public static let method = "items/delete"

    /// The items: not empty, no repeats.
    public var ids: [ItemID]

    /// Makes the params.
    public init(ids: [ItemID]) { self.ids = ids }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        ids = try fields.identifiers("ids")
    }

    public var json: JSON { ["ids": ids.json] }

    public static let schema = TypeSchema.object("ItemsDelete", doc: "items/delete params.", [
        .required("ids", .array(ItemID.schema.reference), "The items to delete: not empty, no repeats, at most 100000; all or none."),
    ])
}

/// What `items/delete` answers: the store's revision.
public struct ItemsDeleteResult: ProtocolValue, Hashable {
    /// The store's revision after the change.
    public var revision: UInt64

    /// Makes the result.
    public init(revision: UInt64) { self.revision = revision }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        revision = try fields.counter("revision")
    }

    public var json: JSON { ["revision": revision.json] }

    public static let schema = TypeSchema.object("ItemsDeleteResult", doc: "items/delete's result.", [
        .required("revision", .integer, "The store's revision after the change."),
    ])
}
