// `sync/now` refused by a server that cannot sync: lists in memory only. (Syncs themselves are tested against a real
// Radicale in SyncTests.)

import Server
import TasklsProtocol
import Testing
import Wire

@Test func syncNowIsRefusedWhenTheListsAreInMemoryOnly() throws {
    let client = try TestClient()
    guard case .failure(let error) = try client.call(SyncNow()) else {
        Issue.record("sync/now was answered without a store")
        return
    }
    #expect(error.code == .requestFailed && error.data?["reason"] == "syncUnavailable" && error.message.contains("in memory"))
    #expect(try client.send(ListsList(watch: true)).sync == nil)
}
