/// Smart lists shared by `taskls` processes on one store: what one process saves (in journal records, then in a
/// snapshot) every other process reads, whether it watches while it happens, opens the store later from the journal,
/// or from the snapshot a compaction wrote; their counts agree everywhere.

import Testing
import TestSupport
import Transcript
import Wire

@Suite struct SharedSmartListTests {
    /// The `smartLists` of a process's overview.
    static func smartLists(_ server: StoreServer) -> JSON? {
        server.call("lists/list")?["result"]?["smartLists"]
    }

    @Test func smartListsReachEveryProcessFromTheJournalAndTheSnapshot() throws {
        let directory = makeStoreTestDirectory()
        defer { removeTree(directory) }
        let writer = try StoreServer(directory: directory)
        try #require(writer.initialize())
        let watcher = try StoreServer(directory: directory)
        try #require(watcher.initialize())
        try #require(watcher.call("lists/list", ["watch": true])?["result"] != nil)

        let home = try #require(writer.call("lists/create", ["name": "Home"])?["result"]?["list"]?.string("id"))
        let work = try #require(writer.call("lists/create", ["name": "Work"])?["result"]?["list"]?.string("id"))
        var items: [String] = []
        for (list, title, priority) in [(home, "Buy milk", "high"), (work, "Report", "high"), (work, "Call", "none")] {
            let item = writer.call("items/create", ["list": .string(list), "title": .string(title), "priority": .string(priority)])
            items.append(try #require(item?["result"]?["item"]?.string("id")))
        }
        let urgent = try #require(writer.call("smartLists/create", ["name": "Urgent", "filter": ["priorityAtLeast": "high"]])?["result"])
        #expect(urgent["smartList"]?.integer("count") == 2)
        let urgentID = try #require(urgent["smartList"]?.string("id"))
        let workID = try #require(writer.call("smartLists/create", ["name": "Work", "lists": .ids([work]), "before": .string(urgentID)])?["result"]?["smartList"]?.string("id"))
        let goneID = try #require(writer.call("smartLists/create", ["name": "Gone"])?["result"]?["smartList"]?.string("id"))
        try #require(writer.call("smartLists/update", ["id": .string(urgentID), "filter": ["priorityAtLeast": "high", "done": "notDone"]])?["result"] != nil)
        try #require(writer.call("smartLists/delete", ["id": .string(goneID)])?["result"] != nil)
        // Completing the report leaves Urgent (not done only) and stays in Work.
        try #require(writer.call("items/update", ["id": .string(items[1]), "done": true])?["result"] != nil)
        let expected = try #require(Self.smartLists(writer))
        guard case .array(let entries) = expected else { Issue.record("no smart lists: \(expected.text)"); return }
        #expect(entries.compactMap { $0.string("id") } == [workID, urgentID])
        #expect(entries.compactMap { $0.integer("count") } == [2, 1])

        // The watching process was told, unasked, and holds the same smart lists.
        #expect(watcher.awaitNotification { $0["params"]?["smartLists"] == expected })
        #expect(Self.smartLists(watcher) == expected)

        // A process started now reads them from the journal.
        let later = try StoreServer(directory: directory)
        try #require(later.initialize())
        #expect(Self.smartLists(later) == expected)
        _ = later.call("shutdown")
        #expect(later.finish() == 0)

        // One that compacts at every turn writes them into a snapshot; a process started then reads them from it.
        let compacting = try StoreServer(directory: directory, arguments: ["--compact-after", "0", "--compact-on-loop"])
        try #require(compacting.initialize())
        try #require(compacting.call("items/create", ["list": .string(home), "title": "Plants", "priority": "high"])?["result"] != nil)
        let status = try #require(compacting.call("store/status")?["result"])
        #expect(status.integer("snapshotSequence").map { $0 > 0 } == true, "\(status.text)")
        let afterCompaction = try #require(Self.smartLists(compacting))
        guard case .array(let compacted) = afterCompaction else { Issue.record("no smart lists: \(afterCompaction.text)"); return }
        #expect(compacted.compactMap { $0.integer("count") } == [2, 2], "Plants joined Urgent")
        let fromSnapshot = try StoreServer(directory: directory)
        try #require(fromSnapshot.initialize())
        #expect(Self.smartLists(fromSnapshot) == afterCompaction)
        #expect(watcher.awaitNotification { $0["params"]?["smartLists"] == afterCompaction })
        for server in [writer, watcher, compacting, fromSnapshot] {
            _ = server.call("shutdown")
            #expect(server.finish() == 0)
        }
        let check = try storeCheck(directory)
        #expect(check.status == 0, "\(check.report)")
    }
}
