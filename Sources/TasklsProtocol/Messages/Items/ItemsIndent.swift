/// `items/indent` (request): makes sibling items subtasks of the sibling before them.

import Wire

/// `items/indent` params: `{"ids": [ITEM_ID, ...]}`. The items (ids inside another's subtree dropped: they ride
/// along) must share one parent; they become, in their current order and with their subtrees, the last subtasks
/// of the previous sibling of the first of them. Result: `ItemsMoveResult`.
public struct ItemsIndent: RequestMessage, Hashable {
    public typealias Result = ItemsMoveResult
    public static let method = "items/indent"

    /// The items: not empty, no repeats, at most `ProtocolLimits.idsPerRequest`.
    public var ids: [ItemID]

    /// Makes the params.
    public init(ids: [ItemID]) { self.ids = ids }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        ids = try fields.identifiers("ids")
    }

    public var json: JSON { ["ids": ids.json] }

    public static let schema = TypeSchema.object("ItemsIndent", doc: "items/indent params; the result is an ItemsMoveResult.", [
        .required("ids", .array(ItemID.schema.reference),
                  "The items, siblings once ids inside another's subtree are dropped: not empty, no repeats, at most 100000."),
    ])
}
