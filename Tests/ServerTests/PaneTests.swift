/// Focused view tests through the in-process server: two panes on one list kept by the
/// reference client, a client that misses a notification and starts again from a snapshot, a
/// change as large as its window, and the capabilities that announce the view messages.

import TasklsProtocol
import Testing
import Wire

@Test func twoPanesOnOneListFollowOneMoveAndOneRename() throws {
    let server = try TestClient()
    var client = ReferenceClient()
    let list = try server.send(ListsCreate(name: "Errands")).list.id
    var ids: [String: ItemID] = [:]
    for title in ["delta", "alpha", "charlie", "bravo", "echo"] {
        ids[title] = try server.send(ItemsCreate(list: list, title: title)).item.id
    }
    let manual = try client.open(server.send(ListsOpen(.list(list))))
    let byTitle = try client.open(server.send(ListsOpen(.list(list), sort: Sort(.title), window: Window(start: 0, end: 3))))
    #expect(client.titles(manual) == ["delta", "alpha", "charlie", "bravo", "echo"])
    #expect(client.titles(byTitle) == ["alpha", "bravo", "charlie"])

    // echo moves to the top of the list; its place by title, below that pane's window, stays.
    let move = try exchange(server, &client, ItemsMove.ids([ids["echo"]!], before: ids["delta"]!))
    try expectExact(server, client)
    #expect(move.ops[manual]?.count == 1, "one view/changed for the manual pane")
    #expect(move.ops[byTitle] == nil, "nothing the title pane shows changed, so it is not notified")
    #expect(client.titles(manual) == ["echo", "delta", "alpha", "charlie", "bravo"])
    #expect(client.titles(byTitle) == ["alpha", "bravo", "charlie"])

    // delta becomes Ábaco: updated in place in the manual pane, enters the title pane at the top.
    let rename = try exchange(server, &client, ItemsUpdate(.id(ids["delta"]!), title: "Ábaco"))
    try expectExact(server, client)
    #expect(rename.ops[manual] == [["update"]], "a rename keeps the row's manual position: one update")
    #expect(rename.ops[byTitle]?.count == 1)
    #expect(rename.ops[byTitle]?.first?.contains("update") == false, "a row that changes position is never updated in place")
    #expect(client.titles(manual) == ["echo", "Ábaco", "alpha", "charlie", "bravo"])
    #expect(client.titles(byTitle) == ["Ábaco", "alpha", "bravo"])

    // bravo becomes Aaron: inside the title pane's window it moves from the bottom to the top.
    let moveInWindow = try exchange(server, &client, ItemsUpdate(.id(ids["bravo"]!), title: "Aaron"))
    try expectExact(server, client)
    #expect(moveInWindow.ops[byTitle] == [["move"]], "an edit that moves a row in a sorted view is one move carrying the row")
    guard case .move(_, _, .item(let carried)?)? = moveInWindow.changes[byTitle]?.first?.ops.first else {
        Issue.record("the move carries no item row: \(moveInWindow.changes[byTitle] ?? [])")
        return
    }
    #expect(carried.title == "Aaron")
    #expect(moveInWindow.ops[manual] == [["update"]])
    #expect(client.titles(manual) == ["echo", "Ábaco", "alpha", "charlie", "Aaron"])
    #expect(client.titles(byTitle) == ["Aaron", "Ábaco", "alpha"])
}

@Test func aClientThatMissesANotificationStartsAgainFromASnapshot() throws {
    let server = try TestClient()
    var client = ReferenceClient()
    let list = try server.send(ListsCreate(name: "Inbox")).list.id
    var items: [ItemID] = []
    for title in ["one", "two", "three"] {
        items.append(try server.send(ItemsCreate(list: list, title: title)).item.id)
    }
    let view = try client.open(server.send(ListsOpen(.list(list), window: Window(start: 0, end: 10))))

    // The client loses the notification of version 2.
    try server.send(ItemsCreate(list: list, title: "four", before: items[0]))
    let dropped = server.takeNotifications()
    guard dropped.count == 1, case .viewChanged(let lost) = dropped[0] else {
        Issue.record("expected one view/changed, got \(dropped.map(\.method))")
        return
    }
    #expect(lost.version == 2)

    // Version 3 reveals the gap; nothing of it is applied, and version 4 waits for the snapshot.
    let rename = try exchange(server, &client, ItemsUpdate(.id(items[1]), title: "TWO"))
    #expect(rename.outcomes[view] == [.gap(expected: 2, received: 3)])
    #expect(client.views[view]?.awaitingSnapshot == true)
    #expect(client.titles(view) == ["one", "two", "three"])
    let deletion = try exchange(server, &client, ItemsDelete(ids: [items[2]]))
    #expect(deletion.outcomes[view] == [.ignoredUntilSnapshot])

    // view/snapshot puts the client back in step, and later changes apply again.
    try client.resynchronize(view, server.send(ViewSnapshot(view: view)))
    #expect(client.views[view]?.version == 4)
    #expect(client.titles(view) == ["four", "one", "TWO"])
    try expectExact(server, client)
    let move = try exchange(server, &client, ItemsMove.ids([items[0]], before: nil))
    #expect(move.outcomes[view] == [.applied])
    try expectExact(server, client)
    #expect(client.views[view]?.version == 5)
    #expect(client.titles(view) == ["four", "TWO", "one"])
}

@Test func aChangeWithAsManyOpsAsTheWindowHasRowsIsOneReset() throws {
    // protocol.md: "When the ops would be as many as the rows of the window, the server sends
    // one reset instead."
    let server = try TestClient()
    var client = ReferenceClient()
    let list = try server.send(ListsCreate(name: "Inbox")).list.id
    var items: [ItemID] = []
    for title in ["a", "b", "c"] {
        items.append(try server.send(ItemsCreate(list: list, title: title)).item.id)
    }
    let view = try client.open(server.send(ListsOpen(.list(list), window: Window(start: 1, end: 2))))
    #expect(client.titles(view) == ["b"])

    // A new first item pushes b out of the one-row window and brings a in.
    let creation = try exchange(server, &client, ItemsCreate(list: list, title: "new", before: items[0]), recordingLapses: false)
    try expectExact(server, client)
    #expect(client.titles(view) == ["a"])
    #expect(creation.ops[view] == [["reset"]], "one row replaced in a one-row window: one reset, not \(creation.ops[view] ?? [])")
}

@Test func initializeAnnouncesTheListItemAndViewMessages() throws {
    let server = try TestClient(initialize: false)
    let announced = try server.send(Initialize()).capabilities.taskls
    let methods: Set<String> = [
        "server/ping", "lists/open", "view/setWindow", "view/sort", "view/snapshot", "view/close", "lists/list",
        "lists/create", "lists/update", "lists/delete", "lists/move", "items/create", "items/get", "items/update",
        "items/delete", "items/move",
    ]
    let requests = Set(announced.requests)
    #expect(methods.subtracting(requests).isEmpty, "requests not announced: \(methods.subtracting(requests).sorted())")
    #expect(Set(announced.notifications).isSuperset(of: ["view/changed", "view/closed"]), "notifications announced: \(announced.notifications.sorted())")
}

/// What one request did to the client's views: each `view/changed`, the op names of each, and what
/// applying each one did, by view.
private struct Exchange<Answer> {
    var result: Answer
    var changes: [ViewID: [ViewChanged]] = [:]
    var ops: [ViewID: [[String]]] = [:]
    var outcomes: [ViewID: [ChangeOutcome]] = [:]
}

/// Sends a request and feeds the notifications that came before its answer to `client`.
/// Lapses (see `ReferenceView.lapses`) are recorded as issues unless `recordingLapses` is false.
private func exchange<Request: RequestMessage>(
    _ server: TestClient, _ client: inout ReferenceClient, _ request: Request, recordingLapses: Bool = true
) throws -> Exchange<Request.Result> {
    var exchange = Exchange(result: try server.send(request))
    for notification in server.takeNotifications() {
        let (view, outcome) = try client.receive(notification)
        if case .viewChanged(let change) = notification {
            exchange.ops[view, default: []].append(change.ops.map(\.name))
            exchange.changes[view, default: []].append(change)
        }
        if let outcome { exchange.outcomes[view, default: []].append(outcome) }
    }
    for lapse in client.takeLapses() where recordingLapses { Issue.record("\(Request.method): \(lapse)") }
    return exchange
}

/// Every view the client holds equals a fresh snapshot.
private func expectExact(_ server: TestClient, _ client: ReferenceClient, sourceLocation: SourceLocation = #_sourceLocation) throws {
    for (id, view) in client.views {
        let snapshot = try server.send(ViewSnapshot(view: id))
        #expect(view.difference(from: snapshot) == nil, sourceLocation: sourceLocation)
    }
}

extension ReferenceClient {
    /// The titles of a view's window, top to bottom.
    func titles(_ view: ViewID) -> [String] {
        views[view]?.rows.compactMap { row in if case .item(let item) = row { item.title } else { nil } } ?? []
    }
}
