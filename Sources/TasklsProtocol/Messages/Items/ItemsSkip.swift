/// `items/skip` (request): moves repeating items on to their next occurrence without completing them.

import Wire

/// `items/skip` params: `{"ids": [ITEM_ID, ...]}`.
public struct ItemsSkip: RequestMessage, Hashable {
    public typealias Result = ItemsSkipResult
    public static let method = "items/skip"

    /// The repeating items to skip: not empty, no repeats.
    public var ids: [ItemID]

    /// Makes the params.
    public init(ids: [ItemID]) { self.ids = ids }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        ids = try fields.identifiers("ids")
    }

    public var json: JSON { ["ids": ids.json] }

    public static let schema = TypeSchema.object("ItemsSkip", doc: "items/skip params.", [
        .required("ids", .array(ItemID.schema.reference),
                  "The repeating items to move on to their next occurrence: not empty, no repeats, at most 100000; all or none."),
    ])
}

/// What `items/skip` answers: the items at their next occurrence, and the store's revision.
public struct ItemsSkipResult: ProtocolValue, Hashable {
    /// The items after the skip, in full, in the order of `ids`.
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

    public static let schema = TypeSchema.object("ItemsSkipResult", doc: "items/skip's result.", [
        .required("items", .array(Item.schema.reference), "The items at their next occurrence, in full, in the order of ids."),
        .required("revision", .integer, "The store's revision after the change."),
    ])
}
