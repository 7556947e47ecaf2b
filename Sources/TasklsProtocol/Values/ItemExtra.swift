/// A field of another tool an imported item keeps: `{"key": "format:name", "value": TEXT}`.

import Wire

/// A field taskls has no place for, kept on an imported item so that an export gives it back (read-only: no request
/// sets it). The key names the format and the field (`taskwarrior:wait`, `ical:X-APPLE-SORT-ORDER`, `todotxt:t`), the
/// value is the field as its format writes it.
public struct ItemExtra: ProtocolValue, Hashable {
    /// `format:name`: a format of letters a to z, a colon, the field's name; at most 200 characters.
    public var key: String
    /// The field's value as its format writes it; at most 100,000 characters.
    public var value: String

    /// Makes an extra.
    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        key = try fields.required("key")
        value = try fields.required("value")
    }

    public var json: JSON { ["key": .string(key), "value": .string(value)] }

    public static let schema = TypeSchema.object("ItemExtra", doc: "A field of another tool an imported item keeps for export.", [
        .required("key", .string, "format:name: the format (letters a to z: taskwarrior, ical, todotxt) and the field's name; at most 200 characters."),
        .required("value", .string, "The field's value as its format writes it; at most 100,000 characters."),
    ])
}
