/// Repeating items through the in-process server: created with a repeat, completed (the row is updated in a
/// manual pane and moves in a pane sorted by due, in Europe/Berlin across the October change), undone, skipped,
/// and the refusals with their data; every pane kept by the reference client stays exact.

import Domain
import Server
import TasklsProtocol
import Testing
import Wire

/// A server on a manual clock at 2026-10-23T05:00:00Z (07:00 in Berlin), initialized in Europe/Berlin.
private func berlinServer() throws -> TestClient {
    let options = ServerOptions(logger: .silent, manualClock: ManualClock(Timestamp(milliseconds: 1_792_731_600_000)))
    let server = try TestClient(initialize: false, options: options)
    _ = try server.send(Initialize(timeZone: "Europe/Berlin"))
    server.notify(Initialized())
    return server
}

/// Sends `request`, feeds the notifications before its answer to `client`, and returns the answer with the ops each
/// view got (by name).
private func repeatExchange<Request: RequestMessage>(_ server: TestClient, _ client: inout ReferenceClient,
                                               _ request: Request) throws -> (Request.Result, [TasklsProtocol.ViewID: [String]]) {
    let result = try server.send(request)
    var ops: [TasklsProtocol.ViewID: [String]] = [:]
    for notification in server.takeNotifications() {
        let (view, _) = try client.receive(notification)
        if case .viewChanged(let change) = notification { ops[view, default: []] += change.ops.map(\.name) }
    }
    for lapse in client.takeLapses() { Issue.record("\(Request.method): \(lapse)") }
    for (id, view) in client.views {
        #expect(view.difference(from: try server.send(ViewSnapshot(view: id))) == nil, "\(Request.method): \(id)")
    }
    return (result, ops)
}

private func itemRow(_ client: ReferenceClient, _ view: TasklsProtocol.ViewID, _ id: TasklsProtocol.ItemID) -> ItemRow? {
    for row in client.views[view]?.rows ?? [] { if case .item(let item) = row, item.id == id { return item } }
    return nil
}

@Test func completingARepeatingItemUpdatesItsRowsAndUndoPutsItBack() throws {
    let server = try berlinServer()
    var client = ReferenceClient()
    let list = try server.send(ListsCreate(name: "Work")).list.id
    // As the server answers it, with its words (sent, the words are ignored).
    let weekly = Repeat(rule: "FREQ=WEEKLY", from: .due, text: "every week")
    let standup = try server.send(ItemsCreate(list: list, title: "Standup", due: "2026-10-23T09:00:00+02:00", repeat: weekly)).item
    #expect(standup.repeat == weekly && standup.occurrences == Occurrences())
    for (title, due) in [("Review", "2026-10-27"), ("Plan", "2026-11-02"), ("Later", nil)] {
        _ = try server.send(ItemsCreate(list: list, title: title, due: due))
    }
    let manual = try client.open(server.send(ListsOpen(.list(list))))
    let byDue = try client.open(server.send(ListsOpen(.list(list), sort: Sort(.due))))
    #expect(itemRow(client, manual, standup.id)?.repeat == weekly)

    let (completed, ops) = try repeatExchange(server, &client, ItemsUpdate(.id(standup.id), done: true))
    #expect(completed.advanced == [standup.id] && completed.changed)
    let item = try #require(completed.items.first)
    #expect(!item.done && item.completed == nil)
    #expect(item.due == "2026-10-30T09:00:00+01:00" && item.dueLocal == "2026-10-30T09:00", "9:00 on the wall clock, the offset after the change")
    #expect(item.occurrences == Occurrences(completed: 1, recent: [
        Occurrence(due: "2026-10-23T09:00:00+02:00", outcome: .completed, at: "2026-10-23T05:00:00.000Z"),
    ]))
    #expect(ops[manual] == ["update"], "the manual pane updates the row in place")
    #expect(ops[byDue] == ["move"], "the due pane moves the row after Review (27 October)")
    #expect(itemRow(client, byDue, standup.id)?.due == item.due)

    let undone = try repeatExchange(server, &client, Undo()).0
    #expect(undone.description == "complete 1 task")
    let back = try server.send(ItemsGet(id: standup.id))
    #expect(back.due == standup.due && back.occurrences == Occurrences() && !back.done)

    let (skipped, skipOps) = try repeatExchange(server, &client, ItemsSkip(ids: [standup.id]))
    #expect(skipped.items.first?.occurrences.skipped == 1 && skipped.items.first?.due == "2026-10-30T09:00:00+01:00")
    #expect(skipOps[manual] == ["update"])
    #expect(try repeatExchange(server, &client, Undo()).0.description == "skip 1 task")
}

@Test func theRefusalsOfRepeatingItemsSayWhatAndWhich() throws {
    let server = try berlinServer()
    let list = try server.send(ListsCreate(name: "Home")).list.id
    func refusal<Request: RequestMessage>(_ request: Request) throws -> ResponseError? {
        if case .failure(let error) = try server.call(request) { return error }
        return nil
    }
    let noDue = try refusal(ItemsCreate(list: list, title: "x", repeat: Repeat(rule: "FREQ=DAILY")))
    #expect(noDue?.code == .requestFailed && noDue?.data?["reason"] == "repeatWithoutDue")
    let badRule = try refusal(ItemsCreate(list: list, title: "x", due: "2026-10-24", repeat: Repeat(rule: "FREQ=DAILY;INTERVAL=0")))
    #expect(badRule?.code == .invalidParams && badRule?.message == "params.repeat.rule: INTERVAL=0 is out of range: 1 to 1000")
    let plain = try server.send(ItemsCreate(list: list, title: "plain", due: "2026-10-24")).item.id
    let once = try server.send(ItemsCreate(list: list, title: "once", due: "2026-10-24", repeat: Repeat(rule: "FREQ=DAILY;COUNT=1"))).item.id
    let notRepeating = try refusal(ItemsSkip(ids: [once, plain]))
    #expect(notRepeating?.data?["reason"] == "notRepeating" && notRepeating?.data?["ids"] == [plain.json])
    let ended = try refusal(ItemsSkip(ids: [once]))
    #expect(ended?.data?["reason"] == "repeatEnded" && ended?.data?["ids"] == [once.json])
    // COUNT=1: the first due is the only occurrence, so completing makes it done.
    let done = try server.send(ItemsUpdate(.id(once), done: true))
    #expect(done.advanced.isEmpty && done.items.first?.done == true)
    let clearDue = try refusal(ItemsUpdate(.id(once), due: .cleared))
    #expect(clearDue?.data?["reason"] == "repeatWithoutDue")
    let cleared = try server.send(ItemsUpdate(.id(once), due: .cleared, repeat: .cleared))
    #expect(cleared.items.first?.repeat == nil && cleared.items.first?.due == nil && cleared.items.first?.occurrences == Occurrences())
}
