// Changes: what applying a group of mutations changed, item by item and list by list.

/// One item's change: its value before the group (nil: created) and after it (nil: deleted).
public struct ItemChange: Hashable, Sendable {
    /// The item's id.
    public var id: ItemID
    /// The item before the group, or nil when the group created it.
    public var old: Item?
    /// The item after the group, or nil when the group deleted it.
    public var new: Item?
}

/// One list's change: before the group (nil: created) and after it (nil: deleted).
public struct ListChange: Hashable, Sendable {
    /// The list's id.
    public var id: ListID
    /// The list before the group, or nil when the group created it.
    public var old: TaskList?
    /// The list after the group, or nil when the group deleted it.
    public var new: TaskList?
}

/// Everything a group of mutations changed, one entry per item or list (the first old value and
/// the last new value when the group touched it several times), in the order first touched.
/// Views derive their changesets from this, never from diffing lists; `TaskState.inverse(of:at:)` turns it into
/// the group that undoes it.
public struct Changes: Hashable, Sendable {
    /// Changed items; deleting a list lists each of its items as deleted.
    public var items: [ItemChange] = []
    /// Changed lists.
    public var lists: [ListChange] = []
    /// Changed smart lists (deleting a list changes the smart lists that drew from it).
    public var smartLists: [SmartListChange] = []

    /// Reminders fired, snoozed, dismissed or forgotten. They are not edits of tasks: they leave `isEmpty`
    /// true (no revision, no undo step), but the store journals them (`recordsNothing`).
    public var reminders: [ReminderChange] = []

    /// Whether no item, list or smart list changed.
    public var isEmpty: Bool { items.isEmpty && lists.isEmpty && smartLists.isEmpty }

    /// Whether nothing at all changed, reminders included: then there is nothing to journal.
    public var recordsNothing: Bool { isEmpty && reminders.isEmpty }
}
