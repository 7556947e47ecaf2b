/// `lists/list` (request): the overview, and whether to watch it.

import Wire

/// `lists/list` params: `{"watch"?: true | false}`.
public struct ListsList: RequestMessage, Hashable {
    public typealias Result = ListsListResult
    public static let method = "lists/list"

    /// true: send `lists/changed` from now on whenever the overview changes; false: stop; nil: leave it as it is.
    public var watch: Bool?

    /// Makes the params.
    public init(watch: Bool? = nil) { self.watch = watch }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        watch = try fields.optional("watch")
    }

    public var json: JSON {
        var object = JSONObject()
        object["watch"] = watch.map(JSON.bool)
        return .object(object)
    }

    public static let schema = TypeSchema.object("ListsList", doc: "lists/list params.", [
        .optional("watch", .boolean, "true: send lists/changed whenever the overview changes; false: stop; absent: leave it as it is."),
    ])
}

/// What `lists/list` answers: the overview.
public typealias ListsListResult = Overview
