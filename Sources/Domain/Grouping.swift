// Grouping: how a view is divided into sections, each introduced by a header row with its live count.

/// How a view's rows are divided into sections. Sections come in a fixed order; an empty section has no header.
public enum Grouping: String, CaseIterable, Hashable, Sendable {
    /// No sections: only item rows.
    case none
    /// By due bucket on the client's day: Overdue, Today, Tomorrow, Next 7 Days, Later, No Date.
    case dueBucket
    /// By priority, highest first: High, Medium, Low, No Priority.
    case priority
    /// By list, in the lists' manual order, each titled with the list's name.
    case list
    /// Not done first, then done.
    case done

    /// The section of an item (with its due status) in this grouping; nil for `none`.
    /// - Complexity: O(1).
    func section(of item: Item, status: DueStatus) -> SectionID? {
        switch self {
        case .none: nil
        case .dueBucket: .due(status.bucket)
        case .priority: .priority(item.priority)
        case .list: .list(item.list)
        case .done: .done(item.done)
        }
    }
}

/// A section's identity within its view; also its header row's id.
public enum SectionID: Hashable, Sendable {
    /// A due bucket's section.
    case due(DueBucket)
    /// A priority's section.
    case priority(Priority)
    /// A list's section.
    case list(ListID)
    /// The done (true) or not-done (false) section.
    case done(Bool)

    /// The section's place among the sections of a grouping other than `list` (ordered by list position instead).
    var rank: Int32 {
        switch self {
        case .due(let bucket): Int32(bucket.rawValue)
        case .priority(let priority): Int32(3 - priority.rank)
        case .list: 0
        case .done(let done): done ? 1 : 0
        }
    }
}

/// A section header row: which section, its title, and how many items it holds.
public struct SectionHeader: Hashable, Sendable {
    /// The section (and the row's id).
    public var section: SectionID
    /// The title a pane shows: "Overdue", "Today", "Tomorrow", "Next 7 Days", "Later", "No Date";
    /// "High", "Medium", "Low", "No Priority"; the list's name; "Not Done", "Done".
    public var title: String
    /// The number of items in the section (always at least 1: empty sections have no header).
    public var count: Int
}
