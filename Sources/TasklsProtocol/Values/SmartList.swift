/// Smart lists as the server writes them: saved filters over some or all lists, with live counts.

import Wire

/// A smart list's id, spelled `s3` on the wire. Opaque to clients: they echo what the server gave.
public struct SmartListID: ProtocolValue, Hashable, Comparable, CustomStringConvertible {
    /// The number after the letter; from 1 (an id with raw value 0 has no valid spelling).
    public var rawValue: UInt64

    /// The id with this raw value.
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }

    public init(json: JSON, path: String) throws(ResponseError) {
        let text = try String(json: json, path: path)
        let digits = text.dropFirst()
        guard text.first == "s", digits.first != "0", !digits.isEmpty, digits.allSatisfy({ ("0"..."9").contains($0) }) else {
            throw .invalidParams("\(path): '\(text)' is not a smart list id")
        }
        guard let raw = UInt64(digits) else {
            throw .invalidParams("\(path): '\(text)' is out of range; smart list ids number from 1 to 2^64 - 1")
        }
        rawValue = raw
    }

    public var json: JSON { .string(description) }
    /// `s` and the raw value in decimal.
    public var description: String { "s" + String(rawValue) }
    public static func < (lhs: SmartListID, rhs: SmartListID) -> Bool { lhs.rawValue < rhs.rawValue }

    public static let schema = TypeSchema(name: "SmartListID", doc: "A smart list's id; never reused, even after the smart list is deleted.",
                                          shape: .string(format: "'s' then a decimal number from 1 to 2^64 - 1, with no sign and no leading zero (s42)"))
}

/// `{"id": "s1", "name": "Urgent", "color": null, "icon": null, "filter": {...}, "lists": null, "count": 4}`.
public struct SmartList: ProtocolValue, Hashable {
    /// The smart list's id.
    public var id: SmartListID
    /// 1 to 200 characters.
    public var name: String
    /// A free string of at most 64 characters, or nil (written as `null`).
    public var color: String?
    /// A free string of at most 64 characters, or nil (written as `null`).
    public var icon: String?
    /// The items it holds among its source lists (written without members at their defaults).
    public var filter: Filter
    /// Its source lists, ascending: nil (`null`) for every list.
    public var lists: [ListID]?
    /// How many items it holds.
    public var count: Int

    /// Makes a smart list.
    public init(id: SmartListID, name: String, color: String? = nil, icon: String? = nil, filter: Filter = Filter(),
                lists: [ListID]? = nil, count: Int) {
        self.id = id
        self.name = name
        self.color = color
        self.icon = icon
        self.filter = filter
        self.lists = lists
        self.count = count
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        id = try fields.required("id")
        name = try fields.required("name")
        color = try fields.requiredNullable("color")
        icon = try fields.requiredNullable("icon")
        filter = try fields.required("filter")
        lists = try fields.requiredNullable("lists")
        count = try fields.required("count")
    }

    public var json: JSON {
        ["id": id.json, "name": .string(name), "color": color.json, "icon": icon.json, "filter": filter.json,
         "lists": lists.map { $0.json } ?? .null, "count": .integer(Int64(count))]
    }

    public static let schema = TypeSchema.object("SmartList", doc: "A saved smart list with its live count.", [
        .required("id", SmartListID.schema.reference, "The smart list's id."),
        .required("name", .string, "1 to 200 characters, not only white space."),
        .required("color", .string, nullable: true, "A free string of at most 64 characters; null: none."),
        .required("icon", .string, nullable: true, "A free string of at most 64 characters; null: none."),
        .required("filter", Filter.schema.reference, "Which items of its source lists it holds (nothing implied: done items too unless done says otherwise)."),
        .required("lists", .array(ListID.schema.reference), nullable: true, "Its source lists, ascending; null: every list; empty: none (it matches nothing)."),
        .required("count", .integer, "How many items it holds."),
    ])
}
