/// `exit` (notification): ends the process, exit code 0 after `shutdown`, 1 otherwise.

import Wire

/// `exit` params: ignored, whatever their shape; honoured even before `initialize`.
public struct Exit: NotificationMessage, Hashable {
    public static let method = "exit"

    /// The params.
    public init() {}

    /// Accepts any params.
    public init(json: JSON, path: String) throws(ResponseError) {}

    public var json: JSON { .object([:]) }

    public static let schema = TypeSchema.object(
        "Exit", doc: "exit params: ignored, whatever their shape.", [], ignoresUnknownFields: true)
}
