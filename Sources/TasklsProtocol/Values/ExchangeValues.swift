/// The values `store/import` and `store/export` are made of: a file format, a problem in a file, a loss.

import Wire

/// A file format taskls imports and exports.
public enum ExchangeFormat: String, CaseIterable, ProtocolValue, Hashable {
    /// Taskwarrior's JSON (`task export`, `task import`).
    case taskwarrior
    /// todo.txt.
    case todotxt
    /// iCalendar VTODOs (RFC 5545).
    case ics
    /// taskls's own lossless backup.
    case json

    public init(json: JSON, path: String) throws(ResponseError) {
        self = try named(json, path: path) { "unknown format '\($0)'; expected one of \(names(ExchangeFormat.self))" }
    }

    public var json: JSON { .string(rawValue) }

    public static let schema = TypeSchema.enumeration("ExchangeFormat", doc: "A file format taskls imports and exports.", [
        .init("taskwarrior", "Taskwarrior 2.6's JSON: what task export writes and task import reads."),
        .init("todotxt", "todo.txt: one task per line."),
        .init("ics", "iCalendar (RFC 5545): a VCALENDAR of VTODOs per list."),
        .init("json", "taskls's own backup: every field, lossless, versioned."),
    ])
}

/// Something wrong in a file: where, and what.
public struct ExchangeProblem: ProtocolValue, Hashable {
    /// The file's name (`-` for text without one).
    public var file: String
    /// The 1-based line the problem starts on; 0 for the file as a whole.
    public var line: Int
    /// The field or property at fault, if one is.
    public var field: String?
    /// What was wrong.
    public var message: String

    /// Makes a problem.
    public init(file: String, line: Int, field: String?, message: String) {
        self.file = file
        self.line = line
        self.field = field
        self.message = message
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        file = try fields.required("file")
        line = try fields.required("line")
        field = try fields.optional("field")
        message = try fields.required("message")
    }

    public var json: JSON {
        var object: JSONObject = ["file": .string(file), "line": .integer(Int64(line)), "message": .string(message)]
        if let field { object["field"] = .string(field) }
        return .object(object)
    }

    public static let schema = TypeSchema.object("ExchangeProblem", doc: "Something wrong in an imported file.", [
        .required("file", .string, "The file's name as the request gave it (path or name), - for text without one."),
        .required("line", .integer, "The 1-based line the problem starts on; 0 for the file as a whole."),
        .optional("field", .string, "The field or property at fault (due, DTSTART, uuid), when one is."),
        .required("message", .string, "What was wrong, in words a user can act on."),
    ])
}

/// What a format cannot carry, counted.
public struct ExchangeLoss: ProtocolValue, Hashable {
    /// What is lost (`alerts`).
    public var what: String
    /// Why (`todo.txt has no alerts`).
    public var reason: String
    /// How many tasks it concerns.
    public var count: Int

    /// Makes a loss.
    public init(what: String, reason: String, count: Int) {
        self.what = what
        self.reason = reason
        self.count = count
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        what = try fields.required("what")
        reason = try fields.required("reason")
        count = try fields.required("count")
    }

    public var json: JSON { ["what": .string(what), "reason": .string(reason), "count": .integer(Int64(count))] }

    public static let schema = TypeSchema.object("ExchangeLoss", doc: "What an import or export loses, counted.", [
        .required("what", .string, "What is lost (alerts, notes, deleted tasks)."),
        .required("reason", .string, "Why: the format's reason (todo.txt has no alerts)."),
        .required("count", .integer, "How many tasks it concerns."),
    ])
}
