/// `store/export` (request): lists as another tool's file (Taskwarrior, todo.txt, iCalendar, the backup).

import Wire

/// `store/export` params: `{"format": FORMAT, "lists"?: [LIST_ID, ...], "path"?: PATH}`. The file is made off the
/// message loop from the state as it was when the request arrived; without `path` the answer carries its text.
public struct StoreExport: RequestMessage, Hashable {
    public typealias Result = StoreExportResult
    public static let method = "store/export"

    /// The format to write.
    public var format: ExchangeFormat
    /// The lists to export, in this order; nil: every list (and the smart lists).
    public var lists: [ListID]?
    /// An absolute path to write the file to (replaced whole, atomically); nil: the text is in the answer.
    public var path: String?

    /// Makes the params.
    public init(format: ExchangeFormat, lists: [ListID]? = nil, path: String? = nil) {
        self.format = format
        self.lists = lists
        self.path = path
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        format = try fields.required("format")
        if fields.contains("lists") {
            let lists: [ListID] = try fields.identifiers("lists")
            self.lists = lists
        } else {
            lists = nil
        }
        let filePath: String? = try fields.optional("path")
        if let filePath, filePath.utf8.first != UInt8(ascii: "/") {
            throw .invalidParams("\(fields.path("path")): must be an absolute path")
        }
        self.path = filePath
    }

    public var json: JSON {
        var object: JSONObject = ["format": format.json]
        if let lists { object["lists"] = lists.json }
        if let path { object["path"] = .string(path) }
        return .object(object)
    }

    public static let schema = TypeSchema.object("StoreExport", doc: "store/export params.", [
        .required("format", ExchangeFormat.schema.reference, "The format to write."),
        .optional("lists", .array(ListID.schema.reference), "The lists to export, in this order: not empty, no repeats. Default: every list in the lists' order, and the smart lists."),
        .optional("path", .string, "An absolute path: the file is written there (replaced whole, atomically) instead of returned."),
    ])
}

/// What `store/export` answers.
public struct StoreExportResult: ProtocolValue, Hashable {
    /// The file's text (when no path was given).
    public var text: String?
    /// How many tasks the file holds.
    public var tasks: Int
    /// How many lists.
    public var lists: Int
    /// What the format could not carry, counted.
    public var losses: [ExchangeLoss]
    /// The store's revision the file shows.
    public var revision: UInt64

    /// Makes the result.
    public init(text: String?, tasks: Int, lists: Int, losses: [ExchangeLoss], revision: UInt64) {
        self.text = text
        self.tasks = tasks
        self.lists = lists
        self.losses = losses
        self.revision = revision
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        text = try fields.optional("text")
        tasks = try fields.required("tasks")
        lists = try fields.required("lists")
        losses = try fields.required("losses")
        revision = try fields.counter("revision")
    }

    public var json: JSON {
        var object: JSONObject = ["tasks": .integer(Int64(tasks)), "lists": .integer(Int64(lists)), "losses": losses.json,
                                  "revision": revision.json]
        if let text { object["text"] = .string(text) }
        return .object(object)
    }

    public static let schema = TypeSchema.object("StoreExportResult", doc: "store/export's result.", [
        .optional("text", .string, "The file's text; absent when path was given."),
        .required("tasks", .integer, "How many tasks the file holds."),
        .required("lists", .integer, "How many lists it holds."),
        .required("losses", .array(ExchangeLoss.schema.reference), "What the format could not carry, counted."),
        .required("revision", .integer, "The store's revision the file shows."),
    ])
}
