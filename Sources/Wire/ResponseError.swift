/// JSON-RPC error codes and the error value every failure at the wire boundary becomes.

/// A JSON-RPC error code: an open set, with the codes JSON-RPC, LSP and taskls use as constants.
public struct ErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The code's number.
    public var rawValue: Int
    /// The code with this number (any number: the set is open).
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The body is not valid JSON (or not UTF-8), or the framing around it is broken.
    public static let parseError = ErrorCode(rawValue: -32700)
    /// The JSON is not a valid request: wrong envelope, a batch, or a request after `shutdown`.
    public static let invalidRequest = ErrorCode(rawValue: -32600)
    /// No such method.
    public static let methodNotFound = ErrorCode(rawValue: -32601)
    /// The params are missing a field or a field has the wrong type or value.
    public static let invalidParams = ErrorCode(rawValue: -32602)
    /// The server failed in a way that is its own fault.
    public static let internalError = ErrorCode(rawValue: -32603)
    /// A request arrived before `initialize`.
    public static let serverNotInitialized = ErrorCode(rawValue: -32002)
    /// The client cancelled the request before it was answered.
    public static let requestCancelled = ErrorCode(rawValue: -32800)
    /// The request addressed rows by index against a view version that has moved on.
    public static let contentModified = ErrorCode(rawValue: -32801)
    /// The request was valid but could not be carried out; `data.reason` says why.
    public static let requestFailed = ErrorCode(rawValue: -32803)

    public var description: String { String(rawValue) }
}

/// A JSON-RPC error: what every failed request is answered with.
public struct ResponseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure.
    public var code: ErrorCode
    /// One line that names what was wrong (a field's path, a method, a byte offset).
    public var message: String
    /// Machine-readable details (`reason`, `ids`, `version`), when there are any.
    public var data: JSON?

    /// An error with `code`, `message` and optional `data`.
    public init(_ code: ErrorCode, _ message: String, data: JSON? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    /// `-32602` with a message that names the field, e.g. `params.title: must not be empty`.
    public static func invalidParams(_ message: String) -> ResponseError {
        ResponseError(.invalidParams, message)
    }

    /// `-32803` with `data.reason`, a stable machine-readable word a client can branch on.
    public static func requestFailed(reason: String, _ message: String, data: JSONObject = [:]) -> ResponseError {
        var object = data
        object["reason"] = .string(reason)
        return ResponseError(.requestFailed, message, data: .object(object))
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
