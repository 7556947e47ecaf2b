/// `server/ping` (request): a liveness check, answered `{}` at once.

import Wire

/// `server/ping` params: none (absent, or an empty object).
public struct ServerPing: RequestMessage, Hashable {
    public typealias Result = ServerPingResult
    public static let method = "server/ping"

    /// The params.
    public init() {}

    public init(json: JSON, path: String) throws(ResponseError) {
        try ObjectReader(json: json, path: path).rejectUnknown(Self.schema)
    }

    public var json: JSON { .object([:]) }

    public static let schema = TypeSchema.object("ServerPing", doc: "server/ping params: none.", [])
}

/// What `server/ping` answers: `{}`.
public typealias ServerPingResult = EmptyResult
