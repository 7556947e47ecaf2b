/// `$/setTrace` (notification, client → server): how much of the server's log the client gets from now on.

import Wire

/// `$/setTrace` params: `{"value": "off" | "messages" | "verbose"}`.
public struct SetTrace: NotificationMessage, Hashable {
    public static let method = "$/setTrace"

    /// The new trace setting.
    public var value: Trace

    public init(value: Trace) { self.value = value }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        value = try fields.required("value")
    }

    public var json: JSON { ["value": value.json] }

    public static let schema = TypeSchema.object("SetTrace", doc: "$/setTrace params.", [
        .required("value", Trace.schema.reference, "off: errors and warnings reach window/logMessage; messages: also info; verbose: everything."),
    ])
}
