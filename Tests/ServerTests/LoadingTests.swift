/// A view whose order must first be indexed answers at once in `loading`, then turns `ready`.

import Server
import TasklsProtocol
import Testing
import Wire

@Test func aViewOnANewLargeOrderLoadsOffTheLoopThenResets() throws {
    // Orders over 20 items are indexed in the background here, so 60 items are "large".
    let client = try TestClient(options: ServerOptions(logger: .silent, backgroundIndexThreshold: 20))
    let list = try client.send(ListsCreate(name: "Big")).list.id
    for index in 0..<60 {
        try client.send(ItemsCreate(list: list, title: "item \(59 - index)"))
    }
    let opened = try client.send(ListsOpen(.list(list), sort: Sort(.title), window: Window(start: 0, end: 5)))
    guard case .loading = opened.state else {
        Issue.record("the view opened \(opened.state), not loading")
        return
    }
    #expect(opened.count == 60)
    #expect(opened.rows == [])
    // Other requests are answered while the index builds.
    #expect(try client.call(ServerPing()) == .success(EmptyResult()))
    // Then notifications: perhaps progress (state loading, no ops), and one reset to ready.
    var version = opened.version
    var ready: ViewChanged?
    // Notifications that arrived before the ping's answer were kept by the client; then wait.
    var early = client.takeNotifications()
    while ready == nil {
        let notification = early.isEmpty ? try client.nextNotification() : early.removeFirst()
        guard case .viewChanged(let change) = notification, change.view == opened.view else {
            Issue.record("unexpected \(notification.method) \(notification.params.text)")
            return
        }
        version += 1
        #expect(change.version == version, "versions are contiguous")
        if change.state == .ready { ready = change } else { #expect(change.ops == []) }
    }
    guard case .reset(let rows)? = ready?.ops.first, ready?.ops.count == 1 else {
        Issue.record("the change to ready is not one reset: \(ready?.json.text ?? "")")
        return
    }
    #expect(rows.map(\.title) == ["item 0", "item 1", "item 10", "item 11", "item 12"])
    #expect(try client.send(ViewSnapshot(view: opened.view)).rows.count == 5)
}

@Test func reSortingWhileLoadingEndsReadyInTheLastSort() throws {
    let client = try TestClient(options: ServerOptions(logger: .silent, backgroundIndexThreshold: 20))
    let list = try client.send(ListsCreate(name: "Big")).list.id
    for index in 0..<60 {
        let priority: Priority = index % 3 == 0 ? .high : index % 3 == 1 ? .low : .none
        try client.send(ItemsCreate(list: list, title: "item \(index)", priority: priority))
    }
    let view = try client.send(ListsOpen(.list(list), sort: Sort(.title), window: Window(start: 0, end: 3))).view
    // Three new orders in a row: the builds of the first two are superseded.
    try client.send(ViewSort(view: view, sort: Sort(.due)))
    try client.send(ViewSort(view: view, sort: Sort(.created, .descending)))
    var version = try client.send(ViewSort(view: view, sort: Sort(.priority, .descending))).version
    var pending = client.takeNotifications().compactMap { notification -> ViewChanged? in
        guard case .viewChanged(let change) = notification, change.version > version else { return nil }
        return change
    }
    var ready: ViewChanged?
    while ready == nil {
        let change: ViewChanged
        if pending.isEmpty {
            guard case .viewChanged(let next) = try client.nextNotification() else {
                Issue.record("expected view/changed")
                return
            }
            change = next
        } else {
            change = pending.removeFirst()
        }
        version += 1
        #expect(change.version == version, "versions are contiguous")
        if change.state == .ready { ready = change }
    }
    let snapshot = try client.send(ViewSnapshot(view: view))
    #expect(snapshot.sort.field == .priority)
    #expect(snapshot.rows.map(\.priority) == [.high, .high, .high])
}

extension Row {
    /// An item row's title, or a header's.
    var title: String {
        switch self {
        case .item(let item): item.title
        case .header(let header): header.title
        }
    }

    /// An item row's priority (`none` for a header).
    var priority: Priority {
        if case .item(let item) = self { return item.priority }
        return .none
    }
}
