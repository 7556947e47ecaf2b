/// `reminder/fired` (notification, server → client): an alert's time has come.

import Wire

/// `reminder/fired` params: `{"item": ITEM, "alert": ALERT, "fireAt": INSTANT, "late": BOOL}`. Sent to a client
/// that watches reminders, once per reminder across every process sharing the store (a snoozed one once more
/// when its snooze ends).
public struct ReminderFired: NotificationMessage, Hashable {
    public static let method = "reminder/fired"

    /// The item, in full, as it is now.
    public var item: Item
    /// The alert that fired (the first of the item's alerts with this instant).
    public var alert: Alert
    /// The instant the alert fires at, UTC with milliseconds: with `item`, the reminder's identity (what
    /// `reminders/dismiss` and `reminders/snooze` name).
    public var fireAt: String
    /// Whether it fires more than 60 seconds after it was due (no taskls was running, say): after `fireAt`, or
    /// after the end of its snooze.
    public var late: Bool

    /// Makes the params.
    public init(item: Item, alert: Alert, fireAt: String, late: Bool) {
        self.item = item
        self.alert = alert
        self.fireAt = fireAt
        self.late = late
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        item = try fields.required("item")
        alert = try fields.required("alert")
        fireAt = try fields.required("fireAt")
        late = try fields.required("late")
    }

    public var json: JSON { ["item": item.json, "alert": alert.json, "fireAt": .string(fireAt), "late": .bool(late)] }

    public static let schema = TypeSchema.object("ReminderFired", doc: "reminder/fired params: one reminder, fired once across processes.", [
        .required("item", Item.schema.reference, "The item in full."),
        .required("alert", Alert.schema.reference, "The alert that fired."),
        .required("fireAt", .string, "The alert's instant (UTC, YYYY-MM-DDThh:mm:ss.fffZ); with item, the reminder's identity."),
        .required("late", .boolean, "Whether it fires more than 60 s after it was due (its instant, or the end of its snooze)."),
    ])
}
