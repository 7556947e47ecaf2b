/// Turns at their edges: a read whose catch-up with other processes finds the store damaged is answered as the
/// failed store answers (waiting views in `error`, an overview with no lists), and `shutdown` sent with a write whose
/// sync fails is answered after the turn's fate is known. (Found by review: the split server ran the handler
/// against the failed engine, and answered `shutdown` within the failing turn.)

#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
import Transcript
import Wire

@Suite struct TurnEdgeTests {
    /// A reading request whose catch-up finds the store damaged is answered as the failed store answers.
    @Test func aReadWhoseCatchUpFailsTheStoreIsAnsweredFromTheWaitingViews() throws {
        let directory = makeStoreTestDirectory()
        defer { removeTree(directory) }
        let writer = try StoreServer(directory: directory)
        try #require(writer.initialize())
        let list = try #require(writer.call("lists/create", ["name": "Inbox"])?["result"]?["list"]?["id"])
        let reader = try StoreServer(directory: directory)
        try #require(reader.initialize())
        let view = try #require(reader.call("lists/open", ["list": list])?["result"]?["view"])
        kill(reader.process.processID, SIGSTOP)
        let journal = directory + "/journal"
        let before = try #require(readFile(journal)).count
        try #require(writer.call("items/create", ["list": list, "title": "first"])?["result"] != nil)
        let middle = try #require(readFile(journal)).count
        try #require(writer.call("items/create", ["list": list, "title": "second"])?["result"] != nil)
        var bytes = try #require(readFile(journal))
        bytes[before + (middle - before) / 2] ^= 0x01   // damage followed by a valid record: corrupt
        try writeFile(journal, bytes)
        let first = reader.makeRequest("view/snapshot", ["view": view])
        let overview = reader.makeRequest("lists/list")
        let second = reader.makeRequest("view/snapshot", ["view": view])
        try #require(reader.send([first, overview, second]))
        kill(reader.process.processID, SIGCONT)
        let answers = reader.responses(to: [first, overview, second])
        let a = answers[first["id"]!], b = answers[overview["id"]!], c = answers[second["id"]!]
        #expect(c?["result"]?["state"] == "error", "the later snapshot: \(c?.text ?? "none")")
        #expect(a?["result"]?["state"] == "error", "the snapshot whose catch-up failed the store: \(a?.text ?? "none")")
        #expect(b?["result"]?["store"]?["state"] == "error", "lists/list after the failure: \(b?.text ?? "none")")
        _ = reader.finish()
        _ = writer.finish()
    }

    /// `shutdown` in the same turn as a write whose sync fails: the turn is committed first, so the write is
    /// refused and `shutdown` answered `null`.
    @Test func shutdownAfterAFailedSyncInTheSameTurn() throws {
        let directory = makeStoreTestDirectory()
        let log = directory + ".steps"
        defer { removeTree(directory); unlink(log) }
        let probe = try StoreServer(directory: directory, environment: ["TASKLS_CRASH_LOG": log])
        try #require(probe.initialize())
        _ = probe.finish()
        let syncs = String(decoding: readFile(log) ?? [], as: UTF8.self).split(separator: "\n").filter { $0.contains("sync") }.count
        removeTree(directory)
        let server = try StoreServer(directory: directory, environment: ["TASKLS_FAIL_SYNC_AFTER": "\(syncs + 1)"])
        try #require(server.initialize())
        try #require(server.call("lists/create", ["name": "Inbox"])?["result"] != nil)
        let answers = server.callTogether([server.makeRequest("items/create", ["list": "l1", "title": "x"]),
                                           server.makeRequest("shutdown")])
        #expect(answers[0]?.errorReason == "storeFailed", "\(answers[0]?.text ?? "none")")
        #expect(answers[1]?["result"] == .null, "shutdown: \(answers[1]?.text ?? "none")")
        _ = server.finish()
    }

    /// As above, `lists/list` (watch) first: no lists and the store's state (protocol.md: while the store has
    /// failed, no lists and a `store` member).
    @Test func anOverviewWhoseCatchUpFailsTheStoreShowsNoLists() throws {
        let directory = makeStoreTestDirectory()
        defer { removeTree(directory) }
        let writer = try StoreServer(directory: directory)
        try #require(writer.initialize())
        let list = try #require(writer.call("lists/create", ["name": "Inbox"])?["result"]?["list"]?["id"])
        let reader = try StoreServer(directory: directory)
        try #require(reader.initialize())
        kill(reader.process.processID, SIGSTOP)
        let journal = directory + "/journal"
        let before = try #require(readFile(journal)).count
        try #require(writer.call("items/create", ["list": list, "title": "first"])?["result"] != nil)
        let middle = try #require(readFile(journal)).count
        try #require(writer.call("items/create", ["list": list, "title": "second"])?["result"] != nil)
        var bytes = try #require(readFile(journal))
        bytes[before + (middle - before) / 2] ^= 0x01
        try writeFile(journal, bytes)
        let overview = reader.makeRequest("lists/list", ["watch": true])
        try #require(reader.send([overview]))
        kill(reader.process.processID, SIGCONT)
        let answer = reader.responses(to: [overview])[overview["id"]!]
        #expect(answer?["result"]?["store"]?["state"] == "error", "lists/list: \(answer?.text ?? "none")")
        _ = reader.finish()
        _ = writer.finish()
    }
}
