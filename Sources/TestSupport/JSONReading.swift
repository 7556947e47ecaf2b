/// Small readers of the JSON a server answers, shared by the tests that look at it untyped.

import Wire

extension JSON {
    /// The string, or nil for any other value.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The value with every object's members sorted by key: JSON objects are unordered, so two values are the same
    /// JSON exactly when their canonical forms are equal.
    public var canonical: JSON {
        switch self {
        case .array(let elements): .array(elements.map(\.canonical))
        case .object(let object):
            .object(JSONObject(object.members.map { (key: $0.key, value: $0.value.canonical) }.sorted { $0.key < $1.key }))
        default: self
        }
    }

    /// Equality as JSON: members compared by name whatever their order.
    /// - Complexity: O(size) when the members are in the same order, else O(size log size).
    public func isCanonicallyEqual(to other: JSON) -> Bool { self == other || canonical == other.canonical }
}
