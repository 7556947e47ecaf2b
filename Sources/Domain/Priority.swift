// Priority: none, low, medium or high, with its wire spelling.

/// How important an item is. Sorting by priority ascending goes none, low, medium, high.
public enum Priority: String, CaseIterable, Comparable, Sendable {
    /// No priority set (the default).
    case none
    /// Low priority.
    case low
    /// Medium priority.
    case medium
    /// High priority.
    case high

    /// Parses the wire spelling (`none`, `low`, `medium`, `high`).
    /// - Throws: `DomainError.invalidField(field: "priority", ...)` for anything else.
    public init(parsing text: String) throws(DomainError) {
        guard let value = Priority(rawValue: text) else {
            throw .invalidField(field: "priority", problem: "must be one of none, low, medium, high")
        }
        self = value
    }

    /// 0 for none up to 3 for high.
    public var rank: Int {
        switch self {
        case .none: 0
        case .low: 1
        case .medium: 2
        case .high: 3
        }
    }

    /// Orders by `rank`.
    public static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.rank < rhs.rank }
}
