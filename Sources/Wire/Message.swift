/// The four kinds of JSON-RPC message as one enum, decoded from and encoded to JSON.

#if canImport(Glibc)
import Glibc
#endif

/// A JSON-RPC 2.0 message, as LSP uses them (no batches).
public enum Message: Sendable, Equatable {
    /// A call that expects an answer.
    case request(id: RequestID, method: String, params: JSON?)
    /// A call that expects none.
    case notification(method: String, params: JSON?)
    /// A successful answer.
    case response(id: RequestID, result: JSON)
    /// A failed answer; `id` is `nil` when the request's id could not be read.
    case error(id: RequestID?, ResponseError)

    /// The message as a JSON-RPC object, members in a fixed order.
    public var json: JSON {
        var object: JSONObject = ["jsonrpc": "2.0"]
        switch self {
        case .request(let id, let method, let params):
            object["id"] = id.json
            object["method"] = .string(method)
            if let params { object["params"] = params }
        case .notification(let method, let params):
            object["method"] = .string(method)
            if let params { object["params"] = params }
        case .response(let id, let result):
            object["id"] = id.json
            object["result"] = result
        case .error(let id, let error):
            object["id"] = id?.json ?? .null
            var body: JSONObject = ["code": .integer(Int64(error.code.rawValue)), "message": .string(error.message)]
            if let data = error.data { body["data"] = data }
            object["error"] = .object(body)
        }
        return .object(object)
    }
}

/// Why a body could not be turned into a `Message`, and how to answer it.
public struct MessageDecodingFailure: Error, Sendable, Equatable {
    /// The request's id when it could be read, so the error answer can name it.
    public var id: RequestID?
    /// The error to answer with.
    public var error: ResponseError
    /// Whether the body was a response (those are never answered, only logged).
    public var isResponse: Bool
}

extension Message {
    /// Decodes one JSON-RPC message from a body's bytes.
    ///
    /// Every failure says what was wrong: unparsable JSON is `-32700`; a valid JSON value that
    /// is not a JSON-RPC 2.0 message (a batch, a wrong `jsonrpc`, an id that is an object, a
    /// `method` that is not a string, `params` that are not structured) is `-32600`.
    public static func decode(_ body: UnsafeRawBufferPointer) -> Result<Message, MessageDecodingFailure> {
        if body.isEmpty {
            return .failure(failure(nil, .parseError, "empty message body"))
        }
        do {
            return try JSONParser.parseMessage(body)
        } catch {
            return .failure(failure(nil, .parseError, "parse error: \(error)"))
        }
    }

    /// Decodes one JSON-RPC message from a parsed value.
    /// - Complexity: O(number of members): the members are looked at once.
    public static func decode(_ value: JSON) -> Result<Message, MessageDecodingFailure> {
        guard case .object(let members) = value else {
            if case .array = value {
                return .failure(failure(nil, .invalidRequest, "batch arrays are not supported: LSP sends one message per frame"))
            }
            return .failure(failure(nil, .invalidRequest, "a message must be a JSON object, got \(value.typeDescription)"))
        }
        return decode(Envelope(members))
    }

    /// Decodes one JSON-RPC message from its object's members.
    static func decode(_ object: borrowing Envelope) -> Result<Message, MessageDecodingFailure> {
        if object.method == nil && (object.result != nil || object.error != nil) {
            return decodeResponse(object)
        }
        // Patterns, not `==` on optional values: a comparison would copy both sides of it first.
        var id: RequestID?
        switch object.id {
        case nil, .null?:
            break
        case let idValue?:
            guard let parsed = RequestID(idValue) else {
                return .failure(failure(nil, .invalidRequest, "id must be an integer or a string, got \(idValue.typeDescription)"))
            }
            id = parsed
        }
        guard let version = object.jsonrpc else {
            return .failure(failure(id, .invalidRequest, "jsonrpc: missing; it must be \"2.0\""))
        }
        guard case .string("2.0") = version else {
            return .failure(failure(id, .invalidRequest, "jsonrpc: must be \"2.0\", got \(version.text)"))
        }
        if let methodValue = object.method {
            guard case .string(let method) = methodValue else {
                return .failure(failure(id, .invalidRequest, "method: must be a string, got \(methodValue.typeDescription)"))
            }
            // Several clients send `"params": null` for "no params"; read it as absent.
            let params: JSON?
            switch object.params {
            case nil, .null?: params = nil
            case .object?, .array?: params = object.params
            case let other?:
                return .failure(failure(id, .invalidRequest, "params: must be an object or an array, got \(other.typeDescription)"))
            }
            if object.result != nil || object.error != nil {
                return .failure(failure(id, .invalidRequest, "a message cannot have both method and result or error"))
            }
            if let id { return .success(.request(id: id, method: method, params: params)) }
            if case .null? = object.id {
                return .failure(failure(nil, .invalidRequest, "id: must be an integer or a string, got null"))
            }
            return .success(.notification(method: method, params: params))
        }
        return .failure(failure(id, .invalidRequest, "a message needs a method, a result or an error"))
    }

    /// Decodes a response (no `method`; a `result` or an `error`). Responses are never
    /// answered, so every failure here is marked as one.
    private static func decodeResponse(_ object: borrowing Envelope) -> Result<Message, MessageDecodingFailure> {
        let id = object.id.flatMap(RequestID.init)
        guard object.jsonrpc == .string("2.0") else {
            return .failure(failure(id, .invalidRequest, "jsonrpc: a response must have \"2.0\"", isResponse: true))
        }
        if let result = object.result {
            guard let id else {
                return .failure(failure(nil, .invalidRequest, "a response needs an id", isResponse: true))
            }
            if object.error != nil {
                return .failure(failure(id, .invalidRequest, "a response cannot have both result and error", isResponse: true))
            }
            return .success(.response(id: id, result: result))
        }
        if let errorValue = object.error {
            guard case .object(let body) = errorValue, case .integer(let code)? = body["code"],
                case .string(let message)? = body["message"]
            else {
                return .failure(failure(id, .invalidRequest, "error: must be an object with an integer code and a string message", isResponse: true))
            }
            let error = ResponseError(ErrorCode(rawValue: Int(truncatingIfNeeded: code)), message, data: body["data"])
            return .success(.error(id: id, error))
        }
        return .failure(failure(id, .invalidRequest, "a response needs a result or an error", isResponse: true))
    }

    private static func failure(
        _ id: RequestID?, _ code: ErrorCode, _ message: String, isResponse: Bool = false
    ) -> MessageDecodingFailure {
        MessageDecodingFailure(id: id, error: ResponseError(code, message), isResponse: isResponse)
    }
}

/// The members of a message object that JSON-RPC names (the last of each name counts, as for `JSONObject`'s
/// subscript); the others are ignored.
struct Envelope {
    var jsonrpc: JSON?
    var id: JSON?
    var method: JSON?
    var params: JSON?
    var result: JSON?
    var error: JSON?

    init() {}

    /// - Complexity: O(number of members).
    init(_ object: JSONObject) {
        for member in object.members {
            var key = member.key
            switch key.withUTF8({ Name($0.baseAddress, count: $0.count) }) {
            case .jsonrpc: jsonrpc = member.value
            case .id: id = member.value
            case .method: method = member.value
            case .params: params = member.value
            case .result: result = member.value
            case .error: error = member.value
            case nil: continue
            }
        }
    }

    /// A member JSON-RPC names.
    enum Name {
        case jsonrpc, id, method, params, result, error

        /// The name whose UTF-8 is the `count` bytes at `bytes`, or nil for any other key.
        /// - Complexity: O(1): by length first, then at most two comparisons of at most 7 bytes.
        init?(_ bytes: UnsafePointer<UInt8>?, count: Int) {
            guard let bytes else { return nil }
            func equals(_ name: StaticString) -> Bool { memcmp(bytes, name.utf8Start, count) == 0 }
            switch count {
            case 2 where equals("id"): self = .id
            case 5 where equals("error"): self = .error
            case 6 where equals("method"): self = .method
            case 6 where equals("params"): self = .params
            case 6 where equals("result"): self = .result
            case 7 where equals("jsonrpc"): self = .jsonrpc
            default: return nil
            }
        }
    }
}

