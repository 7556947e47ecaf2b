/// What `text/parseItem` and `text/parseFilter` say about the text: a span per token and a warning per token
/// they could not use, each placed by its offsets counted three ways.

import Wire

/// A place in the text, counted in UTF-16 code units (LSP's default, VS Code), UTF-8 bytes (Neovim, Vim) and
/// Unicode scalars (Emacs, Python): the number of each before it.
public struct TextPosition: ProtocolValue, Hashable {
    /// UTF-16 code units before it.
    public var utf16: Int
    /// UTF-8 bytes before it.
    public var utf8: Int
    /// Unicode scalars before it.
    public var scalars: Int

    /// A place counted the three ways.
    public init(utf16: Int, utf8: Int, scalars: Int) {
        self.utf16 = utf16
        self.utf8 = utf8
        self.scalars = scalars
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        utf16 = try fields.offset("utf16")
        utf8 = try fields.offset("utf8")
        scalars = try fields.offset("scalars")
    }

    public var json: JSON {
        ["utf16": .integer(Int64(utf16)), "utf8": .integer(Int64(utf8)), "scalars": .integer(Int64(scalars))]
    }

    public static let schema = TypeSchema.object(
        "TextPosition", doc: "A place in the text: how many UTF-16 code units, UTF-8 bytes and Unicode scalars come before it.", [
            .required("utf16", .integer, "UTF-16 code units before it (LSP's default position encoding, VS Code)."),
            .required("utf8", .integer, "UTF-8 bytes before it (Neovim, Vim)."),
            .required("scalars", .integer, "Unicode scalars (code points) before it (Emacs)."),
        ])
}

/// What a span of the text was taken as.
public enum SpanKind: String, CaseIterable, ProtocolValue, Hashable {
    /// A word of an item's title.
    case title
    /// A word of a filter's text.
    case text
    /// A backslash-escaped word: text without its backslash.
    case escape
    /// A due.
    case due
    /// A priority.
    case priority
    /// A tag (in a filter, also a `#a|#b` group).
    case tag
    /// A list.
    case list
    /// The notes: `//` and what follows.
    case notes
    /// A filter's `done` or `open`.
    case done
    /// A repeat phrase.
    case `repeat`
    /// An alert phrase.
    case alert

    public init(json: JSON, path: String) throws(ResponseError) {
        self = try named(json, path: path) { "unknown span kind '\($0)'; expected one of \(names(SpanKind.self))" }
    }

    public var json: JSON { .string(rawValue) }

    public static let schema = TypeSchema.enumeration("SpanKind", doc: "What a span of quick-entry text was taken as.", [
        .init("title", "A word of an item's title; value: the word."),
        .init("text", "A word of a filter's text; value: the word."),
        .init("escape", "A word starting with a backslash before a marker (\\#42): text; value: the word without the backslash."),
        .init("due", "A due phrase (due:fri, ^tomorrow 9:30, a filter's due<fri); value: the due (YYYY-MM-DD or a date-time), null for due:none."),
        .init("priority", "A priority (!high, !!, a filter's !high+); value: the priority."),
        .init("tag", "A tag (#home); value: the tag, or in a filter an array for #a|#b."),
        .init("list", "A list (@Groceries, @\"Work stuff\"); value: the list's id."),
        .init("notes", "// and everything after it; value: the notes."),
        .init("done", "A filter's done or open; value: done or notDone."),
        .init("repeat", "A repeat phrase (every 2 weeks, every month on the last fri, every 3 days after done, +1w, ++1m, .+3d); value: {\"rule\": the RRULE text, \"from\": due, dueFuture or completion}."),
        .init("alert", "An alert phrase (remind 1h before, remind at 9:00, remind the day before at 18:00, remind fri 9:00, remind none); value: an array of the alert it gave ({\"offset\": MINUTES} or {\"at\": INSTANT}), [] for remind none."),
    ])
}

/// One token: where it is, what it was taken as, and the value it gave.
public struct TextSpan: ProtocolValue, Hashable {
    /// What it was taken as.
    public var kind: SpanKind
    /// The token as written.
    public var text: String
    /// Where it starts.
    public var start: TextPosition
    /// Just after its last character.
    public var end: TextPosition
    /// The value it gave (see `SpanKind`); nil when it gave none (a warning on the same span says why).
    /// `.null` is a due that clears (`due:none`).
    public var value: JSON?

    /// A span.
    public init(kind: SpanKind, text: String, start: TextPosition, end: TextPosition, value: JSON?) {
        self.kind = kind
        self.text = text
        self.start = start
        self.end = end
        self.value = value
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        kind = try fields.required("kind")
        text = try fields.required("text")
        start = try fields.required("start")
        end = try fields.required("end")
        value = fields.object["value"]
    }

    public var json: JSON {
        var object: JSONObject = ["kind": kind.json, "text": .string(text), "start": start.json, "end": end.json]
        object["value"] = value
        return .object(object)
    }

    public static let schema = TypeSchema.object(
        "TextSpan", doc: "One token of quick-entry text: what it was taken as, where it is, and the value it gave.", [
            .required("kind", SpanKind.schema.reference, "What the token was taken as."),
            .required("text", .string, "The token as written (from start to end)."),
            .required("start", TextPosition.schema.reference, "Where it starts."),
            .required("end", TextPosition.schema.reference, "Just after its last character."),
            .optional("value", .any, nullable: true, "The value it gave (see SpanKind); absent when it gave none (a warning on the same span says why); null only for a due that clears (due:none)."),
        ])
}

/// Why a token gave nothing, or not all it seemed to.
public enum WarningReason: String, CaseIterable, ProtocolValue, Hashable {
    /// A due phrase that is no date or time.
    case unknownDue
    /// A `!` word that is no priority.
    case unknownPriority
    /// An `@name` that names no list.
    case unknownList
    /// An `@name` that names several lists.
    case ambiguousList
    /// An `@name` while the store cannot be read.
    case listsUnavailable
    /// An `@"name` without its closing quote.
    case unclosedQuote
    /// A due, priority, list, completion or tag group replaced by a later one.
    case replaced
    /// A time the clocks skip that day: the time after the gap is used.
    case skippedTime
    /// A token a filter cannot express.
    case notAFilter
    /// A repeat phrase that means no rule.
    case unknownRepeat
    /// An alert phrase that means no alert.
    case unknownAlert

    public init(json: JSON, path: String) throws(ResponseError) {
        self = try named(json, path: path) { "unknown warning reason '\($0)'; expected one of \(names(WarningReason.self))" }
    }

    public var json: JSON { .string(rawValue) }

    public static let schema = TypeSchema.enumeration("WarningReason", doc: "Why a token of quick-entry text gave nothing, or not all it seemed to.", [
        .init("unknownDue", "A due phrase that is no date or time (due:fryday, ^25:00, due: with nothing after it): no due."),
        .init("unknownPriority", "A ! word that is no priority (!urgent): no priority."),
        .init("unknownList", "An @name that names no list: no list."),
        .init("ambiguousList", "An @name that names several lists, none spelt exactly so: no list."),
        .init("listsUnavailable", "An @name while the store loads or has failed: not looked up."),
        .init("unclosedQuote", "An @\"name without its closing quote: no list."),
        .init("replaced", "A due, priority, list, completion or tag group that a later one of the same kind replaces; an alert a later remind none drops."),
        .init("skippedTime", "A time the clocks skip that day (daylight saving): the time after the gap is used."),
        .init("notAFilter", "What a filter cannot say (@list, overdue, due:none, !none): left out."),
        .init("unknownRepeat", "A repeat phrase that means no rule (every 3 fortnights, every month on the 32nd): no repeat."),
        .init("unknownAlert", "An alert phrase that means no alert (remind 1h without before, remind fri without a time, remind at 25:00): no alert."),
    ])
}

/// A token the grammar could not use as it seemed meant, said so a person understands.
public struct TextWarning: ProtocolValue, Hashable {
    /// Why, as a stable word.
    public var reason: WarningReason
    /// What happened, in words (`no list named Grocerys; did you mean Groceries?`).
    public var message: String
    /// The token as written.
    public var text: String
    /// Where it starts (as its span does).
    public var start: TextPosition
    /// Just after it.
    public var end: TextPosition

    /// A warning.
    public init(reason: WarningReason, message: String, text: String, start: TextPosition, end: TextPosition) {
        self.reason = reason
        self.message = message
        self.text = text
        self.start = start
        self.end = end
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        reason = try fields.required("reason")
        message = try fields.required("message")
        text = try fields.required("text")
        start = try fields.required("start")
        end = try fields.required("end")
    }

    public var json: JSON {
        ["reason": reason.json, "message": .string(message), "text": .string(text), "start": start.json, "end": end.json]
    }

    public static let schema = TypeSchema.object(
        "TextWarning", doc: "A token of quick-entry text that gave nothing, or not all it seemed to; its range is its span's.", [
            .required("reason", WarningReason.schema.reference, "Why, as a stable word."),
            .required("message", .string, "What happened, in words a user understands."),
            .required("text", .string, "The token as written."),
            .required("start", TextPosition.schema.reference, "Where it starts."),
            .required("end", TextPosition.schema.reference, "Just after it."),
        ])
}

extension ObjectReader {
    /// An offset into a text: an integer, not negative.
    func offset(_ key: String) throws(ResponseError) -> Int {
        let value: Int = try required(key)
        guard value >= 0 else { throw .invalidParams("\(path(key)): must not be negative") }
        return value
    }
}
