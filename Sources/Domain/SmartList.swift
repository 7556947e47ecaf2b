// SmartList: a saved filter over some or all lists, with a name, a color and an icon, in its own manual order.

/// The identifier of a smart list (`s3` on the wire). Drawn from the counter lists and items draw from
/// (`TaskState.nextIdentifier`), so it never shares a raw value with a list or an item, and never reused.
public struct SmartListID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The raw value, as it appears on the wire.
    public var rawValue: UInt64

    /// Wraps a raw value.
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }

    /// Orders identifiers by their raw value.
    public static func < (lhs: SmartListID, rhs: SmartListID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The id as the wire writes it: `s` and the raw value in decimal (`s3`).
    public var description: String { "s" + String(rawValue) }
}

/// Which items a smart list holds: those of its source lists that match its filter. Nothing is implied: a
/// smart list holds done items unless its filter's `done` says otherwise.
public struct SmartListRule: Hashable, Sendable {
    /// The condition on items (exactly a view's filter).
    public var filter: Filter
    /// The lists it draws from: nil for every list; otherwise only these (an empty set matches nothing).
    public var lists: Set<ListID>?

    /// Makes a rule; the defaults hold every item of every list.
    public init(filter: Filter = .all, lists: Set<ListID>? = nil) {
        self.filter = filter
        self.lists = lists
    }

    /// Whether `item` belongs to the smart list.
    /// - Complexity: O(1), plus the filter's text search when it has text (`Filter.matches`).
    public func contains(_ item: Item) -> Bool {
        var foldedNotes: [UInt8]?
        return contains(item, foldedNotes: &foldedNotes)
    }

    /// `contains(_:)`, folding the item's notes at most once across calls sharing `foldedNotes`.
    func contains(_ item: Item, foldedNotes: inout [UInt8]?) -> Bool {
        if let lists, !lists.contains(item.list) { return false }
        return filter.matches(item, foldedNotes: &foldedNotes)
    }

    /// The fields of an item the rule reads: a change to none of them cannot change whether the item belongs.
    var fieldsRead: ItemFieldSet {
        var fields: ItemFieldSet = []
        if lists != nil { fields.insert(.list) }
        if filter.done != .any { fields.insert(.done) }
        if filter.priorityAtLeast != nil { fields.insert(.priority) }
        if filter.dueBefore != nil || filter.dueAfter != nil { fields.insert(.due) }
        if !filter.tagsAnyOf.isEmpty || !filter.tagsAllOf.isEmpty { fields.insert(.tags) }
        if !filter.text.isEmpty { fields.insert(.text) }
        return fields
    }
}

/// Fields of an item a filter may read, as a set of bits.
struct ItemFieldSet: OptionSet, Sendable {
    let rawValue: UInt8

    init(rawValue: UInt8) { self.rawValue = rawValue }

    static let list = ItemFieldSet(rawValue: 1 << 0)
    static let done = ItemFieldSet(rawValue: 1 << 1)
    static let priority = ItemFieldSet(rawValue: 1 << 2)
    static let due = ItemFieldSet(rawValue: 1 << 3)
    static let tags = ItemFieldSet(rawValue: 1 << 4)
    /// The title or the notes.
    static let text = ItemFieldSet(rawValue: 1 << 5)

    /// The fields that differ between `old` and `new`.
    /// - Complexity: O(1) for fields that share storage; O(length) for texts and tags compared.
    init(changedFrom old: Item, to new: Item) {
        var fields: ItemFieldSet = []
        if old.list != new.list { fields.insert(.list) }
        if old.done != new.done { fields.insert(.done) }
        if old.priority != new.priority { fields.insert(.priority) }
        if old.due != new.due { fields.insert(.due) }
        if old.tags != new.tags { fields.insert(.tags) }
        if old.titleText != new.titleText || old.notes != new.notes { fields.insert(.text) }
        self = fields
    }
}

/// A saved smart list.
public struct SmartList: Hashable, Sendable {
    /// The smart list's identifier.
    public internal(set) var id: SmartListID
    /// The name: 1 to `Limits.listNameCharacters` characters, not only whitespace (as a list's).
    public internal(set) var name: String
    /// An optional color, stored as given, at most `Limits.colorCharacters`.
    public internal(set) var color: String?
    /// An optional icon name, stored as given, at most `Limits.iconCharacters`.
    public internal(set) var icon: String?
    /// Which items it holds.
    public internal(set) var rule: SmartListRule
    /// Its key in the manual order of smart lists.
    public internal(set) var position: Position

    /// A smart list with every field as given (as a snapshot or a log stored it); `restoreSmartLists` checks it.
    public init(id: SmartListID, name: String, color: String?, icon: String?, rule: SmartListRule, position: Position) {
        self.id = id
        self.name = name
        self.color = color
        self.icon = icon
        self.rule = rule
        self.position = position
    }

    /// Whether the two are spelt alike in their texts (name, color, icon): a new Unicode spelling is a change.
    func isSpelledAlike(_ other: SmartList) -> Bool {
        Validation.spelledAlike(TaskList(id: ListID(0), name: name, color: color, icon: icon, position: position),
                                TaskList(id: ListID(0), name: other.name, color: other.color, icon: other.icon,
                                         position: other.position))
            && Validation.spelledAlike(rule.filter.text, other.rule.filter.text)
    }
}

/// The fields of a new smart list.
public struct SmartListFields: Hashable, Sendable {
    /// The name (limits as a list's).
    public var name: String
    /// An optional color.
    public var color: String?
    /// An optional icon name.
    public var icon: String?
    /// Which items it holds.
    public var rule: SmartListRule

    /// Makes the fields of a smart list.
    public init(name: String, color: String? = nil, icon: String? = nil, rule: SmartListRule = SmartListRule()) {
        self.name = name
        self.color = color
        self.icon = icon
        self.rule = rule
    }
}

/// Changes to a smart list; a nil member is left alone.
public struct SmartListPatch: Hashable, Sendable {
    /// A new name.
    public var name: String?
    /// A new color, or `.clear`.
    public var color: Clearable<String>?
    /// A new icon, or `.clear`.
    public var icon: Clearable<String>?
    /// A new filter.
    public var filter: Filter?
    /// New source lists: `.clear` for every list, `.set` for only these.
    public var lists: Clearable<Set<ListID>>?

    /// Makes a patch; every member defaults to "unchanged".
    public init(name: String? = nil, color: Clearable<String>? = nil, icon: Clearable<String>? = nil,
                filter: Filter? = nil, lists: Clearable<Set<ListID>>? = nil) {
        self.name = name
        self.color = color
        self.icon = icon
        self.filter = filter
        self.lists = lists
    }
}

/// One smart list's change: before the group (nil: created) and after it (nil: deleted).
public struct SmartListChange: Hashable, Sendable {
    /// The smart list's id.
    public var id: SmartListID
    /// Before the group, or nil when the group created it.
    public var old: SmartList?
    /// After the group, or nil when the group deleted it.
    public var new: SmartList?
}
