/// Why a view with no rows is empty.

import Wire

/// Why a ready view's `count` is 0, so a pane can say "No tasks" or "No matches".
public enum EmptyReason: String, CaseIterable, ProtocolValue, Hashable {
    /// Its source (the list or smart group) has no items.
    case noItems
    /// Its source has items, but the filter matches none.
    case noMatches

    public init(json: JSON, path: String) throws(ResponseError) {
        self = try named(json, path: path) { "expected noItems or noMatches, got '\($0)'" }
    }

    public var json: JSON { .string(rawValue) }

    public static let schema = TypeSchema.enumeration("EmptyReason", doc: "Why a view is empty.", [
        .init("noItems", "Its source (the list or smart group) has no items."),
        .init("noMatches", "Its source has items, but the filter matches none."),
    ])
}
