/// `items/move` (request): reorders items, by id or by view index.

import Wire

/// `items/move` params, in one of two forms, told apart by whether `view` is present.
public enum ItemsMove: RequestMessage, Hashable {
    public typealias Result = ItemsMoveResult
    public static let method = "items/move"

    /// By id: `{"ids": [ITEM_ID, ...], "before": ITEM_ID | null, "list"?: LIST_ID}`. The items move as a
    /// block in their current order before `before` (nil, written as `null`: the end of the list), into
    /// `list` if given, else the list of `before`, else their own list.
    case ids(_ ids: [ItemID], before: ItemID?, list: ListID? = nil)
    /// By view index: `{"view": V, "version": N, "from": F, "count"?: C, "to": T}`: the `count` rows (nil:
    /// 1) at `from` of the view at `version` move so that the first is at `to` (counted in the view
    /// without them). A negative `version` on the wire reads as 0, which no view ever has.
    case view(_ view: ViewID, version: UInt64, from: Int, count: Int? = nil, to: Int)

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        if fields.contains("view") {
            try fields.rejectUnknown(Self.byViewSchema)
            // Every param's type first; the server then checks the view, its version, its sort and the ranges.
            let view: ViewID = try fields.required("view")
            let version: Int64 = try fields.required("version")
            let from: Int = try fields.required("from")
            let count: Int? = try fields.optional("count")
            let to: Int = try fields.required("to")
            self = .view(view, version: UInt64(max(0, version)), from: from, count: count, to: to)
        } else {
            try fields.rejectUnknown(Self.byIDsSchema)
            let ids: [ItemID] = try fields.identifiers("ids")
            guard fields.contains("before") else {
                throw .invalidParams("\(fields.path("before")): missing; give an item id, or null for the end of the list")
            }
            let list: ListID? = try fields.optional("list")
            self = .ids(ids, before: try fields.nullable("before"), list: list)
        }
    }

    public var json: JSON {
        switch self {
        case .ids(let ids, let before, let list):
            var object: JSONObject = ["ids": ids.json, "before": before.json]
            object["list"] = list?.json
            return .object(object)
        case .view(let view, let version, let from, let count, let to):
            var object: JSONObject = ["view": view.json, "version": version.json, "from": .integer(Int64(from))]
            object["count"] = count.map { .integer(Int64($0)) }
            object["to"] = .integer(Int64(to))
            return .object(object)
        }
    }

    /// The form by view index.
    public static let byViewSchema = TypeSchema.object("ItemsMoveByView", doc: "items/move by view index (view in manual ascending order only).", [
        .required("view", ViewID.schema.reference, "The view."),
        .required("version", .integer, "The view version the client saw; not current: -32801 and nothing changes."),
        .required("from", .integer, "The index of the first row to move, in the whole view."),
        .optional("count", .integer, "How many rows to move; default 1."),
        .required("to", .integer, "Where the first of them ends up, counted in the view without them."),
    ])

    /// The form by id.
    public static let byIDsSchema = TypeSchema.object("ItemsMoveByIDs", doc: "items/move by id.", [
        .required("ids", .array(ItemID.schema.reference), "The items, moved as a block in their current order: not empty, no repeats, at most 100000."),
        .required("before", ItemID.schema.reference, nullable: true, "The item to go before (in the destination list, not moved); null: the end of the list."),
        .optional("list", ListID.schema.reference, "The destination list; default: the list of before, else the items' own list."),
    ])

    public static let schema = TypeSchema(
        name: "ItemsMove", doc: "items/move params: by view index when view is present, else by id.",
        shape: .alternatives(.presence(of: "view"), [byViewSchema, byIDsSchema]))
}

/// What `items/move` answers (both forms): the store's revision, and whether anything changed.
public struct ItemsMoveResult: ProtocolValue, Hashable {
    /// The store's revision after the request.
    public var revision: UInt64
    /// false when the destination list's order stayed as it was (the revision stayed).
    public var changed: Bool

    /// Makes the result.
    public init(revision: UInt64, changed: Bool) {
        self.revision = revision
        self.changed = changed
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        revision = try fields.counter("revision")
        changed = try fields.required("changed")
    }

    public var json: JSON { ["revision": revision.json, "changed": .bool(changed)] }

    public static let schema = TypeSchema.object("ItemsMoveResult", doc: "items/move's result.", [
        .required("revision", .integer, "The store's revision after the request."),
        .required("changed", .boolean, "false when the order stayed as it was: the revision, items and views stayed."),
    ])
}
