/// `debug/continueLoading` (request): lets a load held by `--hold-load` go on, for tests.

import Wire

/// `debug/continueLoading` params: none.
public struct DebugContinueLoading: RequestMessage, Hashable {
    public typealias Result = EmptyResult
    public static let method = "debug/continueLoading"

    /// The params.
    public init() {}

    public init(json: JSON, path: String) throws(ResponseError) {
        try ObjectReader(json: json, path: path).rejectUnknown(Self.schema)
    }

    public var json: JSON { .object([:]) }

    public static let schema = TypeSchema.object("DebugContinueLoading", doc: "debug/continueLoading params: none.", [])
}
