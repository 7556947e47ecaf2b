/// `reminders/watch` (request): whether this client is sent `reminder/fired`.

import Wire

/// `reminders/watch` params: `{"watch": BOOL}`. A client is sent no reminders until it asks; once it does, the
/// reminders already due and not yet fired fire at once (their notifications come before the answer).
public struct RemindersWatch: RequestMessage, Hashable {
    public typealias Result = RemindersWatchResult
    public static let method = "reminders/watch"

    /// true: send `reminder/fired` from now on; false: stop.
    public var watch: Bool

    /// Makes the params.
    public init(watch: Bool) { self.watch = watch }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        watch = try fields.required("watch")
    }

    public var json: JSON { ["watch": .bool(watch)] }

    public static let schema = TypeSchema.object("RemindersWatch", doc: "reminders/watch params.", [
        .required("watch", .boolean, "true: this client is sent reminder/fired from now on (due ones fire at once); false: no more."),
    ])
}

/// What `reminders/watch` answers: whether the client now watches.
public struct RemindersWatchResult: ProtocolValue, Hashable {
    /// Whether `reminder/fired` is sent to this client.
    public var watch: Bool

    /// Makes the result.
    public init(watch: Bool) { self.watch = watch }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        watch = try fields.required("watch")
    }

    public var json: JSON { ["watch": .bool(watch)] }

    public static let schema = TypeSchema.object("RemindersWatchResult", doc: "reminders/watch's result.", [
        .required("watch", .boolean, "Whether this client is sent reminder/fired."),
    ])
}
