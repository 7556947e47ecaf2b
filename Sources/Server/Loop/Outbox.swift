/// Where the server's messages leave: straight to the connection, or held until the turn's records are on disk.

import Domain
import TasklsProtocol
import Wire

/// The server's output. Outside a turn that journals records, a message goes to the connection at once; from a
/// turn's first journaled record until its one `fdatasync` (`Persistence.commitTurn`), messages are held, so no
/// client sees a change before it is durable.
///
/// Not `Sendable`: the message loop's thread owns it.
final class Outbox {
    private let connection: Connection
    /// Messages produced since this turn's first journaled record, sent once it is on disk.
    private(set) var held: [HeldMessage]?
    /// Per view, the version the client last saw before the held notifications (to resume after a failed sync).
    private(set) var heldVersions: [ViewID: UInt64] = [:]
    /// Whether what is produced now may reflect records of this turn that a failed sync would refuse (set by the
    /// persistence that owns the turn).
    var producedAfterWrite: () -> Bool = { false }

    init(connection: Connection) {
        self.connection = connection
    }

    /// Whether messages are being held for a turn's sync.
    var isHolding: Bool { held != nil }

    /// From now until `release`, messages are held.
    func hold() {
        if held == nil { held = [] }
    }

    /// Sends a message now, or holds it until this turn's records are on disk. `isChange` marks a notification
    /// of a change (`view/changed`, `view/closed`, `lists/changed`), which a failed sync drops.
    func send(_ message: Message, isChange: Bool = false) {
        send(.message(message), isChange: isChange)
    }

    /// Sends a message whose body a typed writer wrote (`JSONWritable`), now or once this turn's records are on disk,
    /// as `send(_:isChange:)`; `response` is the id of the request it answers, nil for a notification.
    func send(body: [UInt8], answering response: RequestID?, isChange: Bool = false) {
        send(.written(body: body, answering: response), isChange: isChange)
    }

    private func send(_ message: OutgoingMessage, isChange: Bool) {
        if held != nil {
            held!.append(HeldMessage(message: message, afterWrite: producedAfterWrite(), isChange: isChange))
        } else {
            sendNow(message)
        }
    }

    /// Sends a message now, even while others are held (what a failed turn answers).
    func sendNow(_ message: Message) {
        connection.send(message)
    }

    /// Sends a message now, however it was made.
    func sendNow(_ message: OutgoingMessage) {
        switch message {
        case .message(let message): connection.send(message)
        case .written(let body, _): connection.send(body: body)
        }
    }

    /// Answers request `id` with `result`: written straight into bytes when its type writes itself (rows are never
    /// built as `JSON`: `ProtocolValue.writtenAnswer`), else as its `JSON`.
    func answer(_ id: RequestID, with result: some ProtocolValue) {
        if let body = result.writtenAnswer(to: id) {
            send(body: body, answering: id)
        } else {
            send(.response(id: id, result: result.json))
        }
    }

    /// Notes that a change of `view` at `version` is being held: the client last saw `version - 1`.
    func noteHeldChange(of view: ViewID, version: UInt64) {
        if held != nil, heldVersions[view] == nil { heldVersions[view] = version - 1 }
    }

    /// Ends holding: returns what was held (and forgets the versions noted), for the turn's end to send or replace.
    func release() -> [HeldMessage]? {
        defer {
            held = nil
        }
        return held
    }

    /// Forgets the versions noted for held changes.
    func forgetHeldVersions() { heldVersions = [:] }

    /// Writes everything sent so far.
    func flush() { connection.flush() }

    /// Whether the client closed its end of the output.
    var outputFailed: Bool { connection.outputFailed }
}

/// A message on its way out: built as a `Message`, or its body written already by a typed writer.
enum OutgoingMessage {
    case message(Message)
    /// A body written already; `answering` is the id of the request it answers, nil for a notification.
    case written(body: [UInt8], answering: RequestID?)

    /// The id of the request this answers (with a result or an error), nil for a notification.
    var answeredRequest: RequestID? {
        switch self {
        case .message(.response(let id, _)), .message(.error(let id?, _)): id
        case .message: nil
        case .written(_, let id): id
        }
    }
}

/// A message produced while records of this turn are not yet on disk: sent after the turn's sync, or,
/// when the sync fails, replaced (an answer produced after the turn's first record) or dropped (a change
/// notification).
struct HeldMessage {
    var message: OutgoingMessage
    /// Produced once the turn had journaled a record (or failed to): it may reflect records that are refused.
    var afterWrite: Bool
    /// A notification of a change: dropped when the sync fails (the change is refused).
    var isChange: Bool
}
