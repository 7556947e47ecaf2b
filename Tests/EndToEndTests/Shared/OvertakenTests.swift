// A process that sleeps through two compactions by others (a suspended editor) reads the store again by itself
// when it wakes: its views go to loading and come back with every change, and it keeps writing, no retry needed.

#if canImport(Glibc)
import Glibc
#endif
import Testing
import Transcript
import Wire

@Suite struct OvertakenTests {
    @Test func aProcessOvertakenByTwoCompactionsReloadsByItself() throws {
        let directory = makeStoreTestDirectory()
        defer { removeTree(directory) }
        let arguments = ["--compact-after", "1000"]
        let writer = try StoreServer(directory: directory, arguments: arguments)
        try #require(writer.initialize())
        let list = try #require(writer.call("lists/create", ["name": "Inbox"])?["result"]?["list"]?["id"])
        let sleeper = try StoreServer(directory: directory, arguments: arguments)
        try #require(sleeper.initialize())
        let view = try #require(sleeper.call("lists/open", ["list": list])?["result"]?["view"])
        kill(sleeper.process.processID, SIGSTOP)
        var compactions = 0
        var created = 0
        while compactions < 2 && created < 200 {
            created += 1
            let before = StoreFiles.size(directory + "/snapshot") ?? 0
            _ = writer.call("items/create", ["list": list, "title": .string("Item \(created) " + String(repeating: "x", count: 100))])
            writer.awaitCompaction(threshold: 1000)
            if (StoreFiles.size(directory + "/snapshot") ?? 0) != before { compactions += 1 }
        }
        try #require(compactions == 2)
        kill(sleeper.process.processID, SIGCONT)
        // Woken, it notices (inotify) that it was overtaken and reads the store again, at once.
        #expect(sleeper.awaitNotification { $0["params"]?["state"] == "ready" })
        let answer = sleeper.call("items/create", ["list": list, "title": "After waking"])
        #expect(answer?["result"]?["item"] != nil, "\(answer?.text ?? "no answer")")
        let snapshot = sleeper.call("view/snapshot", ["view": view])?["result"]
        #expect(snapshot?["count"] == .integer(Int64(created + 1)), "\(snapshot?.text.prefix(200) ?? "")")
        // The view's versions went on one by one: loading, then its rows, then the new item.
        let versions = sleeper.takeNotifications().filter { $0["params"]?["view"] == view }.compactMap { message -> Int64? in
            if case .integer(let version)? = message["params"]?["version"] { return version }
            return nil
        }
        #expect(versions == Array(2...Int64(versions.count + 1)), "\(versions)")
        #expect(writer.call("items/get", ["id": answer?["result"]?["item"]?["id"] ?? .null])?["result"]?["title"] == "After waking")
        _ = sleeper.finish()
        _ = writer.finish()
    }
}
