/// An item's priority: none, low, medium or high.

import Wire

/// How important an item is; ascending order goes none, low, medium, high.
public enum Priority: String, CaseIterable, ProtocolValue, Hashable {
    /// No priority (the default).
    case none
    /// Low.
    case low
    /// Medium.
    case medium
    /// High.
    case high

    public init(json: JSON, path: String) throws(ResponseError) {
        self = try named(json, path: path) { "unknown priority '\($0)'; expected none, low, medium or high" }
    }

    public var json: JSON { .string(rawValue) }

    public static let schema = TypeSchema.enumeration("Priority", doc: "How important an item is.", [
        .init("none", "No priority (the default)."), .init("low", "Low."), .init("medium", "Medium."),
        .init("high", "High."),
    ])
}
