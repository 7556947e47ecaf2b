/// `view/changed` (notification, server → client): one change of one view.

import Wire

/// `view/changed` params. `version` is exactly one more than the view's previous version; `state`,
/// `count` and `window` are the view's values after the change; applying `ops` in order to the client's
/// rows gives the server's new rows.
public struct ViewChanged: NotificationMessage, Hashable {
    public static let method = "view/changed"

    /// The view.
    public var view: ViewID
    /// Its new version.
    public var version: UInt64
    /// Its state after the change.
    public var state: ViewState
    /// The number of rows in the whole view; nil (written as `null`) when unknown.
    public var count: Int?
    /// Why the view is empty, when `count` is 0 (left out otherwise).
    public var empty: EmptyReason?
    /// The window the ops refer to.
    public var window: Window
    /// The ops: sequential and window-relative.
    public var ops: [WindowOperation]

    /// Makes the params.
    public init(view: ViewID, version: UInt64, state: ViewState, count: Int?, empty: EmptyReason? = nil, window: Window,
                ops: [WindowOperation]) {
        self.view = view
        self.version = version
        self.state = state
        self.count = count
        self.empty = empty
        self.window = window
        self.ops = ops
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        try self.init(ObjectReader(json: json, path: path), ops: nil)
    }

    /// Reads the params from `fields`; `ops` when they were read already (`init(pulling:)`), else from `fields`.
    init(_ fields: ObjectReader, ops: [WindowOperation]?) throws(ResponseError) {
        try fields.rejectUnknown(Self.schema)
        view = try fields.required("view")
        version = try fields.counter("version")
        state = try ViewState(fields)
        count = try fields.requiredNullable("count")
        empty = try fields.optional("empty")
        window = try fields.required("window")
        if let ops { self.ops = ops } else { self.ops = try fields.required("ops") }
    }

    public var json: JSON {
        var object: JSONObject = ["view": view.json, "version": version.json]
        state.write(into: &object)
        object["count"] = count.map { .integer(Int64($0)) } ?? .null
        object["empty"] = empty?.json
        object["window"] = window.json
        object["ops"] = ops.json
        return .object(object)
    }

    public static let schema = TypeSchema.object(
        "ViewChanged", doc: "view/changed params: one change of one view.",
        [
            .required("view", ViewID.schema.reference, "The view."),
            .required("version", .integer, "Exactly one more than the view's previous version; any other: resync with view/snapshot."),
        ] + ViewState.fields + [
            .required("count", .integer, nullable: true, "The number of rows in the whole view after the change; null when unknown (state error)."),
            .optional("empty", EmptyReason.schema.reference, "Why the view is empty: present exactly when count is 0."),
            .required("window", Window.schema.reference, "The window the ops refer to."),
            .required("ops", .array(WindowOperation.schema.reference), "Sequential, window-relative ops: removals, moves, insertions, updates; a reset is alone."),
        ])
}
