/// `store/retry` (request): reopens a store in `error`.

import Wire

/// `store/retry` params: none.
public struct StoreRetry: RequestMessage, Hashable {
    public typealias Result = StoreRetryResult
    public static let method = "store/retry"

    /// The params.
    public init() {}

    public init(json: JSON, path: String) throws(ResponseError) {
        try ObjectReader(json: json, path: path).rejectUnknown(Self.schema)
    }

    public var json: JSON { .object([:]) }

    public static let schema = TypeSchema.object("StoreRetry", doc: "store/retry params: none.", [])
}

/// What `store/retry` answers: the `store/status` result, plus whether the store was retried.
public struct StoreRetryResult: ProtocolValue, Hashable {
    /// The store's status after the request.
    public var status: StoreStatusResult
    /// Whether the store was in `error` and was reopened (false: nothing happened).
    public var retried: Bool

    /// Makes the result.
    public init(status: StoreStatusResult, retried: Bool) {
        self.status = status
        self.retried = retried
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        status = try StoreStatusResult(fields)
        retried = try fields.required("retried")
    }

    public var json: JSON {
        var object = status.object
        object["retried"] = .bool(retried)
        return .object(object)
    }

    public static let schema = TypeSchema.object(
        "StoreRetryResult", doc: "The store/status result, plus retried.",
        StoreStatusResult.schema.fields + [
            .required("retried", .boolean, "Whether the store was in error and was reopened; false: nothing happened."),
        ])
}
