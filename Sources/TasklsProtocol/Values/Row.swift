/// The rows of a view's window: item rows and section header rows.

import Wire

/// A row of a view: an item, or the header before a section's items. Its `id` is stable and unique
/// within the view.
public enum Row: ProtocolValue, Hashable {
    /// An item row (`kind: "item"`).
    case item(ItemRow)
    /// A section header row (`kind: "header"`).
    case header(HeaderRow)

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        let kind: String = try fields.required("kind")
        switch kind {
        case "item": self = .item(try ItemRow(fields))
        case "header": self = .header(try HeaderRow(fields))
        default: throw .invalidParams("\(fields.path("kind")): expected item or header, got '\(kind)'")
        }
    }

    public var json: JSON {
        switch self {
        case .item(let row): row.json
        case .header(let row): row.json
        }
    }

    public static let schema = TypeSchema(
        name: "Row", doc: "A row of a view's window.",
        shape: .alternatives(.value(of: "kind"), [ItemRow.schema, HeaderRow.schema]))
}

/// An item as a row: what a pane renders. Leaves out `notes`, `completed`, `created` and `modified`
/// (fetch them with `items/get`) and says `hasNotes` instead; says where it sits in the view's tree (`parent`,
/// `depth`, `hasChildren`, `collapsed`) and whether it is there only as an ancestor of a matching item (`context`).
public struct ItemRow: ProtocolValue, Hashable {
    /// The item's id (also the row's id).
    public var id: ItemID
    /// The list it belongs to.
    public var list: ListID
    /// The item it is a subtask of; nil at the top level (written as `null`). That item is a row of the view too,
    /// above this one (hidden when an ancestor is collapsed).
    public var parent: ItemID?
    /// How many ancestors it has: 0 at the top level, at most `ProtocolLimits.maxDepth` (15).
    public var depth: Int
    /// Its title.
    public var title: String
    /// Whether it is done.
    public var done: Bool
    /// When it is due (a day or an instant with its offset, as `Item.due`); nil for none (written as `null`).
    public var due: String?
    /// The due's wall-clock reading in the client's time zone (`YYYY-MM-DDThh:mm`), exactly when `due` is an instant.
    public var dueLocal: String?
    /// Its priority.
    public var priority: Priority
    /// Its tags.
    public var tags: [String]
    /// Whether its notes are not empty.
    public var hasNotes: Bool
    /// How many direct subtasks the item has (in its list, whatever the view shows).
    public var children: Int
    /// How many of the item's direct subtasks are not done.
    public var openChildren: Int
    /// Whether rows below it exist in this view (its subtasks that are rows, shown or hidden by collapsing).
    public var hasChildren: Bool
    /// Whether the view hides the rows below it: true only when the view collapses it and `hasChildren`.
    public var collapsed: Bool
    /// Whether it is a row only as an ancestor of a matching item: it does not match the view's filter or smart group.
    public var context: Bool
    /// The item's own revision.
    public var revision: UInt64
    /// How it repeats; nil for not (written as `null`): a pane shows a ↻.
    public var `repeat`: Repeat?
    /// Whether it has alerts.
    public var hasAlerts: Bool

    /// Makes an item row.
    public init(id: ItemID, list: ListID, parent: ItemID? = nil, depth: Int = 0, title: String, done: Bool = false, due: String? = nil,
                dueLocal: String? = nil, priority: Priority = .none, tags: [String] = [], hasNotes: Bool = false, children: Int = 0,
                openChildren: Int = 0, hasChildren: Bool = false, collapsed: Bool = false, context: Bool = false, revision: UInt64,
                repeat: Repeat? = nil, hasAlerts: Bool = false) {
        self.id = id
        self.list = list
        self.parent = parent
        self.depth = depth
        self.title = title
        self.done = done
        self.due = due
        self.dueLocal = dueLocal
        self.priority = priority
        self.tags = tags
        self.hasNotes = hasNotes
        self.children = children
        self.openChildren = openChildren
        self.hasChildren = hasChildren
        self.collapsed = collapsed
        self.context = context
        self.revision = revision
        self.repeat = `repeat`
        self.hasAlerts = hasAlerts
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        guard case .string("item")? = fields.object["kind"] else {
            throw .invalidParams("\(fields.path("kind")): expected \"item\"")
        }
        try self.init(fields)
    }

    /// Reads the members of an object whose `kind` is `item`.
    init(_ fields: ObjectReader) throws(ResponseError) {
        try fields.rejectUnknown(Self.schema)
        id = try fields.required("id")
        list = try fields.required("list")
        parent = try fields.requiredNullable("parent")
        depth = try fields.nonNegative("depth")
        title = try fields.required("title")
        done = try fields.required("done")
        due = try fields.requiredNullable("due")
        dueLocal = try fields.optional("dueLocal")
        priority = try fields.required("priority")
        tags = try fields.required("tags")
        hasNotes = try fields.required("hasNotes")
        children = try fields.nonNegative("children")
        openChildren = try fields.nonNegative("openChildren")
        hasChildren = try fields.required("hasChildren")
        collapsed = try fields.required("collapsed")
        context = try fields.required("context")
        revision = try fields.counter("revision")
        `repeat` = try fields.requiredNullable("repeat")
        hasAlerts = try fields.required("hasAlerts")
    }

    public var json: JSON {
        var object: JSONObject = [
            "kind": "item", "id": id.json, "list": list.json, "parent": parent.json, "depth": .integer(Int64(depth)),
            "title": .string(title), "done": .bool(done), "due": due.json,
        ]
        object["dueLocal"] = dueLocal.map(JSON.string)
        object["priority"] = priority.json
        object["tags"] = tags.json
        object["hasNotes"] = .bool(hasNotes)
        object["children"] = .integer(Int64(children))
        object["openChildren"] = .integer(Int64(openChildren))
        object["hasChildren"] = .bool(hasChildren)
        object["collapsed"] = .bool(collapsed)
        object["context"] = .bool(context)
        object["revision"] = revision.json
        object["repeat"] = `repeat`.json
        object["hasAlerts"] = .bool(hasAlerts)
        return .object(object)
    }

    public static let schema = TypeSchema.object("ItemRow", doc: "An item as a row of a view.", [
        .required("kind", .constant("item"), "Says this is an item row."),
        .required("id", ItemID.schema.reference, "The item's id, also the row's."),
        .required("list", ListID.schema.reference, "The list it belongs to."),
        .required("parent", ItemID.schema.reference, nullable: true,
                  "The item it is a subtask of (a row of the view above it, maybe hidden by collapsing); null: the top level."),
        .required("depth", .integer, "How many ancestors it has: 0 (top level) to 15."),
        .required("title", .string, "Its title."),
        .required("done", .boolean, "Whether it is done."),
        .required("due", .string, nullable: true, "When it is due, as Item.due; null: none."),
        .optional("dueLocal", .string, "Present exactly when due is an instant: its wall-clock reading in the client's time zone (given at initialize), YYYY-MM-DDThh:mm."),
        .required("priority", Priority.schema.reference, "Its priority."),
        .required("tags", .array(.string), "Its tags."),
        .required("hasNotes", .boolean, "Whether its notes are not empty (fetch them with items/get)."),
        .required("children", .integer, "How many direct subtasks the item has, whatever the view shows."),
        .required("openChildren", .integer, "How many of the item's direct subtasks are not done."),
        .required("hasChildren", .boolean, "Whether rows below it exist in this view (shown, or hidden by collapsing it)."),
        .required("collapsed", .boolean, "Whether this view hides the rows below it: true only when collapsed here and hasChildren."),
        .required("context", .boolean,
                  "Whether it is a row only as an ancestor of a matching item (it does not match the filter or smart group)."),
        .required("revision", .integer, "The item's own revision."),
        .required("repeat", Repeat.schema.reference, nullable: true, "How it repeats, as Item.repeat; null: it does not."),
        .required("hasAlerts", .boolean, "Whether it has alerts (fetch them with items/get)."),
    ])
}

/// A section's header row, placed before the section's items.
public struct HeaderRow: ProtocolValue, Hashable {
    /// The section's id, also the row's: `s:due:today`, `s:priority:high`, `s:list:l3`, `s:done:false`.
    public var id: String
    /// The section's title ("Today", "High", the list's name, "Not Done").
    public var title: String
    /// How many items the section holds (items the filter hides do not count); at least 1.
    public var count: Int

    /// Makes a header row.
    public init(id: String, title: String, count: Int) {
        self.id = id
        self.title = title
        self.count = count
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        guard case .string("header")? = fields.object["kind"] else {
            throw .invalidParams("\(fields.path("kind")): expected \"header\"")
        }
        try self.init(fields)
    }

    /// Reads the members of an object whose `kind` is `header`.
    init(_ fields: ObjectReader) throws(ResponseError) {
        try fields.rejectUnknown(Self.schema)
        id = try fields.required("id")
        title = try fields.required("title")
        count = try fields.required("count")
    }

    public var json: JSON { ["kind": "header", "id": .string(id), "title": .string(title), "count": .integer(Int64(count))] }

    public static let schema = TypeSchema.object("HeaderRow", doc: "A section's header row.", [
        .required("kind", .constant("header"), "Says this is a header row."),
        .required("id", .string, "The section's id, also the row's: s:due:today, s:priority:high, s:list:l3, s:done:false."),
        .required("title", .string, "The section's title: Today, High, the list's name, Not Done."),
        .required("count", .integer, "How many items the section holds; items the filter hides do not count."),
    ])
}
