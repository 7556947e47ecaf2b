/// The one registration entry per method: its name, how its params are read, its handler.

import Wire

/// Every method the server answers, by name.
///
/// A method is added by one `register` call in its area's file (lifecycle, lists, items,
/// views): the params type and the handler sit together, and nothing else needs to change.
struct MethodTable: Sendable {
    typealias RequestHandler = @Sendable (Server, JSON?) throws -> JSON
    typealias NotificationHandler = @Sendable (Server, JSON?) throws -> Void

    private(set) var requests: [String: RequestHandler] = [:]
    private(set) var notifications: [String: NotificationHandler] = [:]

    /// Registers a request whose params decode as `Params`.
    mutating func request<Params: JSONDecodable>(
        _ method: String, _ params: Params.Type,
        _ handler: @escaping @Sendable (Server, Params) throws(ResponseError) -> JSON
    ) {
        precondition(requests[method] == nil, "\(method) registered twice")
        requests[method] = { server, json in
            try handler(server, try Params(json: json ?? .object([:]), path: "params"))
        }
    }

    /// Registers a notification whose params decode as `Params`.
    mutating func notification<Params: JSONDecodable>(
        _ method: String, _ params: Params.Type,
        _ handler: @escaping @Sendable (Server, Params) throws(ResponseError) -> Void
    ) {
        precondition(notifications[method] == nil, "\(method) registered twice")
        notifications[method] = { server, json in
            try handler(server, try Params(json: json ?? .object([:]), path: "params"))
        }
    }

    /// The table of every method taskls has.
    static let standard: MethodTable = {
        var table = MethodTable()
        LifecycleMethods.register(in: &table)
        ServerMethods.register(in: &table)
        ListMethods.register(in: &table)
        ItemMethods.register(in: &table)
        ViewMethods.register(in: &table)
        HistoryMethods.register(in: &table)
        return table
    }()

    /// The request methods beyond the LSP lifecycle, sorted, as `initialize` advertises them.
    var advertisedRequests: [String] {
        requests.keys.filter { $0 != "initialize" && $0 != "shutdown" }.sorted()
    }
}

/// Params of LSP lifecycle messages (`shutdown`, `exit`, `initialized`): ignored, whatever
/// their shape, so that no client's way of saying "no params" can keep a server running.
struct AnyParams: JSONDecodable {
    init(json: JSON, path: String) throws(ResponseError) {}
}

/// Params of a taskls method that takes none: absent or an empty object.
struct NoParams: JSONDecodable {
    init(json: JSON, path: String) throws(ResponseError) {
        try Fields(json: json, path: path).rejectUnknown([])
    }
}
