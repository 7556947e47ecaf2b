/// A row of a view's window as the REPL keeps it: an item or a section header, read from the wire.

import Wire

/// One row of a view's window.
struct Row: Equatable {
    /// `item` or `header`.
    var kind: String
    /// The row's id (`i7` for an item, `s:due:today` for a header).
    var id: String
    /// The item's list id (items only).
    var list: String
    /// The item's title, or the header's.
    var title: String
    var done: Bool
    /// The due as the server spells it (`2026-11-23` or an instant), or nil.
    var due: String?
    /// `none`, `low`, `medium` or `high`.
    var priority: String
    var tags: [String]
    var hasNotes: Bool
    /// A header's item count.
    var count: Int

    /// Whether this is a section header.
    var isHeader: Bool { kind == "header" }

    /// The row in `json`, or nil when it is not shaped like a row.
    init?(_ json: JSON) {
        guard case .string(let kind)? = json["kind"], case .string(let id)? = json["id"] else { return nil }
        self.kind = kind
        self.id = id
        list = json["list"]?.stringValue ?? ""
        title = json["title"]?.stringValue ?? ""
        done = json["done"] == .bool(true)
        due = json["due"]?.stringValue
        priority = json["priority"]?.stringValue ?? "none"
        if case .array(let values)? = json["tags"] { tags = values.compactMap(\.stringValue) } else { tags = [] }
        hasNotes = json["hasNotes"] == .bool(true)
        count = json["count"]?.intValue ?? 0
    }
}

extension JSON {
    /// The string, when this is one.
    var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The integer, when this is one.
    var intValue: Int? {
        if case .integer(let value) = self { return Int(value) }
        return nil
    }

    /// The number, when this is one.
    var doubleValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }

    /// The elements, when this is an array (else none).
    var arrayValue: [JSON] {
        if case .array(let values) = self { return values }
        return []
    }
}
