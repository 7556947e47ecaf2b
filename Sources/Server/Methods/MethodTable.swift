/// The one registration per method: its name, params, how it uses the store, what it does while the store cannot
/// serve, whether it is advertised, and its handler.

import TasklsProtocol
import Wire

/// Every method the server answers, by name, each with its whole description.
///
/// A method is added by one registration in its area's file (`Handlers/`): the kind of registration
/// (`lifecycle`, `state`, `reading`, `writing`) is its `StoreUse`, and decides the context its handler gets, so a
/// method that writes cannot be registered without saying so. Nothing else in the server names a method.
struct MethodTable {
    private(set) var requests: [String: MethodDescription] = [:]
    private(set) var notifications: [String: NotificationDescription] = [:]

    /// The table of every method taskls has.
    static func standard() -> MethodTable {
        var table = MethodTable()
        LifecycleMethods.register(in: &table)
        ServerMethods.register(in: &table)
        ListMethods.register(in: &table)
        SmartListMethods.register(in: &table)
        ItemMethods.register(in: &table)
        ViewMethods.register(in: &table)
        HistoryMethods.register(in: &table)
        TextMethods.register(in: &table)
        ReminderMethods.register(in: &table)
        ExchangeMethods.register(in: &table)
        SyncMethods.register(in: &table)
        return table
    }

    /// The request methods `initialize` advertises, sorted.
    var advertisedRequests: [String] {
        requests.values.filter(\.advertised).map(\.name).sorted()
    }

    private mutating func add(_ description: MethodDescription) {
        precondition(requests[description.name] == nil, "\(description.name) registered twice")
        requests[description.name] = description
    }

    // MARK: Registrations

    /// A method of the LSP lifecycle (`initialize`, `shutdown`): not advertised; answered after this turn's records
    /// are committed (`StoreUse.state`), whatever the store's state.
    mutating func lifecycle<Message: RequestMessage>(
        _ message: Message.Type,
        _ handler: @escaping (LifecycleContext, Message) throws(ResponseError) -> Message.Result
    ) {
        add(MethodDescription(name: Message.method, store: .state, advertised: false, readsItsOwnParams: true) { json, environment throws(ResponseError) in
            let params = try decode(Message.self, json)
            return Answer(try handler(environment.lifecycleContext, params), to: environment.requestID)
        })
    }

    /// A method about the server or the store's state (`.none` or `.state`): answered whatever the store's state.
    mutating func state<Message: RequestMessage>(
        _ message: Message.Type, store: StoreUse = .state,
        _ handler: @escaping (StateContext, Message) throws(ResponseError) -> Message.Result
    ) {
        precondition(store == .none || store == .state, "\(Message.method): a state method reads no lists")
        add(MethodDescription(name: Message.method, store: store, advertised: true) { json, environment throws(ResponseError) in
            let params = try decode(Message.self, json)
            return Answer(try handler(environment.stateContext, params), to: environment.requestID)
        })
    }

    /// A method that reads lists, items or views (`.reads`). `waiting` answers while the store loads or has
    /// failed; without it the request is refused then.
    mutating func reading<Message: RequestMessage>(
        _ message: Message.Type,
        _ handler: @escaping (ReadingContext, Message) throws(ResponseError) -> Message.Result,
        waiting: ((WaitingContext, Message) throws(ResponseError) -> Message.Result)? = nil
    ) {
        add(MethodDescription(name: Message.method, store: .reads, advertised: true) { json, environment throws(ResponseError) in
            let params = try decode(Message.self, json)
            guard try MethodDescription.prepareToRead(environment) else {
                guard let waiting else { throw environment.persistence.refusal() }
                return Answer(try waiting(environment.waitingContext, params), to: environment.requestID)
            }
            return Answer(try handler(environment.readingContext, params), to: environment.requestID)
        })
    }

    /// A method that changes lists or items (`.writes`): its handler gets the only context that can apply
    /// mutations. Refused while the store loads or has failed.
    mutating func writing<Message: RequestMessage>(
        _ message: Message.Type,
        _ handler: @escaping (WritingContext, Message) throws(ResponseError) -> Message.Result
    ) {
        add(MethodDescription(name: Message.method, store: .writes, advertised: true) { json, environment throws(ResponseError) in
            let params = try decode(Message.self, json)
            try MethodDescription.prepareToWrite(environment)
            return Answer(try handler(environment.writingContext(method: Message.method), params), to: environment.requestID)
        })
    }

    /// A method that reads the state and answers later, when work it hands off the loop is done (`store/import`,
    /// `store/export`): its handler gets a `Reply` to answer with (exactly once) instead of returning the result.
    /// Refused while the store loads or has failed.
    mutating func readingLater<Message: RequestMessage>(
        _ message: Message.Type,
        _ handler: @escaping (ReadingContext, Message, Reply<Message.Result>) throws(ResponseError) -> Void
    ) {
        add(MethodDescription(name: Message.method, store: .reads, advertised: true) { json, environment throws(ResponseError) in
            let params = try decode(Message.self, json)
            guard try MethodDescription.prepareToRead(environment) else { throw environment.persistence.refusal() }
            guard let id = environment.requestID else { throw ResponseError(.internalError, "\(Message.method): no request id") }
            try handler(environment.readingContext, params, Reply(id: id, outbox: environment.workspace.outbox))
            return nil
        })
    }

    /// A notification the client sends.
    mutating func notification<Message: NotificationMessage>(
        _ message: Message.Type,
        _ handler: @escaping (LifecycleContext, Message) throws(ResponseError) -> Void
    ) {
        precondition(notifications[Message.method] == nil, "\(Message.method) registered twice")
        notifications[Message.method] = NotificationDescription(name: Message.method) { environment, json throws(ResponseError) in
            try handler(environment.lifecycleContext, try decode(Message.self, json))
        }
    }
}

/// Reads params (absent reads as `{}`) at the path `params`.
private func decode<Params: JSONDecodable>(_ type: Params.Type, _ json: JSON?) throws(ResponseError) -> Params {
    try Params(json: json ?? .object([:]), path: "params")
}

/// One request method, whole: everything the loop does around it follows from these members.
struct MethodDescription {
    let name: String
    /// How it uses the store (the lock, catching up, committing first, what happens while the store cannot serve).
    let store: StoreUse
    /// Whether `initialize` lists it among the server's requests.
    let advertised: Bool
    /// Whether its params type reads (or ignores) LSP's generic request members itself: the lifecycle's, whose
    /// params are LSP's own (`initialize` reads `workDoneToken`; `shutdown` ignores its params, whatever their
    /// shape). Otherwise they are taken out, type-checked, before the params are decoded.
    var readsItsOwnParams = false
    /// Answers the request, in this order: decodes the params (refusing them with `-32602` naming the field, whatever
    /// the store's state), makes the store ready as `store` calls for (`prepareToRead`, `prepareToWrite`), runs the
    /// handler. Nil: the handler answers later (`MethodTable.readingLater`). One closure made at registration: a
    /// request allocates nothing of its own here.
    let respond: (JSON?, Environment) throws(ResponseError) -> Answer?

    /// Answers a request with `params` (`respond`), once the request's generic members are taken out: its
    /// `workDoneToken` is set in `environment` for the handler's context.
    func answer(_ params: JSON?, in environment: Environment) throws(ResponseError) -> Answer? {
        var params = params
        if readsItsOwnParams {
            environment.requestedWorkDoneToken = GenericRequestFields(peekingInto: params).workDoneToken
        } else {
            environment.requestedWorkDoneToken = try GenericRequestFields(taking: &params).workDoneToken
        }
        return try respond(params, environment)
    }

    /// Before a reading method's handler: the request sees every change other processes made durable before it
    /// arrived (catching up may find the store failed: the request is then answered as the failed store answers).
    /// - Returns: whether the store can serve; false while it loads or has failed (the method's `waiting`
    ///   handler answers then, or the request is refused).
    static func prepareToRead(_ environment: Environment) throws(ResponseError) -> Bool {
        let persistence = environment.persistence
        if persistence.isUsable { try persistence.catchUpBeforeReading() }
        return persistence.isUsable
    }

    /// Before a writing method's handler: refuses the request while the store loads or has failed, else takes the
    /// store's lock and applies other processes' records.
    static func prepareToWrite(_ environment: Environment) throws(ResponseError) {
        let persistence = environment.persistence
        guard persistence.isUsable else { throw persistence.refusal() }
        try persistence.prepareToWrite()
    }
}

/// What a request is answered with: its result as `JSON`, or the whole answer written already, straight into bytes,
/// by a result type that writes itself (`ProtocolValue.writtenAnswer`: a view's snapshot, its rows never built as
/// `JSON`). Made where the result's type is known, so a type answered through its `json` pays nothing for the other.
enum Answer {
    case result(JSON)
    case written([UInt8])

    /// `value` as the answer to request `id`.
    init(_ value: some ProtocolValue, to id: RequestID?) {
        if let id, let body = value.writtenAnswer(to: id) {
            self = .written(body)
        } else {
            self = .result(value.json)
        }
    }
}

/// One notification method the client may send.
struct NotificationDescription {
    let name: String
    let run: (Environment, JSON?) throws(ResponseError) -> Void
}
