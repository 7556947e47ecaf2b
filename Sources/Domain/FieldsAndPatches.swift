// Fields and patches: the values mutations carry to create or change lists and items.

/// A new value for an optional field: set it, or clear it.
public enum Clearable<Value: Hashable & Sendable>: Hashable, Sendable {
    /// Give the field this value.
    case set(Value)
    /// Remove the field's value.
    case clear

    /// The value the field holds after this change.
    var value: Value? {
        switch self {
        case .set(let value): value
        case .clear: nil
        }
    }
}

/// The fields of a new list.
public struct ListFields: Hashable, Sendable {
    /// The name; see `TaskList.name` for its limits.
    public var name: String
    /// An optional color.
    public var color: String?
    /// An optional icon name.
    public var icon: String?

    /// Makes the fields of a list.
    public init(name: String, color: String? = nil, icon: String? = nil) {
        self.name = name
        self.color = color
        self.icon = icon
    }
}

/// A change to a list: nil leaves a field as it is.
public struct ListPatch: Hashable, Sendable {
    /// A new name.
    public var name: String?
    /// A new color, or `.clear` to remove it.
    public var color: Clearable<String>?
    /// A new icon, or `.clear` to remove it.
    public var icon: Clearable<String>?

    /// Makes a patch; every field defaults to "unchanged".
    public init(name: String? = nil, color: Clearable<String>? = nil, icon: Clearable<String>? = nil) {
        self.name = name
        self.color = color
        self.icon = icon
    }
}

/// The fields of a new item. Only the title is required.
public struct ItemFields: Hashable, Sendable {
    /// The title; see `Item.title` for its limits.
    public var title: String
    /// The notes.
    public var notes: String
    /// Whether the item starts done (its `completedAt` is then the creation time).
    public var done: Bool
    /// When it is due.
    public var due: Due?
    /// Its priority.
    public var priority: Priority
    /// Its tags; normalized (trimmed, duplicates dropped, order kept) when applied.
    public var tags: [String]
    /// How it repeats; needs a due.
    public var repeatRule: RepeatRule?
    /// Its alerts; duplicates dropped (first kept) when applied.
    public var alerts: [Alert]
    /// Another tool's fields to keep on it (`Item.extras`): what a duplicate copies from its original; the
    /// protocol's `items/create` never sets them.
    public var extras: [Extra]

    /// Makes the fields of an item.
    public init(title: String, notes: String = "", done: Bool = false, due: Due? = nil,
                priority: Priority = .none, tags: [String] = [], repeatRule: RepeatRule? = nil, alerts: [Alert] = [],
                extras: [Extra] = []) {
        self.title = title
        self.notes = notes
        self.done = done
        self.due = due
        self.priority = priority
        self.tags = tags
        self.repeatRule = repeatRule
        self.alerts = alerts
        self.extras = extras
    }
}

/// A change to items: nil leaves a field as it is.
public struct ItemPatch: Hashable, Sendable {
    /// A new title.
    public var title: String?
    /// New notes.
    public var notes: String?
    /// Done or not; marking an item done sets `completedAt` to the mutation's time, undoing it clears it.
    public var done: Bool?
    /// A new due, or `.clear` to remove it.
    public var due: Clearable<Due>?
    /// A new priority.
    public var priority: Priority?
    /// New tags, replacing the old ones.
    public var tags: [String]?
    /// A new repeat rule, or `.clear` to stop repeating (the history stays).
    public var repeatRule: Clearable<RepeatRule>?
    /// New alerts, replacing the old ones (`[]` clears them).
    public var alerts: [Alert]?

    /// Makes a patch; every field defaults to "unchanged".
    public init(title: String? = nil, notes: String? = nil, done: Bool? = nil, due: Clearable<Due>? = nil,
                priority: Priority? = nil, tags: [String]? = nil, repeatRule: Clearable<RepeatRule>? = nil,
                alerts: [Alert]? = nil) {
        self.title = title
        self.notes = notes
        self.done = done
        self.due = due
        self.priority = priority
        self.tags = tags
        self.repeatRule = repeatRule
        self.alerts = alerts
    }

    /// Whether the patch changes no field.
    public var isEmpty: Bool {
        title == nil && notes == nil && done == nil && due == nil && priority == nil && tags == nil && repeatRule == nil
            && alerts == nil
    }
}
