// Sort and ViewSource: what a view shows and in which order.

/// Where a view's rows come from. Issue 4 adds smart groups here; everything else asks `contains`.
public enum ViewSource: Hashable, Sendable {
    /// The items of one list.
    case list(ListID)

    /// Whether `item` belongs to this source.
    /// - Complexity: O(1).
    public func contains(_ item: Item) -> Bool {
        switch self {
        case .list(let list): item.list == list
        }
    }

    /// The list this source draws from, when it draws from exactly one.
    public var list: ListID? {
        switch self {
        case .list(let list): list
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

/// A total, stable order: the field in the given direction, ties broken by manual position
/// (ascending) and then by item id (ascending). Items without a due date come last in a due sort.
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
