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

@Test func aBuildNoLongerWantedEndsItsProgressSayingSo() throws {
    let (client, list) = try clientWithALargeList(workDoneProgress: true)
    // Opened and closed in one batch (the session's first view is v1): no view waits for the build any more
    // before its result can be installed, however fast it runs.
    guard case .object(var open) = ListsOpen(.list(list), sort: Sort(.due)).json else { return }
    open["workDoneToken"] = 41
    client.sendBatch(.request(id: .integer(900), method: ListsOpen.method, params: .object(open)),
                     ViewClose(view: ViewID(1)).message(id: .integer(901)))
    var values: [ProgressValue] = []
    var answered = 0
    while answered < 2 {
        switch try client.receive() {
        case .response(.integer(900), let result):
            #expect(result["view"] == "v1" && result["state"] == "loading")
            answered += 1
        case .response(.integer(901), _):
            answered += 1
        case .notification(Progress.method, let params?):
            let progress = try Progress(json: params, path: "params")
            #expect(progress.token == .integer(41))
            values.append(progress.value)
        case let other:
            Issue.record("unexpected \(other)")
            return
        }
    }
    if !values.contains(where: \.isEnd) { values += try progress(client, token: .integer(41)) }
    #expect(values.first?.isBegin == true)
    #expect(values.filter(\.isEnd).count == 1)
    #expect(values.last == .end(message: "no longer needed"))
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
