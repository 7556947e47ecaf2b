/// `$/progress` on a request's `workDoneToken` for index builds: begin, reports, then exactly one end, whether
/// the build finishes or is no longer wanted; nothing at all for a client that did not advertise
/// `window.workDoneProgress`.

import Server
import Testing
import Wire

/// A client whose server indexes orders over 20 items in the background, with a list of 60 items.
private func clientWithALargeList(workDoneProgress: Bool) throws -> (TestClient, JSON) {
    let client = try TestClient(initialize: false, options: ServerOptions(logger: .silent, backgroundIndexThreshold: 20))
    _ = try client.request("initialize", ["processId": nil, "capabilities": ["window": ["workDoneProgress": .bool(workDoneProgress)]]]).get()
    client.notify("initialized", [:])
    let list = try #require(try client.request("lists/create", ["name": "Big"]).get()["list"]?["id"])
    for index in 0..<60 {
        _ = try client.request("items/create", ["list": list, "title": .string("item \(index)")]).get()
    }
    _ = client.takeNotifications()
    return (client, list)
}

/// The `kind`s of the `$/progress` notifications on `token`, waiting (by pinging) until one is an `end` or
/// `deadline` pings passed.
private func progressKinds(_ client: TestClient, token: JSON, pings deadline: Int = 2_000) throws -> [String] {
    var kinds: [String] = []
    for _ in 0..<deadline {
        for notification in client.takeNotifications() where notification.method == "$/progress" {
            #expect(notification.params?["token"] == token)
            if case .string(let kind)? = notification.params?["value"]?["kind"] { kinds.append(kind) }
        }
        if kinds.contains("end") { return kinds }
        _ = try client.request("server/ping").get()
    }
    return kinds
}

@Test func anIndexBuildIsReportedOnTheTokenOfTheRequestThatStartedIt() throws {
    let (client, list) = try clientWithALargeList(workDoneProgress: true)
    let opened = try client.request("lists/open", ["list": list, "sort": ["by": "title"], "workDoneToken": "sort-1"]).get()
    #expect(opened["state"] == "loading")
    let kinds = try progressKinds(client, token: "sort-1")
    #expect(kinds.first == "begin")
    #expect(kinds.last == "end")
    #expect(kinds.filter { $0 == "end" }.count == 1)
    #expect(kinds.dropFirst().dropLast().allSatisfy { $0 == "report" })
    #expect(try client.request("view/snapshot", ["view": opened["view"]!]).get()["state"] == "ready")
}

@Test func aBuildNoLongerWantedEndsItsProgress() throws {
    let (client, list) = try clientWithALargeList(workDoneProgress: true)
    // Opened and closed in one batch: the build is dropped before (or however soon after) it starts.
    let opened = try client.request("lists/open", ["list": list, "sort": ["by": "due"], "workDoneToken": 41]).get()
    _ = try client.request("view/close", ["view": opened["view"]!]).get()
    let kinds = try progressKinds(client, token: 41)
    #expect(kinds.first == "begin")
    #expect(kinds.filter { $0 == "end" }.count == 1)
    #expect(kinds.last == "end")
}

@Test func noProgressForAClientThatDidNotAskForIt() throws {
    let (client, list) = try clientWithALargeList(workDoneProgress: false)
    let opened = try client.request("lists/open", ["list": list, "sort": ["by": "title"], "workDoneToken": "sort-1"]).get()
    // Wait for the build to finish (the view turns ready), then no `$/progress` was sent.
    var ready = false
    for _ in 0..<2_000 where !ready {
        ready = try client.request("view/snapshot", ["view": opened["view"]!]).get()["state"] == "ready"
    }
    #expect(ready)
    #expect(!client.takeNotifications().contains { $0.method == "$/progress" })
}
