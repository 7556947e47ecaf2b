/// Typed conversion of params out of JSON, in one place: every error names the field's path.

/// A value that can be read out of JSON, with errors that name where it was read from.
public protocol JSONDecodable: SendableMetatype {
    /// Reads the value from `json`; `path` (such as `params.window.start`) names it in errors.
    init(json: JSON, path: String) throws(ResponseError)
}

/// A value that can be written as JSON.
public protocol JSONEncodable {
    /// The value as JSON.
    var json: JSON { get }
}

/// Reads the members of one JSON object (params, or a result a client reads), itself `JSONDecodable` for types
/// that read an object member by member: every accessor either returns a typed
/// value or throws `-32602` with a message like `params.title: expected a string, got null`.
public struct ObjectReader: Sendable, JSONDecodable {
    /// The object being read.
    public let object: JSONObject
    /// Where the object sits in the message, for error messages.
    public let path: String

    /// Reads `params`, which must be an object or absent (absent reads as an empty object).
    public init(_ params: JSON?, path: String = "params") throws(ResponseError) {
        switch params {
        case nil: object = JSONObject()
        case .object(let object)?: self.object = object
        case let other?: throw .invalidParams("\(path): expected an object, got \(other.typeDescription)")
        }
        self.path = path
    }

    /// Reads `json` as an object found at `path`.
    public init(json: JSON, path: String) throws(ResponseError) {
        try self.init(Optional(json), path: path)
    }

    /// The path of the member `key`.
    public func path(_ key: String) -> String { path + "." + key }

    /// Whether the member is present (`null` counts as present).
    public func contains(_ key: String) -> Bool { object[key] != nil }

    /// A required member.
    public func required<Value: JSONDecodable>(_ key: String, as type: Value.Type = Value.self) throws(ResponseError) -> Value {
        guard let value = object[key] else { throw .invalidParams("\(path(key)): missing") }
        return try Value(json: value, path: path(key))
    }

    /// An optional member: absent reads as `nil`; `null` is refused like any value of the wrong
    /// type (`params.list: expected a string, got null`), since `null` means something only where
    /// the protocol says so.
    public func optional<Value: JSONDecodable>(_ key: String, as type: Value.Type = Value.self) throws(ResponseError) -> Value? {
        guard let value = object[key] else { return nil }
        return try Value(json: value, path: path(key))
    }

    /// An optional member whose `null` the protocol defines as the same as absent (`before: null`
    /// for "at the end", `due: null` on a new item, `filter: null` for "everything"): both read as
    /// `nil`. Use it only for a member the protocol gives that meaning; every other optional
    /// member is read with `optional`, which refuses `null`.
    public func nullable<Value: JSONDecodable>(_ key: String, as type: Value.Type = Value.self) throws(ResponseError) -> Value? {
        guard let value = object[key], value != .null else { return nil }
        return try Value(json: value, path: path(key))
    }

    /// A member that distinguishes absent (leave alone), `null` (clear) and a value (set).
    public func patch<Value: JSONDecodable>(_ key: String, as type: Value.Type = Value.self) throws(ResponseError) -> Patch<Value> {
        switch object[key] {
        case nil: return .unchanged
        case .null?: return .cleared
        case let value?: return .set(try Value(json: value, path: path(key)))
        }
    }

    /// A required member that is an object.
    public func nested(_ key: String) throws(ResponseError) -> ObjectReader {
        guard let value = object[key] else { throw .invalidParams("\(path(key)): missing") }
        return try ObjectReader(json: value, path: path(key))
    }

    /// Refuses members other than `known`, so a misspelt field is not silently ignored.
    public func rejectUnknown(_ known: Set<String>) throws(ResponseError) {
        // The members themselves, not `keys`: no array is made for the (usual) object with no unknown member.
        for member in object.members where !known.contains(member.key) {
            let key = member.key
            if known.isEmpty { throw .invalidParams("\(path(key)): unknown field; this method takes no params") }
            throw .invalidParams("\(path(key)): unknown field; expected one of \(known.sorted().joined(separator: ", "))")
        }
    }
}

/// How a patch treats one field: leave it, clear it, or set it.
public enum Patch<Value>: Sendable where Value: Sendable {
    case unchanged
    case cleared
    case set(Value)
}

extension Patch: Equatable where Value: Equatable {}

private func mismatch(_ path: String, _ expected: String, _ json: JSON) -> ResponseError {
    .invalidParams("\(path): expected \(expected), got \(json.typeDescription)")
}

extension String: JSONDecodable, JSONEncodable {
    public init(json: JSON, path: String) throws(ResponseError) {
        guard case .string(let value) = json else { throw mismatch(path, "a string", json) }
        self = value
    }
    public var json: JSON { .string(self) }
}

extension Bool: JSONDecodable, JSONEncodable {
    public init(json: JSON, path: String) throws(ResponseError) {
        guard case .bool(let value) = json else { throw mismatch(path, "a boolean", json) }
        self = value
    }
    public var json: JSON { .bool(self) }
}

extension Int: JSONDecodable, JSONEncodable {
    public init(json: JSON, path: String) throws(ResponseError) {
        switch json {
        case .integer(let value):
            guard let exact = Int(exactly: value) else { throw .invalidParams("\(path): \(value) is out of range") }
            self = exact
        case .double(let value) where value.rounded() == value && abs(value) < 9_007_199_254_740_992:
            self = Int(value)
        case .double(let value) where value.isOutOfIntegerRange:
            throw .invalidParams("\(path): out of range; integers must lie within -2^63 ..< 2^63")
        case .double(let value) where value.rounded() == value:
            throw .invalidParams("\(path): \(value) is not exact; write integers from 2^53 on without a fraction or exponent")
        default:
            throw mismatch(path, "an integer", json)
        }
    }
    public var json: JSON { .integer(Int64(self)) }
}

extension Int64: JSONDecodable, JSONEncodable {
    public init(json: JSON, path: String) throws(ResponseError) {
        self = Int64(try Int(json: json, path: path))
    }
    public var json: JSON { .integer(self) }
}

extension Double: JSONDecodable, JSONEncodable {
    public init(json: JSON, path: String) throws(ResponseError) {
        switch json {
        case .integer(let value): self = Double(value)
        case .double(let value): self = value
        default: throw mismatch(path, "a number", json)
        }
    }
    public var json: JSON { .double(self) }
}

extension JSON: JSONDecodable, JSONEncodable {
    public init(json: JSON, path: String) throws(ResponseError) { self = json }
    public var json: JSON { self }
}

extension Array: JSONDecodable where Element: JSONDecodable {
    public init(json: JSON, path: String) throws(ResponseError) {
        guard case .array(let elements) = json else { throw mismatch(path, "an array", json) }
        var result: [Element] = []
        result.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            result.append(try Element(json: element, path: "\(path)[\(index)]"))
        }
        self = result
    }
}

extension Array: JSONEncodable where Element: JSONEncodable {
    public var json: JSON { .array(map(\.json)) }
}

extension Optional: JSONEncodable where Wrapped: JSONEncodable {
    public var json: JSON { self?.json ?? .null }
}
