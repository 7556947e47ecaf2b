/// Shared reading and writing helpers of the protocol types: schema-checked members, required
/// `null`able members, non-negative counters, id lists and string-named enumerations.

import Wire

extension ObjectReader {
    /// Refuses members that `schema` does not list, with `ObjectReader.rejectUnknown`'s messages
    /// (`params.colour: unknown field; expected one of ...`).
    func rejectUnknown(_ schema: TypeSchema) throws(ResponseError) {
        try rejectUnknown(schema.fieldNames)
    }

    /// A member that must be present, whose `null` reads as nil (`before` of `lists/move`, `color`
    /// of a list in a result).
    func requiredNullable<Value: JSONDecodable>(_ key: String, as type: Value.Type = Value.self) throws(ResponseError) -> Value? {
        guard contains(key) else { throw .invalidParams("\(path(key)): missing") }
        return try nullable(key)
    }

    /// A required integer that counts up from 0 (a revision, a version, a sequence, a byte count).
    func counter(_ key: String) throws(ResponseError) -> UInt64 {
        let value: Int64 = try required(key)
        guard value >= 0 else { throw .invalidParams("\(path(key)): must not be negative") }
        return UInt64(value)
    }

    /// A required integer that must not be negative (a count of subtasks, a depth).
    func nonNegative(_ key: String) throws(ResponseError) -> Int {
        let value: Int = try required(key)
        guard value >= 0 else { throw .invalidParams("\(path(key)): must not be negative") }
        return value
    }

    /// A list of ids: a non-empty array, at most `ProtocolLimits.idsPerRequest` long, naming no id twice.
    func identifiers<ID: JSONDecodable & Hashable>(_ key: String) throws(ResponseError) -> [ID] {
        let ids: [ID] = try required(key)
        guard !ids.isEmpty else { throw .invalidParams("\(path(key)): must not be empty") }
        guard ids.count <= ProtocolLimits.idsPerRequest else {
            throw .invalidParams("\(path(key)): at most \(ProtocolLimits.idsPerRequest) ids per request")
        }
        guard Set(ids).count == ids.count else { throw .invalidParams("\(path(key)): lists an id twice") }
        return ids
    }
}

extension UInt64 {
    /// The counter as a JSON integer (counters never reach 2^63).
    var json: JSON { .integer(Int64(clamping: self)) }
}

extension Patch where Value: JSONEncodable {
    /// Writes the patch as member `key` of `object`: left out when unchanged, `null` when cleared.
    func write(_ key: String, into object: inout JSONObject) {
        switch self {
        case .unchanged: break
        case .cleared: object[key] = .null
        case .set(let value): object[key] = value.json
        }
    }
}

/// The case of a string-named enumeration that `json` names, or the error `unknown` makes of the text.
func named<Value: RawRepresentable>(
    _ json: JSON, path: String, unknown: (String) -> String
) throws(ResponseError) -> Value where Value.RawValue == String {
    let text = try String(json: json, path: path)
    guard let value = Value(rawValue: text) else { throw .invalidParams("\(path): \(unknown(text))") }
    return value
}

/// The names of an enumeration's cases, joined by ", " (for "expected one of ..." messages).
func names<Value: RawRepresentable & CaseIterable>(_ type: Value.Type) -> String where Value.RawValue == String {
    Value.allCases.map(\.rawValue).joined(separator: ", ")
}
