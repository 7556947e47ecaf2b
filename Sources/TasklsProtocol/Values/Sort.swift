/// A view's order: a field and a direction.

import Wire

/// The field a view is ordered by.
public enum SortField: String, CaseIterable, ProtocolValue, Hashable {
    /// The list's own order (a smart group: the lists' order, then each list's); the only order rows
    /// can be dragged in.
    case manual
    /// The title, case- and diacritic-insensitive.
    case title
    /// The due date; items without one come last in both directions.
    case due
    /// The priority: none, low, medium, high.
    case priority
    /// The creation time.
    case created
    /// The last modification time.
    case modified

    public init(json: JSON, path: String) throws(ResponseError) {
        self = try named(json, path: path) { "unknown sort '\($0)'; expected one of \(names(SortField.self))" }
    }

    public var json: JSON { .string(rawValue) }

    public static let schema = TypeSchema.enumeration("SortField", doc: "The field a view is ordered by.", [
        .init("manual", "The list's own order (a smart group: the lists' order, then each list's); the only order rows can be dragged in."),
        .init("title", "The title, case- and diacritic-insensitive."),
        .init("due", "The due date; items without one come last in both directions."),
        .init("priority", "The priority; ascending: none, low, medium, high."),
        .init("created", "The creation time."),
        .init("modified", "The last modification time."),
    ])
}

/// Ascending or descending.
public enum SortDirection: String, CaseIterable, ProtocolValue, Hashable {
    /// Smallest first (the default).
    case ascending
    /// Largest first; ties still ascend.
    case descending

    public init(json: JSON, path: String) throws(ResponseError) {
        self = try named(json, path: path) { "expected ascending or descending, got '\($0)'" }
    }

    public var json: JSON { .string(rawValue) }

    public static let schema = TypeSchema.enumeration("SortDirection", doc: "The direction of a sort's field.", [
        .init("ascending", "Smallest first (the default)."),
        .init("descending", "Largest first; ties are still broken in ascending manual order, then id."),
    ])
}

/// `{"by": FIELD, "direction": "ascending" | "descending"}`: a total, stable order (ties broken by
/// manual order, then by id, both ascending).
public struct Sort: ProtocolValue, Hashable {
    /// The field ordered by (`by` on the wire).
    public var field: SortField
    /// The field's direction; absent reads as ascending, and is always written.
    public var direction: SortDirection

    /// Makes a sort.
    public init(_ field: SortField, _ direction: SortDirection = .ascending) {
        self.field = field
        self.direction = direction
    }

    /// The manual order, ascending: a new view's sort when the client gives none.
    public static let manual = Sort(.manual)

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        field = try fields.required("by")
        direction = try fields.optional("direction") ?? .ascending
    }

    public var json: JSON { ["by": field.json, "direction": direction.json] }

    public static let schema = TypeSchema.object("Sort", doc: "A view's order: total and stable.", [
        .required("by", SortField.schema.reference, "The field."),
        .optional("direction", SortDirection.schema.reference, "The field's direction; default ascending (always written by the server)."),
    ])
}
