// `sync/now` through a real server process: the server's lists synced by the sync program it runs, the changes
// another machine made arriving in an open view as `view/changed`, the overview carrying each list's sync state, and
// the refusals of a server that cannot sync. Against a real Radicale; marker `caldav`.

import Foundation
import TestSupport
import Testing
import TasklsProtocol
import Transcript
import Wire

/// A server process on `store`, initialized, with a client that skips what it is not waiting for.
private final class ServerSession {
    let process: ServerProcess
    private var nextID: Int64 = 1
    /// Notifications seen while waiting for answers, in order.
    var notifications: [JSON] = []

    init(store: String, arguments: [String] = []) throws {
        process = try ServerProcess(executable: BuildPaths.taskls, arguments: ["serve"] + arguments, environment: ["TZ": "UTC", "TASKLS_STORE": store])
        _ = try request("initialize", ["processId": .null, "timeZone": "UTC"])
        _ = process.send(["jsonrpc": "2.0", "method": "initialized", "params": [:]])
    }

    /// Sends a request and waits for its answer: its result, or its error.
    func request(_ method: String, _ params: JSON) throws -> (result: JSON?, error: JSON?) {
        let id = nextID
        nextID += 1
        _ = process.send(["jsonrpc": "2.0", "id": .integer(id), "method": .string(method), "params": params])
        while let message = process.receive(timeout: 60_000) {
            if message["id"] == .integer(id) { return (message["result"], message["error"]) }
            if message["method"] != nil { notifications.append(message) }
        }
        throw ProcessError("no answer to \(method)")
    }

    /// Waits for a notification that `matches` (among those seen already, then new ones).
    func notification(_ method: String, where matches: (JSON) -> Bool) -> JSON? {
        if let index = notifications.firstIndex(where: { $0["method"] == .string(method) && matches($0) }) {
            return notifications.remove(at: index)
        }
        while let message = process.receive(timeout: 30_000) {
            if message["method"] == .string(method) && matches(message) { return message }
            if message["method"] != nil { notifications.append(message) }
        }
        return nil
    }

    func stop() {
        process.closeInput()
        _ = process.waitForExit(timeout: 10_000)
    }
}


@Test func syncNowRunsTheSyncProgramAndTheServersViewsAndOverviewFollow() async throws {
    guard RadicaleServer.available(marker: "caldav") else { return }
    let machines = try TwoMachines(prefix: "taskls-sync-now")
    defer { machines.stop() }
    let (scratch, laptop, desktop) = (machines.scratch, machines.laptop, machines.desktop)
    try "Milk +Groceries uid:milk\nEggs +Groceries uid:eggs\n".write(toFile: scratch + "/tasks.txt", atomically: true, encoding: .utf8)
    #expect(try taskls(laptop, ["import", scratch + "/tasks.txt"]).status == 0)
    for store in [laptop, desktop] {
        #expect(try machines.shareEverything(store))
    }

    // The laptop's server (syncing only when asked): the overview watched, Groceries open.
    let session = try ServerSession(store: laptop, arguments: ["--sync-every", "0"])
    defer { session.stop() }
    let overview = try #require(session.request("lists/list", ["watch": true]).result)
    #expect(overview["sync"] == nil, "no list is shared until the first sync")
    guard case .array(let lists)? = overview["lists"], let groceries = lists.first?["id"] else { Issue.record("no list"); return }
    let opened = try #require(session.request("lists/open", ["list": groceries, "window": ["start": 0, "end": 10]]).result)
    let view = try #require(opened["view"])

    // The first sync, through the server: both tasks sent, and the overview says synced.
    var answer = try session.request("sync/now", [:])
    guard case .array(let synced)? = answer.result?["lists"], synced.count == 1 else { Issue.record("\(answer)"); return }
    // Read as the protocol's type, it writes back what the server wrote.
    #expect(try SyncNowResult(json: answer.result!, path: "result").json == answer.result!)
    #expect(synced[0]["sent"] == 2 && synced[0]["received"] == 0 && synced[0]["sync"]?["state"] == "synced")
    #expect(session.notification("lists/changed") { $0["params"]?["sync"]?.arrayCount == 1 } != nil)

    // The desktop gets them, edits one; the laptop's sync/now brings the edit into the open view.
    #expect(try taskls(desktop, ["sync", "now"]).status == 0)
    try "Oat milk +Groceries uid:milk\n".write(toFile: scratch + "/edit.txt", atomically: true, encoding: .utf8)
    #expect(try taskls(desktop, ["import", scratch + "/edit.txt"]).status == 0)
    #expect(try taskls(desktop, ["sync", "now"]).status == 0)
    answer = try session.request("sync/now", ["lists": [groceries]])
    guard case .array(let again)? = answer.result?["lists"] else { Issue.record("\(answer)"); return }
    #expect(again.first?["received"] == 1 && again.first?["sent"] == 0)
    let changed = session.notification("view/changed") { $0["params"]?["view"] == view && "\($0)".contains("Oat milk") }
    #expect(changed != nil, "the edit did not reach the open view")

    // Refusals: a list that is not shared, an empty list of lists (a server whose lists are in memory: ServerTests).
    try "Call Bob +Calls\n".write(toFile: scratch + "/more.txt", atomically: true, encoding: .utf8)
    _ = try session.request("store/import", ["format": "todotxt", "path": .string(scratch + "/more.txt")])
    let all = try #require(session.request("lists/list", [:]).result)
    guard case .array(let now)? = all["lists"], let calls = now.last?["id"] else { Issue.record("no list"); return }
    #expect(try session.request("sync/now", ["lists": [calls]]).error?["data"]?["reason"] == "syncFailed")
    #expect(try session.request("sync/now", ["lists": []]).error?["code"] == -32602)
    session.stop()

    // A server that syncs by itself (the default): as it opens the store, the desktop's latest edit comes in, without
    // any request, into the view opened meanwhile.
    try "Oat milk, organic +Groceries uid:milk\n".write(toFile: scratch + "/edit.txt", atomically: true, encoding: .utf8)
    #expect(try taskls(desktop, ["import", scratch + "/edit.txt"]).status == 0)
    #expect(try taskls(desktop, ["sync", "now"]).status == 0)
    let automatic = try ServerSession(store: laptop)
    defer { automatic.stop() }
    _ = try automatic.request("lists/list", ["watch": true])
    let reopened = try #require(automatic.request("lists/open", ["list": groceries, "window": ["start": 0, "end": 10]]).result)
    let arrived = "\(reopened)".contains("organic")
        || automatic.notification("view/changed") { "\($0)".contains("Oat milk, organic") } != nil
    #expect(arrived, "the automatic sync did not bring the desktop's edit")
}

extension JSON {
    var arrayCount: Int? { if case .array(let values) = self { values.count } else { nil } }
}

@Test func aSyncingStateNoSyncHoldsTheLockForIsSettledAsOffline() throws {
    let scratch = makeTemporaryDirectory(prefix: "taskls-sync-stopped")
    defer { removeTree(scratch) }
    let store = scratch + "/store"
    try "Milk +Groceries\n".write(toFile: scratch + "/milk.txt", atomically: true, encoding: .utf8)
    #expect(try taskls(store, ["import", scratch + "/milk.txt"]).status == 0)
    let session = try ServerSession(store: store, arguments: ["--sync-every", "0"])
    defer { session.stop() }
    let overview = try #require(session.request("lists/list", ["watch": true]).result)
    guard case .array(let lists)? = overview["lists"], case .string(let list)? = lists.first?["id"] else { Issue.record("no list"); return }
    func writeState(_ state: String) throws {
        let text = #"{"lists": [{"list": "\#(list)", "account": "home", "calendar": "/ann/groceries/", "state": "\#(state)", "#
            + #""syncedAt": null, "message": null, "waiting": 1, "progress": {"sent": 3, "total": 10}, "notices": []}]}"#
        try text.write(toFile: store + "/sync-state.json", atomically: true, encoding: .utf8)
    }
    /// The first list's sync state in a `lists/changed`.
    func state(_ message: JSON?) -> JSON? {
        guard case .array(let states)? = message?["params"]?["sync"] else { return nil }
        return states.first
    }

    // A sync under way (it holds the lock): its state and progress reach the overview as they are.
    let lock = open(store + "/sync-lock", O_RDWR | O_CREAT, 0o600)
    #expect(lock >= 0 && flock(lock, LOCK_EX) == 0)
    try writeState("syncing")
    let syncing = session.notification("lists/changed") { state($0)?["state"] == "syncing" }
    #expect(state(syncing)?["progress"] == ["sent": 3, "total": 10])

    // The sync's process dies (the lock is free), leaving `syncing`: at its next look (here, another process changes
    // the store), the server settles it as offline, says why, and writes it back.
    close(lock)
    #expect(try taskls(store, ["import", scratch + "/milk.txt"]).status == 0)
    let settled = session.notification("lists/changed") { state($0)?["state"] == "offline" }
    #expect(state(settled)?["message"] == "the last sync stopped before it finished (its process ended); the next one takes over")
    #expect(state(settled)?["progress"] == .null)
    let written = try String(contentsOfFile: store + "/sync-state.json", encoding: .utf8)
    #expect(written.contains("\"offline\"") && !written.contains("\"syncing\""), "\(written)")
}
