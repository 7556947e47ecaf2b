/// `lists/open` (request): opens a view on a list or a smart group.

import Wire

/// `lists/open` params: `{"list": LIST_ID}` or `{"group": GROUP}`, plus optional `sort`, `filter`,
/// `sections` and `window`. Result: the view's snapshot, version 1.
public struct ListsOpen: RequestMessage, Hashable {
    public typealias Result = ViewSnapshotResult
    public static let method = "lists/open"

    /// What the view shows.
    public var source: ViewSource
    /// Its sort; nil: `Sort.manual`.
    public var sort: Sort?
    /// Its filter; nil: everything (`null` is refused here).
    public var filter: Filter?
    /// Its sections; nil: none.
    public var sections: Sections?
    /// Its window; nil: `ListsOpen.defaultWindow`.
    public var window: Window?

    /// The window a view opens with when the client gives none: `{"start": 0, "end": 100}`.
    public static let defaultWindow = Window(start: 0, end: 100)

    /// Makes the params.
    public init(_ source: ViewSource, sort: Sort? = nil, filter: Filter? = nil, sections: Sections? = nil, window: Window? = nil) {
        self.source = source
        self.sort = sort
        self.filter = filter
        self.sections = sections
        self.window = window
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        source = try ViewSource(fields)
        sort = try fields.optional("sort")
        filter = try fields.optional("filter")
        sections = try fields.optional("sections")
        window = try fields.optional("window")
    }

    public var json: JSON {
        var object = JSONObject()
        source.write(into: &object)
        object["sort"] = sort?.json
        object["filter"] = filter?.json
        object["sections"] = sections?.json
        object["window"] = window?.json
        return .object(object)
    }

    public static let schema = TypeSchema.object(
        "ListsOpen", doc: "lists/open params; the result is the view's snapshot at version 1.",
        ViewSource.fields + [
            .optional("sort", Sort.schema.reference, "Default {\"by\": \"manual\"}."),
            .optional("filter", Filter.schema.reference, "Default: everything."),
            .optional("sections", Sections.schema.reference, "Default none."),
            .optional("window", Window.schema.reference, "Default {\"start\": 0, \"end\": 100}."),
        ],
        exactlyOneOf: [["list", "group"]])
}
