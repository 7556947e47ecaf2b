/// `view/snapshot` (request): a fresh snapshot of a view, for a client that saw a version gap.

import Wire

/// `view/snapshot` params: `{"view": V}`. Result: the view's snapshot.
public struct ViewSnapshot: RequestMessage, Hashable {
    public typealias Result = ViewSnapshotResult
    public static let method = "view/snapshot"

    /// The view.
    public var view: ViewID

    /// Makes the params.
    public init(view: ViewID) { self.view = view }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        view = try fields.required("view")
    }

    public var json: JSON { ["view": view.json] }

    public static let schema = TypeSchema.object("ViewSnapshot", doc: "view/snapshot params; the result is the view's snapshot.", [
        .required("view", ViewID.schema.reference, "The view."),
    ])
}
