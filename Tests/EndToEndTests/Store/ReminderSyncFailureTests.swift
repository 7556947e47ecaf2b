/// A reminder reaches a client only once its record is durable: when the sync of the turn that claims it fails,
/// nothing is sent, and the record is void, so the next process to watch fires it (late) instead.

#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
import Transcript
import Wire

@Suite struct ReminderSyncFailureTests {
    @Test func aClaimWhoseSyncFailsSendsNothingAndTheReminderFiresLater() throws {
        let directory = makeStoreTestDirectory()
        defer { removeTree(directory) }
        // The syncs of creating the store, then one per write turn: the list, the item; the claim's fails.
        let allowed = try Self.syncsOfCreatingAStore() + 2
        let failing = try StoreServer(directory: directory, environment: ["TASKLS_FAIL_SYNC_AFTER": "\(allowed)"])
        try #require(failing.initialize())
        try #require(failing.call("lists/create", ["name": "Inbox"])?["result"] != nil)
        try #require(failing.call("items/create", ["list": "l1", "title": "Call", "alerts": [["at": "2026-11-22T09:30:00Z"]]])?["result"] != nil)
        try #require(failing.call("reminders/watch", ["watch": true])?["result"]?["watch"] == .bool(true))
        let answer = try #require(failing.call("debug/setClock", ["now": "2026-11-22T09:30:00Z"]))
        #expect(answer.errorReason == "storeFailed", "the answer held with the claim's turn: \(answer.text)")
        #expect(!failing.notifications.contains { $0.string("method") == "reminder/fired" }, "\(failing.notifications.map(\.text))")
        failing.finish()
        #expect(!failing.received.contains { $0.string("method") == "reminder/fired" })

        // The next process, without the fault: the refused record was void; the reminder fires now, late.
        let next = try StoreServer(directory: directory, arguments: ["--clock", "2026-11-22T09:35:00Z"])
        try #require(next.initialize())
        let watch = next.makeRequest("reminders/watch", ["watch": true])
        try #require(next.send([watch]))
        try #require(next.responses(to: [watch])[watch["id"]!]?["result"] != nil)
        let fired = next.takeNotifications().filter { $0.string("method") == "reminder/fired" }
        #expect(fired.count == 1 && fired.first?["params"]?["late"] == .bool(true) && fired.first?["params"]?.string("fireAt") == "2026-11-22T09:30:00.000Z",
                "\(fired.map(\.text))")
        next.finish()
    }

    /// How many syncs creating a fresh store takes (counted from the crash hook's log of a server that only
    /// initializes).
    static func syncsOfCreatingAStore() throws -> Int {
        let directory = makeStoreTestDirectory()
        let log = directory + ".steps"
        defer {
            removeTree(directory)
            unlink(log)
        }
        let server = try StoreServer(directory: directory, environment: ["TASKLS_CRASH_LOG": log])
        try #require(server.initialize())
        server.finish()
        return String(decoding: readFile(log) ?? [], as: UTF8.self).split(separator: "\n").filter { $0.contains("sync") }.count
    }
}
