/// `store/import` (request): another tool's file (Taskwarrior, todo.txt, iCalendar, the backup) into the store.

import Wire

/// `store/import` params: `{"format": FORMAT, "path": PATH | "text": TEXT, "name"?, "into"?, "dryRun"?,
/// "skipInvalid"?}`. The file is read and parsed off the message loop; the answer comes when the import is done
/// (with `$/progress` on the request's `workDoneToken`). All or nothing, one undo step; a task whose uid an item
/// holds updates it, so importing a file twice changes nothing the second time.
public struct StoreImport: RequestMessage, Hashable {
    public typealias Result = StoreImportResult
    public static let method = "store/import"

    /// Where the file is: a path the server reads, or its text.
    public enum Source: Sendable, Hashable {
        /// An absolute path on the server's machine.
        case path(String)
        /// The file's text.
        case text(String)
    }

    /// The file's format.
    public var format: ExchangeFormat
    /// The file.
    public var source: Source
    /// The file's name for messages; default: the path, or `-` for text.
    public var name: String?
    /// The list for tasks whose file names none.
    public var into: ListID?
    /// Only report what the import would do.
    public var dryRun: Bool
    /// Leave invalid tasks out (each reported) instead of refusing the file.
    public var skipInvalid: Bool

    /// Makes the params.
    public init(format: ExchangeFormat, source: Source, name: String? = nil, into: ListID? = nil, dryRun: Bool = false,
                skipInvalid: Bool = false) {
        self.format = format
        self.source = source
        self.name = name
        self.into = into
        self.dryRun = dryRun
        self.skipInvalid = skipInvalid
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        format = try fields.required("format")
        let filePath: String? = try fields.optional("path")
        let text: String? = try fields.optional("text")
        switch (filePath, text) {
        case (let filePath?, nil):
            guard filePath.utf8.first == UInt8(ascii: "/") else { throw .invalidParams("\(fields.path("path")): must be an absolute path") }
            source = .path(filePath)
        case (nil, let text?): source = .text(text)
        case (.some, .some): throw .invalidParams("\(fields.path): give path or text, not both")
        case (nil, nil): throw .invalidParams("\(fields.path("path")): missing; give path (a file) or text")
        }
        name = try fields.optional("name")
        into = try fields.optional("into")
        dryRun = try fields.optional("dryRun") ?? false
        skipInvalid = try fields.optional("skipInvalid") ?? false
    }

    public var json: JSON {
        var object: JSONObject = ["format": format.json]
        switch source {
        case .path(let path): object["path"] = .string(path)
        case .text(let text): object["text"] = .string(text)
        }
        if let name { object["name"] = .string(name) }
        if let into { object["into"] = into.json }
        if dryRun { object["dryRun"] = .bool(true) }
        if skipInvalid { object["skipInvalid"] = .bool(true) }
        return .object(object)
    }

    public static let schema = TypeSchema.object("StoreImport", doc: "store/import params.", [
        .required("format", ExchangeFormat.schema.reference, "The file's format."),
        .optional("path", .string, "One of path, text: an absolute path the server reads (UTF-8)."),
        .optional("text", .string, "One of path, text: the file's text."),
        .optional("name", .string, "The file's name in problems; default: path, or - for text."),
        .optional("into", ListID.schema.reference, "The list for tasks whose file names none; default: the first list (a new list Inbox when there is none)."),
        .optional("dryRun", .boolean, "true: change nothing; answer what the import would do. Default false."),
        .optional("skipInvalid", .boolean, "true: leave invalid tasks out (each in skipped) instead of refusing the file. Default false."),
    ], exactlyOneOf: [["path", "text"]])
}

/// What `store/import` answers: what it did (or, for a dry run, would do).
public struct StoreImportResult: ProtocolValue, Hashable {
    /// Whether nothing was changed (a dry run).
    public var dryRun: Bool
    /// Tasks that became new items.
    public var created: Int
    /// Tasks that updated the item holding their uid.
    public var updated: Int
    /// Tasks whose item already held everything they say.
    public var unchanged: Int
    /// The lists made, by name, in order.
    public var createdLists: [String]
    /// The smart lists made (the backup), by name.
    public var createdSmartLists: [String]
    /// The tasks left out (`skipInvalid`), each with its problem.
    public var skipped: [ExchangeProblem]
    /// What the file had that taskls keeps nowhere.
    public var losses: [ExchangeLoss]
    /// The store's revision after the import (unchanged by a dry run, or an import that changed nothing).
    public var revision: UInt64

    /// Makes the result.
    public init(dryRun: Bool, created: Int, updated: Int, unchanged: Int, createdLists: [String],
                createdSmartLists: [String], skipped: [ExchangeProblem], losses: [ExchangeLoss], revision: UInt64) {
        self.dryRun = dryRun
        self.created = created
        self.updated = updated
        self.unchanged = unchanged
        self.createdLists = createdLists
        self.createdSmartLists = createdSmartLists
        self.skipped = skipped
        self.losses = losses
        self.revision = revision
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        dryRun = try fields.required("dryRun")
        created = try fields.required("created")
        updated = try fields.required("updated")
        unchanged = try fields.required("unchanged")
        createdLists = try fields.required("createdLists")
        createdSmartLists = try fields.required("createdSmartLists")
        skipped = try fields.required("skipped")
        losses = try fields.required("losses")
        revision = try fields.counter("revision")
    }

    public var json: JSON {
        ["dryRun": .bool(dryRun), "created": .integer(Int64(created)), "updated": .integer(Int64(updated)),
         "unchanged": .integer(Int64(unchanged)), "createdLists": createdLists.json, "createdSmartLists": createdSmartLists.json,
         "skipped": skipped.json, "losses": losses.json, "revision": revision.json]
    }

    public static let schema = TypeSchema.object("StoreImportResult", doc: "store/import's result.", [
        .required("dryRun", .boolean, "true when nothing was changed (dryRun was asked)."),
        .required("created", .integer, "Tasks that became new items (or would)."),
        .required("updated", .integer, "Tasks that updated the item holding their uid (or would)."),
        .required("unchanged", .integer, "Tasks whose item already held everything they say."),
        .required("createdLists", .array(.string), "The names of the lists made, in order."),
        .required("createdSmartLists", .array(.string), "The names of the smart lists made (the backup format)."),
        .required("skipped", .array(ExchangeProblem.schema.reference), "The tasks left out with skipInvalid, each with its problem."),
        .required("losses", .array(ExchangeLoss.schema.reference), "What the file had that taskls keeps nowhere, counted."),
        .required("revision", .integer, "The store's revision after the import."),
    ])
}
