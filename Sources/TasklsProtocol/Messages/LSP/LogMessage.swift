/// `window/logMessage` and `window/showMessage` (notifications, server → client): the server's log in the
/// editor, and what needs the user's attention.

import Wire

/// LSP's `MessageType`.
public enum MessageType: Int, CaseIterable, ProtocolValue, Hashable {
    case error = 1, warning = 2, info = 3, log = 4

    public init(json: JSON, path: String) throws(ResponseError) {
        let number = try Int(json: json, path: path)
        guard let type = MessageType(rawValue: number) else { throw .invalidParams("\(path): expected 1, 2, 3 or 4, got \(number)") }
        self = type
    }

    public var json: JSON { .integer(Int64(rawValue)) }

    public static let schema = TypeSchema(
        name: "MessageType", doc: "LSP's MessageType: 1 error, 2 warning, 3 info, 4 log.",
        shape: .value(.integer))
}

/// `window/logMessage` params: a line of the server's log (what it did with the store), sent as the client's
/// trace setting asks.
public struct LogMessage: NotificationMessage, Hashable {
    public static let method = "window/logMessage"

    public var type: MessageType
    public var message: String

    public init(type: MessageType, message: String) {
        self.type = type
        self.message = message
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        type = try fields.required("type")
        message = try fields.required("message")
    }

    public var json: JSON { ["type": type.json, "message": .string(message)] }

    public static let schema = TypeSchema.object("LogMessage", doc: "window/logMessage params.", [
        .required("type", MessageType.schema.reference, "How serious it is."),
        .required("message", .string, "The log line."),
    ])
}

/// `window/showMessage` params: what needs the user's attention (the store failed to open or to write).
public struct ShowMessage: NotificationMessage, Hashable {
    public static let method = "window/showMessage"

    public var type: MessageType
    public var message: String

    public init(type: MessageType, message: String) {
        self.type = type
        self.message = message
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        type = try fields.required("type")
        message = try fields.required("message")
    }

    public var json: JSON { ["type": type.json, "message": .string(message)] }

    public static let schema = TypeSchema.object("ShowMessage", doc: "window/showMessage params.", [
        .required("type", MessageType.schema.reference, "How serious it is (1: an error)."),
        .required("message", .string, "What happened, starting with taskls:."),
    ])
}
