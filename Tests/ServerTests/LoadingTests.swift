/// A view whose order must first be indexed answers at once in `loading`, then turns `ready`.

import Server
import Testing
import Wire

@Test func aViewOnANewLargeOrderLoadsOffTheLoopThenResets() throws {
    // Orders over 20 items are indexed in the background here, so 60 items are "large".
    let client = try TestClient(options: ServerOptions(logger: .silent, backgroundIndexThreshold: 20))
    let list = try #require(try client.request("lists/create", ["name": "Big"]).get()["list"]?["id"])
    for index in 0..<60 {
        _ = try client.request("items/create", ["list": list, "title": .string("item \(59 - index)")]).get()
    }
    let opened = try client.request("lists/open", ["list": list, "sort": ["by": "title"], "window": ["start": 0, "end": 5]]).get()
    #expect(opened["state"] == "loading")
    #expect(opened["count"] == 60)
    #expect(opened["rows"] == [])
    let view = try #require(opened["view"])
    // Other requests are answered while the index builds.
    #expect(try client.request("server/ping") == .success([:]))
    // Then notifications: perhaps progress (state loading, no ops), and one reset to ready.
    var version = try #require(opened["version"].flatMap { if case .integer(let value) = $0 { value } else { nil } })
    var ready: JSON?
    // Notifications that arrived before the ping's answer were kept by the client; then wait.
    var early = client.takeNotifications().map { Message.notification(method: $0.method, params: $0.params) }
    while ready == nil {
        let message = early.isEmpty ? try client.receive() : early.removeFirst()
        guard case .notification("view/changed", let params?) = message, params["view"] == view else {
            Issue.record("unexpected \(message)")
            return
        }
        version += 1
        #expect(params["version"] == .integer(version), "versions are contiguous")
        if params["state"] == "ready" { ready = params } else { #expect(params["ops"] == []) }
    }
    let rows = try #require(ready?["ops"]?.arrayValue?.first?["rows"]?.arrayValue)
    #expect(ready?["ops"]?.arrayValue?.count == 1 && ready?["ops"]?.arrayValue?.first?["op"] == "reset")
    #expect(rows.map { $0["title"] } == ["item 0", "item 1", "item 10", "item 11", "item 12"])
    #expect(try client.request("view/snapshot", ["view": view]).get()["rows"]?.arrayValue?.count == 5)
}

extension JSON {
    /// The elements of an array, or `nil`.
    fileprivate var arrayValue: [JSON]? {
        if case .array(let elements) = self { return elements }
        return nil
    }
}

@Test func reSortingWhileLoadingEndsReadyInTheLastSort() throws {
    let client = try TestClient(options: ServerOptions(logger: .silent, backgroundIndexThreshold: 20))
    let list = try #require(try client.request("lists/create", ["name": "Big"]).get()["list"]?["id"])
    for index in 0..<60 {
        let priority: JSON = index % 3 == 0 ? "high" : index % 3 == 1 ? "low" : "none"
        _ = try client.request("items/create", ["list": list, "title": .string("item \(index)"), "priority": priority]).get()
    }
    let opened = try client.request("lists/open", ["list": list, "sort": ["by": "title"], "window": ["start": 0, "end": 3]]).get()
    let view = try #require(opened["view"])
    // Three new orders in a row: the builds of the first two are superseded.
    _ = try client.request("view/sort", ["view": view, "sort": ["by": "due"]]).get()
    _ = try client.request("view/sort", ["view": view, "sort": ["by": "created", "direction": "descending"]]).get()
    let last = try client.request("view/sort", ["view": view, "sort": ["by": "priority", "direction": "descending"]]).get()
    var version = try #require(last["version"].flatMap { if case .integer(let value) = $0 { value } else { nil } })
    var pending = client.takeNotifications().compactMap { note -> JSON? in
        guard let params = note.params, case .integer(let number)? = params["version"], number > version else { return nil }
        return params
    }
    var ready: JSON?
    while ready == nil {
        let params: JSON
        if pending.isEmpty {
            guard case .notification("view/changed", let next?) = try client.receive() else {
                Issue.record("expected view/changed")
                return
            }
            params = next
        } else {
            params = pending.removeFirst()
        }
        version += 1
        #expect(params["version"] == .integer(version), "versions are contiguous")
        if params["state"] == "ready" { ready = params }
    }
    let snapshot = try client.request("view/snapshot", ["view": view]).get()
    #expect(snapshot["sort"]?["by"] == "priority")
    #expect(snapshot["rows"]?.arrayValue?.map { $0["priority"] } == ["high", "high", "high"])
}
