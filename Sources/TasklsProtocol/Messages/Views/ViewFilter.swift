/// `view/filter` (request): changes a view's filter; a new generation.

import Wire

/// `view/filter` params: `{"view": V, "filter": FILTER}` (`filter` absent or `null`: everything). The
/// server sends one `view/changed` with a single `reset`, then answers its version.
public struct ViewFilter: RequestMessage, Hashable {
    public typealias Result = ViewVersion
    public static let method = "view/filter"

    /// The view.
    public var view: ViewID
    /// Its new filter; nil (absent or `null`): everything.
    public var filter: Filter?

    /// Makes the params.
    public init(view: ViewID, filter: Filter?) {
        self.view = view
        self.filter = filter
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        filter = try fields.nullable("filter")
        view = try fields.required("view")
    }

    public var json: JSON {
        var object: JSONObject = ["view": view.json]
        object["filter"] = filter?.json
        return .object(object)
    }

    public static let schema = TypeSchema.object("ViewFilter", doc: "view/filter params.", [
        .required("view", ViewID.schema.reference, "The view."),
        .optional("filter", Filter.schema.reference, nullable: true, "Its new filter; absent or null: everything."),
    ])
}
