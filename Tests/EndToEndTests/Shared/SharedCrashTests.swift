/// One of two processes on a store is killed at each I/O step of its workload (appends, syncs, the lock,
/// compactions); the other, idle meanwhile, keeps serving: it is never blocked by the dead one's lock, it sees
/// every mutation the dead one acknowledged, its own writes are acknowledged, and a fresh process reads them all.

#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Synchronization
import Testing
import TestSupport
import Transcript
import Wire

@Suite struct SharedCrashTests {
    static let threshold = 2000
    static let arguments = ["--compact-after", "\(threshold)", "--compact-on-loop"]
    /// The steps every run must include among those it crashes at.
    static let requiredSteps = ["lock", "journal.append", "journal.sync", "compaction.rename-snapshot",
                                "compaction.sync-directory", "compaction.journal.write", "compaction.journal.rename"]

    @Test func theOtherProcessKeepsServingWhenOneDiesAtAnyStep() throws {
        let workload = StoreWorkload.standard
        let references = try referenceStates(of: workload, arguments: Self.arguments)
        let steps = try countSteps(workload, final: references[workload.count])
        try #require(steps.count >= 40, "the workload does only \(steps.count) I/O steps with another process on the store")
        let names = Set(steps.map { String($0.split(separator: " ", maxSplits: 1).last ?? "") })
        for name in Self.requiredSteps {
            #expect(names.contains(name), "the workload never reaches step \(name): \(steps)")
        }

        let results = Mutex<[SharedCrashCase]>([])
        let next = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            while true {
                let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard index < steps.count else { return }
                let result = SharedCrashCase.run(at: index + 1, named: steps[index], workload, references)
                results.withLock { $0.append(result) }
            }
        }
        let done = results.withLock { $0 }
        for problem in done.flatMap(\.problems).sorted() { Issue.record(Comment(rawValue: problem)) }
        let crashed = done.filter(\.crashed).count
        #expect(crashed * 10 >= done.count * 9, "only \(crashed) of \(done.count) runs were killed at their step")
        print("SharedCrash: \(done.count) steps (\(names.sorted().joined(separator: ", "))), \(crashed) killed")
    }


    /// The steps (`N name`) of the workload's process when another process is open on the store, idle.
    private func countSteps(_ workload: StoreWorkload, final: ObservedState) throws -> [String] {
        let directory = makeStoreTestDirectory()
        let log = directory + ".steps"
        defer {
            removeTree(directory)
            unlink(log)
        }
        let idle = try StoreServer(directory: directory, arguments: Self.arguments)
        try #require(idle.initialize())
        let server = try StoreServer(directory: directory, arguments: Self.arguments, environment: ["TASKLS_CRASH_LOG": log])
        let outcome = server.run(workload)
        #expect(outcome.completed && outcome.acknowledged == workload.count, "\(outcome)")
        server.finish()
        #expect(idle.call("items/delete", ["ids": ["i999999999"]])?.errorReason == "notFound")
        #expect(idle.observe() == final, "the idle process does not see the workload's final state")
        idle.finish()
        return crashLogSteps(log)
    }
}

/// One case: process A killed at `step` of the workload while B, open on the same store, waits; then B catches
/// up, writes, and a fresh process checks what both acknowledged.
private struct SharedCrashCase: Sendable {
    var problems: [String] = []
    var crashed = false

    static func run(at step: Int, named name: String, _ workload: StoreWorkload, _ references: [ObservedState]) -> SharedCrashCase {
        let directory = makeStoreTestDirectory()
        defer { removeTree(directory) }
        var result = SharedCrashCase()
        do {
            try result.check(directory, step: step, workload, references, label: "A killed at step \(name)")
        } catch {
            result.problems.append("A killed at step \(name): \(error)")
        }
        return result
    }

    private mutating func check(_ directory: String, step: Int, _ workload: StoreWorkload, _ references: [ObservedState],
                                label: String) throws {
        let survivor = try StoreServer(directory: directory, arguments: SharedCrashTests.arguments)
        defer { survivor.finish() }
        guard survivor.initialize(), survivor.call("lists/list", ["watch": true])?["result"] != nil else {
            problems.append("\(label): B did not initialize: \(survivor.process.standardError)")
            return
        }
        let crashing = try StoreServer(directory: directory, arguments: SharedCrashTests.arguments,
                                       environment: ["TASKLS_CRASH_AT": "\(step)"])
        let outcome = crashing.run(workload)
        if !outcome.refused.isEmpty { problems.append("\(label): A refused \(outcome.refused)") }
        if outcome.completed {
            crashing.finish()
        } else if let status = crashing.process.waitForExit(timeout: storePatience), status == 137 {
            crashed = true
        } else {
            crashing.process.terminate()
            problems.append("\(label): A stopped answering without being killed by the hook (\(outcome)); stderr: \(crashing.process.standardError)")
        }

        // B's first write after the death: refused (an unknown id), but it takes the lock the dead process may
        // have held, truncates a torn record it may have left, and applies what it appended.
        let catchUp = survivor.call("items/delete", ["ids": ["i999999999"]])
        guard catchUp?.errorReason == "notFound" else {
            problems.append("\(label): B's first write after A died was answered \(catchUp?.text ?? "not at all"); stderr: \(survivor.process.standardError)")
            return
        }
        guard let seen = survivor.observe() else {
            problems.append("\(label): B did not answer")
            return
        }
        let prefixes = references.indices.filter { references[$0] == seen }
        guard prefixes.contains(where: { $0 >= outcome.acknowledged && $0 <= outcome.sent }) else {
            problems.append("\(label): A acknowledged \(outcome.acknowledged) of \(outcome.sent) sent, but B sees \(prefixes.isEmpty ? "no prefix of the workload" : "prefixes \(prefixes)"): \(seen)")
            return
        }

        // B writes on: a list of its own, items in it, a change to one of A's items, a deletion, an undo.
        var acknowledged: [String] = []
        func write(_ method: String, _ params: JSON) -> JSON? {
            let answer = survivor.call(method, params)
            if let result = answer?["result"] {
                acknowledged.append(method)
                return result
            }
            problems.append("\(label): B's \(method) \(params.text) was answered \(answer?.text ?? "not at all")")
            return nil
        }
        guard let list = write("lists/create", ["name": "Written by B"])?["list"]?["id"] else { return }
        var created: [JSON] = []
        for title in ["First", "Second", "Third"] {
            if let id = write("items/create", ["list": list, "title": .string(title), "due": "2026-11-23"])?["item"]?["id"] { created.append(id) }
        }
        guard created.count == 3 else { return }
        _ = write("items/update", ["ids": [created[0], created[2]], "done": true, "priority": "high"])
        _ = write("items/move", ["ids": [created[2]], "before": created[0]])
        let state = try JSONParser.parse(seen.text)
        if let theirs = (state.elements("items") ?? []).first?["id"] {
            _ = write("items/update", ["id": theirs, "title": "Changed by B", "tags": ["b"]])
        }
        _ = write("items/delete", ["ids": [created[1]]])
        _ = write("undo", [:])
        guard let final = survivor.observe() else {
            problems.append("\(label): B did not answer at the end")
            return
        }
        survivor.finish()
        let errors = errorLines(survivor)
        if !errors.isEmpty { problems.append("\(label): B logged \(errors)") }

        let fresh = try StoreServer(directory: directory, arguments: SharedCrashTests.arguments)
        let reread = fresh.initialize() ? fresh.observe() : nil
        fresh.finish()
        if reread != final {
            problems.append("\(label): after B's \(acknowledged.count) acknowledged writes a fresh process reads\n\(reread?.text ?? "nothing")\nbut B saw\n\(final)")
        }
        let check = try storeCheck(directory)
        let expected = "ok: \(final.lists) lists, \(final.items) items"
        if check.status != 0 || !check.report.contains(expected) {
            problems.append("\(label): store check exits \(check.status), expected \"\(expected)\":\n\(check.report)")
        }
    }
}
