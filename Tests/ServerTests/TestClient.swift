/// A typed test client: runs a server in-process over an in-memory connection and talks to it in the
/// protocol's types.

import Server
import TasklsProtocol
import Testing
import Wire

/// Drives one in-process server. `send(ItemsMove.ids([id], before: nil))` answers an `ItemsMoveResult`;
/// requests are answered in order, so every notification that arrived before an answer is kept, read as
/// its type, for `takeNotifications`.
///
/// Everything the server writes is read strictly with its type (unknown members and wrong types are
/// refused, naming the member), and (unless `checksWriteBack` is false) must write back exactly as the
/// server wrote it: a server writing something the protocol types do not describe fails the test that
/// received it.
final class TestClient {
    private let client: InMemoryClient
    private let loop: ServerThread
    private var nextID: Int64 = 1
    /// Notifications received and not yet taken, in order.
    private(set) var notifications: [ServerNotification] = []
    /// The methods whose results or notifications were read (and written back) so far.
    private(set) var methodsRead: Set<String> = []
    /// Whether every result and notification read must write back exactly as the server wrote it.
    let checksWriteBack: Bool

    /// Starts a server with `options`; `initialize` and `initialized` are sent unless `initialize` is false.
    init(initialize: Bool = true, options: ServerOptions = ServerOptions(logger: .silent), checksWriteBack: Bool = true) throws {
        self.checksWriteBack = checksWriteBack
        let (serverEnd, clientEnd) = InMemoryConnection.pair()
        client = clientEnd
        loop = ServerThread(connection: serverEnd, options: options)
        if initialize {
            _ = try send(Initialize(processId: nil))
            notify(Initialized())
        }
    }

    deinit {
        client.close()
        _ = loop.waitForExit(timeout: -1)
    }

    // MARK: Typed

    /// Sends `request` and waits for its result.
    /// - Throws: the `ResponseError` the server answered with; a `TestClientError` when the answer did not
    ///   come, or is not a `Request.Result` written as the type writes it.
    @discardableResult
    func send<Request: RequestMessage>(_ request: Request, workDoneToken: ProgressToken? = nil) throws -> Request.Result {
        try call(request, workDoneToken: workDoneToken).get()
    }

    /// Sends `request` and waits for its answer: its result, or the error the server refused it with.
    /// `workDoneToken` is LSP's generic request member, added to the params.
    /// - Throws: a `TestClientError` when the answer did not come, or is not a `Request.Result`.
    func call<Request: RequestMessage>(_ request: Request, workDoneToken: ProgressToken? = nil) throws -> Result<Request.Result, ResponseError> {
        var params = request.json
        if let workDoneToken, case .object(var object) = params {
            object["workDoneToken"] = workDoneToken.json
            params = .object(object)
        }
        return try call(Request.self, params: params)
    }

    /// Sends `params` as the params of `Request`, whatever they are, and waits for the answer, read as a
    /// `Request.Result`: for params the protocol type would write otherwise (members at their defaults).
    func call<Request: RequestMessage>(_ type: Request.Type, params: JSON) throws -> Result<Request.Result, ResponseError> {
        switch try request(Request.method, params) {
        case .success(let json): return .success(try read(Request.Result.self, from: json, method: Request.method))
        case .failure(let error): return .failure(error)
        }
    }

    /// Sends a notification.
    func notify<Notification: NotificationMessage>(_ notification: Notification) {
        client.send(notification.message)
    }

    /// Waits for the server's next message, which must be a notification.
    func nextNotification() throws -> ServerNotification {
        let message = try receive()
        guard case .notification(let method, let params) = message else { throw TestClientError.unexpected(message) }
        return try notification(method, params)
    }

    /// Takes the notifications received so far.
    func takeNotifications() -> [ServerNotification] {
        defer { notifications.removeAll() }
        return notifications
    }

    // MARK: Raw, for params no protocol type would write (null, hostile or malformed members)

    /// Sends a request with any params and waits for its answer, as JSON.
    func request(_ method: String, _ params: JSON? = nil, id: RequestID? = nil) throws -> Result<JSON, ResponseError> {
        let requestID = id ?? .integer(nextID)
        nextID += 1
        client.send(.request(id: requestID, method: method, params: params))
        while true {
            let message = try receive()
            switch message {
            case .response(requestID, let result): return .success(result)
            case .error(requestID, let error): return .failure(error)
            case .notification(let name, let params): notifications.append(try notification(name, params))
            default: throw TestClientError.unexpected(message)
            }
        }
    }

    /// Sends messages without waiting; they reach the server together, in one batch.
    func sendBatch(_ messages: Message...) { client.send(messages) }

    /// The next message from the server, whatever it is.
    func receive() throws -> Message {
        guard let message = client.receive(timeout: 10_000) else { throw TestClientError.timedOut("a message") }
        return message
    }

    /// Closes the connection; the server's loop then ends (`deinit` waits for it).
    func close() {
        client.close()
    }

    // MARK: Reading

    /// `json` read as `Value`, which must write it back exactly.
    private func read<Value: ProtocolValue>(_ type: Value.Type, from json: JSON, method: String) throws -> Value {
        let value: Value
        do {
            value = try Value(json: json, path: "result")
        } catch {
            throw TestClientError.unreadable(method, error.message, json)
        }
        // Exactly the same members in the same order, of the same JSON types (JSON's `==`, cheaper than the text).
        if checksWriteBack {
            let written = value.json
            guard written == json else { throw TestClientError.notWrittenBack(method, server: json, written: written) }
        }
        methodsRead.insert(method)
        return value
    }

    /// A notification read as its type, which must write it back exactly.
    private func notification(_ method: String, _ params: JSON?) throws -> ServerNotification {
        let notification: ServerNotification
        do {
            notification = try ServerNotification(method: method, params: params)
        } catch {
            throw TestClientError.unreadable(method, error.message, params ?? .null)
        }
        if checksWriteBack {
            let written = notification.params
            guard written == params ?? .null else { throw TestClientError.notWrittenBack(method, server: params ?? .null, written: written) }
        }
        methodsRead.insert(method)
        return notification
    }
}

extension Result where Failure == ResponseError {
    /// The error code of a failure, or `nil` on success.
    var errorCode: ErrorCode? {
        if case .failure(let error) = self { return error.code }
        return nil
    }

    /// The `data.reason` of a failure, or `nil`.
    var refusalReason: String? {
        if case .failure(let error) = self, case .string(let reason)? = error.data?["reason"] { return reason }
        return nil
    }
}

/// What went wrong between the test client and its server, other than a refusal.
enum TestClientError: Error, CustomStringConvertible {
    /// Nothing came within ten seconds.
    case timedOut(String)
    /// A message that was not the one awaited.
    case unexpected(Message)
    /// A result or notification its type does not read: the method, the decoder's message, what came.
    case unreadable(String, String, JSON)
    /// A result or notification its type reads but writes differently.
    case notWrittenBack(String, server: JSON, written: JSON)

    var description: String {
        switch self {
        case .timedOut(let awaited): "no answer within 10 s while waiting for \(awaited)"
        case .unexpected(let message): "unexpected message \(message.json.text)"
        case .unreadable(let method, let problem, let json): "\(method): the server wrote what its type does not read (\(problem)): \(json.text)"
        case .notWrittenBack(let method, let server, let written):
            "\(method): its type writes back what the server wrote differently:\n  server: \(server.text)\n  type:   \(written.text)"
        }
    }
}
