// A process that sleeps through two compactions by others (a suspended editor) reads the store again by itself
// when it wakes: its views get one reset with every change, and it keeps writing, no retry needed.
// A request that finds the store compacted past what its process had read catches up (reads the snapshot
// again) and is carried out, inside the same request: being overtaken is never `storeFailed`.

#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
import Transcript
import Wire

@Suite struct OvertakenTests {
    /// The request is written while its process sleeps through two compactions, so that on waking the process
    /// handles it before it notices anything else (the loop reads its input first): deterministic, no timing.
    @Test func aRequestOvertakenByTwoCompactionsIsCarriedOutAtOnce() throws {
        let directory = makeStoreTestDirectory()
        defer { removeTree(directory) }
        let arguments = ["--compact-after", "1000", "--compact-on-loop"]
        let writer = try StoreServer(directory: directory, arguments: arguments)
        try #require(writer.initialize())
        let list = try #require(writer.call("lists/create", ["name": "Inbox"])?["result"]?["list"]?["id"])
        let sleeper = try StoreServer(directory: directory, arguments: arguments)
        try #require(sleeper.initialize())
        let view = try #require(sleeper.call("lists/open", ["list": list])?["result"]?["view"])
        kill(sleeper.process.processID, SIGSTOP)
        let request = sleeper.makeRequest("lists/create", ["name": "Woken"])
        try #require(sleeper.send([request]))
        let compactions = try compactTwice(writer, directory: directory, list: list)
        kill(sleeper.process.processID, SIGCONT)
        let answer = sleeper.responses(to: [request])[request["id"]!]
        #expect(answer?["result"]?["list"]?["name"] == "Woken", "\(answer?.text ?? "no answer")")
        // The view caught up with every item the writer created, announced as a change, versions one by one.
        let snapshot = sleeper.call("view/snapshot", ["view": view])?["result"]
        #expect(snapshot?["state"] == "ready" && snapshot?["count"] == .integer(Int64(compactions.created)),
                "\(snapshot?.text.prefix(200) ?? "")")
        let versions = sleeper.takeNotifications().filter { $0["params"]?["view"] == view }.compactMap { $0["params"]?.integer("version") }
        #expect(!versions.isEmpty && versions == Array(2...Int64(versions.count + 1)), "\(versions)")
        #expect(snapshot?.integer("version") == Int64(versions.count + 1))
        let lists = writer.call("lists/list")?["result"]?.elements("lists")?.compactMap { $0.string("name") }
        #expect(lists == ["Inbox", "Woken"], "\(lists ?? [])")
        _ = sleeper.finish()
        _ = writer.finish()
    }

    /// Creates items through `writer` until it has compacted twice; how many it created.
    private func compactTwice(_ writer: StoreServer, directory: String, list: JSON) throws -> (compactions: Int, created: Int) {
        var compactions = 0
        var created = 0
        while compactions < 2 && created < 200 {
            created += 1
            let before = writer.snapshotSequence()
            _ = writer.call("items/create", ["list": list, "title": .string("Item \(created) " + String(repeating: "x", count: 100))])
            // With --compact-on-loop, a compaction the create started is installed before its answer left.
            if writer.snapshotSequence() != before { compactions += 1 }
        }
        try #require(compactions == 2)
        return (compactions, created)
    }

    @Test func aProcessOvertakenByTwoCompactionsReloadsByItself() throws {
        let directory = makeStoreTestDirectory()
        defer { removeTree(directory) }
        let arguments = ["--compact-after", "1000", "--compact-on-loop"]
        let writer = try StoreServer(directory: directory, arguments: arguments)
        try #require(writer.initialize())
        let list = try #require(writer.call("lists/create", ["name": "Inbox"])?["result"]?["list"]?["id"])
        let sleeper = try StoreServer(directory: directory, arguments: arguments)
        try #require(sleeper.initialize())
        let view = try #require(sleeper.call("lists/open", ["list": list])?["result"]?["view"])
        kill(sleeper.process.processID, SIGSTOP)
        let created = try compactTwice(writer, directory: directory, list: list).created
        kill(sleeper.process.processID, SIGCONT)
        // Woken, it notices (inotify) that it was overtaken and reads the store again, at once (a reset each view).
        #expect(sleeper.awaitNotification { $0["params"]?["state"] == "ready" })
        let answer = sleeper.call("items/create", ["list": list, "title": "After waking"])
        #expect(answer?["result"]?["item"] != nil, "\(answer?.text ?? "no answer")")
        let snapshot = sleeper.call("view/snapshot", ["view": view])?["result"]
        #expect(snapshot?["count"] == .integer(Int64(created + 1)), "\(snapshot?.text.prefix(200) ?? "")")
        // The view's versions went on one by one: its rows read again, then the new item.
        let versions = sleeper.takeNotifications().filter { $0["params"]?["view"] == view }.compactMap { $0["params"]?.integer("version") }
        #expect(versions == Array(2...Int64(versions.count + 1)), "\(versions)")
        #expect(writer.call("items/get", ["id": answer?["result"]?["item"]?["id"] ?? .null])?["result"]?["title"] == "After waking")
        _ = sleeper.finish()
        _ = writer.finish()
    }
}
