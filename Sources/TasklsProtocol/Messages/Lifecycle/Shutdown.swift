/// `shutdown` (request): answers `null`; every later request is refused.

import Wire

/// `shutdown` params: ignored, whatever their shape, so that no client's way of saying "no params"
/// can keep a server running.
public struct Shutdown: RequestMessage, Hashable {
    public typealias Result = NullResult
    public static let method = "shutdown"

    /// The params.
    public init() {}

    /// Accepts any params.
    public init(json: JSON, path: String) throws(ResponseError) {}

    public var json: JSON { .object([:]) }

    public static let schema = TypeSchema.object(
        "Shutdown", doc: "shutdown params: ignored, whatever their shape.", [], ignoresUnknownFields: true)
}
