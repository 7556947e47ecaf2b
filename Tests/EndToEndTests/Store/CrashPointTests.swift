/// A crash at every I/O step of a scripted workload (and a second crash while recovering) loses no
/// acknowledged mutation, keeps at most a prefix of the unacknowledged ones, and leaves a healthy store.

#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Synchronization
import Testing
import TestSupport
import Transcript
import Wire

@Suite struct CrashPointTests {
    static let threshold = 2000
    static let arguments = ["--compact-after", "\(threshold)", "--compact-on-loop"]
    /// The recovering server opens the store (step 1: the lock), then takes the lock to write (step 2), which
    /// truncates a torn tail (step 3) when there is one.
    static let recoverySteps = [1, 2, 3]

    @Test func everyCrashPointKeepsEveryAcknowledgedMutation() throws {
        let workload = StoreWorkload.standard
        for batch in workload.batches {
            let bytes = batch.reduce(0) { $0 + FrameEncoder.frame(body: $1.bytes).count }
            #expect(bytes <= 4096, "a batch of \(bytes) bytes may reach the server in two reads (PIPE_BUF is 4096)")
        }
        let references = try referenceStates(of: workload, arguments: Self.arguments)
        let steps = try countSteps(workload, final: references[workload.count])
        try #require(steps.count >= 50, "the workload does only \(steps.count) I/O steps; extend it")
        #expect(steps.contains { $0.hasSuffix(" compaction.rename-snapshot") }, "the workload never compacts")
        #expect(groupCommits(steps) > 0, "no turn journaled several records with one sync")

        // Every step, each followed by a crash at each of the first three steps of the recovering process;
        // two cases at a time (each runs three servers in a row).
        let cases = steps.indices.flatMap { index in Self.recoverySteps.map { (index + 1, $0) } }
        let results = Mutex<[CrashCase]>([])
        let next = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            while true {
                let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard index < cases.count else { return }
                let (step, recoveryStep) = cases[index]
                let result = CrashCase.run(at: step, named: steps[step - 1], recoveryStep: recoveryStep, workload, references)
                results.withLock { $0.append(result) }
            }
        }
        let done = results.withLock { $0 }
        for problem in done.flatMap(\.problems).sorted() { Issue.record(Comment(rawValue: problem)) }
        // The hook must really kill: every run is deterministic, so each step is reached (a few misses would
        // only mean the order of steps changed between runs; most misses mean the cases test nothing).
        let crashed = done.filter(\.crashed).count
        #expect(crashed * 10 >= done.count * 9, "only \(crashed) of \(done.count) runs were killed at their step")
    }


    /// Runs the workload once with `TASKLS_CRASH_LOG` and returns its steps (`N name`); checks that a reopen
    /// shows the final state and that the store is healthy.
    private func countSteps(_ workload: StoreWorkload, final: ObservedState) throws -> [String] {
        let directory = makeStoreTestDirectory()
        let log = directory + ".steps"
        defer {
            removeTree(directory)
            unlink(log)
        }
        let server = try StoreServer(directory: directory, arguments: Self.arguments, environment: ["TASKLS_CRASH_LOG": log])
        let outcome = server.run(workload)
        #expect(outcome.completed && outcome.acknowledged == workload.count, "\(outcome)")
        server.finish()
        let reopened = try StoreServer(directory: directory, arguments: Self.arguments)
        try #require(reopened.initialize())
        #expect(reopened.observe() == final, "a clean reopen does not show the workload's final state")
        reopened.finish()
        #expect(try storeCheck(directory).status == 0)
        let text = String(decoding: readFile(log) ?? [], as: UTF8.self)
        return text.split(separator: "\n").map(String.init)
    }

    /// How many turns appended more than one record before their sync.
    private func groupCommits(_ steps: [String]) -> Int {
        var appends = 0, turns = 0
        for step in steps {
            if step.hasSuffix(" journal.append") { appends += 1 }
            if step.hasSuffix(" journal.sync") {
                if appends > 1 { turns += 1 }
                appends = 0
            }
        }
        return turns
    }
}

/// One crash case: the workload killed at `step`, a reopen killed at `recoveryStep`, then a clean
/// reopen that must show a prefix of the workload at least as long as what was acknowledged, accept a new
/// mutation, and leave `taskls store check` healthy.
private struct CrashCase: Sendable {
    /// What went wrong.
    var problems: [String] = []
    /// Whether the hook killed the workload's server.
    var crashed = false

    static func run(at step: Int, named name: String, recoveryStep: Int, _ workload: StoreWorkload,
                    _ references: [ObservedState]) -> CrashCase {
        let directory = makeStoreTestDirectory()
        defer { removeTree(directory) }
        var result = CrashCase()
        do {
            try result.check(directory, step: step, recoveryStep: recoveryStep, workload, references,
                             label: "crash at step \(name) (then at recovery step \(recoveryStep))")
        } catch {
            result.problems.append("crash at step \(name): \(error)")
        }
        return result
    }

    private mutating func check(_ directory: String, step: Int, recoveryStep: Int, _ workload: StoreWorkload,
                                _ references: [ObservedState], label: String) throws {
        let crashing = try StoreServer(directory: directory, arguments: CrashPointTests.arguments,
                                       environment: ["TASKLS_CRASH_AT": "\(step)"])
        let outcome = crashing.run(workload)
        if !outcome.refused.isEmpty { problems.append("\(label): refused \(outcome.refused)") }
        if outcome.completed {
            crashing.finish()
        } else if let status = crashing.process.waitForExit(timeout: storePatience), status == 137 {
            crashed = true
        } else {
            crashing.process.terminate()
            problems.append("\(label): the server stopped answering without being killed by the hook (\(outcome)); stderr: \(crashing.process.standardError)")
        }
        let afterCrash = try storeCheck(directory)
        if afterCrash.status != 0 { problems.append("\(label): store check after the crash exits \(afterCrash.status):\n\(afterCrash.report)") }

        // Recovery, killed early: a request that takes the lock (truncating a torn tail) but changes nothing.
        let recovering = try StoreServer(directory: directory, arguments: CrashPointTests.arguments,
                                         environment: ["TASKLS_CRASH_AT": "\(recoveryStep)"])
        if recovering.initialize() {
            _ = recovering.call("items/delete", ["ids": ["i999999"]])
            _ = recovering.call("lists/list")
        }
        if recovering.finish() == nil { problems.append("\(label): the recovering server did not exit") }

        let clean = try StoreServer(directory: directory, arguments: CrashPointTests.arguments)
        guard clean.initialize(), let state = clean.observe() else {
            clean.finish()
            problems.append("\(label): the clean reopen did not answer: \(clean.process.standardError)")
            return
        }
        let prefixes = references.indices.filter { references[$0] == state }
        guard let prefix = prefixes.last(where: { $0 >= outcome.acknowledged && $0 <= outcome.sent }) else {
            clean.finish()
            let matches = prefixes.isEmpty ? "no prefix of the workload" : "prefixes \(prefixes)"
            problems.append("\(label): \(outcome.acknowledged) acknowledged, \(outcome.sent) sent, but the store holds \(matches): \(state)")
            return
        }
        let probe = clean.call("lists/create", ["name": "After the crash"])
        if probe?["result"] == nil { problems.append("\(label): a mutation after recovery was refused: \(probe?.text ?? "no answer")") }
        clean.finish()
        let final = try storeCheck(directory)
        let expected = "ok: \(references[prefix].lists + 1) lists, \(references[prefix].items) items"
        if final.status != 0 || !final.report.contains(expected) {
            problems.append("\(label): store check at the end exits \(final.status), expected \"\(expected)\":\n\(final.report)")
        }
    }
}
