/// The smart groups: items across all lists, chosen by completion and due date.

import Wire

/// A smart group, a view source across every list.
public enum SmartGroup: String, CaseIterable, ProtocolValue, Hashable {
    /// Not done, due on the client's day.
    case today
    /// Not done, with a due date.
    case scheduled
    /// Not done, due before now.
    case overdue
    /// Not done.
    case all
    /// Done.
    case completed

    public init(json: JSON, path: String) throws(ResponseError) {
        self = try named(json, path: path) { "unknown group '\($0)'; expected one of \(names(SmartGroup.self))" }
    }

    public var json: JSON { .string(rawValue) }

    public static let schema = TypeSchema.enumeration("SmartGroup", doc: "A smart group: items across all lists.", [
        .init("today", "Not done, due today (the client's day, in its time zone)."),
        .init("scheduled", "Not done, with a due date."),
        .init("overdue", "Not done, due before now (a day-only due: before today)."),
        .init("all", "Not done."),
        .init("completed", "Done."),
    ])
}
