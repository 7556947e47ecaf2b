/// `text/parseItem` (request): the fields a person meant by a line of quick entry, with its spans and warnings.

import Wire

/// `text/parseItem` params: `{"text": TEXT, "list"?: LIST_ID}`. `list` is the list the line is typed in: the
/// result's `list` when the text names none.
public struct TextParseItem: RequestMessage, Hashable {
    public typealias Result = TextParseItemResult
    public static let method = "text/parseItem"

    /// What the person typed.
    public var text: String
    /// The list the line is typed in, if any.
    public var list: ListID?

    /// Makes the params.
    public init(text: String, list: ListID? = nil) {
        self.text = text
        self.list = list
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        text = try fields.required("text")
        list = try fields.optional("list")
    }

    public var json: JSON {
        var object: JSONObject = ["text": .string(text)]
        object["list"] = list?.json
        return .object(object)
    }

    public static let schema = TypeSchema.object("TextParseItem", doc: "text/parseItem params.", [
        .required("text", .string, "What the person typed (the quick-entry grammar of protocol.md)."),
        .optional("list", ListID.schema.reference, "The list the line is typed in: the result's list when the text names none; it must exist."),
    ])
}

/// The fields of an item a line gave: exactly the members `items/create` (and, but for `list`, `items/update`)
/// take, each present only when the line gave it.
public struct ItemTextFields: ProtocolValue {
    /// The title words, joined by one space.
    public var title: String?
    /// The due (`YYYY-MM-DD`, or a date-time with the client's offset then); `.cleared` for `due:none`.
    public var due: Patch<String>
    /// The priority.
    public var priority: Priority?
    /// The tags, in order, without repeats.
    public var tags: [String]?
    /// The list `@name` named, else the params' `list`.
    public var list: ListID?
    /// The notes (after `//`).
    public var notes: String?
    /// The repeat a repeat phrase gave.
    public var `repeat`: Repeat?
    /// The alerts the alert phrases gave; `[]` for `remind none`.
    public var alerts: [Alert]?

    /// Makes the fields.
    public init(title: String? = nil, due: Patch<String> = .unchanged, priority: Priority? = nil, tags: [String]? = nil,
                list: ListID? = nil, notes: String? = nil, repeat: Repeat? = nil, alerts: [Alert]? = nil) {
        self.title = title
        self.due = due
        self.priority = priority
        self.tags = tags
        self.list = list
        self.notes = notes
        self.repeat = `repeat`
        self.alerts = alerts
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        title = try fields.optional("title")
        due = try fields.patch("due")
        priority = try fields.optional("priority")
        tags = try fields.optional("tags")
        list = try fields.optional("list")
        notes = try fields.optional("notes")
        `repeat` = try fields.optional("repeat")
        alerts = try fields.optional("alerts")
    }

    public var json: JSON {
        var object = JSONObject()
        object["title"] = title.map(JSON.string)
        due.write("due", into: &object)
        object["priority"] = priority?.json
        object["tags"] = tags?.json
        object["list"] = list?.json
        object["notes"] = notes.map(JSON.string)
        object["repeat"] = `repeat`?.json
        object["alerts"] = alerts?.json
        return .object(object)
    }

    public static let schema = TypeSchema.object(
        "ItemTextFields", doc: "The fields of an item a line of quick entry gave, as items/create takes them (items/update: all but list); a member is present only when the line gave it.", [
            .optional("title", .string, "The title words, joined by one space; absent when there are none."),
            .optional("due", .string, nullable: true, "YYYY-MM-DD, or YYYY-MM-DDThh:mm:ss(Z|±hh:mm) with the client's offset at that instant; null for due:none (no due; on update: clear it)."),
            .optional("priority", Priority.schema.reference, "The priority."),
            .optional("tags", .array(.string), "The tags, in order, without repeats."),
            .optional("list", ListID.schema.reference, "The list @name named, else the params' list."),
            .optional("notes", .string, "The notes: what follows //, trimmed (\"\" when nothing does)."),
            .optional("repeat", Repeat.schema.reference, "The repeat a repeat phrase gave (every 2 weeks, +1w, …); with no due phrase, due is the rule's first occurrence on or after today."),
            .optional("alerts", .array(Alert.schema.reference), "The alerts the alert phrases gave (remind 1h before, remind fri 9:00, …), in order, without repeats; [] for remind none (on update: clear them)."),
        ])
}

/// What `text/parseItem` answers.
public struct TextParseItemResult: ProtocolValue {
    /// The fields.
    public var fields: ItemTextFields
    /// Every token, in text order.
    public var spans: [TextSpan]
    /// What could not be used as it seemed meant, in text order.
    public var warnings: [TextWarning]

    /// Makes the result.
    public init(fields: ItemTextFields, spans: [TextSpan], warnings: [TextWarning]) {
        self.fields = fields
        self.spans = spans
        self.warnings = warnings
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        self.fields = try fields.required("fields")
        spans = try fields.required("spans")
        warnings = try fields.required("warnings")
    }

    public var json: JSON { ["fields": fields.json, "spans": spans.json, "warnings": warnings.json] }

    public static let schema = TypeSchema.object("TextParseItemResult", doc: "text/parseItem's result.", [
        .required("fields", ItemTextFields.schema.reference, "The fields the line gave."),
        .required("spans", .array(TextSpan.schema.reference), "Every token, in text order: disjoint, and together they hold every character that is not white space."),
        .required("warnings", .array(TextWarning.schema.reference), "What could not be used as it seemed meant, in text order; empty when all was."),
    ])
}
