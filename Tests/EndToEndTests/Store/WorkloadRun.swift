/// Runs a `StoreWorkload` against a server and records what was acknowledged, what was only sent, and what
/// was refused. The servers run with `--compact-on-loop`: a compaction is installed before the answers of the
/// turn that started it leave, so a run's I/O steps come in the same order every time, with no waiting.

import Testing
import TestSupport
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
    /// Initializes the server (started with `--compact-on-loop`) and sends `workload` batch by batch, each once
    /// every answer to the one before arrived (and so any compaction it started is installed). Stops when the
    /// process dies.
    func run(_ workload: StoreWorkload) -> WorkloadOutcome {
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
            if let problem = compactionUnderWay() {
                outcome.stopped = "after batch \(index + 1): \(problem)"
                return outcome
            }
        }
        outcome.completed = true
        return outcome
    }

    /// Why the server is still compacting after its answers arrived (nil when it is not): a server started with
    /// `--compact-on-loop` installs a compaction before the answers of the turn that started it leave, and
    /// `store/status` (which does no I/O) says `compacting: false`. Asks once; never waits.
    func compactionUnderWay() -> String? {
        guard let status = call("store/status")?["result"] else { return "no answer to store/status" }
        return status["compacting"] == false ? nil : "a compaction is under way after the answers arrived: \(status.text)"
    }

    /// The store's `snapshotSequence` (the last record its snapshot holds), from `store/status`.
    func snapshotSequence() -> Int64? {
        call("store/status")?["result"]?.integer("snapshotSequence")
    }
}

/// The observable state after each prefix of `workload`: its mutations sent one at a time to one clean
/// server (started with `arguments`, which include `--compact-on-loop`), the state read after each (index p: the
/// first p mutations applied).
func referenceStates(of workload: StoreWorkload, arguments: [String]) throws -> [ObservedState] {
    let directory = makeStoreTestDirectory()
    defer { removeTree(directory) }
    let server = try StoreServer(directory: directory, arguments: arguments)
    try #require(server.initialize())
    var states = [try #require(server.observe())]
    for mutation in workload.mutations {
        let answer = server.callTogether([mutation])[0]
        #expect(answer?["result"] != nil, "\(mutation.text) was refused: \(answer?.text ?? "no answer")")
        let underWay = server.compactionUnderWay()
        #expect(underWay == nil, "\(underWay ?? "")")
        states.append(try #require(server.observe()))
    }
    server.finish()
    return states
}
