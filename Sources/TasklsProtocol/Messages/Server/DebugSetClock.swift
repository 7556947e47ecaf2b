/// `debug/setClock` (request): moves a manual clock (`taskls serve --clock`), for tests.

import Wire

/// `debug/setClock` params: `{"now": INSTANT}`.
public struct DebugSetClock: RequestMessage, Hashable {
    public typealias Result = DebugSetClockResult
    public static let method = "debug/setClock"

    /// The instant to set the clock to: `YYYY-MM-DDThh:mm[:ss[.fff]](Z|±hh:mm)`; the server checks it.
    public var now: String

    /// Makes the params.
    public init(now: String) { self.now = now }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        now = try fields.required("now")
    }

    public var json: JSON { ["now": .string(now)] }

    public static let schema = TypeSchema.object("DebugSetClock", doc: "debug/setClock params.", [
        .required("now", .string, "An instant with its offset: YYYY-MM-DDThh:mm[:ss[.fff]](Z|±hh:mm), such as 2026-11-22T23:59:00Z."),
    ])
}

/// What `debug/setClock` answers: the instant, in canonical UTC form.
public struct DebugSetClockResult: ProtocolValue, Hashable {
    /// The clock's instant, UTC with milliseconds (`2026-11-22T23:59:00.000Z`).
    public var now: String

    /// Makes the result.
    public init(now: String) { self.now = now }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        now = try fields.required("now")
    }

    public var json: JSON { ["now": .string(now)] }

    public static let schema = TypeSchema.object("DebugSetClockResult", doc: "debug/setClock's result.", [
        .required("now", .string, "The clock's instant, UTC with milliseconds (YYYY-MM-DDThh:mm:ss.fffZ)."),
    ])
}
