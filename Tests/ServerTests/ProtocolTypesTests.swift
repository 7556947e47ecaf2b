/// The protocol types against the server: a session of every method, sent as the protocol types
/// write their params; every result and notification the server writes is read as its protocol
/// type and written again byte for byte as the server wrote it (the same members, order and nulls).

#if canImport(Glibc)
import Glibc
#endif
import enum Domain.Limits
import struct Domain.Timestamp
import Server
import TasklsProtocol
import Testing
import Wire

/// A `TestClient` that speaks the protocol types and checks every answer and notification.
private final class TypedClient {
    let client: TestClient
    private(set) var checked: Set<String> = []

    init(_ client: TestClient) { self.client = client }

    /// Sends `params`; the result, read as `Request.Result`, must write exactly what the server wrote.
    @discardableResult
    func send<Request: RequestMessage>(_ params: Request) throws -> Request.Result {
        let json = try client.request(Request.method, params.json).get()
        let result = try Request.Result(json: json, path: "result")
        #expect(result.json.text == json.text, "\(Request.method): read back as \(result.json.text)")
        checked.insert(Request.method)
        try checkNotifications()
        return result
    }

    /// The error `params` is refused with.
    func refusal<Request: RequestMessage>(_ params: Request) throws -> ResponseError? {
        defer { try? checkNotifications() }
        if case .failure(let error) = try client.request(Request.method, params.json) { return error }
        return nil
    }

    /// Waits for the next notification, reads it as its type and checks it; returns its method.
    func awaitNotification() throws -> String {
        guard case .notification(let method, let params) = try client.receive() else {
            Issue.record("expected a notification")
            return ""
        }
        try check(method, params)
        return method
    }

    /// Every notification so far, read as its type and written again.
    private func checkNotifications() throws {
        for (method, params) in client.takeNotifications() { try check(method, params) }
    }

    private func check(_ method: String, _ params: JSON?) throws {
        do {
            let json = params ?? .null
            let written: JSON
            switch method {
            case ViewChanged.method: written = try ViewChanged(json: json, path: "params").json
            case ViewClosed.method: written = try ViewClosed(json: json, path: "params").json
            case ListsChanged.method: written = try ListsChanged(json: json, path: "params").json
            default:
                Issue.record("an unknown notification \(method)")
                return
            }
            #expect(written.text == json.text, "\(method): read back as \(written.text)")
            checked.insert(method)
        }
    }
}

@Test func everyResultAndNotificationReadsBackAsTheServerWroteIt() throws {
    let options = ServerOptions(logger: .silent, manualClock: ManualClock(Timestamp(milliseconds: 1_795_000_000_000)))
    let session = TypedClient(try TestClient(initialize: false, options: options))
    let capabilities = try session.send(Initialize(processId: 1, timeZone: "UTC", workDoneProgress: true, trace: .off))
    #expect(Set(capabilities.capabilities.taskls.requests) == Set(ProtocolCatalog.requests.map { $0.method }).subtracting(["initialize", "shutdown"]))
    #expect(capabilities.capabilities.taskls.notifications == ProtocolCatalog.serverNotifications.map { $0.method }.sorted())
    session.client.notify(Initialized.method, Initialized().json)

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
    let view = try session.send(ListsOpen(.list(inbox.id), sections: .priority, window: Window(start: 0, end: 10)))
    let group = try session.send(ListsOpen(.group(.all), sort: Sort(.due, .descending), filter: Filter(tagsAnyOf: ["home"])))
    try session.send(ItemsUpdate(.ids([milk.id, bread.id]), done: false, due: .cleared))
    try session.send(ItemsUpdate(.id(milk.id), title: "Buy oat milk"))
    try session.send(ViewSections(view: view.view, sections: .none))
    let current = try session.send(ViewSnapshot(view: view.view))
    try session.send(ItemsMove.view(view.view, version: current.version, from: 0, to: 1))
    try session.send(ItemsMove.ids([milk.id], before: nil))
    try session.send(ViewSetWindow(view: view.view, window: Window(start: 1, end: 3)))
    try session.send(ViewSort(view: group.view, sort: .manual))
    try session.send(ViewFilter(view: group.view, filter: nil))
    try session.send(ViewFilter(view: group.view, filter: Filter(text: "o", done: .notDone, dueBefore: "2030-01-01")))
    try session.send(DebugSetClock(now: "2026-11-24T00:00:00Z"))
    try session.send(Undo())
    try session.send(Redo())
    let copies = try session.send(ItemsDuplicate(ids: [bread.id, milk.id]))
    #expect(copies.items.map(\.title) == ["Bread", "Buy oat milk"])
    try session.send(ItemsDelete(ids: [bread.id]))
    try session.send(ViewClose(view: group.view))
    try session.send(ListsDelete(id: inbox.id))
    #expect(try session.refusal(DebugContinueLoading())?.data?["reason"] == "loadNotHeld")
    #expect(try session.refusal(ItemsGet(id: bread.id))?.data?["reason"] == "notFound")
    try session.send(Shutdown())

    // Every method but debug/continueLoading (refused here), and every notification.
    let methods = Set(ProtocolCatalog.requests.map { $0.method } + ProtocolCatalog.serverNotifications.map { $0.method })
    #expect(session.checked == methods.subtracting(["debug/continueLoading"]))
}

@Test func aLoadingStoreReadsBackAsTheServerWritesIt() throws {
    var template = Array("/tmp/taskls-protocol-types-XXXXXX".utf8CString)
    let directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    let options = ServerOptions(logger: .silent, store: .directory(directory), inlineLoadBytes: 0, loadGate: LoadGate())
    let session = TypedClient(try TestClient(initialize: false, options: options))
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
    while methods.last != ListsChanged.method { methods.append(try session.awaitNotification()) }
    #expect(methods.contains(ViewChanged.method) && methods.contains(ViewClosed.method))
    #expect(try session.send(ViewSnapshot(view: waiting.view)).state == .ready)
    #expect(try session.refusal(ViewSnapshot(view: missing.view))?.data?["reason"] == "unknownView")
    #expect(session.checked.isSuperset(of: [DebugContinueLoading.method, ViewClosed.method, ListsChanged.method, ViewChanged.method]))
}

@Test func theProtocolsLimitsAreTheDomains() {
    #expect(ProtocolLimits.windowRows == Limits.windowRows)
    #expect(ProtocolLimits.idsPerRequest == Limits.idsPerMutation)
}
