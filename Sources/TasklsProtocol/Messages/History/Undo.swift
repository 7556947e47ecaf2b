/// `undo` (request): undoes the client's latest step as a new mutation.

import Wire

/// `undo` params: none.
public struct Undo: RequestMessage, Hashable {
    public typealias Result = UndoResult
    public static let method = "undo"

    /// The params.
    public init() {}

    public init(json: JSON, path: String) throws(ResponseError) {
        try ObjectReader(json: json, path: path).rejectUnknown(Self.schema)
    }

    public var json: JSON { .object([:]) }

    public static let schema = TypeSchema.object("Undo", doc: "undo params: none.", [])
}

/// What `undo` answers: the step's method, what is left to undo and redo, and the store's revision.
public struct UndoResult: ProtocolValue, Hashable {
    /// The method of the step undone (`items/move`).
    public var undone: String
    /// The step in words, for a person: `delete 3 tasks`, `complete 1 task`, `move 2 tasks to another list`,
    /// `rename a list` (protocol.md lists every form).
    public var description: String
    /// Whether there is a step to undo now.
    public var canUndo: Bool
    /// Whether there is a step to redo now.
    public var canRedo: Bool
    /// The store's revision after the change.
    public var revision: UInt64

    /// Makes the result.
    public init(undone: String, description: String, canUndo: Bool, canRedo: Bool, revision: UInt64) {
        self.undone = undone
        self.description = description
        self.canUndo = canUndo
        self.canRedo = canRedo
        self.revision = revision
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        undone = try fields.required("undone")
        description = try fields.required("description")
        canUndo = try fields.required("canUndo")
        canRedo = try fields.required("canRedo")
        revision = try fields.counter("revision")
    }

    public var json: JSON {
        ["undone": .string(undone), "description": .string(description), "canUndo": .bool(canUndo), "canRedo": .bool(canRedo), "revision": revision.json]
    }

    public static let schema = TypeSchema.object("UndoResult", doc: "undo's result.", [
        .required("undone", .string, "The method of the step undone (items/move, lists/delete, ...)."),
        .required("description", .string, "The step in words for a person: delete 3 tasks, complete 1 task, move 2 tasks to another list, rename a list, ..."),
        .required("canUndo", .boolean, "Whether there is a step to undo now."),
        .required("canRedo", .boolean, "Whether there is a step to redo now."),
        .required("revision", .integer, "The store's revision after the change."),
    ])
}
