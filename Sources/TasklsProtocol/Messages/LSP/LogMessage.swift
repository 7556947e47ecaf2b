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

/// What tells `window/logMessage` from `window/showMessage`: the method, and what the message is for.
public protocol WindowMessageKind: Sendable {
    /// The method name.
    static var method: String { get }
    /// The schema's name and documentation.
    static var schemaName: String { get }
    static var schemaDoc: String { get }
}

/// `window/logMessage` or `window/showMessage` params (LSP's `LogMessageParams` / `ShowMessageParams`, the same
/// shape): `{"type": MessageType, "message": TEXT}`.
public struct WindowMessage<Kind: WindowMessageKind>: NotificationMessage, Hashable {
    public static var method: String { Kind.method }

    /// How serious it is.
    public var type: MessageType
    /// The text.
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

    public static var schema: TypeSchema {
        TypeSchema.object(Kind.schemaName, doc: Kind.schemaDoc, [
            .required("type", MessageType.schema.reference, "How serious it is (1 error, 2 warning, 3 info, 4 log)."),
            .required("message", .string, "The text."),
        ])
    }
}

/// `window/logMessage`: a line of the server's log (what it did with the store), sent as the client's trace asks.
public enum LogMessageKind: WindowMessageKind {
    public static let method = "window/logMessage"
    public static let schemaName = "LogMessage"
    public static let schemaDoc = "window/logMessage params: a line of the server's log, sent as the client's trace setting asks."
}

/// `window/showMessage`: what needs the user's attention (the store failed to open or to write).
public enum ShowMessageKind: WindowMessageKind {
    public static let method = "window/showMessage"
    public static let schemaName = "ShowMessage"
    public static let schemaDoc = "window/showMessage params: what needs the user's attention; the message starts with taskls:."
}

/// `window/logMessage` params.
public typealias LogMessage = WindowMessage<LogMessageKind>
/// `window/showMessage` params.
public typealias ShowMessage = WindowMessage<ShowMessageKind>
