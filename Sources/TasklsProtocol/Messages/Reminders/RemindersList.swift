/// `reminders/list` (request): the reminders fired and not dismissed, so a pane that restarts can show them.

import Wire

/// `reminders/list` params: none.
public struct RemindersList: RequestMessage, Hashable {
    public typealias Result = RemindersListResult
    public static let method = "reminders/list"

    /// Makes the params.
    public init() {}

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
    }

    public var json: JSON { .object([:]) }

    public static let schema = TypeSchema.object("RemindersList", doc: "reminders/list params: none.", [])
}

/// A fired reminder not dismissed, of an item not done.
public struct PendingReminder: ProtocolValue, Hashable {
    /// The item, in full.
    public var item: Item
    /// The alert that fired.
    public var alert: Alert
    /// The alert's instant (UTC, with milliseconds).
    public var fireAt: String
    /// When it last fired (UTC, with milliseconds).
    public var firedAt: String

    /// Makes a pending reminder.
    public init(item: Item, alert: Alert, fireAt: String, firedAt: String) {
        self.item = item
        self.alert = alert
        self.fireAt = fireAt
        self.firedAt = firedAt
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        item = try fields.required("item")
        alert = try fields.required("alert")
        fireAt = try fields.required("fireAt")
        firedAt = try fields.required("firedAt")
    }

    public var json: JSON { ["item": item.json, "alert": alert.json, "fireAt": .string(fireAt), "firedAt": .string(firedAt)] }

    public static let schema = TypeSchema.object("PendingReminder", doc: "A fired reminder, not dismissed, of an item not done.", [
        .required("item", Item.schema.reference, "The item in full."),
        .required("alert", Alert.schema.reference, "The alert that fired."),
        .required("fireAt", .string, "The alert's instant (UTC, YYYY-MM-DDThh:mm:ss.fffZ)."),
        .required("firedAt", .string, "When it last fired (UTC, YYYY-MM-DDThh:mm:ss.fffZ)."),
    ])
}

/// What `reminders/list` answers.
public struct RemindersListResult: ProtocolValue, Hashable {
    /// The pending reminders, earliest `fireAt` first (then by item).
    public var reminders: [PendingReminder]

    /// Makes the result.
    public init(reminders: [PendingReminder]) { self.reminders = reminders }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        reminders = try fields.required("reminders")
    }

    public var json: JSON { ["reminders": reminders.json] }

    public static let schema = TypeSchema.object("RemindersListResult", doc: "reminders/list's result.", [
        .required("reminders", .array(PendingReminder.schema.reference), "The pending reminders, earliest fireAt first."),
    ])
}
