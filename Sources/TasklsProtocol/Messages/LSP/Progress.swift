/// `$/progress` (notification, server → client): work done on a token the client gave with a request.

import Wire

/// `$/progress` params: `{"token": T, "value": V}`.
public struct Progress: NotificationMessage, Hashable {
    public static let method = "$/progress"

    /// The `workDoneToken` of the request that started the work.
    public var token: ProgressToken
    /// Where the work is.
    public var value: ProgressValue

    public init(token: ProgressToken, value: ProgressValue) {
        self.token = token
        self.value = value
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        token = try fields.required("token")
        value = try fields.required("value")
    }

    public var json: JSON { ["token": token.json, "value": value.json] }

    public static let schema = TypeSchema.object("Progress", doc: "$/progress params (LSP work done progress).", [
        .required("token", ProgressToken.schema.reference, "The workDoneToken of the request that started the work."),
        .required("value", ProgressValue.schema.reference, "begin, then reports, then exactly one end."),
    ])
}

/// LSP's `WorkDoneProgressBegin`, `WorkDoneProgressReport` and `WorkDoneProgressEnd`, told apart by `kind`.
public enum ProgressValue: ProtocolValue, Hashable {
    /// The work started (taskls never lets it be cancelled; it starts at 0%).
    case begin(title: String, message: String?)
    /// The work got to `percentage` (0 to 100).
    case report(percentage: Int, message: String?)
    /// The work is done, failed, or is no longer wanted.
    case end(message: String?)

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        let kind: String = try fields.required("kind")
        switch kind {
        case "begin":
            try fields.rejectUnknown(Self.beginSchema)
            let cancellable: Bool = try fields.required("cancellable")
            guard !cancellable else { throw .invalidParams("\(fields.path("cancellable")): taskls's work is never cancellable") }
            let percentage: Int = try fields.required("percentage")
            guard percentage == 0 else { throw .invalidParams("\(fields.path("percentage")): begins at 0") }
            self = .begin(title: try fields.required("title"), message: try fields.optional("message"))
        case "report":
            try fields.rejectUnknown(Self.reportSchema)
            let percentage: Int = try fields.required("percentage")
            guard (0...100).contains(percentage) else { throw .invalidParams("\(fields.path("percentage")): must lie within 0...100") }
            self = .report(percentage: percentage, message: try fields.optional("message"))
        case "end":
            try fields.rejectUnknown(Self.endSchema)
            self = .end(message: try fields.optional("message"))
        default:
            throw .invalidParams("\(fields.path("kind")): expected begin, report or end, got '\(kind)'")
        }
    }

    public var json: JSON {
        var object: JSONObject
        switch self {
        case .begin(let title, let message):
            object = ["kind": "begin", "title": .string(title), "cancellable": false, "percentage": 0]
            object["message"] = message.map(JSON.string)
        case .report(let percentage, let message):
            object = ["kind": "report", "percentage": .integer(Int64(percentage))]
            object["message"] = message.map(JSON.string)
        case .end(let message):
            object = ["kind": "end"]
            object["message"] = message.map(JSON.string)
        }
        return .object(object)
    }

    public static let beginSchema = TypeSchema.object("ProgressBegin", doc: "LSP's WorkDoneProgressBegin.", [
        .required("kind", .constant("begin"), "begin"),
        .required("title", .string, "What the work is: Loading tasks, Sorting tasks."),
        .required("cancellable", .boolean, "Always false."),
        .required("percentage", .integer, "Always 0."),
        .optional("message", .string, "Details: the store's path, or how many items are sorted by what."),
    ])

    public static let reportSchema = TypeSchema.object("ProgressReport", doc: "LSP's WorkDoneProgressReport.", [
        .required("kind", .constant("report"), "report"),
        .required("percentage", .integer, "0 to 100, rising."),
        .optional("message", .string, "Details."),
    ])

    public static let endSchema = TypeSchema.object("ProgressEnd", doc: "LSP's WorkDoneProgressEnd.", [
        .required("kind", .constant("end"), "end"),
        .optional("message", .string, "How it ended: N items, why it failed, or no longer needed."),
    ])

    public static let schema = TypeSchema(
        name: "ProgressValue", doc: "Where the work is, by kind.",
        shape: .alternatives(.value(of: "kind"), [beginSchema, reportSchema, endSchema]))
}
