/// What `view/collapse` and `view/expand` name, and what they answer.

import Wire

/// The items a `view/collapse` or `view/expand` addresses: the members `ids` or `all` (exactly one).
public enum CollapseTarget: Sendable, Hashable {
    /// `ids`: these items, each an item of the view (a row, or hidden under a collapsed ancestor); not empty,
    /// no repeats, at most `ProtocolLimits.idsPerRequest`.
    case ids([ItemID])
    /// `all: true`: collapse every item with rows below it in the view, or expand every item the view collapses.
    case all

    /// Reads `ids` or `all`: both members' types first (a `null` is refused naming its member), then the choice;
    /// `all` must be `true`.
    init(_ fields: ObjectReader) throws(ResponseError) {
        let ids: [ItemID]? = fields.contains("ids") ? try fields.identifiers("ids") : nil
        let all: Bool? = try fields.optional("all")
        switch (ids, all) {
        case (let ids?, nil): self = .ids(ids)
        case (nil, true?): self = .all
        case (nil, false?): throw .invalidParams("\(fields.path("all")): must be true; to name items, give ids instead")
        case (.some, .some): throw .invalidParams("\(fields.path): give ids or all, not both")
        case (nil, nil): throw .invalidParams("\(fields.path("ids")): missing; give ids (items) or all: true (every item)")
        }
    }

    /// Writes `ids` or `all: true` into `object`.
    func write(into object: inout JSONObject) {
        switch self {
        case .ids(let ids): object["ids"] = ids.json
        case .all: object["all"] = .bool(true)
        }
    }

    /// The members a target is written as: exactly one of them.
    static let fields: [FieldSchema] = [
        .optional("ids", .array(ItemID.schema.reference),
                  "One of ids, all: items of the view (rows, or hidden under a collapsed ancestor); not empty, no repeats, at most 100000."),
        .optional("all", .boolean, "One of ids, all: true, every item of the view (false is refused)."),
    ]
}

/// What `view/collapse` and `view/expand` answer: whether the view's rows changed.
public struct CollapseResult: ProtocolValue, Hashable {
    /// Whether the view's rows (all of them, not only the window's) are not what they were; when true, the
    /// view's `view/changed` was sent before this answer.
    public var changed: Bool

    /// Makes the result.
    public init(changed: Bool) { self.changed = changed }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        changed = try fields.required("changed")
    }

    public var json: JSON { ["changed": .bool(changed)] }

    public static let schema = TypeSchema.object("CollapseResult", doc: "The result of view/collapse and view/expand.", [
        .required("changed", .boolean, "Whether the view's rows changed (its view/changed came first); false: nothing was sent."),
    ])
}
