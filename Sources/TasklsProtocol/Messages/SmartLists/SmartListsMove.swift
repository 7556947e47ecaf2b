/// `smartLists/move` (request): reorders smart lists as a block.

import Wire

/// `smartLists/move` params: `{"ids": [SMART_LIST_ID, ...], "before": SMART_LIST_ID | null}`; `before` is required.
/// Answered with `ListsMoveResult` (`{"revision": R, "changed": BOOL}`).
public struct SmartListsMove: RequestMessage, Hashable {
    public typealias Result = ListsMoveResult
    public static let method = "smartLists/move"

    /// The smart lists to move, as a block keeping their relative order: not empty, no repeats.
    public var ids: [SmartListID]
    /// The smart list to go before (not one of `ids`); nil (`null`, always written): the end.
    public var before: SmartListID?

    /// Makes the params.
    public init(ids: [SmartListID], before: SmartListID?) {
        self.ids = ids
        self.before = before
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        ids = try fields.identifiers("ids")
        guard fields.contains("before") else {
            throw .invalidParams("\(fields.path("before")): missing; give a smart list id, or null for the end")
        }
        before = try fields.nullable("before")
    }

    public var json: JSON { ["ids": ids.json, "before": before.json] }

    public static let schema = TypeSchema.object("SmartListsMove", doc: "smartLists/move params.", [
        .required("ids", .array(SmartListID.schema.reference), "The smart lists to move as a block, keeping their relative order: not empty, no repeats."),
        .required("before", SmartListID.schema.reference, nullable: true, "The smart list to go before (not one of ids); null: the end."),
    ])
}
