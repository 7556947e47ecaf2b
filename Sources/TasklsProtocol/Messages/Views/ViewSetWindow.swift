/// `view/setWindow` (request): moves a view's window as the client scrolls.

import Wire

/// `view/setWindow` params: `{"view": V, "window": {"start": S, "end": E}}`. Result: the view's snapshot
/// with the rows of the new window (the version does not change).
public struct ViewSetWindow: RequestMessage, Hashable {
    public typealias Result = ViewSnapshotResult
    public static let method = "view/setWindow"

    /// The view.
    public var view: ViewID
    /// Its new window.
    public var window: Window

    /// Makes the params.
    public init(view: ViewID, window: Window) {
        self.view = view
        self.window = window
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        view = try fields.required("view")
        window = try fields.required("window")
    }

    public var json: JSON { ["view": view.json, "window": window.json] }

    public static let schema = TypeSchema.object("ViewSetWindow", doc: "view/setWindow params; the result is the view's snapshot.", [
        .required("view", ViewID.schema.reference, "The view."),
        .required("window", Window.schema.reference, "Its new window."),
    ])
}
