/// List, item and view ids: opaque strings with exactly one spelling each (`l3`, `i42`, `v1`).

import Wire

/// Reads an id's raw value from its one spelling: the kind letter, then a decimal number from 1 to
/// 2^64 - 1 with no sign and no leading zero; anything else is refused naming `path`.
private func spelledRawValue(_ json: JSON, path: String, letter: Character, kind: String) throws(ResponseError) -> UInt64 {
    let text = try String(json: json, path: path)
    let digits = text.dropFirst()
    let article = kind == "item" ? "an" : "a"
    guard text.first == letter, digits.first != "0", !digits.isEmpty, digits.allSatisfy({ ("0"..."9").contains($0) }) else {
        throw .invalidParams("\(path): '\(text)' is not \(article) \(kind) id")
    }
    guard let raw = UInt64(digits) else {
        throw .invalidParams("\(path): '\(text)' is out of range; \(kind) ids number from 1 to 2^64 - 1")
    }
    return raw
}

/// The schema of an id kind.
private func idSchema(_ name: String, letter: Character, _ doc: String) -> TypeSchema {
    TypeSchema(name: name, doc: doc, shape: .string(format:
        "'\(letter)' then a decimal number from 1 to 2^64 - 1, with no sign and no leading zero (\(letter)42)"))
}

/// A list's id, spelled `l3` on the wire. Opaque to clients: they echo what the server gave.
public struct ListID: ProtocolValue, Hashable, Comparable, CustomStringConvertible {
    /// The number after the letter; from 1 (an id with raw value 0 has no valid spelling).
    public var rawValue: UInt64

    /// The id with this raw value.
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }

    public init(json: JSON, path: String) throws(ResponseError) {
        rawValue = try spelledRawValue(json, path: path, letter: "l", kind: "list")
    }

    public var json: JSON { .string(description) }
    /// `l` and the raw value in decimal.
    public var description: String { "l" + String(rawValue) }
    public static func < (lhs: ListID, rhs: ListID) -> Bool { lhs.rawValue < rhs.rawValue }

    public static let schema = idSchema("ListID", letter: "l", "A list's id; never reused, even after the list is deleted.")
}

/// An item's id, spelled `i42` on the wire. Opaque to clients: they echo what the server gave.
public struct ItemID: ProtocolValue, Hashable, Comparable, CustomStringConvertible {
    /// The number after the letter; from 1 (an id with raw value 0 has no valid spelling).
    public var rawValue: UInt64

    /// The id with this raw value.
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }

    public init(json: JSON, path: String) throws(ResponseError) {
        rawValue = try spelledRawValue(json, path: path, letter: "i", kind: "item")
    }

    public var json: JSON { .string(description) }
    /// `i` and the raw value in decimal.
    public var description: String { "i" + String(rawValue) }
    public static func < (lhs: ItemID, rhs: ItemID) -> Bool { lhs.rawValue < rhs.rawValue }

    public static let schema = idSchema("ItemID", letter: "i", "An item's id; never reused, even after the item is deleted.")
}

/// An open view's id, spelled `v1` on the wire. Opaque to clients: they echo what the server gave.
public struct ViewID: ProtocolValue, Hashable, Comparable, CustomStringConvertible {
    /// The number after the letter; from 1 (an id with raw value 0 has no valid spelling).
    public var rawValue: UInt64

    /// The id with this raw value.
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }

    public init(json: JSON, path: String) throws(ResponseError) {
        rawValue = try spelledRawValue(json, path: path, letter: "v", kind: "view")
    }

    public var json: JSON { .string(description) }
    /// `v` and the raw value in decimal.
    public var description: String { "v" + String(rawValue) }
    public static func < (lhs: ViewID, rhs: ViewID) -> Bool { lhs.rawValue < rhs.rawValue }

    public static let schema = idSchema("ViewID", letter: "v", "An open view's id; no longer valid once the view is closed.")
}
