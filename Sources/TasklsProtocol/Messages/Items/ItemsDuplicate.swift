/// `items/duplicate` (request): copies items, each right after its original.

import Wire

/// `items/duplicate` params: `{"ids": [ITEM_ID, ...]}`.
public struct ItemsDuplicate: RequestMessage, Hashable {
    public typealias Result = ItemsDuplicateResult
    public static let method = "items/duplicate"

    /// The items to copy: not empty, no repeats.
    public var ids: [ItemID]

    /// Makes the params.
    public init(ids: [ItemID]) { self.ids = ids }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        ids = try fields.identifiers("ids")
    }

    public var json: JSON { ["ids": ids.json] }

    public static let schema = TypeSchema.object("ItemsDuplicate", doc: "items/duplicate params.", [
        .required("ids", .array(ItemID.schema.reference),
                  "The items to copy: not empty, no repeats, at most 100000; all or none (an unknown id: notFound)."),
    ])
}

/// What `items/duplicate` answers: the copies, in the order of `ids`, and the store's revision.
public struct ItemsDuplicateResult: ProtocolValue, Hashable {
    /// The new items, in full: the copy of `ids[k]` is `items[k]`.
    public var items: [Item]
    /// The store's revision after the change.
    public var revision: UInt64

    /// Makes the result.
    public init(items: [Item], revision: UInt64) {
        self.items = items
        self.revision = revision
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        items = try fields.required("items")
        revision = try fields.counter("revision")
    }

    public var json: JSON { ["items": items.json, "revision": revision.json] }

    public static let schema = TypeSchema.object("ItemsDuplicateResult", doc: "items/duplicate's result.", [
        .required("items", .array(Item.schema.reference), "The copies, in full, in the order of ids."),
        .required("revision", .integer, "The store's revision after the change."),
    ])
}
