/// `view/locate` (request): where an item's row is in a view now.

import Wire

/// `view/locate` params: `{"view": V, "id": ITEM_ID}`. Result: `ViewLocation`.
public struct ViewLocate: RequestMessage, Hashable {
    public typealias Result = ViewLocation
    public static let method = "view/locate"

    /// The view.
    public var view: ViewID
    /// The item.
    public var id: ItemID

    /// Makes the params.
    public init(view: ViewID, id: ItemID) {
        self.view = view
        self.id = id
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        view = try fields.required("view")
        id = try fields.required("id")
    }

    public var json: JSON { ["view": view.json, "id": id.json] }

    public static let schema = TypeSchema.object("ViewLocate", doc: "view/locate params; the result is a ViewLocation.", [
        .required("view", ViewID.schema.reference, "The view."),
        .required("id", ItemID.schema.reference, "The item to find."),
    ])
}

/// `{view, version, index, id}`: where an item shows in a view at `version`: the index of its row, or of the row
/// of the outermost collapsed ancestor that hides it (`id` says which); both `null` when the view has no row for
/// it (out of its source or filter, or the view not ready).
public struct ViewLocation: ProtocolValue, Hashable {
    /// The view's id.
    public var view: ViewID
    /// The view's version the index is at (the version of the last `view/changed` sent, or of the snapshot).
    public var version: UInt64
    /// The row's index in the whole view, headers counted; nil when there is no row.
    public var index: Int?
    /// The id of the row at `index` (the item's, or its hiding ancestor's); nil when there is no row.
    public var id: ItemID?

    /// Makes the result.
    public init(view: ViewID, version: UInt64, index: Int?, id: ItemID?) {
        self.view = view
        self.version = version
        self.index = index
        self.id = id
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        view = try fields.required("view")
        version = try fields.counter("version")
        index = try fields.requiredNullable("index")
        id = try fields.requiredNullable("id")
        if let index, index < 0 { throw .invalidParams("\(fields.path("index")): must not be negative") }
        if (index == nil) != (id == nil) { throw .invalidParams("\(fields.path("id")): must be null exactly when index is") }
    }

    public var json: JSON {
        ["view": view.json, "version": version.json, "index": index.map { .integer(Int64($0)) } ?? .null, "id": id?.json ?? .null]
    }

    public static let schema = TypeSchema.object("ViewLocation", doc: "The result of view/locate.", [
        .required("view", ViewID.schema.reference, "The view's id."),
        .required("version", .integer, "The view's version the index is at."),
        .required("index", .integer, nullable: true,
                  "The index of the item's row, or of the row of the outermost collapsed ancestor hiding it, in the whole view (headers counted); null: the view has no row for it."),
        .required("id", ItemID.schema.reference, nullable: true,
                  "The id of the row at index: the item's own, or the hiding ancestor's; null exactly when index is."),
    ])
}
