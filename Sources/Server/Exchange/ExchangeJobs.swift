/// Imports' and exports' work off the message loop: reading and parsing a file, making one, writing it.

import Dispatch
import Domain
import Interchange
import TasklsProtocol
import Wire

/// What work off the loop hands back for an import or an export.
enum ExchangeOutcome: Sendable {
    /// A file read and parsed (or why it could not be).
    case read(Result<ExchangeReading, ResponseError>)
    /// A file made (and written, when a path was given), or why not.
    case exported(Result<StoreExportResult, ResponseError>)
    /// A sync run by the sync program, or why it could not start.
    case synced(Result<SyncNowResult, ResponseError>)
}

/// Runs imports' and exports' work one at a time on a background queue, and on the loop what each does with its
/// outcome. Not `Sendable`: the loop owns it; only the work itself crosses to the queue.
final class ExchangeJobs {
    /// One job, by number.
    struct Job: Hashable, Sendable {
        let number: UInt64
    }

    private let queue = DispatchQueue(label: "taskls.exchange", qos: .userInitiated)
    /// Syncs wait for the network, not the processor: they run on a queue of their own, so a slow server never
    /// holds an import back.
    private let syncQueue = DispatchQueue(label: "taskls.sync", qos: .utility)
    private let mailbox: Mailbox
    private var next: UInt64 = 1
    /// What each job does on the loop with its outcome, and the request it answers.
    private var pending: [Job: (request: RequestID?, finish: (ExchangeOutcome, Environment) -> Void)] = [:]
    /// Requests the client cancelled while their work ran: answered `-32800` when it ends, nothing applied.
    private var cancelled: Set<RequestID> = []

    init(mailbox: Mailbox) { self.mailbox = mailbox }

    /// Runs `work` off the loop; `finish` runs on the loop with its outcome, after the messages before it.
    func start(for request: RequestID?, waitsForNetwork: Bool = false, _ work: @escaping @Sendable () -> ExchangeOutcome,
               finish: @escaping (ExchangeOutcome, Environment) -> Void) {
        let job = Job(number: next)
        next += 1
        pending[job] = (request, finish)
        let mailbox = mailbox
        (waitsForNetwork ? syncQueue : queue).async {
            mailbox.post(.exchangeFinished(job, work()))
        }
    }

    /// `$/cancelRequest` for a request whose work is under way: it ends with `-32800` and changes nothing.
    /// Returns whether such a request was pending.
    @discardableResult
    func cancel(_ request: RequestID) -> Bool {
        guard pending.values.contains(where: { $0.request == request }) else { return false }
        cancelled.insert(request)
        return true
    }

    /// Finishes `job` on the loop.
    func finish(_ job: Job, _ outcome: ExchangeOutcome, in environment: Environment) {
        guard let entry = pending.removeValue(forKey: job) else { return }
        if let request = entry.request, cancelled.remove(request) != nil {
            environment.workspace.outbox.send(.error(id: request, ResponseError(.requestCancelled, "cancelled by the client")))
            return
        }
        entry.finish(outcome, environment)
    }
}
