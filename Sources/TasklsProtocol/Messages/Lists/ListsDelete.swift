/// `lists/delete` (request): deletes a list and every item in it.

import Wire

/// `lists/delete` params: `{"id": LIST_ID}`.
public struct ListsDelete: RequestMessage, Hashable {
    public typealias Result = ListsDeleteResult
    public static let method = "lists/delete"

    /// The list.
    public var id: ListID

    /// Makes the params.
    public init(id: ListID) { self.id = id }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        id = try fields.required("id")
    }

    public var json: JSON { ["id": id.json] }

    public static let schema = TypeSchema.object("ListsDelete", doc: "lists/delete params.", [
        .required("id", ListID.schema.reference, "The list to delete, with every item in it."),
    ])
}

/// What `lists/delete` answers: the store's revision.
public struct ListsDeleteResult: ProtocolValue, Hashable {
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

    public static let schema = TypeSchema.object("ListsDeleteResult", doc: "lists/delete's result.", [
        .required("revision", .integer, "The store's revision after the change."),
    ])
}
