/// An item in full, as `items/get` and the results of `items/create` and `items/update` give it.

import Wire

/// A task in full. Times are UTC ISO 8601 with milliseconds (`2026-11-22T09:30:00.000Z`); a due is a
/// day (`2026-11-23`) or an instant with its offset in canonical form (`2026-11-23T09:30:00+01:00`:
/// seconds always, milliseconds only when not zero, `Z` for a zero offset).
public struct Item: ProtocolValue, Hashable {
    /// The item's id.
    public var id: ItemID
    /// The list it belongs to.
    public var list: ListID
    /// The item it is a subtask of (an item of the same list); nil at the top level (written as `null`).
    public var parent: ItemID?
    /// 1 to 1,000 characters, not only white space.
    public var title: String
    /// At most 100,000 characters.
    public var notes: String
    /// Whether it is done.
    public var done: Bool
    /// When it last became done (a UTC time); nil while not done (written as `null`).
    public var completed: String?
    /// When it is due (a day or an instant with its offset); nil for none (written as `null`).
    public var due: String?
    /// The due's wall-clock reading in the client's time zone, `YYYY-MM-DDThh:mm`: present exactly when `due` is an
    /// instant (a day-only due has none), so a client shows the day and time without a time zone database.
    public var dueLocal: String?
    /// Its priority.
    public var priority: Priority
    /// At most 50 tags, each 1 to 100 characters, trimmed, without repeats.
    public var tags: [String]
    /// How many direct subtasks it has.
    public var children: Int
    /// How many of its direct subtasks are not done.
    public var openChildren: Int
    /// When it was created (a UTC time).
    public var created: String
    /// When it last changed (a UTC time).
    public var modified: String
    /// Its own revision: 1 when created, +1 on every change to it.
    public var revision: UInt64
    /// How it repeats; nil for not (written as `null`).
    public var `repeat`: Repeat?
    /// Its occurrences completed and skipped so far (all zero for an item that never repeated).
    public var occurrences: Occurrences
    /// Its alerts (at most 20, without duplicates); empty when none.
    public var alerts: [Alert]
    /// The identity it had in the file it was imported from (Taskwarrior's uuid, iCalendar's UID); nil for an item
    /// made in taskls (the member is then absent). Read-only.
    public var uid: String?
    /// The fields of its file taskls has no place for, kept for export; empty for most items (the member is then
    /// absent). Read-only.
    public var extras: [ItemExtra]

    /// Makes an item.
    public init(id: ItemID, list: ListID, parent: ItemID? = nil, title: String, notes: String = "", done: Bool = false,
                completed: String? = nil, due: String? = nil, dueLocal: String? = nil, priority: Priority = .none, tags: [String] = [],
                children: Int = 0, openChildren: Int = 0, created: String, modified: String, revision: UInt64,
                repeat: Repeat? = nil, occurrences: Occurrences = Occurrences(), alerts: [Alert] = [], uid: String? = nil,
                extras: [ItemExtra] = []) {
        self.id = id
        self.list = list
        self.parent = parent
        self.title = title
        self.notes = notes
        self.done = done
        self.completed = completed
        self.due = due
        self.dueLocal = dueLocal
        self.priority = priority
        self.tags = tags
        self.children = children
        self.openChildren = openChildren
        self.created = created
        self.modified = modified
        self.revision = revision
        self.repeat = `repeat`
        self.occurrences = occurrences
        self.alerts = alerts
        self.uid = uid
        self.extras = extras
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        id = try fields.required("id")
        list = try fields.required("list")
        parent = try fields.requiredNullable("parent")
        title = try fields.required("title")
        notes = try fields.required("notes")
        done = try fields.required("done")
        completed = try fields.requiredNullable("completed")
        due = try fields.requiredNullable("due")
        dueLocal = try fields.optional("dueLocal")
        priority = try fields.required("priority")
        tags = try fields.required("tags")
        children = try fields.nonNegative("children")
        openChildren = try fields.nonNegative("openChildren")
        created = try fields.required("created")
        modified = try fields.required("modified")
        revision = try fields.counter("revision")
        `repeat` = try fields.requiredNullable("repeat")
        occurrences = try fields.required("occurrences")
        alerts = try fields.required("alerts")
        uid = try fields.optional("uid")
        extras = try fields.optional("extras") ?? []
    }

    public var json: JSON {
        var object: JSONObject = [
            "id": id.json, "list": list.json, "parent": parent.json, "title": .string(title), "notes": .string(notes), "done": .bool(done),
            "completed": completed.json, "due": due.json,
        ]
        object["dueLocal"] = dueLocal.map(JSON.string)
        object["priority"] = priority.json
        object["tags"] = tags.json
        object["children"] = .integer(Int64(children))
        object["openChildren"] = .integer(Int64(openChildren))
        object["created"] = .string(created)
        object["modified"] = .string(modified)
        object["revision"] = revision.json
        object["repeat"] = `repeat`.json
        object["occurrences"] = occurrences.json
        object["alerts"] = alerts.json
        object["uid"] = uid.map(JSON.string)
        if !extras.isEmpty { object["extras"] = extras.json }
        return .object(object)
    }

    public static let schema = TypeSchema.object("Item", doc: "An item (a task) in full.", [
        .required("id", ItemID.schema.reference, "The item's id."),
        .required("list", ListID.schema.reference, "The list it belongs to."),
        .required("parent", ItemID.schema.reference, nullable: true, "The item (of the same list) it is a subtask of; null: the top level."),
        .required("title", .string, "1 to 1,000 characters, not only white space."),
        .required("notes", .string, "At most 100,000 characters."),
        .required("done", .boolean, "Whether it is done."),
        .required("completed", .string, nullable: true, "When it last became done (UTC, YYYY-MM-DDThh:mm:ss.fffZ); null while not done."),
        .required("due", .string, nullable: true, "A day (YYYY-MM-DD) or an instant with its offset (YYYY-MM-DDThh:mm:ss[.fff](Z|±hh:mm), canonical); null: none."),
        .optional("dueLocal", .string, "Present exactly when due is an instant: its wall-clock reading in the client's time zone (given at initialize), YYYY-MM-DDThh:mm."),
        .required("priority", Priority.schema.reference, "Its priority."),
        .required("tags", .array(.string), "At most 50 tags, each 1 to 100 characters; trimmed, repeats dropped, order kept."),
        .required("children", .integer, "How many direct subtasks it has."),
        .required("openChildren", .integer, "How many of its direct subtasks are not done."),
        .required("created", .string, "When it was created (UTC, YYYY-MM-DDThh:mm:ss.fffZ)."),
        .required("modified", .string, "When it last changed (UTC, YYYY-MM-DDThh:mm:ss.fffZ)."),
        .required("revision", .integer, "Its own revision: 1 when created, +1 on every change to it."),
        .required("repeat", Repeat.schema.reference, nullable: true, "How it repeats; null: it does not."),
        .required("occurrences", Occurrences.schema.reference, "Its occurrences completed and skipped so far (zeros when it never repeated)."),
        .required("alerts", .array(Alert.schema.reference), "Its alerts, at most 20, without duplicates; [] when none."),
        .optional("uid", .string, "The identity it had in the file it was imported from (Taskwarrior's uuid, iCalendar's UID), 1 to 255 characters, unique among items; absent for an item made in taskls. Read-only."),
        .optional("extras", .array(ItemExtra.schema.reference), "The fields of its file taskls has no place for, in order, kept for export (at most 500); absent when none. Read-only."),
    ])
}
