/// `items/move` (request): reorders items, by id or by view index.

import Wire

/// `items/move` params, in one of two forms, told apart by whether `view` is present.
public enum ItemsMove: RequestMessage, Hashable {
    public typealias Result = ItemsMoveResult
    public static let method = "items/move"

    /// By id: `{"ids": [ITEM_ID, ...], "before": ITEM_ID | null, "list"?: LIST_ID, "parent"?: ITEM_ID | null}`. The
    /// items (ids inside another moved item's subtree ride along with it) move with their subtrees as a block, in
    /// their current order, under the destination parent (`parent` when given, else `before`'s parent, else the
    /// top level): before `before`, or last among that parent's subtasks when `before` is nil (written as `null`).
    /// The destination list is `list` if given, else the parent's, else `before`'s, else their own.
    case ids(_ ids: [ItemID], before: ItemID?, list: ListID? = nil, parent: ParentChoice = .unspecified)
    /// By view index: `{"view": V, "version": N, "from": F, "count"?: C, "to": T, "depth"?: D}`: the `count` rows
    /// (nil: 1) at `from` of the view at `version`, with the rows of their subtrees shown right after them, move so
    /// that the first is at `to` (counted in the view without them), at depth `depth` (nil: the default depth
    /// there; never negative). A negative `version` on the wire reads as 0, which no view ever has.
    case view(_ view: ViewID, version: UInt64, from: Int, count: Int? = nil, to: Int, depth: Int? = nil)

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
            let depth: Int? = try fields.optional("depth")
            if let depth, depth < 0 { throw .invalidParams("\(fields.path("depth")): must not be negative") }
            self = .view(view, version: UInt64(max(0, version)), from: from, count: count, to: to, depth: depth)
        } else {
            try fields.rejectUnknown(Self.byIDsSchema)
            let ids: [ItemID] = try fields.identifiers("ids")
            guard fields.contains("before") else {
                throw .invalidParams("\(fields.path("before")): missing; give an item id, or null for the end of the list")
            }
            let list: ListID? = try fields.optional("list")
            let before: ItemID? = try fields.nullable("before")
            self = .ids(ids, before: before, list: list, parent: try ParentChoice(fields, "parent"))
        }
    }

    public var json: JSON {
        switch self {
        case .ids(let ids, let before, let list, let parent):
            var object: JSONObject = ["ids": ids.json, "before": before.json]
            object["list"] = list?.json
            parent.write("parent", into: &object)
            return .object(object)
        case .view(let view, let version, let from, let count, let to, let depth):
            var object: JSONObject = ["view": view.json, "version": version.json, "from": .integer(Int64(from))]
            object["count"] = count.map { .integer(Int64($0)) }
            object["to"] = .integer(Int64(to))
            object["depth"] = depth.map { .integer(Int64($0)) }
            return .object(object)
        }
    }

    /// The form by view index.
    public static let byViewSchema = TypeSchema.object("ItemsMoveByView", doc: "items/move by view index (view in manual ascending order only).", [
        .required("view", ViewID.schema.reference, "The view."),
        .required("version", .integer, "The view version the client saw; not current: -32801 and nothing changes."),
        .required("from", .integer, "The index of the first row to move, in the whole view."),
        .optional("count", .integer, "How many rows to move; default 1. The rows of their subtrees shown right after them move too."),
        .required("to", .integer, "Where the first of them ends up, counted in the view without them (and their subtrees' rows)."),
        .optional("depth", .integer,
                  "The depth the block lands at, within the range the rows around to allow; default: the next row's depth, else 0."),
    ])

    /// The form by id.
    public static let byIDsSchema = TypeSchema.object("ItemsMoveByIDs", doc: "items/move by id.", [
        .required("ids", .array(ItemID.schema.reference), "The items, moved as a block in their current order: not empty, no repeats, at most 100000."),
        .required("before", ItemID.schema.reference, nullable: true,
                  "The item to go before (in the destination list, not moved, a subtask of parent when given); null: last among the destination parent's subtasks."),
        .optional("list", ListID.schema.reference, "The destination list; default: the parent's, else the list of before, else the items' own list."),
        .optional("parent", ItemID.schema.reference, nullable: true,
                  "The item whose subtasks they become; null: the top level; absent: before's parent, else the top level."),
    ])

    public static let schema = TypeSchema(
        name: "ItemsMove", doc: "items/move params: by view index when view is present, else by id.",
        shape: .alternatives(.presence(of: "view"), [byViewSchema, byIDsSchema]))
}

/// What `items/move` (both forms), `items/indent` and `items/outdent` answer: the store's revision, and whether
/// anything changed.
public struct ItemsMoveResult: ProtocolValue, Hashable {
    /// The store's revision after the request.
    public var revision: UInt64
    /// false when the tree stayed as it was (the revision stayed).
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

    public static let schema = TypeSchema.object("ItemsMoveResult", doc: "The result of items/move, items/indent and items/outdent.", [
        .required("revision", .integer, "The store's revision after the request."),
        .required("changed", .boolean, "false when the tree and its order stayed as they were: the revision, items and views stayed."),
    ])
}
