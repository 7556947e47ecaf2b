/// `view/expand` (request): shows again the rows below collapsed items, in one view.

import Wire

/// `view/expand` params: `{"view": V, "ids": [ITEM_ID, ...]}` or `{"view": V, "all": true}`. The view shows the
/// rows below each item again (those under a collapsed descendant stay hidden); other views are not touched, and
/// it is not undoable. Result: `CollapseResult`.
public struct ViewExpand: RequestMessage, Hashable {
    public typealias Result = CollapseResult
    public static let method = "view/expand"

    /// The view.
    public var view: ViewID
    /// The items to expand, or all of them.
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
        "ViewExpand", doc: "view/expand params; the result is a CollapseResult.",
        [.required("view", ViewID.schema.reference, "The view.")] + CollapseTarget.fields,
        exactlyOneOf: [["ids", "all"]])
}
