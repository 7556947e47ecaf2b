/// A process that keeps the store's lock (here: the test itself, as a process that cannot void a refused turn
/// would) never freezes another process's message loop: that process answers `server/ping` at once, refuses a
/// request on the store with the retryable `storeBusy` once it has waited `DurableStore.lockPatience` for the
/// lock, keeps serving, and carries requests out as usual once the lock is released.

#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
import Transcript
import Wire

@Suite struct BusyLockTests {
    @Test func aLockKeptByAnotherProcessRefusesRequestsWithoutFreezingTheLoop() throws {
        let directory = makeStoreTestDirectory()
        defer { removeTree(directory) }
        let server = try StoreServer(directory: directory)
        try #require(server.initialize())
        try #require(server.call("lists/create", ["name": "Inbox"])?["result"] != nil)

        let lock = open(directory + "/lock", O_RDWR | O_CLOEXEC)
        try #require(lock >= 0)
        defer { close(lock) }
        try #require(flock(lock, LOCK_EX | LOCK_NB) == 0, "the server holds the lock while idle")
        #expect(server.call("server/ping")?["result"] == [:], "ping is answered while another process holds the lock")

        for (method, params) in [("lists/create", JSON.object(["name": "Held"])), ("lists/list", JSON.object([:]))] {
            let refusal = server.call(method, params)
            #expect(refusal?["error"]?["code"] == -32803 && refusal?.errorReason == "storeBusy", "\(method): \(refusal?.text ?? "no answer")")
            #expect(refusal?["error"]?["data"]?["retryable"] == true, "\(method): \(refusal?.text ?? "no answer")")
            #expect(server.call("server/ping")?["result"] == [:], "still serving after refusing \(method)")
        }
        #expect(server.call("store/status")?["result"] != nil)

        _ = flock(lock, LOCK_UN)
        #expect(server.call("lists/create", ["name": "After"])?["result"]?["list"] != nil)
        var names: [String] = []
        if case .array(let lists)? = server.call("lists/list")?["result"]?["lists"] { names = lists.compactMap { $0.string("name") } }
        #expect(names == ["Inbox", "After"], "the refused create left nothing behind")
        #expect(server.finish() != nil, "closing stdin ends the process")
    }
}
