/// A typed test client: runs a server in-process over an in-memory connection and talks to it.

import Server
import Testing
import Wire

/// Drives one in-process server. Requests are answered in order, so `request` returns the
/// reply and keeps every notification that arrived before it for `notifications`.
final class TestClient {
    private let client: InMemoryClient
    private let loop: ServerThread
    private var nextID: Int64 = 1
    /// Notifications received and not yet taken, in order.
    private(set) var notifications: [(method: String, params: JSON?)] = []

    /// Starts a server with `options`; `initialize` is sent unless `initialize` is false.
    init(initialize: Bool = true, options: ServerOptions = ServerOptions(logger: .silent)) throws {
        let (serverEnd, clientEnd) = InMemoryConnection.pair()
        client = clientEnd
        loop = ServerThread(connection: serverEnd, options: options)
        if initialize {
            _ = try request("initialize", ["processId": nil, "capabilities": [:]]).get()
            notify("initialized", [:])
        }
    }

    deinit {
        client.close()
        _ = loop.waitForExit(timeout: -1)
    }

    /// Sends a request and waits for its answer.
    func request(_ method: String, _ params: JSON? = nil, id: RequestID? = nil) throws -> Result<JSON, ResponseError> {
        let requestID = id ?? .integer(nextID)
        nextID += 1
        client.send(.request(id: requestID, method: method, params: params))
        while true {
            guard let message = client.receive(timeout: 10_000) else { throw TestClientError.timedOut(method) }
            switch message {
            case .response(requestID, let result): return .success(result)
            case .error(requestID, let error): return .failure(error)
            case .notification(let name, let params): notifications.append((name, params))
            default: throw TestClientError.unexpected(message)
            }
        }
    }

    /// Sends a notification.
    func notify(_ method: String, _ params: JSON? = nil) {
        client.send(.notification(method: method, params: params))
    }

    /// Sends messages without waiting; they reach the server together, in one batch.
    func send(_ messages: Message...) { client.send(messages) }

    /// The next message from the server, whatever it is.
    func receive() throws -> Message {
        guard let message = client.receive(timeout: 10_000) else { throw TestClientError.timedOut("a message") }
        return message
    }

    /// Takes the notifications received so far.
    func takeNotifications() -> [(method: String, params: JSON?)] {
        defer { notifications.removeAll() }
        return notifications
    }

    /// Closes the connection; the server's loop then ends (`deinit` waits for it).
    func close() {
        client.close()
    }
}

extension Result where Failure == ResponseError {
    /// The error code of a failure, or `nil` on success.
    var errorCode: ErrorCode? {
        if case .failure(let error) = self { return error.code }
        return nil
    }
}

enum TestClientError: Error {
    case timedOut(String)
    case unexpected(Message)
}
