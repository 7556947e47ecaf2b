// TaskList and Item: the two records the domain stores.

/// A list of tasks, shown in the lists overview in its own manual order.
public struct TaskList: Hashable, Sendable {
    /// The list's identifier.
    public internal(set) var id: ListID
    /// The name shown to the user: 1 to `Limits.listNameCharacters` characters, not only whitespace.
    public internal(set) var name: String
    /// An optional color, stored as given (for example `#FF9500` or `orange`), at most `Limits.colorCharacters`.
    public internal(set) var color: String?
    /// An optional icon name, stored as given, at most `Limits.iconCharacters`.
    public internal(set) var icon: String?
    /// The list's key in the manual order of lists.
    public internal(set) var position: Position

    /// A list with every field as given (as a snapshot or a log stored it). Nothing is checked here:
    /// `TaskState(restoring:...)` and the restore mutations check the list.
    public init(id: ListID, name: String, color: String?, icon: String?, position: Position) {
        self.id = id
        self.name = name
        self.color = color
        self.icon = icon
        self.position = position
    }
}

/// A task.
///
/// Every field is set by a mutation; `revision` increases by one on every change, so a client can tell
/// whether a row it holds is current.
public struct Item: Hashable, Sendable {
    /// The item's identifier.
    public internal(set) var id: ItemID
    /// The list the item belongs to.
    public internal(set) var list: ListID
    /// The title: 1 to `Limits.titleCharacters` characters, not only whitespace.
    public internal(set) var title: String {
        didSet { titleKey = CollationKey(folding: title) }
    }
    /// Free-form notes, at most `Limits.notesCharacters` characters.
    public internal(set) var notes: String
    /// Whether the task is done.
    public internal(set) var done: Bool
    /// When the task was last marked done; nil while it is not done.
    public internal(set) var completedAt: Timestamp?
    /// When the task is due, if ever.
    public internal(set) var due: Due?
    /// How important the task is.
    public internal(set) var priority: Priority
    /// Tags, trimmed, without duplicates, in the order they were given.
    public internal(set) var tags: [String]
    /// When the item was created.
    public internal(set) var createdAt: Timestamp
    /// When the item last changed (any field, its position included).
    public internal(set) var modifiedAt: Timestamp
    /// 1 when created, plus one for every change.
    public internal(set) var revision: UInt64
    /// The item's key among its siblings (the items of its list with the same parent) in manual order.
    public internal(set) var position: Position
    /// The item this one is a subtask of (in the same list), or nil at the top level.
    public internal(set) var parent: ItemID?
    /// How the item repeats, or nil; an item with a rule has a due (`repeatWithoutDue` refuses anything else).
    public internal(set) var repeatRule: RepeatRule?
    /// The occurrences completed and skipped so far (empty for an item that never repeated).
    public internal(set) var occurrences: Occurrences
    /// The folded title a title sort compares, kept in step with `title`.
    public private(set) var titleKey: CollationKey
    /// When to remind the user: at most `Limits.alertCount`, without duplicates, in the order given.
    public internal(set) var alerts: [Alert]
    /// The identity the item had in the file it was imported from (Taskwarrior's `uuid`, iCalendar's `UID`), so
    /// that importing the file again finds it; nil for an item made in taskls. 1 to `Limits.uidCharacters`
    /// characters, no control characters; no two items share one (`TaskState.item(withUID:)`). Only
    /// `Mutation.insertItems` and `restoreItems` set it; a duplicate of the item has none.
    public internal(set) var uid: String?
    /// The fields of another tool taskls has no place for, kept in their order for export (at most
    /// `Limits.extraCount`; see `Extra`). Set when the item is made (`insertItems`, `restoreItems`, or `createItem`
    /// copying them for a duplicate); no update changes them.
    public internal(set) var extras: [Extra]

    init(id: ItemID, list: ListID, fields: ItemFields, position: Position, parent: ItemID? = nil, at time: Timestamp) {
        self.id = id
        self.list = list
        self.parent = parent
        title = fields.title
        titleKey = CollationKey(folding: fields.title)
        notes = fields.notes
        done = fields.done
        completedAt = fields.done ? time : nil
        due = fields.due
        priority = fields.priority
        tags = fields.tags
        repeatRule = fields.repeatRule
        occurrences = .none
        alerts = fields.alerts
        uid = nil
        extras = fields.extras
        createdAt = time
        modifiedAt = time
        revision = 1
        self.position = position
    }
}

/// An item in a box, shared by the item dictionary and the key of its list's manual order, so that a
/// snapshot of that order (a background index build) carries the items without copying the dictionary.
final class ItemRecord: Sendable {
    let item: Item

    init(_ item: Item) { self.item = item }
}
