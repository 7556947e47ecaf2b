/// An alert of an item: `{"at": INSTANT}` or `{"offset": MINUTES}`.

import Wire

/// When an item reminds its user: at an instant, or minutes from its due (iCalendar's VALARM trigger, absolute or
/// relative to the due).
public enum Alert: ProtocolValue, Hashable {
    /// `{"at": INSTANT}`: at this instant (`YYYY-MM-DDThh:mm[:ss[.fff]](Z|±hh:mm)`; the server checks it and answers
    /// it in canonical UTC form with milliseconds), whatever the due.
    case at(String)
    /// `{"offset": MINUTES}`: that many minutes after the due (negative: before it). For a due instant, that long
    /// after it; for a due day, when the wall clock reads that long after the day's local midnight in the zone of
    /// the process that fires it (`540`: on the day at 9:00; `-360`: the day before at 18:00). Never fires without
    /// a due.
    case offset(Int)

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        let at: String? = try fields.optional("at")
        let offset: Int? = try fields.optional("offset")
        switch (at, offset) {
        case (let at?, nil): self = .at(at)
        case (nil, let offset?): self = .offset(offset)
        case (.some, .some): throw .invalidParams("\(path): give at or offset, not both")
        case (nil, nil): throw .invalidParams("\(path): give at (an instant) or offset (minutes from the due)")
        }
    }

    public var json: JSON {
        switch self {
        case .at(let instant): ["at": .string(instant)]
        case .offset(let minutes): ["offset": .integer(Int64(minutes))]
        }
    }

    public static let schema = TypeSchema.object(
        "Alert", doc: "An alert: at an instant, or minutes from the item's due (negative: before it).", [
            .optional("at", .string, "One of at, offset: an instant, YYYY-MM-DDThh:mm[:ss[.fff]](Z|±hh:mm); answered in UTC with milliseconds."),
            .optional("offset", .integer,
                      "One of at, offset: minutes after the due (negative: before), at most 527040 either way; on a due day, from its local midnight (540: at 9:00)."),
        ], exactlyOneOf: [["at", "offset"]])
}
