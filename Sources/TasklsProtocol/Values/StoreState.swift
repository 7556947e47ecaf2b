/// The store's state as `store/status` reports it: the members `state`, `progress`, `sequence`,
/// `journalBytes`, `snapshotSequence`, `compacting`, `error` and `message`.

import Wire

/// The store's state. Written as members of the status that carries it: `state`, then the members
/// of that state.
public enum StoreState: Sendable, Hashable {
    /// A server embedded without a store: lists live in memory only.
    case memory
    /// Being read; `progress` is the fraction of the store's bytes read, from 0 to 1.
    case loading(progress: Double)
    /// Open. `sequence`: the last journal record applied; `journalBytes`: the journal's size;
    /// `snapshotSequence`: the last record the snapshot holds (0 without one); `compacting`: whether
    /// this process is writing a new snapshot.
    case ready(sequence: UInt64, journalBytes: UInt64, snapshotSequence: UInt64, compacting: Bool)
    /// Could not be opened or written: `message` for a person, `error` the data of the errors requests get.
    case error(message: String, error: StoreErrorData)

    /// Reads `state` and the members of that state.
    init(_ fields: ObjectReader) throws(ResponseError) {
        let name: String = try fields.required("state")
        switch name {
        case "memory": self = .memory
        case "loading": self = .loading(progress: try fields.required("progress"))
        case "ready":
            self = .ready(sequence: try fields.counter("sequence"), journalBytes: try fields.counter("journalBytes"),
                          snapshotSequence: try fields.counter("snapshotSequence"), compacting: try fields.required("compacting"))
        case "error": self = .error(message: try fields.required("message"), error: try fields.required("error"))
        default: throw .invalidParams("\(fields.path("state")): expected memory, loading, ready or error, got '\(name)'")
        }
    }

    /// Writes `state` and the members of that state into `object`.
    func write(into object: inout JSONObject) {
        switch self {
        case .memory: object["state"] = "memory"
        case .loading(let progress):
            object["state"] = "loading"
            object["progress"] = .double(progress)
        case .ready(let sequence, let journalBytes, let snapshotSequence, let compacting):
            object["state"] = "ready"
            object["sequence"] = sequence.json
            object["journalBytes"] = journalBytes.json
            object["snapshotSequence"] = snapshotSequence.json
            object["compacting"] = .bool(compacting)
        case .error(let message, let error):
            object["state"] = "error"
            object["error"] = error.json
            object["message"] = .string(message)
        }
    }

    /// The names `state` takes.
    public static let schema = TypeSchema.enumeration("StoreState", doc: "The store's state.", [
        .init("memory", "A server embedded without a store."),
        .init("loading", "Being read; progress is the fraction of its bytes read."),
        .init("ready", "Open; sequence, journalBytes, snapshotSequence and compacting are present."),
        .init("error", "Could not be opened or written; message and error are present."),
    ])

    /// The members a state is written as.
    public static let fields: [FieldSchema] = [
        .required("state", schema.reference, "The store's state."),
        .optional("progress", .number, "Present exactly when loading: the fraction of the store's bytes read, from 0 to 1."),
        .optional("sequence", .integer, "Present exactly when ready: the number of the last journal record applied."),
        .optional("journalBytes", .integer, "Present exactly when ready: the journal's size in bytes."),
        .optional("snapshotSequence", .integer, "Present exactly when ready: the last record the store's snapshot holds, 0 without one."),
        .optional("compacting", .boolean, "Present exactly when ready: whether this process is writing a new snapshot."),
        .optional("error", StoreErrorData.schema.reference, "Present exactly in error: the data of the errors requests get."),
        .optional("message", .string, "Present exactly in error: what failed, for a person."),
    ]
}

/// The `data` of a store refusal (`-32803`), also `store/status`'s `error`.
public struct StoreErrorData: ProtocolValue, Hashable {
    /// `storeFull`, `storeFailed`, `storeBusy`, `storeCorrupt`, `storeUnsupported` (or `storeLoading`).
    public var reason: String
    /// Whether trying again can help without a person doing something first.
    public var retryable: Bool
    /// The file concerned, when there is one.
    public var file: String?
    /// The byte offset in `file` where damage starts.
    public var offset: Int?

    /// Makes the data.
    public init(reason: String, retryable: Bool, file: String? = nil, offset: Int? = nil) {
        self.reason = reason
        self.retryable = retryable
        self.file = file
        self.offset = offset
    }

    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try ObjectReader(json: json, path: path)
        try fields.rejectUnknown(Self.schema)
        reason = try fields.required("reason")
        retryable = try fields.required("retryable")
        file = try fields.optional("file")
        offset = try fields.optional("offset")
    }

    public var json: JSON {
        var object: JSONObject = ["reason": .string(reason), "retryable": .bool(retryable)]
        object["file"] = file.map(JSON.string)
        object["offset"] = offset.map { .integer(Int64($0)) }
        return .object(object)
    }

    public static let schema = TypeSchema.object("StoreErrorData", doc: "Why the store refused: the data of a store error.", [
        .required("reason", .string, "storeFull, storeFailed, storeBusy, storeLoading, storeCorrupt or storeUnsupported."),
        .required("retryable", .boolean, "Whether trying again can help without a person doing something first."),
        .optional("file", .string, "The file concerned, when there is one."),
        .optional("offset", .integer, "The byte offset in file where damage starts."),
    ])
}
