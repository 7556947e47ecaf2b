/// `initialize` (request): LSP's `InitializeParams`, of which taskls reads a few members, and its result.

import Wire

/// `initialize` params. The full LSP `InitializeParams` are tolerated: unknown members are ignored,
/// and only the members below are read (and their types checked). `processId` and
/// `initializationOptions` may be `null` (none); `initializationOptions` (and, for clients whose JSON
/// cannot tell `{}` from `[]`, such as Lua's, `capabilities` and `capabilities.window`) may be an
/// empty array, read as an empty object.
public struct Initialize: RequestMessage, Hashable {
    public typealias Result = InitializeResult
    public static let method = "initialize"

    /// The client's process id.
    public var processId: Int?
    /// `initializationOptions.timeZone`: the client's IANA time zone ("Europe/Paris"), which decides what
    /// "today" is (the server checks the name); the server's local zone when absent.
    public var timeZone: String?
    /// `initializationOptions.store`: the store directory the client asks for (a non-empty path without
    /// NUL), used unless the server's command line or environment chose one.
    public var store: String?
    /// `capabilities.window.workDoneProgress`: whether the client shows `$/progress` work done progress.
    public var workDoneProgress: Bool?
    /// `trace`: how much the client wants traced.
    public var trace: Trace?
    /// `workDoneToken`: a token the client gave for reporting the initialization's progress.
    public var workDoneToken: ProgressToken?

    /// Makes the params.
    public init(processId: Int? = nil, timeZone: String? = nil, store: String? = nil, workDoneProgress: Bool? = nil,
                trace: Trace? = nil, workDoneToken: ProgressToken? = nil) {
        self.processId = processId
        self.timeZone = timeZone
        self.store = store
        self.workDoneProgress = workDoneProgress
        self.trace = trace
        self.workDoneToken = workDoneToken
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        processId = try fields.nullable("processId")
        if let value = try fields.nullable("initializationOptions", as: JSON.self) {
            let options = try lenientObject(value, path: fields.path("initializationOptions"))
            timeZone = try options.optional("timeZone")
            store = try options.optional("store")
            if let store, store.isEmpty || store.utf8.contains(0) {
                throw .invalidParams("\(options.path("store")): expected a directory path, got '\(store)'")
            }
        }
        if let value = try fields.optional("capabilities", as: JSON.self) {
            let capabilities = try lenientObject(value, path: fields.path("capabilities"))
            if let value = try capabilities.optional("window", as: JSON.self) {
                workDoneProgress = try lenientObject(value, path: capabilities.path("window")).optional("workDoneProgress")
            }
        }
        trace = try fields.optional("trace")
        workDoneToken = try fields.optional("workDoneToken")
    }

    /// The message of the error for an unknown time zone name, which the server checks.
    public static func unknownTimeZone(_ name: String, path: String = "params.initializationOptions.timeZone") -> ResponseError {
        .invalidParams("\(path): unknown time zone '\(name)'; expected an IANA name such as Europe/Paris")
    }

    public var json: JSON {
        var object: JSONObject = ["processId": processId.json]
        var capabilities = JSONObject()
        if let workDoneProgress { capabilities["window"] = ["workDoneProgress": .bool(workDoneProgress)] }
        object["capabilities"] = .object(capabilities)
        if timeZone != nil || store != nil {
            var options = JSONObject()
            options["timeZone"] = timeZone.map(JSON.string)
            options["store"] = store.map(JSON.string)
            object["initializationOptions"] = .object(options)
        }
        object["trace"] = trace?.json
        object["workDoneToken"] = workDoneToken?.json
        return .object(object)
    }

    public static let schema = TypeSchema.object(
        "Initialize", doc: "initialize params: LSP's InitializeParams; unknown members are ignored.", [
            .optional("processId", .integer, nullable: true, "The client's process id; null: none."),
            .optional("capabilities", capabilitiesSchema.reference, "The client's capabilities; taskls reads window.workDoneProgress."),
            .optional("initializationOptions", optionsSchema.reference, nullable: true, "taskls's options; null or [] (Lua's {}): none."),
            .optional("trace", Trace.schema.reference, "How much the client wants traced."),
            .optional("workDoneToken", .oneOf([.integer, .string]), "A token for reporting the initialization's progress."),
        ], ignoresUnknownFields: true)

    /// `initializationOptions`.
    public static let optionsSchema = TypeSchema.object(
        "InitializationOptions", doc: "taskls's initialization options; unknown members are ignored.", [
            .optional("timeZone", .string, "The client's IANA time zone (Europe/Paris), which decides what today is; default: the server's local zone. An unknown name is refused."),
            .optional("store", .string, "The store directory (a non-empty path), used unless the command line (--store) or TASKLS_STORE chose one."),
        ], ignoresUnknownFields: true)

    /// `capabilities` (LSP's `ClientCapabilities`).
    public static let capabilitiesSchema = TypeSchema.object(
        "ClientCapabilities", doc: "LSP's ClientCapabilities; taskls reads window only, other members are ignored.", [
            .optional("window", windowCapabilitiesSchema.reference, "Window capabilities."),
        ], ignoresUnknownFields: true)

    /// `capabilities.window`.
    public static let windowCapabilitiesSchema = TypeSchema.object(
        "WindowClientCapabilities", doc: "LSP's window capabilities; other members are ignored.", [
            .optional("workDoneProgress", .boolean, "Whether the client shows work done progress."),
        ], ignoresUnknownFields: true)
}

/// An object member that a Lua client may have written as `[]` when it is empty.
private func lenientObject(_ json: JSON, path: String) throws(ResponseError) -> ObjectReader {
    if case .array(let elements) = json, elements.isEmpty { return try ObjectReader(json: .object([:]), path: path) }
    return try ObjectReader(json: json, path: path)
}

/// What `initialize` answers: the server's capabilities and its name and version.
public struct InitializeResult: ProtocolValue, Hashable {
    /// What the server can do.
    public var capabilities: ServerCapabilities
    /// Its name and version.
    public var serverInfo: ServerInfo

    /// Makes the result.
    public init(capabilities: ServerCapabilities, serverInfo: ServerInfo) {
        self.capabilities = capabilities
        self.serverInfo = serverInfo
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        capabilities = try fields.required("capabilities")
        serverInfo = try fields.required("serverInfo")
    }

    public var json: JSON { ["capabilities": capabilities.json, "serverInfo": serverInfo.json] }

    public static let schema = TypeSchema.object("InitializeResult", doc: "What initialize answers.", [
        .required("capabilities", ServerCapabilities.schema.reference, "What the server can do."),
        .required("serverInfo", ServerInfo.schema.reference, "Its name and version."),
    ])
}
