/// `reminders/dismiss` (request): a fired reminder is done with; it never fires again.

import Wire

/// `reminders/dismiss` params: `{"item": ITEM_ID, "fireAt": INSTANT}`, a reminder as `reminder/fired` named it.
public struct RemindersDismiss: RequestMessage, Hashable {
    public typealias Result = EmptyResult
    public static let method = "reminders/dismiss"

    /// The reminder's item.
    public var item: ItemID
    /// The reminder's instant (any offset; the server compares instants).
    public var fireAt: String

    /// Makes the params.
    public init(item: ItemID, fireAt: String) {
        self.item = item
        self.fireAt = fireAt
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        item = try fields.required("item")
        fireAt = try fields.required("fireAt")
    }

    public var json: JSON { ["item": item.json, "fireAt": .string(fireAt)] }

    public static let schema = TypeSchema.object("RemindersDismiss", doc: "reminders/dismiss params.", [
        .required("item", ItemID.schema.reference, "The reminder's item."),
        .required("fireAt", .string, "The reminder's instant, as reminder/fired gave it (any offset)."),
    ])
}
