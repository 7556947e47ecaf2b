/// `$/progress` on a request's `workDoneToken` for index builds: begin, reports, then exactly one end, whether
/// the build finishes or is no longer wanted; nothing at all for a client that did not advertise
/// `window.workDoneProgress`.

import Server
import TasklsProtocol
import Testing
import Wire

/// A client whose server indexes orders over 20 items in the background, with a list of 60 items.
private func clientWithALargeList(workDoneProgress: Bool) throws -> (TestClient, ListID) {
    let client = try TestClient(initialize: false, options: ServerOptions(logger: .silent, backgroundIndexThreshold: 20))
    try client.send(Initialize(processId: nil, workDoneProgress: workDoneProgress))
    client.notify(Initialized())
    let list = try client.send(ListsCreate(name: "Big")).list.id
    for index in 0..<60 {
        try client.send(ItemsCreate(list: list, title: "item \(index)"))
    }
    _ = client.takeNotifications()
    return (client, list)
}

/// The `$/progress` values on `token`, waiting (by pinging) until one is an `end` or `deadline` pings passed.
private func progress(_ client: TestClient, token: ProgressToken, pings deadline: Int = 2_000) throws -> [ProgressValue] {
    var values: [ProgressValue] = []
    for _ in 0..<deadline {
        for case .progress(let progress) in client.takeNotifications() {
            #expect(progress.token == token)
            values.append(progress.value)
        }
        if values.contains(where: \.isEnd) { return values }
        try client.send(ServerPing())
    }
    return values
}

extension ProgressValue {
    var isBegin: Bool { if case .begin = self { true } else { false } }
    var isReport: Bool { if case .report = self { true } else { false } }
    var isEnd: Bool { if case .end = self { true } else { false } }
}

@Test func anIndexBuildIsReportedOnTheTokenOfTheRequestThatStartedIt() throws {
    let (client, list) = try clientWithALargeList(workDoneProgress: true)
    let opened = try client.send(ListsOpen(.list(list), sort: Sort(.title)), workDoneToken: .string("sort-1"))
    guard case .loading = opened.state else {
        Issue.record("the view opened \(opened.state), not loading")
        return
    }
    let values = try progress(client, token: .string("sort-1"))
    #expect(values.first?.isBegin == true)
    #expect(values.last?.isEnd == true)
    #expect(values.filter(\.isEnd).count == 1)
    #expect(values.dropFirst().dropLast().allSatisfy { $0.isReport })
    #expect(try client.send(ViewSnapshot(view: opened.view)).state == .ready)
}

@Test func aBuildNoLongerWantedEndsItsProgress() throws {
    let (client, list) = try clientWithALargeList(workDoneProgress: true)
    // Opened and closed in one batch: the build is dropped before (or however soon after) it starts.
    let opened = try client.send(ListsOpen(.list(list), sort: Sort(.due)), workDoneToken: .integer(41))
    try client.send(ViewClose(view: opened.view))
    let values = try progress(client, token: .integer(41))
    #expect(values.first?.isBegin == true)
    #expect(values.filter(\.isEnd).count == 1)
    #expect(values.last?.isEnd == true)
}

@Test func noProgressForAClientThatDidNotAskForIt() throws {
    let (client, list) = try clientWithALargeList(workDoneProgress: false)
    let opened = try client.send(ListsOpen(.list(list), sort: Sort(.title)), workDoneToken: .string("sort-1"))
    // Wait for the build to finish (the view turns ready), then no `$/progress` was sent.
    var ready = false
    for _ in 0..<2_000 where !ready {
        ready = try client.send(ViewSnapshot(view: opened.view)).state == .ready
    }
    #expect(ready)
    #expect(!client.takeNotifications().contains { if case .progress = $0 { true } else { false } })
}
