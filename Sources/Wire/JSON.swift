/// The JSON value model the whole wire layer speaks: parsed from bytes by `JSONParser`,
/// written back by `JSONSerializer`, converted to typed params by `ObjectReader`.

/// One JSON value (RFC 8259).
///
/// Numbers keep integer exactness: a number literal with no fraction and no exponent that fits
/// in `Int64` is `.integer`; every other number is `.double`. Objects keep their members in
/// document order, so what the server writes is deterministic and readable.
public enum JSON: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    case array([JSON])
    case object(JSONObject)
}

/// A JSON object: members in insertion order.
///
/// Lookup is a linear scan, which beats hashing for the handful of members a protocol
/// message has. When a key occurs more than once (RFC 8259 leaves that to the reader),
/// lookup sees the last occurrence, as most parsers do.
public struct JSONObject: Sendable, Hashable, ExpressibleByDictionaryLiteral {
    /// The members in document order; keys may repeat.
    public var members: [(key: String, value: JSON)]

    /// An empty object.
    public init() { members = [] }

    /// An object with these members, in this order.
    public init(_ members: [(key: String, value: JSON)]) { self.members = members }

    public init(dictionaryLiteral elements: (String, JSON)...) {
        members = elements.map { (key: $0.0, value: $0.1) }
    }

    /// The value of the last member named `key`; setting appends or replaces that member,
    /// setting `nil` removes every member named `key`.
    /// - Complexity: O(number of members).
    public subscript(key: String) -> JSON? {
        get {
            var index = members.count - 1
            while index >= 0 {
                if members[index].key == key { return members[index].value }
                index -= 1
            }
            return nil
        }
        set {
            if let newValue {
                if let index = members.lastIndex(where: { $0.key == key }) {
                    members[index].value = newValue
                } else {
                    members.append((key: key, value: newValue))
                }
            } else {
                members.removeAll { $0.key == key }
            }
        }
    }

    /// The member names in document order.
    public var keys: [String] { members.map(\.key) }

    /// Whether the object has no members.
    public var isEmpty: Bool { members.isEmpty }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.members.count == rhs.members.count else { return false }
        for (left, right) in zip(lhs.members, rhs.members) where left.key != right.key || left.value != right.value {
            return false
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(members.count)
        for member in members {
            hasher.combine(member.key)
            hasher.combine(member.value)
        }
    }
}

extension JSON: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSON)...) {
        self = .object(JSONObject(elements.map { (key: $0.0, value: $0.1) }))
    }
}

extension JSON {
    /// The member `key` of an object, or `nil` for a missing member or a non-object.
    public subscript(key: String) -> JSON? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// A short name of the value's JSON type, for error messages ("a string", "an array").
    public var typeDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer: "an integer"
        case .double(let value) where value.isOutOfIntegerRange: "an integer out of range (beyond ±2^63)"
        case .double: "a number with a fraction or exponent"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

extension Double {
    /// Whether the value is a whole number too large in magnitude for `Int64` (`2^63` and beyond): the
    /// parser reads integer literals out of `Int64`'s range as doubles, and errors must say "out of
    /// range", not "a number".
    public var isOutOfIntegerRange: Bool {
        isFinite && rounded() == self && magnitude >= 9_223_372_036_854_775_808
    }
}
