/// Runs a `StoreWorkload` against a server and records what was acknowledged, what was only sent, and what
/// was refused; waits for every compaction to be installed before the next batch, so a run's I/O steps come
/// in the same order every time.

import Testing
import Transcript
import Wire

/// What one run of a workload saw.
struct WorkloadOutcome: Sendable {
    /// The mutations answered with a result: always 1…acknowledged, as answers come in order.
    var acknowledged = 0
    /// The mutations written to the server.
    var sent = 0
    /// Mutations answered with an error (none are expected: the script is valid): "id: error".
    var refused: [String] = []
    /// Whether the server answered everything and was still running at the end.
    var completed = false
    /// Why the run stopped early, when it did.
    var stopped: String?
}

extension StoreServer {
    /// Initializes the server and sends `workload` batch by batch, each once every answer to the one before
    /// arrived and any compaction it started is installed. Stops when the process dies.
    func run(_ workload: StoreWorkload, compactAfter threshold: Int) -> WorkloadOutcome {
        var outcome = WorkloadOutcome()
        guard initialize() else {
            outcome.stopped = "no answer to initialize"
            return outcome
        }
        for (index, batch) in workload.batches.enumerated() where !batch.isEmpty {
            guard send(batch) else {
                outcome.stopped = "batch \(index + 1) could not be written"
                return outcome
            }
            outcome.sent += batch.count
            let answers = responses(to: batch)
            for request in batch {
                guard let answer = answers[request["id"]!] else {
                    outcome.stopped = "no answer to \(request["id"]?.text ?? "?")"
                    return outcome
                }
                if answer["result"] != nil {
                    guard case .integer(let number)? = request["id"], number == outcome.acknowledged + 1 else {
                        outcome.refused.append("\(request.text): acknowledged out of order")
                        continue
                    }
                    outcome.acknowledged += 1
                } else {
                    outcome.refused.append("\(request["id"]?.text ?? "?"): \(answer.text)")
                }
            }
            if let problem = awaitCompaction(threshold: threshold) {
                outcome.stopped = "after batch \(index + 1): \(problem)"
                return outcome
            }
        }
        outcome.completed = true
        return outcome
    }

    /// Waits until no compaction is under way: the server starts one at the end of a turn whose journal is
    /// past `threshold` bytes and past the snapshot's payload, and installs it between turns once the snapshot
    /// is written. Polls `store/status` (which does no I/O). Returns why it stopped waiting too early: the
    /// process died, or the compaction was not installed within `storePatience`.
    @discardableResult
    func awaitCompaction(threshold: Int) -> String? {
        let deadline = monotonicMilliseconds() + Int64(storePatience)
        var last = "none"
        while monotonicMilliseconds() < deadline {
            guard let status = call("store/status")?["result"], case .integer(let journal)? = status["journalBytes"] else {
                return "no answer to store/status (the last one: \(last))"
            }
            let snapshot = max(0, (StoreFiles.size(directory + "/snapshot") ?? 0) - 40)
            if Int(journal) <= max(threshold, snapshot) { return nil }
            last = "\(status.text), snapshot payload \(snapshot) bytes"
        }
        return "the compaction was not installed within \(storePatience) ms: \(last)"
    }
}

/// The observable state after each prefix of `workload`: its mutations sent one at a time to one clean
/// server (started with `arguments`), each compaction waited for, the state read after each (index p: the
/// first p mutations applied).
func referenceStates(of workload: StoreWorkload, arguments: [String], threshold: Int) throws -> [ObservedState] {
    let directory = makeStoreTestDirectory()
    defer { removeTree(directory) }
    let server = try StoreServer(directory: directory, arguments: arguments)
    try #require(server.initialize())
    var states = [try #require(server.observe())]
    for mutation in workload.mutations {
        let answer = server.callTogether([mutation])[0]
        #expect(answer?["result"] != nil, "\(mutation.text) was refused: \(answer?.text ?? "no answer")")
        let waited = server.awaitCompaction(threshold: threshold)
        #expect(waited == nil, "\(waited ?? "")")
        states.append(try #require(server.observe()))
    }
    server.finish()
    return states
}
