/// A view as it is now: the result of `lists/open`, `view/setWindow` and `view/snapshot`.

import Wire

/// A snapshot of a view. `rows` holds the rows at indexes `window.start` up to
/// `min(window.end, count)`; none while loading or in error.
public struct ViewSnapshotResult: ProtocolValue, Hashable {
    /// The view's id.
    public var view: ViewID
    /// The view's version; the next `view/changed` carries `version + 1`.
    public var version: UInt64
    /// Its state.
    public var state: ViewState
    /// The number of rows in the whole view; nil (written as `null`) when unknown (in error).
    public var count: Int?
    /// Why the view is empty, when `count` is 0 (left out otherwise).
    public var empty: EmptyReason?
    /// Its window.
    public var window: Window
    /// Its sort.
    public var sort: Sort
    /// Its filter (members at their defaults left out).
    public var filter: Filter
    /// Its sections.
    public var sections: Sections
    /// What it shows.
    public var source: ViewSource
    /// The rows of the window that exist.
    public var rows: [Row]

    /// Makes a snapshot.
    public init(view: ViewID, version: UInt64, state: ViewState, count: Int?, empty: EmptyReason? = nil, window: Window,
                sort: Sort, filter: Filter = .all, sections: Sections = .none, source: ViewSource, rows: [Row]) {
        self.view = view
        self.version = version
        self.state = state
        self.count = count
        self.empty = empty
        self.window = window
        self.sort = sort
        self.filter = filter
        self.sections = sections
        self.source = source
        self.rows = rows
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        view = try fields.required("view")
        version = try fields.counter("version")
        state = try ViewState(fields)
        count = try fields.requiredNullable("count")
        empty = try fields.optional("empty")
        window = try fields.required("window")
        sort = try fields.required("sort")
        filter = try fields.required("filter")
        sections = try fields.required("sections")
        source = try ViewSource(fields)
        rows = try fields.required("rows")
    }

    public var json: JSON {
        var object: JSONObject = ["view": view.json, "version": version.json]
        state.write(into: &object)
        object["count"] = count.map { .integer(Int64($0)) } ?? .null
        object["empty"] = empty?.json
        object["window"] = window.json
        object["sort"] = sort.json
        object["filter"] = filter.json
        object["sections"] = sections.json
        source.write(into: &object)
        object["rows"] = rows.json
        return .object(object)
    }

    public static let schema = TypeSchema.object(
        "ViewSnapshotResult", doc: "A view as it is now (lists/open, view/setWindow, view/snapshot).",
        [
            .required("view", ViewID.schema.reference, "The view's id."),
            .required("version", .integer, "The view's version; the next view/changed carries version + 1."),
        ] + ViewState.fields + [
            .required("count", .integer, nullable: true, "The number of rows in the whole view; null when unknown (state error)."),
            .optional("empty", EmptyReason.schema.reference, "Why the view is empty: present exactly when count is 0."),
            .required("window", Window.schema.reference, "The window."),
            .required("sort", Sort.schema.reference, "The sort."),
            .required("filter", Filter.schema.reference, "The filter, without members at their defaults."),
            .required("sections", Sections.schema.reference, "The sections."),
        ] + ViewSource.fields + [
            .required("rows", .array(Row.schema.reference), "The rows at indexes start up to min(end, count); none while loading or in error."),
        ],
        exactlyOneOf: [["list", "group"]])
}

/// `{view, version}`: the result of `view/sort`, `view/filter` and `view/sections`, with the version of
/// the `view/changed` that reset the view.
public struct ViewVersion: ProtocolValue, Hashable {
    /// The view's id.
    public var view: ViewID
    /// The version of the `reset` notification sent just before.
    public var version: UInt64

    /// Makes the result.
    public init(view: ViewID, version: UInt64) {
        self.view = view
        self.version = version
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        view = try fields.required("view")
        version = try fields.counter("version")
    }

    public var json: JSON { ["view": view.json, "version": version.json] }

    public static let schema = TypeSchema.object(
        "ViewVersion", doc: "A view's new generation: the version of the reset notification sent just before.", [
            .required("view", ViewID.schema.reference, "The view's id."),
            .required("version", .integer, "The version of the view/changed that reset the view."),
        ])
}
