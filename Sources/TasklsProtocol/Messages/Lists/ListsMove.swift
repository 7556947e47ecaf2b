/// `lists/move` (request): reorders lists as a block.

import Wire

/// `lists/move` params: `{"ids": [LIST_ID, ...], "before": LIST_ID | null}`; `before` is required.
public struct ListsMove: RequestMessage, Hashable {
    public typealias Result = ListsMoveResult
    public static let method = "lists/move"

    /// The lists to move, as a block keeping their relative order: not empty, no repeats.
    public var ids: [ListID]
    /// The list to go before (not one of `ids`); nil (`null`, always written): the end.
    public var before: ListID?

    /// Makes the params.
    public init(ids: [ListID], before: ListID?) {
        self.ids = ids
        self.before = before
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        ids = try fields.identifiers("ids")
        guard fields.contains("before") else {
            throw .invalidParams("\(fields.path("before")): missing; give a list id, or null for the end")
        }
        before = try fields.nullable("before")
    }

    public var json: JSON { ["ids": ids.json, "before": before.json] }

    public static let schema = TypeSchema.object("ListsMove", doc: "lists/move params.", [
        .required("ids", .array(ListID.schema.reference), "The lists to move as a block, keeping their relative order: not empty, no repeats, at most 100000."),
        .required("before", ListID.schema.reference, nullable: true, "The list to go before (not one of ids); null: the end."),
    ])
}

/// What `lists/move` answers: the store's revision, and whether the order changed.
public struct ListsMoveResult: ProtocolValue, Hashable {
    /// The store's revision after the request.
    public var revision: UInt64
    /// false when the order of lists stayed as it was (the revision stayed).
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

    public static let schema = TypeSchema.object("ListsMoveResult", doc: "lists/move's result.", [
        .required("revision", .integer, "The store's revision after the request."),
        .required("changed", .boolean, "false when the order of lists stayed as it was: the revision stayed."),
    ])
}
