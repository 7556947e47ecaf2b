/// A view's state, a level, not an event: the members `state`, `progress` and `error` that
/// snapshots and `view/changed` share.

import Wire

/// A view's state. Written as members of the snapshot or notification that carries it: `state`,
/// then `progress` while loading or `error` in error.
public enum ViewState: Sendable, Hashable {
    /// The window's rows are exact.
    case ready
    /// The view's order is being indexed (or the store read); `progress` runs from 0 to 1; no rows yet.
    case loading(progress: Double)
    /// The view is gone.
    case closed
    /// The store could not be opened or written; no rows; `store/retry` tries again.
    case error(ViewError)

    /// Reads `state` (and `progress` or `error`) from the members of a snapshot or notification.
    init(_ fields: ObjectReader) throws(ResponseError) {
        let name: String = try fields.required("state")
        switch name {
        case "ready": self = .ready
        case "loading": self = .loading(progress: try fields.required("progress"))
        case "closed": self = .closed
        case "error": self = .error(try fields.required("error"))
        default: throw .invalidParams("\(fields.path("state")): expected ready, loading, closed or error, got '\(name)'")
        }
    }

    /// Writes `state` (and `progress` or `error`) into `object`.
    func write(into object: inout JSONObject) {
        switch self {
        case .ready: object["state"] = "ready"
        case .loading(let progress):
            object["state"] = "loading"
            object["progress"] = .double(progress)
        case .closed: object["state"] = "closed"
        case .error(let error):
            object["state"] = "error"
            object["error"] = error.json
        }
    }

    /// The names `state` takes.
    public static let schema = TypeSchema.enumeration("ViewState", doc: "A view's state: a level, not an event.", [
        .init("ready", "The window's rows are exact; count is the number of rows in the whole view."),
        .init("loading", "The view's order is being indexed in the background; progress runs from 0 to 1; no rows yet; count is the number of rows it will have."),
        .init("closed", "The view is gone."),
        .init("error", "The store could not be opened or written; error says why; no rows; count is null; store/retry tries again."),
    ])

    /// The members a state is written as, in a snapshot or `view/changed`.
    public static let fields: [FieldSchema] = [
        .required("state", schema.reference, "The view's state."),
        .optional("progress", .number, "Present exactly when state is loading: from 0 to 1."),
        .optional("error", ViewError.schema.reference, "Present exactly when state is error."),
    ]
}

/// Why a view is in state `error`.
public struct ViewError: ProtocolValue, Hashable {
    /// What failed, for a person.
    public var message: String
    /// Whether `store/retry` can help without a person doing something first.
    public var retryable: Bool

    /// Makes an error.
    public init(message: String, retryable: Bool) {
        self.message = message
        self.retryable = retryable
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        message = try fields.required("message")
        retryable = try fields.required("retryable")
    }

    public var json: JSON { ["message": .string(message), "retryable": .bool(retryable)] }

    public static let schema = TypeSchema.object("ViewError", doc: "Why a view is in state error.", [
        .required("message", .string, "What failed, naming the file (and the byte offset, for damage)."),
        .required("retryable", .boolean, "Whether store/retry can help without a person doing something first."),
    ])
}

/// Where a view's rows come from, written as the member `list`, `group` or `smartList`.
public enum ViewSource: Sendable, Hashable {
    /// One list.
    case list(ListID)
    /// A smart group, across every list.
    case group(SmartGroup)
    /// A smart list: its source lists, filtered by its filter.
    case smartList(SmartListID)

    /// Reads `list`, `group` or `smartList`: every member's type first (a `null` is refused naming its member), then
    /// the choice.
    init(_ fields: ObjectReader) throws(ResponseError) {
        let list: ListID? = try fields.optional("list")
        let group: SmartGroup? = try fields.optional("group")
        let smartList: SmartListID? = try fields.optional("smartList")
        switch (list, group, smartList) {
        case (let list?, nil, nil): self = .list(list)
        case (nil, let group?, nil): self = .group(group)
        case (nil, nil, let smartList?): self = .smartList(smartList)
        case (nil, nil, nil):
            throw .invalidParams("\(fields.path("list")): missing; give list (a list id), group (a smart group) or smartList (a smart list id)")
        default: throw .invalidParams("\(fields.path): give one of list, group and smartList, not several")
        }
    }

    /// Writes `list`, `group` or `smartList` into `object`.
    func write(into object: inout JSONObject) {
        switch self {
        case .list(let list): object["list"] = list.json
        case .group(let group): object["group"] = group.json
        case .smartList(let smartList): object["smartList"] = smartList.json
        }
    }

    /// The members a source is written as: exactly one of them.
    public static let fields: [FieldSchema] = [
        .optional("list", ListID.schema.reference, "One of list, group, smartList: the list's id."),
        .optional("group", SmartGroup.schema.reference, "One of list, group, smartList: a smart group."),
        .optional("smartList", SmartListID.schema.reference, "One of list, group, smartList: a smart list's id."),
    ]
}
