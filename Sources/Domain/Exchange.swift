// Exchange: tasks as another tool's file carries them (Taskwarrior, todo.txt, iCalendar, the backup JSON),
// between a format's reader or writer (the Interchange module) and the store (`TaskState.importPlan`, `exportDocument`).

/// A field taskls has no place for, kept on an item so that an export gives it back.
///
/// The key names the format and the field: `taskwarrior:wait`, `taskwarrior:uda.estimate`, `ical:X-APPLE-SORT-ORDER`,
/// `todotxt:t`. The value is the field as its format writes it (for Taskwarrior the JSON text of the value, for
/// iCalendar the property's parameters and value as unfolded text, `;X-PARAM=1:value`, for todo.txt the text after
/// the colon). A key may appear more than once (two `ATTACH` properties); order is kept.
public struct Extra: Hashable, Sendable {
    /// The format and the field, `format:name`.
    public var key: String
    /// The field's value as its format writes it.
    public var value: String

    /// Makes an extra.
    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }

    /// The format part of the key (`taskwarrior` for `taskwarrior:wait`).
    public var format: Substring { key.prefix { $0 != ":" } }

    /// The field part of the key (`wait` for `taskwarrior:wait`).
    public var name: Substring {
        guard let colon = key.firstIndex(of: ":") else { return key[...] }
        return key[key.index(after: colon)...]
    }
}

/// A list as a file carries it: by name (formats have no list ids).
public struct ExchangeList: Hashable, Sendable {
    /// The list's name; a list of the store with this name (compared exactly) is the same list.
    public var name: String
    /// Its color, where the format has one (iCalendar's `COLOR`, the backup).
    public var color: String?
    /// Its icon, where the format has one (the backup).
    public var icon: String?
    /// The id it had in the store that wrote the file (the backup), kept where this store never used it.
    public var storeID: UInt64?

    /// Makes a list.
    public init(name: String, color: String? = nil, icon: String? = nil, storeID: UInt64? = nil) {
        self.name = name
        self.color = color
        self.icon = icon
        self.storeID = storeID
    }
}

/// A smart list as the backup carries it: its rule names its source lists by name.
public struct ExchangeSmartList: Hashable, Sendable {
    /// Its name.
    public var name: String
    /// Its color.
    public var color: String?
    /// Its icon.
    public var icon: String?
    /// Its filter.
    public var filter: Filter
    /// The names of its source lists; nil for every list.
    public var lists: [String]?

    /// Makes a smart list.
    public init(name: String, color: String? = nil, icon: String? = nil, filter: Filter, lists: [String]? = nil) {
        self.name = name
        self.color = color
        self.icon = icon
        self.filter = filter
        self.lists = lists
    }
}

/// One task as a file carries it, before it is matched to the store's items.
public struct ExchangeTask: Hashable, Sendable {
    /// The source's identity (Taskwarrior's `uuid`, iCalendar's `UID`, todo.txt's `uid:`), kept on the item as
    /// `Item.uid`, so importing the same file again updates instead of duplicating. Nil where the file has none.
    public var uid: String?
    /// The name of the task's list; nil: the import's default list (`--into`, else the format's).
    public var list: String?
    /// The `uid` of the task this one is a subtask of, in the same document; nil at the top level.
    public var parentUID: String?
    /// The title.
    public var title: String
    /// The notes (Taskwarrior's annotations, iCalendar's `DESCRIPTION`).
    public var notes: String
    /// Whether it is done.
    public var done: Bool
    /// When it was done, where the file says.
    public var completedAt: Timestamp?
    /// When it was created, where the file says (else the import's time).
    public var createdAt: Timestamp?
    /// When it last changed, where the file says (else the import's time).
    public var modifiedAt: Timestamp?
    /// When it is due.
    public var due: Due?
    /// How important it is.
    public var priority: Priority
    /// Its tags, in the file's order.
    public var tags: [String]
    /// How it repeats.
    public var repeatRule: RepeatRule?
    /// Its alerts.
    public var alerts: [Alert]
    /// A repeating task's history (the backup carries it; other formats leave it empty).
    public var occurrences: Occurrences
    /// The fields taskls has no place for, kept for export.
    public var extras: [Extra]
    /// The id it had in the store that wrote the file (the backup), kept where this store never used it.
    public var storeID: UInt64?
    /// Where the task starts in its file (1-based), for messages; 0 when it has no place.
    public var line: Int

    /// Makes a task; only the title is required.
    public init(uid: String? = nil, list: String? = nil, parentUID: String? = nil, title: String, notes: String = "",
                done: Bool = false, completedAt: Timestamp? = nil, createdAt: Timestamp? = nil,
                modifiedAt: Timestamp? = nil, due: Due? = nil, priority: Priority = .none, tags: [String] = [],
                repeatRule: RepeatRule? = nil, alerts: [Alert] = [], occurrences: Occurrences = .none,
                extras: [Extra] = [], storeID: UInt64? = nil, line: Int = 0) {
        self.uid = uid
        self.list = list
        self.parentUID = parentUID
        self.title = title
        self.notes = notes
        self.done = done
        self.completedAt = completedAt
        self.createdAt = createdAt
        self.modifiedAt = modifiedAt
        self.due = due
        self.priority = priority
        self.tags = tags
        self.repeatRule = repeatRule
        self.alerts = alerts
        self.occurrences = occurrences
        self.extras = extras
        self.storeID = storeID
        self.line = line
    }
}

/// A whole file's worth of lists and tasks, in the file's order: a list's tasks in the order they appear are its
/// manual order, and a subtask's parent comes before it or after it (the importer orders them).
public struct ExchangeDocument: Hashable, Sendable {
    /// The lists the file names (with their own fields where the format has them), in the file's order. A task
    /// may name a list that is not here; it is made with default fields.
    public var lists: [ExchangeList]
    /// The tasks, in the file's order.
    public var tasks: [ExchangeTask]
    /// The smart lists (the backup only).
    public var smartLists: [ExchangeSmartList]

    /// Makes a document.
    public init(lists: [ExchangeList] = [], tasks: [ExchangeTask] = [], smartLists: [ExchangeSmartList] = []) {
        self.lists = lists
        self.tasks = tasks
        self.smartLists = smartLists
    }
}

/// What was wrong with part of a file: where (file, line, field) and what.
public struct ExchangeProblem: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file's name as the user gave it (or `-` for text without one).
    public var file: String
    /// The 1-based line the problem starts on; 0 for the file as a whole.
    public var line: Int
    /// The field or property at fault (`due`, `DTSTART`, `uuid`), if one is.
    public var field: String?
    /// What was wrong, in words a user can act on.
    public var message: String

    /// Makes a problem.
    public init(file: String, line: Int, field: String? = nil, message: String) {
        self.file = file
        self.line = line
        self.field = field
        self.message = message
    }

    /// `file:line: field: message` (the parts it has).
    public var description: String {
        var text = file
        if line > 0 { text += ":" + String(line) }
        text += ": "
        if let field { text += field + ": " }
        return text + message
    }
}

/// Something a format cannot carry, counted: what an import or export would lose, reported before it does.
public struct ExchangeLoss: Hashable, Sendable, CustomStringConvertible {
    /// What is lost, in words (`alerts`, `notes with several lines`, `deleted tasks`).
    public var what: String
    /// Why: the format's reason (`todo.txt has no alerts`).
    public var reason: String
    /// How many tasks it concerns.
    public var count: Int

    /// Makes a loss.
    public init(what: String, reason: String, count: Int) {
        self.what = what
        self.reason = reason
        self.count = count
    }

    /// `3 tasks: alerts (todo.txt has no alerts)`.
    public var description: String { "\(count) task\(count == 1 ? "" : "s"): \(what) (\(reason))" }
}

/// Losses counted by kind as a reader or writer meets them.
public struct LossTally: Hashable, Sendable {
    /// The losses, in the order first met.
    public private(set) var losses: [ExchangeLoss] = []

    /// An empty tally.
    public init() {}

    /// Counts one more task losing `what`.
    public mutating func add(_ what: String, because reason: String) {
        if let index = losses.firstIndex(where: { $0.what == what && $0.reason == reason }) {
            losses[index].count += 1
        } else {
            losses.append(ExchangeLoss(what: what, reason: reason, count: 1))
        }
    }
}
