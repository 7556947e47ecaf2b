/// The core of the protocol module: what a request, a notification and a protocol value are.

import Wire

/// A type of the taskls protocol: read from JSON with errors that name the field's path, written as
/// JSON exactly as the server writes it, and described by a schema (`protocol.json` is generated
/// from these, and an object's decoder accepts exactly the members its schema lists).
public protocol ProtocolValue: JSONDecodable, JSONEncodable, Sendable, Equatable {
    /// The shape of the type's JSON.
    static var schema: TypeSchema { get }
    /// The whole answer to request `id` with this value as its result, written straight into bytes, when the type
    /// writes itself (`JSONWritable`: byte for byte what writing `Message.response(id:result: json)` gives); nil
    /// for a type answered through its `json` (the default).
    func writtenAnswer(to id: RequestID) -> [UInt8]?
}

extension ProtocolValue {
    /// Nil: the value is answered through its `json`.
    public func writtenAnswer(to id: RequestID) -> [UInt8]? { nil }
}

extension ProtocolValue where Self: JSONWritable {
    /// The answer to `id`, written straight into bytes (`JSONSerializer.writeResponse`).
    /// - Complexity: O(length of the output).
    public func writtenAnswer(to id: RequestID) -> [UInt8]? {
        var writer = JSONWriter(capacity: 4096)
        JSONSerializer.writeResponse(id: id, result: self, into: &writer)
        return writer.bytes
    }
}

/// A request: this type is its params; `Result` is what it answers.
///
/// Params are read with path `"params"`; absent params are read as `{}` by the caller.
public protocol RequestMessage: ProtocolValue {
    /// What the request answers.
    associatedtype Result: ProtocolValue
    /// The method name, such as `items/create`.
    static var method: String { get }
}

/// A notification (either direction): this type is its params.
public protocol NotificationMessage: ProtocolValue {
    /// The method name, such as `view/changed`.
    static var method: String { get }
}

extension NotificationMessage {
    /// The notification as a message, with these params.
    public var message: Message { .notification(method: Self.method, params: json) }
}

extension RequestMessage {
    /// The request as a message with `id`, with these params.
    public func message(id: RequestID) -> Message { .request(id: id, method: Self.method, params: json) }
}

/// The result of a request that answers `null` (`shutdown`, `view/close`).
public struct NullResult: ProtocolValue {
    /// The `null` result.
    public init() {}

    /// Reads `null`; anything else is refused.
    public init(json: JSON, path: String) throws(ResponseError) {
        guard json == .null else { throw .invalidParams("\(path): expected null, got \(json.typeDescription)") }
    }

    public var json: JSON { .null }

    public static let schema = TypeSchema(
        name: "NullResult", doc: "The result of a request that answers `null`.", shape: .null)
}

/// The result of a request that answers `{}` (`server/ping`, `debug/continueLoading`).
public struct EmptyResult: ProtocolValue {
    /// The `{}` result.
    public init() {}

    /// Reads `{}`; any member is refused.
    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        if let key = fields.object.keys.first { throw .invalidParams("\(fields.path(key)): unknown field; expected an empty object") }
    }

    public var json: JSON { .object([:]) }

    public static let schema = TypeSchema.object(
        "EmptyResult", doc: "The result of a request that answers an empty object.", [])
}
