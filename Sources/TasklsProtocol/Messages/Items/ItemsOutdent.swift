/// `items/outdent` (request): makes sibling subtasks siblings of their parent, right after it.

import Wire

/// `items/outdent` params: `{"ids": [ITEM_ID, ...]}`. The items (ids inside another's subtree dropped: they ride
/// along) must share one parent, not the top level; they become, in their current order and with their subtrees,
/// siblings of that parent right after it. Their later siblings stay where they are. Result: `ItemsMoveResult`.
public struct ItemsOutdent: RequestMessage, Hashable {
    public typealias Result = ItemsMoveResult
    public static let method = "items/outdent"

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

    public static let schema = TypeSchema.object("ItemsOutdent", doc: "items/outdent params; the result is an ItemsMoveResult.", [
        .required("ids", .array(ItemID.schema.reference),
                  "The items, subtasks of one parent once ids inside another's subtree are dropped: not empty, no repeats, at most 100000."),
    ])
}
