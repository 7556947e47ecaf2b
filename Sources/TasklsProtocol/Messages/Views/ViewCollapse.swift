/// `view/collapse` (request): hides the rows below items, in one view.

import Wire

/// `view/collapse` params: `{"view": V, "ids": [ITEM_ID, ...]}` or `{"view": V, "all": true}`. The view hides the
/// rows below each item (its shown subtree) until `view/expand`; other views are not touched, and it is not undoable.
/// Result: `CollapseResult`.
public struct ViewCollapse: RequestMessage, Hashable {
    public typealias Result = CollapseResult
    public static let method = "view/collapse"

    /// The view.
    public var view: ViewID
    /// The items to collapse, or all of them.
    public var target: CollapseTarget

    /// Makes the params.
    public init(view: ViewID, _ target: CollapseTarget) {
        self.view = view
        self.target = target
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        view = try fields.required("view")
        target = try CollapseTarget(fields)
    }

    public var json: JSON {
        var object: JSONObject = ["view": view.json]
        target.write(into: &object)
        return .object(object)
    }

    public static let schema = TypeSchema.object(
        "ViewCollapse", doc: "view/collapse params; the result is a CollapseResult.",
        [.required("view", ViewID.schema.reference, "The view.")] + CollapseTarget.fields,
        exactlyOneOf: [["ids", "all"]])
}
