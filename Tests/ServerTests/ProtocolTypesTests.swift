/// The protocol types against the server: a session of every method, sent as the protocol types
/// write their params; every result and notification the server writes is read as its protocol
/// type and written again byte for byte as the server wrote it (the same members, order and nulls),
/// as `TestClient` reads everything; here every method and notification is seen at least once.

#if canImport(Glibc)
import Glibc
#endif
import enum Domain.Limits
import struct Domain.Timestamp
import Server
import TasklsProtocol
import Testing
import Wire

@Test func everyResultAndNotificationReadsBackAsTheServerWroteIt() throws {
    let options = ServerOptions(logger: .silent, manualClock: ManualClock(Timestamp(milliseconds: 1_795_000_000_000)))
    let session = try TestClient(initialize: false, options: options)
    let capabilities = try session.send(Initialize(processId: 1, timeZone: "UTC", workDoneProgress: true, trace: .off))
    #expect(Set(capabilities.capabilities.taskls.requests) == Set(ProtocolCatalog.requests.map { $0.method }).subtracting(["initialize", "shutdown"]))
    #expect(capabilities.capabilities.taskls.notifications == ProtocolCatalog.serverNotifications.map { $0.method }.sorted())
    session.notify(Initialized())

    try session.send(ServerPing())
    try session.send(StoreStatus())
    try session.send(StoreRetry())
    #expect(try session.send(ListsList(watch: true)).lists.isEmpty)
    let inbox = try session.send(ListsCreate(name: "Inbox", color: "blue")).list
    let work = try session.send(ListsCreate(name: "Work", icon: "briefcase", before: inbox.id)).list
    try session.send(ListsUpdate(id: inbox.id, name: "In", color: .cleared, icon: .set("tray")))
    try session.send(ListsMove(ids: [work.id], before: nil))
    let milk = try session.send(ItemsCreate(list: inbox.id, title: "Buy milk", notes: "2 litres", due: "2026-11-23T09:30:00+01:00",
                                            priority: .high, tags: ["home", " errand "])).item
    let bread = try session.send(ItemsCreate(list: inbox.id, title: "Bread", done: true, before: milk.id)).item
    try session.send(ItemsCreate(list: work.id, title: "Report", due: "2026-11-22"))
    try session.send(ItemsGet(id: milk.id))
    let parsed = try session.send(TextParseItem(text: "Call ^tomorrow 9:30 !! #home @work // notes", list: inbox.id))
    #expect(parsed.fields.list == work.id && parsed.fields.due == .set("2026-11-19T09:30:00Z") && parsed.warnings.isEmpty)
    let filter = try session.send(TextParseFilter(text: "#home|#work !high+ due<=fri overdue"))
    #expect(filter.filter.tagsAnyOf == ["home", "work"] && filter.warnings.map(\.reason) == [.notAFilter])
    let view = try session.send(ListsOpen(.list(inbox.id), sections: .priority, window: Window(start: 0, end: 10)))
    let group = try session.send(ListsOpen(.group(.all), sort: Sort(.due, .descending), filter: Filter(tagsAnyOf: ["home"])))
    try session.send(ItemsUpdate(.ids([milk.id, bread.id]), done: false, due: .cleared))
    try session.send(ItemsUpdate(.id(milk.id), title: "Buy oat milk"))
    try session.send(ViewSections(view: view.view, sections: .none))
    let current = try session.send(ViewSnapshot(view: view.view))
    try session.send(ItemsMove.view(view.view, version: current.version, from: 0, to: 1))
    try session.send(ItemsMove.ids([milk.id], before: nil))
    // The tree: a subtask, indented, outdented, moved by id and by index with a depth, collapsed and expanded.
    let step = try session.send(ItemsCreate(list: inbox.id, title: "Step", parent: .item(milk.id))).item
    #expect(step.parent == milk.id)
    try session.send(ItemsIndent(ids: [milk.id]))
    try session.send(ItemsOutdent(ids: [milk.id]))
    try session.send(ItemsMove.ids([step.id], before: nil, parent: .topLevel))
    let tree = try session.send(ViewSnapshot(view: view.view))
    try session.send(ItemsMove.view(view.view, version: tree.version, from: 2, to: 2, depth: 1))
    #expect(try session.send(ViewCollapse(view: view.view, .all)).changed)
    try session.send(ViewExpand(view: view.view, .ids([milk.id])))
    #expect(try session.send(ViewLocate(view: view.view, id: step.id)).id == step.id)
    try session.send(ViewSetWindow(view: view.view, window: Window(start: 1, end: 3)))
    try session.send(ViewSort(view: group.view, sort: .manual))
    try session.send(ViewFilter(view: group.view, filter: nil))
    try session.send(ViewFilter(view: group.view, filter: Filter(text: "o", done: .notDone, dueBefore: "2030-01-01")))
    // Reminders: an alert fires when the clock passes it, is listed, snoozed and dismissed.
    let call = try session.send(ItemsCreate(list: inbox.id, title: "Call", due: "2026-11-23T10:00:00Z",
                                            alerts: [.offset(-60), .at("2026-11-23T12:00:00Z")])).item
    try session.send(RemindersWatch(watch: true))
    try session.send(DebugSetClock(now: "2026-11-24T00:00:00Z"))
    #expect(try session.send(RemindersList()).reminders.count == 2)
    try session.send(RemindersSnooze(item: call.id, fireAt: "2026-11-23T09:00:00Z", .minutes(5)))
    try session.send(RemindersDismiss(item: call.id, fireAt: "2026-11-23T12:00:00Z"))
    try session.send(Undo())
    try session.send(Redo())
    let copies = try session.send(ItemsDuplicate(ids: [bread.id, milk.id]))
    #expect(copies.items.map(\.title) == ["Bread", "Buy oat milk"])
    // A repeating item: completed (moved on, its history in the item and its repeat in the rows), then skipped.
    let weekly = try session.send(ItemsCreate(list: inbox.id, title: "Bins", due: "2026-11-24T19:00:00Z",
                                              repeat: Repeat(rule: "FREQ=WEEKLY;BYDAY=TU", from: .due))).item
    #expect(try session.send(ItemsUpdate(.id(weekly.id), done: true)).advanced == [weekly.id])
    #expect(try session.send(ItemsSkip(ids: [weekly.id])).items.first?.occurrences.skipped == 1)
    try session.send(ItemsDelete(ids: [bread.id]))
    try session.send(ViewClose(view: group.view))
    let urgent = try session.send(SmartListsCreate(name: "Urgent", color: "red", filter: Filter(priorityAtLeast: .high),
                                                   lists: [inbox.id])).smartList
    let errands = try session.send(SmartListsCreate(name: "Errands", icon: "cart", before: urgent.id)).smartList
    let smart = try session.send(ListsOpen(.smartList(urgent.id)))
    try session.send(SmartListsUpdate(id: urgent.id, name: "Now", icon: .set("bolt"), filter: Filter(done: .notDone), lists: .cleared))
    try session.send(SmartListsMove(ids: [errands.id], before: nil))
    try session.send(SmartListsDelete(id: errands.id))
    try session.send(ViewClose(view: smart.view))
    #expect(try session.send(StoreImport(format: .todotxt, source: .text("Imported task uid:imported\n"), into: inbox.id)).created == 1)
    #expect(try session.send(StoreExport(format: .ics, lists: [inbox.id])).text?.contains("SUMMARY:Imported task") == true)
    try session.send(ListsDelete(id: inbox.id))
    #expect(try session.call(DebugContinueLoading()).refusalReason == "loadNotHeld")
    // Answered only with a store and a CalDAV server: read back in SyncTests (`syncNowRunsTheSyncProgramAndTheServersViewsAndOverviewFollow`).
    #expect(try session.call(SyncNow()).refusalReason == "syncUnavailable")
    #expect(try session.call(ItemsGet(id: bread.id)).refusalReason == "notFound")
    try session.send(Shutdown())

    // Every method but debug/continueLoading and sync/now (refused here), and every notification.
    let methods = Set(ProtocolCatalog.requests.map { $0.method } + ProtocolCatalog.serverNotifications.map { $0.method })
    #expect(session.methodsRead == methods.subtracting(["debug/continueLoading", "sync/now"]))
}

@Test func aLoadingStoreReadsBackAsTheServerWritesIt() throws {
    var template = Array("/tmp/taskls-protocol-types-XXXXXX".utf8CString)
    let directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    let options = ServerOptions(logger: .silent, store: .directory(directory), inlineLoadBytes: 0, loadGate: LoadGate())
    let session = try TestClient(initialize: false, options: options)
    try session.send(Initialize())
    let overview = try session.send(ListsList(watch: true))
    guard case .loading? = overview.store?.state else {
        Issue.record("the store is not loading: \(overview.json.text)")
        return
    }
    let waiting = try session.send(ListsOpen(.group(.today)))
    #expect(waiting.state == .loading(progress: 0))
    let missing = try session.send(ListsOpen(.list(ListID(99))))
    try session.send(StoreStatus())
    try session.send(DebugContinueLoading())
    // The views get their rows (or are closed), then the overview follows.
    var methods: [String] = []
    while methods.last != ListsChanged.method { methods.append(try session.nextNotification().method) }
    #expect(methods.contains(ViewChanged.method) && methods.contains(ViewClosed.method))
    #expect(try session.send(ViewSnapshot(view: waiting.view)).state == .ready)
    #expect(try session.call(ViewSnapshot(view: missing.view)).refusalReason == "unknownView")
    #expect(session.methodsRead.isSuperset(of: [DebugContinueLoading.method, ViewClosed.method, ListsChanged.method, ViewChanged.method]))
}

@Test func theProtocolsLimitsAreTheDomains() {
    #expect(ProtocolLimits.windowRows == Limits.windowRows)
    #expect(ProtocolLimits.idsPerRequest == Limits.idsPerMutation)
}
