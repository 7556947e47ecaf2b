/// `items/create` (request): a new item.

import Wire

/// `items/create` params: `{"list": LIST_ID, "title": TITLE, "notes"?, "done"?, "due"?: DUE | null,
/// "priority"?, "tags"?, "repeat"?: REPEAT | null, "before"?: ITEM_ID | null, "parent"?: ITEM_ID | null, "alerts"?: [ALERT]}`. Absent members take their defaults
/// (no notes, not done, no due, priority none, no tags, last at the top level). With `before`, the item goes before
/// it as its sibling (`parent`, if given, must be `before`'s parent); without, it is the last subtask of `parent`,
/// or last at the top level.
public struct ItemsCreate: RequestMessage, Hashable {
    public typealias Result = ItemsCreateResult
    public static let method = "items/create"

    /// The list it goes in.
    public var list: ListID
    /// 1 to 1,000 characters, not only white space (the server checks).
    public var title: String
    /// Its notes; nil: none.
    public var notes: String?
    /// Whether it starts done; nil: not done.
    public var done: Bool?
    /// When it is due: `YYYY-MM-DD` or `YYYY-MM-DDThh:mm[:ss[.fff]](Z|±hh:mm)` (the server checks);
    /// nil (absent or `null`): none.
    public var due: String?
    /// Its priority; nil: none.
    public var priority: Priority?
    /// Its tags; nil: none.
    public var tags: [String]?
    /// How it repeats (it needs a due); nil (absent or `null`): it does not.
    public var `repeat`: Repeat?
    /// The item (of the same list) to go before, as its sibling; nil (absent or `null`): last among the subtasks of
    /// `parent` (at the top level when there is none).
    public var before: ItemID?
    /// Whose subtask it is: `.unspecified` (absent) is `before`'s parent, or the top level without `before`;
    /// `.topLevel` (`null`) the top level; `.item` that item (of `list`).
    public var parent: ParentChoice
    /// Its alerts; nil: none.
    public var alerts: [Alert]?

    /// Makes the params.
    public init(list: ListID, title: String, notes: String? = nil, done: Bool? = nil, due: String? = nil,
                priority: Priority? = nil, tags: [String]? = nil, repeat: Repeat? = nil, before: ItemID? = nil,
                parent: ParentChoice = .unspecified, alerts: [Alert]? = nil) {
        self.list = list
        self.title = title
        self.notes = notes
        self.done = done
        self.due = due
        self.priority = priority
        self.tags = tags
        self.repeat = `repeat`
        self.before = before
        self.parent = parent
        self.alerts = alerts
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        list = try fields.required("list")
        title = try fields.required("title")
        notes = try fields.optional("notes")
        done = try fields.optional("done")
        due = try fields.nullable("due")
        priority = try fields.optional("priority")
        tags = try fields.optional("tags")
        `repeat` = try fields.nullable("repeat")
        before = try fields.nullable("before")
        parent = try ParentChoice(fields, "parent")
        alerts = try fields.optional("alerts")
    }

    public var json: JSON {
        var object: JSONObject = ["list": list.json, "title": .string(title)]
        object["notes"] = notes.map(JSON.string)
        object["done"] = done.map(JSON.bool)
        object["due"] = due.map(JSON.string)
        object["priority"] = priority?.json
        object["tags"] = tags?.json
        object["repeat"] = `repeat`?.json
        object["before"] = before?.json
        parent.write("parent", into: &object)
        object["alerts"] = alerts?.json
        return .object(object)
    }

    public static let schema = TypeSchema.object("ItemsCreate", doc: "items/create params.", [
        .required("list", ListID.schema.reference, "The list it goes in."),
        .required("title", .string, "1 to 1,000 characters, not only white space."),
        .optional("notes", .string, "At most 100,000 characters; default \"\"."),
        .optional("done", .boolean, "Whether it starts done; default false."),
        .optional("due", .string, nullable: true, "YYYY-MM-DD or YYYY-MM-DDThh:mm[:ss[.fff]](Z|±hh:mm); null: none."),
        .optional("priority", Priority.schema.reference, "Default none."),
        .optional("tags", .array(.string), "At most 50, each 1 to 100 characters; default []."),
        .optional("repeat", Repeat.schema.reference, nullable: true, "How it repeats (it needs a due: else repeatWithoutDue); null: it does not (the default)."),
        .optional("before", ItemID.schema.reference, nullable: true,
                  "The item of the same list to go before, as its sibling; null: last among parent's subtasks (or at the top level)."),
        .optional("parent", ItemID.schema.reference, nullable: true,
                  "The item (of list) whose subtask it is; null: the top level; absent: before's parent, or the top level without before."),
        .optional("alerts", .array(Alert.schema.reference), "At most 20 alerts; duplicates dropped (the first kept); default []."),
    ])
}

/// What `items/create` answers: the new item in full, and the store's revision.
public struct ItemsCreateResult: ProtocolValue, Hashable {
    /// The new item.
    public var item: Item
    /// The store's revision after the change.
    public var revision: UInt64

    /// Makes the result.
    public init(item: Item, revision: UInt64) {
        self.item = item
        self.revision = revision
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        item = try fields.required("item")
        revision = try fields.counter("revision")
    }

    public var json: JSON { ["item": item.json, "revision": revision.json] }

    public static let schema = TypeSchema.object("ItemsCreateResult", doc: "items/create's result.", [
        .required("item", Item.schema.reference, "The new item in full."),
        .required("revision", .integer, "The store's revision after the change."),
    ])
}
