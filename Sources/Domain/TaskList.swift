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
    public internal(set) var position: Position {
        didSet { positionBytes = position.bytes }
    }
    /// `position`'s bytes, made once: the keys of the list's items in orders by list position share them.
    private(set) var positionBytes: [UInt8]

    /// A list with every field as given (as a snapshot or a log stored it). Nothing is checked here:
    /// `TaskState(restoring:...)` and the restore mutations check the list.
    public init(id: ListID, name: String, color: String?, icon: String?, position: Position) {
        self.id = id
        self.name = name
        self.color = color
        self.icon = icon
        self.position = position
        positionBytes = position.bytes
    }
}

/// A task.
///
/// Every field is set by a mutation; `revision` increases by one on every change, so a client can tell
/// whether a row it holds is current.
///
/// Stored compactly: the fields most items leave empty (notes, repeat rule, occurrences, alerts, uid, extras)
/// live in one shared immutable box (`RareFields`), allocated only while one of them is set; reading them is
/// as before, and setting one makes a new box (or drops it when all are empty again, so two equal items have
/// equal stored properties and the synthesized `==` and `hash(into:)` stay right).
public struct Item: Hashable, Sendable {
    // Stored properties, largest alignment first, with the due and the completion time packed into plain numbers
    // (`due`, `completedAt`) and the title with its folded key in one reference (`titleText`), so the item takes
    // 119 bytes and its record (`ItemRecord`, with the object header) one 144-byte heap block
    // (`PositionTests.layoutsStayCompact`).

    /// The item's identifier.
    public internal(set) var id: ItemID
    /// The list the item belongs to.
    public internal(set) var list: ListID
    /// The title: 1 to `Limits.titleCharacters` characters, not only whitespace.
    /// - Complexity: reading it makes a `String` (O(length), an allocation past 15 bytes): `titleText` reads the
    ///   bytes in place.
    public internal(set) var title: String {
        get { titleText.string }
        set { titleText = TitleText.make(newValue) }
    }
    /// The title's bytes and its folded key (what a title sort and a text filter compare), in one block.
    public private(set) var titleText: TitleText
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
    /// The fields most items leave empty; nil while every one of them is.
    private var rare: RareFields?
    /// `parent`'s raw value, 0 for none (no item has id 0), so that it takes 8 bytes rather than 16.
    private var parentRaw: UInt64
    /// `completedAt`'s milliseconds, `Int64.min` for none (a time given as `Int64.min` is kept as one millisecond
    /// later, so that it stays set; no valid time is anywhere near).
    private var completedRaw: Int64
    /// `due`'s value: a date's year, month and day as `year << 16 | month << 8 | day`, or a date-time's milliseconds.
    private var dueValue: Int64
    /// A date-time due's UTC offset in seconds (at most 18 hours either way, `Due.maximumOffsetSeconds`), else 0.
    private var dueOffset: Int32
    /// `due`'s case: 0 none, 1 a date, 2 a date-time.
    private var dueKind: UInt8
    /// Whether the task is done.
    public internal(set) var done: Bool
    /// How important the task is.
    public internal(set) var priority: Priority

    /// The folded title a title sort compares (`CollationKey`), made as an array.
    /// - Complexity: O(length of the title); allocates.
    public var titleKey: CollationKey { titleText.collationKey }

    /// When the task is due, if ever.
    public internal(set) var due: Due? {
        get {
            switch dueKind {
            case 1: .date(CalendarDate(uncheckedYear: Int(dueValue >> 16), month: Int(dueValue >> 8 & 0xFF), day: Int(dueValue & 0xFF)))
            case 2: .dateTime(Timestamp(milliseconds: dueValue), offsetSeconds: Int(dueOffset))
            default: nil
            }
        }
        set { (dueKind, dueValue, dueOffset) = Item.packed(newValue) }
    }

    /// When the task was last marked done; nil while it is not done.
    public internal(set) var completedAt: Timestamp? {
        get { completedRaw == Int64.min ? nil : Timestamp(milliseconds: completedRaw) }
        set { completedRaw = Item.packed(newValue) }
    }

    /// The stored form of a completion time (see `completedRaw`).
    private static func packed(_ time: Timestamp?) -> Int64 {
        guard let time else { return Int64.min }
        return max(time.milliseconds, Int64.min + 1)
    }

    /// The stored form of a due (see `dueValue`). An offset beyond 32 bits, which validation never lets through,
    /// is clamped.
    private static func packed(_ due: Due?) -> (kind: UInt8, value: Int64, offset: Int32) {
        switch due {
        case nil: (0, 0, 0)
        case .date(let date)?: (1, Int64(date.year) << 16 | Int64(date.month) << 8 | Int64(date.day), 0)
        case .dateTime(let instant, let offset)?: (2, instant.milliseconds, Int32(clamping: offset))
        }
    }

    /// The item this one is a subtask of (in the same list), or nil at the top level.
    public internal(set) var parent: ItemID? {
        get { parentRaw == 0 ? nil : ItemID(parentRaw) }
        set { parentRaw = newValue?.rawValue ?? 0 }
    }

    /// Free-form notes, at most `Limits.notesCharacters` characters.
    public internal(set) var notes: String {
        get { rare?.notes ?? "" }
        set { changeRare { $0.notes = newValue } }
    }
    /// How the item repeats, or nil; an item with a rule has a due (`repeatWithoutDue` refuses anything else).
    public internal(set) var repeatRule: RepeatRule? {
        get { rare?.repeatRule }
        set { changeRare { $0.repeatRule = newValue } }
    }
    /// The occurrences completed and skipped so far (empty for an item that never repeated).
    public internal(set) var occurrences: Occurrences {
        get { rare?.occurrences ?? .none }
        set { changeRare { $0.occurrences = newValue } }
    }
    /// When to remind the user: at most `Limits.alertCount`, without duplicates, in the order given.
    public internal(set) var alerts: [Alert] {
        get { rare?.alerts ?? [] }
        set { changeRare { $0.alerts = newValue } }
    }
    /// The identity the item had in the file it was imported from (Taskwarrior's `uuid`, iCalendar's `UID`), so
    /// that importing the file again finds it; nil for an item made in taskls. 1 to `Limits.uidCharacters`
    /// characters, no control characters; no two items share one (`TaskState.item(withUID:)`). Only
    /// `Mutation.insertItems` and `restoreItems` set it; a duplicate of the item has none.
    public internal(set) var uid: String? {
        get { rare?.uid }
        set { changeRare { $0.uid = newValue } }
    }
    /// The fields of another tool taskls has no place for, kept in their order for export (at most
    /// `Limits.extraCount`; see `Extra`). Set when the item is made (`insertItems`, `restoreItems`, or `createItem`
    /// copying them for a duplicate); no update changes them.
    public internal(set) var extras: [Extra] {
        get { rare?.extras ?? [] }
        set { changeRare { $0.extras = newValue } }
    }

    init(id: ItemID, list: ListID, fields: ItemFields, position: Position, parent: ItemID? = nil, at time: Timestamp) {
        self.init(id: id, list: list, title: fields.title, notes: fields.notes, done: fields.done,
                  completedAt: fields.done ? time : nil, due: fields.due, priority: fields.priority, tags: fields.tags,
                  createdAt: time, modifiedAt: time, revision: 1, position: position, parent: parent,
                  repeatRule: fields.repeatRule, occurrences: .none, alerts: fields.alerts, uid: nil, extras: fields.extras)
    }

    /// An item with every field as given, as a snapshot or a log stored it, or as an import makes it
    /// (`Mutation.insertItems`); `titleText` holds `title` with its folded key. Nothing is checked here:
    /// `TaskState(restoring:...)`, `insertItems` and the restore mutations check the item.
    /// - Complexity: O(length of `title`); one allocation for the rare fields when any is set.
    public init(id: ItemID, list: ListID, title: String, notes: String, done: Bool, completedAt: Timestamp?,
                due: Due?, priority: Priority, tags: [String], createdAt: Timestamp, modifiedAt: Timestamp,
                revision: UInt64, position: Position, parent: ItemID? = nil, repeatRule: RepeatRule? = nil,
                occurrences: Occurrences = .none, alerts: [Alert] = [], uid: String? = nil, extras: [Extra] = []) {
        self.init(id: id, list: list, titleText: TitleText.make(title), notes: notes, done: done, completedAt: completedAt,
                  due: due, priority: priority, tags: tags, createdAt: createdAt, modifiedAt: modifiedAt, revision: revision,
                  position: position, parent: parent, repeatRule: repeatRule, occurrences: occurrences, alerts: alerts,
                  uid: uid, extras: extras)
    }

    /// The item `init(id:list:title:...)` makes, its title already in a block (as the store reads it).
    public init(id: ItemID, list: ListID, titleText: TitleText, notes: String, done: Bool, completedAt: Timestamp?,
                due: Due?, priority: Priority, tags: [String], createdAt: Timestamp, modifiedAt: Timestamp,
                revision: UInt64, position: Position, parent: ItemID? = nil, repeatRule: RepeatRule? = nil,
                occurrences: Occurrences = .none, alerts: [Alert] = [], uid: String? = nil, extras: [Extra] = []) {
        self.id = id
        self.list = list
        self.titleText = titleText
        self.tags = tags
        self.createdAt = createdAt
        self.modifiedAt = modifiedAt
        self.revision = revision
        self.position = position
        rare = RareFields.boxed(notes: notes, repeatRule: repeatRule, occurrences: occurrences, alerts: alerts, uid: uid,
                                extras: extras)
        parentRaw = parent?.rawValue ?? 0
        completedRaw = Item.packed(completedAt)
        (dueKind, dueValue, dueOffset) = Item.packed(due)
        self.done = done
        self.priority = priority
    }

    /// Sets one of the rarely set fields: a new box with the change, or none when every field is empty again.
    /// - Complexity: O(1) plus one allocation.
    private mutating func changeRare(_ change: (inout RareFields.Values) -> Void) {
        var values = rare?.values ?? RareFields.Values()
        change(&values)
        rare = values.isEmpty ? nil : RareFields(values)
    }
}

/// The fields of an item that most items leave empty, in one immutable box shared by copies of the item. Equal
/// boxes are those with equal values (so an item's synthesized `==` compares contents, not boxes).
final class RareFields: Hashable, Sendable {
    /// The fields themselves.
    struct Values: Hashable, Sendable {
        var notes = ""
        var repeatRule: RepeatRule?
        var occurrences = Occurrences.none
        var alerts: [Alert] = []
        var uid: String?
        var extras: [Extra] = []

        /// Whether every field is empty (an item then keeps no box).
        var isEmpty: Bool {
            notes.isEmpty && repeatRule == nil && occurrences == .none && alerts.isEmpty && uid == nil && extras.isEmpty
        }
    }

    let values: Values

    init(_ values: Values) { self.values = values }

    /// A box of these values, or nil when all are empty.
    static func boxed(notes: String, repeatRule: RepeatRule?, occurrences: Occurrences, alerts: [Alert], uid: String?,
                      extras: [Extra]) -> RareFields? {
        let values = Values(notes: notes, repeatRule: repeatRule, occurrences: occurrences, alerts: alerts, uid: uid,
                            extras: extras)
        return values.isEmpty ? nil : RareFields(values)
    }

    var notes: String { values.notes }
    var repeatRule: RepeatRule? { values.repeatRule }
    var occurrences: Occurrences { values.occurrences }
    var alerts: [Alert] { values.alerts }
    var uid: String? { values.uid }
    var extras: [Extra] { values.extras }

    static func == (lhs: RareFields, rhs: RareFields) -> Bool { lhs === rhs || lhs.values == rhs.values }

    func hash(into hasher: inout Hasher) { hasher.combine(values) }
}

/// An item in a box, shared by the item dictionary and the key of its list's manual order, so that a
/// snapshot of that order (a background index build) carries the items without copying the dictionary.
final class ItemRecord: Sendable {
    let item: Item

    init(_ item: Item) { self.item = item }
}
