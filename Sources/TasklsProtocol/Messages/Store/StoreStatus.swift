/// `store/status` (request): where the store is, and whether it is loading, ready or failed.

import Wire

/// `store/status` params: none.
public struct StoreStatus: RequestMessage, Hashable {
    public typealias Result = StoreStatusResult
    public static let method = "store/status"

    /// The params.
    public init() {}

    public init(json: JSON, path: String) throws(ResponseError) {
        try ObjectReader(json: json, path: path).rejectUnknown(Self.schema)
    }

    public var json: JSON { .object([:]) }

    public static let schema = TypeSchema.object("StoreStatus", doc: "store/status params: none.", [])
}

/// What `store/status` answers: the store's state and its directory.
public struct StoreStatusResult: ProtocolValue, Hashable {
    /// The store's state.
    public var state: StoreState
    /// The store's directory, when it has one (left out otherwise).
    public var path: String?

    /// Makes the status.
    public init(state: StoreState, path: String? = nil) {
        self.state = state
        self.path = path
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        try self.init(fields)
    }

    /// Reads the members of a status without checking for others (`store/retry` adds `retried`).
    init(_ fields: ObjectReader) throws(ResponseError) {
        state = try StoreState(fields)
        path = try fields.optional("path")
    }

    public var json: JSON { .object(object) }

    /// The status's members.
    var object: JSONObject {
        var object = JSONObject()
        state.write(into: &object)
        object["path"] = path.map(JSON.string)
        return object
    }

    public static let schema = TypeSchema.object(
        "StoreStatusResult", doc: "The store's state and directory.",
        StoreState.fields + [.optional("path", .string, "The store's directory, when it has one.")])
}
