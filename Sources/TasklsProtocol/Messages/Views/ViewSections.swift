/// `view/sections` (request): groups a view into sections, or stops grouping it; a new generation.

import Wire

/// `view/sections` params: `{"view": V, "sections": GROUPING}`. The server sends one `view/changed` with a
/// single `reset`, then answers its version.
public struct ViewSections: RequestMessage, Hashable {
    public typealias Result = ViewVersion
    public static let method = "view/sections"

    /// The view.
    public var view: ViewID
    /// Its new sections.
    public var sections: Sections

    /// Makes the params.
    public init(view: ViewID, sections: Sections) {
        self.view = view
        self.sections = sections
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        sections = try fields.required("sections")
        view = try fields.required("view")
    }

    public var json: JSON { ["view": view.json, "sections": sections.json] }

    public static let schema = TypeSchema.object("ViewSections", doc: "view/sections params.", [
        .required("view", ViewID.schema.reference, "The view."),
        .required("sections", Sections.schema.reference, "Its new sections (none: stop grouping)."),
    ])
}
