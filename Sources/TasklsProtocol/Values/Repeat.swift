/// How an item repeats (`repeat`: an RFC 5545 RRULE and what the next due counts from) and its history of
/// occurrences (`occurrences`).

import Wire

/// What a repeating item's next due counts from when it is completed: org-mode's `+`, `++` and `.+`.
public enum RepeatAnchor: String, CaseIterable, ProtocolValue, Hashable {
    /// org `+`: the first occurrence after the current due (even if still in the past).
    case due
    /// org `++`: the first occurrence after the current due that is in the future.
    case dueFuture
    /// org `.+`: counted from the completion.
    case completion

    public init(json: JSON, path: String) throws(ResponseError) {
        self = try named(json, path: path) { "unknown anchor '\($0)'; expected due, dueFuture or completion" }
    }

    public var json: JSON { .string(rawValue) }

    public static let schema = TypeSchema.enumeration("RepeatAnchor", doc: "What a repeating item's next due counts from.", [
        .init("due", "org +: the first occurrence after the current due, even if it is still in the past."),
        .init("dueFuture", "org ++: the first occurrence after the current due that is in the future (after today for a day)."),
        .init("completion", "org .+: INTERVAL units after the day it is completed, then the first day the rule allows."),
    ])
}

/// `{"rule": RRULE, "from": ANCHOR, "text": WORDS}`: how an item repeats (`text` in results only).
public struct Repeat: ProtocolValue, Hashable {
    /// The RFC 5545 RRULE value (`FREQ=WEEKLY;BYDAY=MO,WE`), without `RRULE:` and without DTSTART (the due is the
    /// start); the server checks it and answers it in canonical form.
    public var rule: String
    /// What the next due counts from.
    public var from: RepeatAnchor
    /// The repeat in words, as every pane shows it (`every 2 weeks on mon, wed`): the quick-entry phrase that
    /// reads back as the same rule and anchor where the grammar has one. Written by the server in results;
    /// ignored when a client sends it back (a repeat copied from an item may be sent as it is); nil in params.
    public var text: String?

    /// Makes a repeat.
    public init(rule: String, from: RepeatAnchor = .due, text: String? = nil) {
        self.rule = rule
        self.from = from
        self.text = text
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        rule = try fields.required("rule")
        from = try fields.required("from")
        text = try fields.optional("text")
    }

    public var json: JSON {
        var object: JSONObject = ["rule": .string(rule), "from": from.json]
        object["text"] = text.map { .string($0) }
        return .object(object)
    }

    public static let schema = TypeSchema.object("Repeat", doc: "How an item repeats.", [
        .required("rule", .string, "An RFC 5545 RRULE value (FREQ, INTERVAL, BYDAY, BYMONTHDAY, BYMONTH, COUNT or UNTIL, WKST), the due being its start."),
        .required("from", RepeatAnchor.schema.reference, "What the next due counts from: due (org +), dueFuture (org ++), completion (org .+)."),
        .optional("text", .string, "The repeat in words (every 2 weeks on mon, wed): always in results, where it is the quick-entry phrase that reads back as the same repeat when the grammar has one; ignored in params."),
    ])
}

/// One occurrence of a repeating item, completed or skipped.
public struct Occurrence: ProtocolValue, Hashable {
    /// Completed or skipped.
    public enum Outcome: String, CaseIterable, ProtocolValue, Hashable {
        /// Completed (`items/update` with `done: true`).
        case completed
        /// Skipped (`items/skip`).
        case skipped

        public init(json: JSON, path: String) throws(ResponseError) {
            self = try named(json, path: path) { "unknown outcome '\($0)'; expected completed or skipped" }
        }

        public var json: JSON { .string(rawValue) }

        public static let schema = TypeSchema.enumeration("OccurrenceOutcome", doc: "What became of an occurrence.", [
            .init("completed", "Completed (items/update with done: true)."), .init("skipped", "Skipped (items/skip)."),
        ])
    }

    /// The due the occurrence had (as `Item.due`).
    public var due: String
    /// Completed or skipped.
    public var outcome: Outcome
    /// When (a UTC time).
    public var at: String

    /// Makes an occurrence.
    public init(due: String, outcome: Outcome, at: String) {
        self.due = due
        self.outcome = outcome
        self.at = at
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        due = try fields.required("due")
        outcome = try fields.required("outcome")
        at = try fields.required("at")
    }

    public var json: JSON { ["due": .string(due), "outcome": outcome.json, "at": .string(at)] }

    public static let schema = TypeSchema.object("Occurrence", doc: "One occurrence of a repeating item.", [
        .required("due", .string, "The due it had, as Item.due."),
        .required("outcome", Outcome.schema.reference, "completed or skipped."),
        .required("at", .string, "When it was completed or skipped (UTC, YYYY-MM-DDThh:mm:ss.fffZ)."),
    ])
}

/// A repeating item's history: counts since it was created, and the 20 most recent occurrences, oldest first.
public struct Occurrences: ProtocolValue, Hashable {
    /// How many occurrences were completed.
    public var completed: Int
    /// How many were skipped.
    public var skipped: Int
    /// The most recent ones (at most 20), oldest first.
    public var recent: [Occurrence]

    /// Makes a history.
    public init(completed: Int = 0, skipped: Int = 0, recent: [Occurrence] = []) {
        self.completed = completed
        self.skipped = skipped
        self.recent = recent
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        completed = try fields.nonNegative("completed")
        skipped = try fields.nonNegative("skipped")
        recent = try fields.required("recent")
    }

    public var json: JSON {
        ["completed": .integer(Int64(completed)), "skipped": .integer(Int64(skipped)), "recent": recent.json]
    }

    public static let schema = TypeSchema.object("Occurrences", doc: "A repeating item's history of occurrences.", [
        .required("completed", .integer, "How many occurrences were completed since the item was created."),
        .required("skipped", .integer, "How many were skipped."),
        .required("recent", .array(Occurrence.schema.reference), "The 20 most recent, oldest first."),
    ])
}
