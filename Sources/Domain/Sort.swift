// Sort and ViewSource: what a view shows and in which order.

/// Where a view's rows come from: one list, or a smart group across all lists.
public enum ViewSource: Hashable, Sendable {
    /// The items of one list.
    case list(ListID)
    /// The items of a smart group, across all lists.
    case group(SmartGroup)
    /// The items of a smart list: its id, and its rule when the view was opened or the rule last changed.
    case smartList(SmartListID, SmartListRule)

    /// The Today smart group.
    public static let today = ViewSource.group(.today)
    /// The Scheduled smart group.
    public static let scheduled = ViewSource.group(.scheduled)
    /// The Overdue smart group.
    public static let overdue = ViewSource.group(.overdue)
    /// The All smart group.
    public static let all = ViewSource.group(.all)
    /// The Completed smart group.
    public static let completed = ViewSource.group(.completed)

    /// Whether `item`, whose due has `status` on the engine's day, belongs to this source.
    /// - Complexity: O(1).
    func contains(_ item: Item, status: DueStatus) -> Bool {
        switch self {
        case .list(let list): item.list == list
        case .group(let group): group.contains(item, status: status)
        case .smartList(_, let rule): rule.contains(item)
        }
    }

    /// The list this source draws from, when it draws from exactly one.
    public var list: ListID? {
        switch self {
        case .list(let list): list
        case .group, .smartList: nil
        }
    }

    /// The smart list this source shows, if it is one.
    public var smartList: SmartListID? {
        if case .smartList(let id, _) = self { id } else { nil }
    }
}

/// A smart group: items across all lists chosen by their completion and due date.
public enum SmartGroup: String, CaseIterable, Hashable, Sendable {
    /// Not done, due on the client's day (a day-only due on today's date, or an instant within today).
    case today
    /// Not done, with a due date.
    case scheduled
    /// Not done, due before today (a day-only due) or before now (an instant).
    case overdue
    /// Not done.
    case all
    /// Done.
    case completed

    /// Whether `item`, whose due has `status`, belongs to the group.
    /// - Complexity: O(1).
    func contains(_ item: Item, status: DueStatus) -> Bool {
        switch self {
        case .today: !item.done && status.isToday
        case .scheduled: !item.done && item.due != nil
        case .overdue: !item.done && status.bucket == .overdue
        case .all: !item.done
        case .completed: item.done
        }
    }
}

/// The field a view is ordered by.
public enum SortField: String, CaseIterable, Hashable, Sendable {
    /// The list's manual order (the only order rows can be dragged in).
    case manual
    /// The title, case- and diacritic-insensitive (`CollationKey`).
    case title
    /// The due date; items without one come last in either direction.
    case due
    /// The priority (none, low, medium, high).
    case priority
    /// The creation time.
    case created
    /// The last modification time.
    case modified
}

/// Ascending or descending.
public enum SortDirection: String, CaseIterable, Hashable, Sendable {
    /// Smallest first.
    case ascending
    /// Largest first.
    case descending
}

/// A total, stable order: the field in the given direction, ties broken by manual order (ascending: in a smart
/// group the lists' order, then each list's) and then by item id (ascending). Items without a due date come last
/// in a due sort. Manual descending is the whole manual order reversed.
public struct Sort: Hashable, Sendable {
    /// The field ordered by.
    public var field: SortField
    /// The direction of `field`; ties are always broken in ascending manual order.
    public var direction: SortDirection

    /// Makes a sort.
    public init(_ field: SortField, _ direction: SortDirection = .ascending) {
        self.field = field
        self.direction = direction
    }

    /// The list's manual order, ascending: the order every list always has an index for.
    public static let manual = Sort(.manual)
}
