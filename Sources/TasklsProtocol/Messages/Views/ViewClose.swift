/// `view/close` (request): closes a view.

import Wire

/// `view/close` params: `{"view": V}`. Result: `null`.
public struct ViewClose: RequestMessage, Hashable {
    public typealias Result = NullResult
    public static let method = "view/close"

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

    public static let schema = TypeSchema.object("ViewClose", doc: "view/close params; the result is null.", [
        .required("view", ViewID.schema.reference, "The view."),
    ])
}
