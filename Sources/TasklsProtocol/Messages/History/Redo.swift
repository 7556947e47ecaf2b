/// `redo` (request): redoes the client's latest undone step as a new mutation.

import Wire

/// `redo` params: none.
public struct Redo: RequestMessage, Hashable {
    public typealias Result = RedoResult
    public static let method = "redo"

    /// The params.
    public init() {}

    public init(json: JSON, path: String) throws(ResponseError) {
        try ObjectReader(json: json, path: path).rejectUnknown(Self.schema)
    }

    public var json: JSON { .object([:]) }

    public static let schema = TypeSchema.object("Redo", doc: "redo params: none.", [])
}

/// What `redo` answers: the step's method, what is left to undo and redo, and the store's revision.
public struct RedoResult: ProtocolValue, Hashable {
    /// The method of the step redone (`items/move`).
    public var redone: String
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
    public init(redone: String, description: String, canUndo: Bool, canRedo: Bool, revision: UInt64) {
        self.redone = redone
        self.description = description
        self.canUndo = canUndo
        self.canRedo = canRedo
        self.revision = revision
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        redone = try fields.required("redone")
        description = try fields.required("description")
        canUndo = try fields.required("canUndo")
        canRedo = try fields.required("canRedo")
        revision = try fields.counter("revision")
    }

    public var json: JSON {
        ["redone": .string(redone), "description": .string(description), "canUndo": .bool(canUndo), "canRedo": .bool(canRedo), "revision": revision.json]
    }

    public static let schema = TypeSchema.object("RedoResult", doc: "redo's result.", [
        .required("redone", .string, "The method of the step redone (items/move, lists/delete, ...)."),
        .required("description", .string, "The step in words for a person: delete 3 tasks, complete 1 task, move 2 tasks to another list, rename a list, ..."),
        .required("canUndo", .boolean, "Whether there is a step to undo now."),
        .required("canRedo", .boolean, "Whether there is a step to redo now."),
        .required("revision", .integer, "The store's revision after the change."),
    ])
}
