/// `items/update` (request): changes fields of one item or several, all or none.

import Wire

/// `items/update` params: `{"id": ITEM_ID}` or `{"ids": [ITEM_ID, ...]}`, plus at least one of `title`,
/// `notes`, `done`, `due` (`null` clears it), `priority`, `tags`, `repeat` (`null` clears it), `alerts` (`[]` clears them).
public struct ItemsUpdate: RequestMessage {
    public typealias Result = ItemsUpdateResult
    public static let method = "items/update"

    /// The items a request addresses: `id` (one) or `ids` (several).
    public enum Target: Sendable, Hashable {
        /// `id`: one item.
        case id(ItemID)
        /// `ids`: several items, not empty, no repeats.
        case ids([ItemID])

        /// The items, in request order.
        public var ids: [ItemID] {
            switch self {
            case .id(let id): [id]
            case .ids(let ids): ids
            }
        }
    }

    /// The items.
    public var target: Target
    /// A new title; nil leaves it.
    public var title: String?
    /// New notes; nil leaves them.
    public var notes: String?
    /// Done or not; nil leaves it.
    public var done: Bool?
    /// A new due (`YYYY-MM-DD` or `YYYY-MM-DDThh:mm[:ss[.fff]](Z|±hh:mm)`, the server checks), `.cleared`
    /// (`null`) to remove it, `.unchanged` (absent) to leave it.
    public var due: Patch<String>
    /// A new priority; nil leaves it.
    public var priority: Priority?
    /// New tags, replacing the old ones; nil leaves them.
    public var tags: [String]?
    /// A new repeat, `.cleared` (`null`) to stop repeating, `.unchanged` (absent) to leave it.
    public var `repeat`: Patch<Repeat>
    /// New alerts, replacing the old ones (`[]` clears them); nil leaves them.
    public var alerts: [Alert]?

    /// Makes the params; the decoder refuses params that change nothing.
    public init(_ target: Target, title: String? = nil, notes: String? = nil, done: Bool? = nil,
                due: Patch<String> = .unchanged, priority: Priority? = nil, tags: [String]? = nil,
                repeat: Patch<Repeat> = .unchanged, alerts: [Alert]? = nil) {
        self.target = target
        self.title = title
        self.notes = notes
        self.done = done
        self.due = due
        self.priority = priority
        self.tags = tags
        self.repeat = `repeat`
        self.alerts = alerts
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        // Both members' types first (a `null` is refused naming its member), then the choice.
        let id: ItemID? = try fields.optional("id")
        let ids: [ItemID]? = fields.contains("ids") ? try fields.identifiers("ids") : nil
        switch (id, ids) {
        case (let id?, nil): target = .id(id)
        case (nil, let ids?): target = .ids(ids)
        case (.some, .some): throw .invalidParams("\(fields.path): give id or ids, not both")
        case (nil, nil): throw .invalidParams("\(fields.path("id")): missing; give id (one item) or ids (several)")
        }
        title = try fields.optional("title")
        notes = try fields.optional("notes")
        done = try fields.optional("done")
        due = try fields.patch("due")
        priority = try fields.optional("priority")
        tags = try fields.optional("tags")
        `repeat` = try fields.patch("repeat")
        alerts = try fields.optional("alerts")
        guard !changesNothing else {
            throw .invalidParams("\(fields.path): nothing to change; give at least one of title, notes, done, due, priority, tags, repeat, alerts")
        }
    }

    /// Whether no field is given.
    public var changesNothing: Bool {
        title == nil && notes == nil && done == nil && due == .unchanged && priority == nil && tags == nil && `repeat` == .unchanged
            && alerts == nil
    }

    public var json: JSON {
        var object = JSONObject()
        switch target {
        case .id(let id): object["id"] = id.json
        case .ids(let ids): object["ids"] = ids.json
        }
        object["title"] = title.map(JSON.string)
        object["notes"] = notes.map(JSON.string)
        object["done"] = done.map(JSON.bool)
        due.write("due", into: &object)
        object["priority"] = priority?.json
        object["tags"] = tags?.json
        `repeat`.write("repeat", into: &object)
        object["alerts"] = alerts?.json
        return .object(object)
    }

    public static let schema = TypeSchema.object(
        "ItemsUpdate", doc: "items/update params: an absent field is left alone; at least one field is given.", [
            .optional("id", ItemID.schema.reference, "One of id, ids: one item."),
            .optional("ids", .array(ItemID.schema.reference), "One of id, ids: several items, updated all or none; not empty, no repeats, at most 100000."),
            .optional("title", .string, "A new title: 1 to 1,000 characters, not only white space."),
            .optional("notes", .string, "New notes: at most 100,000 characters."),
            .optional("done", .boolean, "Done or not; marking an item done sets completed, not done clears it."),
            .optional("due", .string, nullable: true, "A new due (YYYY-MM-DD or YYYY-MM-DDThh:mm[:ss[.fff]](Z|±hh:mm)); null clears it."),
            .optional("priority", Priority.schema.reference, "A new priority."),
            .optional("tags", .array(.string), "New tags, replacing the old ones."),
            .optional("repeat", Repeat.schema.reference, nullable: true, "A new repeat (the item must keep a due: else repeatWithoutDue); null: stop repeating (the history stays)."),
            .optional("alerts", .array(Alert.schema.reference), "New alerts, replacing the old ones; [] clears them."),
        ], exactlyOneOf: [["id", "ids"]])
}

/// What `items/update` answers: the items in full, the store's revision, and whether anything changed.
public struct ItemsUpdateResult: ProtocolValue, Hashable {
    /// The items after the request, in request order.
    public var items: [Item]
    /// The store's revision after the request.
    public var revision: UInt64
    /// false when the request left every item as it was (the revision stayed).
    public var changed: Bool
    /// The repeating items `done: true` moved on to their next occurrence instead of marking them done, in request
    /// order (empty otherwise).
    public var advanced: [ItemID]

    /// Makes the result.
    public init(items: [Item], revision: UInt64, changed: Bool, advanced: [ItemID] = []) {
        self.items = items
        self.revision = revision
        self.changed = changed
        self.advanced = advanced
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        items = try fields.required("items")
        revision = try fields.counter("revision")
        changed = try fields.required("changed")
        advanced = try fields.required("advanced")
    }

    public var json: JSON { ["items": items.json, "revision": revision.json, "changed": .bool(changed), "advanced": advanced.json] }

    public static let schema = TypeSchema.object("ItemsUpdateResult", doc: "items/update's result.", [
        .required("items", .array(Item.schema.reference), "The items after the request, in full, in request order."),
        .required("revision", .integer, "The store's revision after the request."),
        .required("changed", .boolean, "false when the request left every item as it was: the revision stayed."),
        .required("advanced", .array(ItemID.schema.reference),
                  "The repeating items done: true moved on to their next occurrence (not done, the next due in items), in request order; [] for none."),
    ])
}
