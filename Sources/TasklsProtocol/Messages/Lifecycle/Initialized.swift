/// `initialized` (notification): accepted and ignored.

import Wire

/// `initialized` params: ignored, whatever their shape.
public struct Initialized: NotificationMessage, Hashable {
    public static let method = "initialized"

    /// The params.
    public init() {}

    /// Accepts any params.
    public init(json: JSON, path: String) throws(ResponseError) {}

    public var json: JSON { .object([:]) }

    public static let schema = TypeSchema.object(
        "Initialized", doc: "initialized params: accepted and ignored, whatever their shape.", [], ignoresUnknownFields: true)
}
