/// One step of a change to a view's window, as `view/changed` carries it.

import Wire

/// One op of `view/changed`. Ops are sequential and window-relative: index 0 is the row at
/// `window.start`, and each index refers to the window as the ops before it left it.
public enum WindowOperation: ProtocolValue, Hashable {
    /// Insert `row` before the row at `index` (`index` may equal the length: append).
    case insert(index: Int, row: Row)
    /// Remove the row at `index`.
    case remove(index: Int)
    /// Remove the row at `from`, then insert it at `to` in the resulting rows; `row` is its new content
    /// when that changed too (left out when nil).
    case move(from: Int, to: Int, row: Row?)
    /// Replace the row at `index` with `row` (same id, new content).
    case update(index: Int, row: Row)
    /// Replace all of the window's rows; always alone.
    case reset(rows: [Row])

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        let op: String = try fields.required("op")
        switch op {
        case "insert":
            try fields.rejectUnknown(Self.insertSchema)
            self = .insert(index: try fields.required("index"), row: try fields.required("row"))
        case "remove":
            try fields.rejectUnknown(Self.removeSchema)
            self = .remove(index: try fields.required("index"))
        case "move":
            try fields.rejectUnknown(Self.moveSchema)
            self = .move(from: try fields.required("from"), to: try fields.required("to"), row: try fields.optional("row"))
        case "update":
            try fields.rejectUnknown(Self.updateSchema)
            self = .update(index: try fields.required("index"), row: try fields.required("row"))
        case "reset":
            try fields.rejectUnknown(Self.resetSchema)
            self = .reset(rows: try fields.required("rows"))
        default:
            throw .invalidParams("\(fields.path("op")): expected insert, remove, move, update or reset, got '\(op)'")
        }
    }

    public var json: JSON {
        switch self {
        case .insert(let index, let row): ["op": "insert", "index": .integer(Int64(index)), "row": row.json]
        case .remove(let index): ["op": "remove", "index": .integer(Int64(index))]
        case .move(let from, let to, let row?):
            ["op": "move", "from": .integer(Int64(from)), "to": .integer(Int64(to)), "row": row.json]
        case .move(let from, let to, nil): ["op": "move", "from": .integer(Int64(from)), "to": .integer(Int64(to))]
        case .update(let index, let row): ["op": "update", "index": .integer(Int64(index)), "row": row.json]
        case .reset(let rows): ["op": "reset", "rows": rows.json]
        }
    }

    static let insertSchema = TypeSchema.object("InsertOperation", doc: "Insert a row.", [
        .required("op", .constant("insert"), "The op."),
        .required("index", .integer, "Where: before the row at this index (or the length: append)."),
        .required("row", Row.schema.reference, "The row."),
    ])
    static let removeSchema = TypeSchema.object("RemoveOperation", doc: "Remove a row.", [
        .required("op", .constant("remove"), "The op."),
        .required("index", .integer, "The row's index."),
    ])
    static let moveSchema = TypeSchema.object("MoveOperation", doc: "Move a row.", [
        .required("op", .constant("move"), "The op."),
        .required("from", .integer, "The row's index."),
        .required("to", .integer, "Its index in the rows left once it is removed (never equal to from)."),
        .optional("row", Row.schema.reference, "Its new content: present exactly when that changed too."),
    ])
    static let updateSchema = TypeSchema.object("UpdateOperation", doc: "Replace a row's content; never moves it.", [
        .required("op", .constant("update"), "The op."),
        .required("index", .integer, "The row's index."),
        .required("row", Row.schema.reference, "The row's new content (same id)."),
    ])
    static let resetSchema = TypeSchema.object("ResetOperation", doc: "Replace all of the window's rows; always alone.", [
        .required("op", .constant("reset"), "The op."),
        .required("rows", .array(Row.schema.reference), "The window's rows."),
    ])

    public static let schema = TypeSchema(
        name: "WindowOperation", doc: "One op of view/changed: sequential and window-relative.",
        shape: .alternatives(.value(of: "op"), [insertSchema, removeSchema, moveSchema, updateSchema, resetSchema]))
}
