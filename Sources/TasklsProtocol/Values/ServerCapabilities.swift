/// What `initialize` answers with: the server's capabilities, name and version.

import Wire

/// The server's capabilities: taskls's own, under `taskls`, and the same again under `experimental.taskls`, where
/// typed LSP clients (which drop the members of `ServerCapabilities` they do not know) keep them.
public struct ServerCapabilities: ProtocolValue, Hashable {
    /// The taskls protocol the server speaks.
    public var taskls: TasklsCapabilities
    /// The same, under `experimental` (the server always writes it; a reader accepts its absence).
    public var experimental: ExperimentalCapabilities?

    /// Makes the capabilities, written in both places.
    public init(taskls: TasklsCapabilities) {
        self.taskls = taskls
        experimental = ExperimentalCapabilities(taskls: taskls)
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        taskls = try fields.required("taskls")
        experimental = try fields.optional("experimental")
    }

    public var json: JSON {
        var object: JSONObject = ["taskls": taskls.json]
        object["experimental"] = experimental?.json
        return .object(object)
    }

    public static let schema = TypeSchema.object("ServerCapabilities", doc: "The server's capabilities.", [
        .required("taskls", TasklsCapabilities.schema.reference, "The taskls protocol the server speaks."),
        .optional("experimental", ExperimentalCapabilities.schema.reference,
                  "The same under experimental.taskls, for typed LSP clients that drop unknown capabilities; always written."),
    ])
}

/// LSP's `experimental` capabilities as taskls fills them: its own, under `taskls`.
public struct ExperimentalCapabilities: ProtocolValue, Hashable {
    /// Equal to `ServerCapabilities.taskls`.
    public var taskls: TasklsCapabilities

    public init(taskls: TasklsCapabilities) { self.taskls = taskls }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        taskls = try fields.required("taskls")
    }

    public var json: JSON { ["taskls": taskls.json] }

    public static let schema = TypeSchema.object("ExperimentalCapabilities", doc: "taskls's capabilities under LSP's experimental.", [
        .required("taskls", TasklsCapabilities.schema.reference, "The same object as ServerCapabilities.taskls."),
    ])
}

/// The taskls protocol a server speaks: its version, and every method it has.
public struct TasklsCapabilities: ProtocolValue, Hashable {
    /// The protocol's version (1).
    public var protocolVersion: Int
    /// Every request method beyond the LSP lifecycle, sorted.
    public var requests: [String]
    /// Every notification the server may send, sorted.
    public var notifications: [String]

    /// Makes the capabilities.
    public init(protocolVersion: Int, requests: [String], notifications: [String]) {
        self.protocolVersion = protocolVersion
        self.requests = requests
        self.notifications = notifications
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        protocolVersion = try fields.required("protocolVersion")
        requests = try fields.required("requests")
        notifications = try fields.required("notifications")
    }

    public var json: JSON {
        ["protocolVersion": .integer(Int64(protocolVersion)), "requests": requests.json, "notifications": notifications.json]
    }

    public static let schema = TypeSchema.object("TasklsCapabilities", doc: "The taskls protocol a server speaks.", [
        .required("protocolVersion", .integer, "The protocol's version: 1."),
        .required("requests", .array(.string), "Every request method beyond the LSP lifecycle, sorted."),
        .required("notifications", .array(.string), "Every notification the server may send, sorted."),
    ])
}

/// The server's name and version.
public struct ServerInfo: ProtocolValue, Hashable {
    /// `taskls`.
    public var name: String
    /// Its version (`0.1.0`), when it says.
    public var version: String?

    /// Makes the info.
    public init(name: String, version: String? = nil) {
        self.name = name
        self.version = version
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        name = try fields.required("name")
        version = try fields.optional("version")
    }

    public var json: JSON {
        var object: JSONObject = ["name": .string(name)]
        object["version"] = version.map(JSON.string)
        return .object(object)
    }

    public static let schema = TypeSchema.object("ServerInfo", doc: "The server's name and version.", [
        .required("name", .string, "The server's name: taskls."),
        .optional("version", .string, "Its version."),
    ])
}
