/// A request answered later: its id and the outbox the answer goes through.

import TasklsProtocol
import Wire

/// The answer to one request, sent when the work it started is done (`MethodTable.readingLater`). Not `Sendable`:
/// it is used on the loop's thread only; the work off the loop hands its outcome back through the mailbox.
struct Reply<Result: ProtocolValue> {
    let id: RequestID
    let outbox: Outbox

    /// Answers with `result`.
    func send(_ result: Result) { outbox.answer(id, with: result) }

    /// Answers with `error`.
    func fail(_ error: ResponseError) { outbox.send(.error(id: id, error)) }
}
