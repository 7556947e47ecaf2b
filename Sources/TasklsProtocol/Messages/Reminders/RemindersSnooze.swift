/// `reminders/snooze` (request): a fired reminder fires again later.

import Wire

/// `reminders/snooze` params: `{"item": ITEM_ID, "fireAt": INSTANT}` plus `"until": INSTANT` or `"minutes": N`
/// (from now, 1 to 527040). The reminder fires again then, once across processes.
public struct RemindersSnooze: RequestMessage, Hashable {
    public typealias Result = RemindersSnoozeResult
    public static let method = "reminders/snooze"

    /// How long: until an instant, or for minutes from now.
    public enum Length: Sendable, Hashable {
        /// `until`: an instant.
        case until(String)
        /// `minutes`: from now.
        case minutes(Int)
    }

    /// The reminder's item.
    public var item: ItemID
    /// The reminder's instant (any offset).
    public var fireAt: String
    /// Until when.
    public var length: Length

    /// Makes the params.
    public init(item: ItemID, fireAt: String, _ length: Length) {
        self.item = item
        self.fireAt = fireAt
        self.length = length
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        item = try fields.required("item")
        fireAt = try fields.required("fireAt")
        let until: String? = try fields.optional("until")
        let minutes: Int? = try fields.optional("minutes")
        switch (until, minutes) {
        case (let until?, nil): length = .until(until)
        case (nil, let minutes?):
            guard (1...527_040).contains(minutes) else {
                throw .invalidParams("\(fields.path("minutes")): must be 1 to 527040 (366 days)")
            }
            length = .minutes(minutes)
        case (.some, .some): throw .invalidParams("\(fields.path): give until or minutes, not both")
        case (nil, nil): throw .invalidParams("\(fields.path("until")): missing; give until (an instant) or minutes")
        }
    }

    public var json: JSON {
        var object: JSONObject = ["item": item.json, "fireAt": .string(fireAt)]
        switch length {
        case .until(let instant): object["until"] = .string(instant)
        case .minutes(let minutes): object["minutes"] = .integer(Int64(minutes))
        }
        return .object(object)
    }

    public static let schema = TypeSchema.object("RemindersSnooze", doc: "reminders/snooze params.", [
        .required("item", ItemID.schema.reference, "The reminder's item."),
        .required("fireAt", .string, "The reminder's instant, as reminder/fired gave it (any offset)."),
        .optional("until", .string, "One of until, minutes: when it fires again, YYYY-MM-DDThh:mm[:ss[.fff]](Z|±hh:mm)."),
        .optional("minutes", .integer, "One of until, minutes: how many minutes from now it fires again, 1 to 527040."),
    ], exactlyOneOf: [["until", "minutes"]])
}

/// What `reminders/snooze` answers: when the reminder fires again.
public struct RemindersSnoozeResult: ProtocolValue, Hashable {
    /// When it fires again (UTC, with milliseconds).
    public var until: String

    /// Makes the result.
    public init(until: String) { self.until = until }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        until = try fields.required("until")
    }

    public var json: JSON { ["until": .string(until)] }

    public static let schema = TypeSchema.object("RemindersSnoozeResult", doc: "reminders/snooze's result.", [
        .required("until", .string, "When it fires again (UTC, YYYY-MM-DDThh:mm:ss.fffZ)."),
    ])
}
