/// `view/sort` (request): changes a view's sort; a new generation.

import Wire

/// `view/sort` params: `{"view": V, "sort": SORT}`. The server sends one `view/changed` with a single
/// `reset`, then answers its version.
public struct ViewSort: RequestMessage, Hashable {
    public typealias Result = ViewVersion
    public static let method = "view/sort"

    /// The view.
    public var view: ViewID
    /// Its new sort.
    public var sort: Sort

    /// Makes the params.
    public init(view: ViewID, sort: Sort) {
        self.view = view
        self.sort = sort
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        sort = try fields.required("sort")
        view = try fields.required("view")
    }

    public var json: JSON { ["view": view.json, "sort": sort.json] }

    public static let schema = TypeSchema.object("ViewSort", doc: "view/sort params.", [
        .required("view", ViewID.schema.reference, "The view."),
        .required("sort", Sort.schema.reference, "Its new sort."),
    ])
}
