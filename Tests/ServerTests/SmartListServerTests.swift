/// Smart lists through the in-process server: `lists/list` carries them with live counts, `lists/open` opens one like a
/// group, editing its filter resets its views and pushes `lists/changed`, deleting it closes them, and undo brings
/// it back; unknown ids are `notFound` with `data.ids`.

import TasklsProtocol
import Testing
import Wire

/// A server with lists Home and Work holding two errands (one done) and one other item, watching the overview.
private func fixture() throws -> (client: TestClient, home: ListID, work: ListID) {
    let client = try TestClient()
    let home = try client.send(ListsCreate(name: "Home")).list.id
    let work = try client.send(ListsCreate(name: "Work")).list.id
    try client.send(ItemsCreate(list: home, title: "Buy milk", tags: ["errand"]))
    try client.send(ItemsCreate(list: work, title: "Post", done: true, tags: ["errand"]))
    try client.send(ItemsCreate(list: work, title: "Report", priority: .high))
    _ = try client.send(ListsList(watch: true))
    return (client, home, work)
}

/// The smart lists of the last `lists/changed` among `notifications`.
private func lastOverview(_ notifications: [ServerNotification]) -> [SmartList]? {
    notifications.compactMap { if case .listsChanged(let changed) = $0 { changed.overview.smartLists } else { nil } }.last
}

@Test func aSmartListOpensLikeAGroupAndFollowsItsFilter() throws {
    let (client, _, work) = try fixture()
    let created = try client.send(SmartListsCreate(name: "Errands", filter: Filter(tagsAnyOf: ["errand"])))
    #expect(created.smartList.count == 2 && created.smartList.lists == nil && created.changed == nil)
    #expect(lastOverview(client.takeNotifications())?.map(\.count) == [2])
    #expect(try client.send(ListsList()).smartLists.map(\.name) == ["Errands"])

    let snapshot = try client.send(ListsOpen(.smartList(created.smartList.id), sort: Sort(.title)))
    #expect(snapshot.source == .smartList(created.smartList.id))
    #expect(snapshot.rows.map(\.title) == ["Buy milk", "Post"])
    var window = try ViewWindow(snapshot: snapshot)

    // A new filter and sources: one reset of the view, then the overview with the new count, then the answer.
    let updated = try client.send(SmartListsUpdate(id: created.smartList.id, filter: Filter(done: .notDone), lists: .set([work])))
    #expect(updated.changed == true && updated.smartList.count == 1 && updated.smartList.lists == [work])
    let notifications = client.takeNotifications()
    let changes = notifications.compactMap { if case .viewChanged(let change) = $0 { change } else { nil } }
    #expect(changes.count == 1 && changes.first?.ops.count == 1)
    for change in changes { _ = try window.apply(change) }
    #expect(window.rows.map(\.title) == ["Report"])
    #expect(lastOverview(notifications)?.map(\.count) == [1])

    // An item change reaches the view with ordinary ops and the count.
    try client.send(ItemsCreate(list: work, title: "Call Ana"))
    for case .viewChanged(let change) in client.takeNotifications() { _ = try window.apply(change) }
    #expect(window.rows.map(\.title) == ["Call Ana", "Report"])
    #expect(try client.send(ListsList()).smartLists.map(\.count) == [2])

    // Nothing changed: no revision, no notification.
    let same = try client.send(SmartListsUpdate(id: created.smartList.id, filter: Filter(done: .notDone)))
    #expect(same.changed == false && same.revision == updated.revision + 1)
    #expect(client.takeNotifications().isEmpty)
}

@Test func deletingASmartListClosesItsViewsAndUndoBringsItBack() throws {
    let (client, _, _) = try fixture()
    let id = try client.send(SmartListsCreate(name: "All")).smartList.id
    let view = try client.send(ListsOpen(.smartList(id))).view
    _ = client.takeNotifications()
    try client.send(SmartListsDelete(id: id))
    let notifications = client.takeNotifications()
    #expect(notifications.first == .viewClosed(ViewClosed(view: view, reason: "smartListDeleted")))
    #expect(lastOverview(notifications) == [])

    let undone = try client.send(Undo())
    #expect(undone.undone == "smartLists/delete" && undone.description == "delete a smart list")
    #expect(lastOverview(client.takeNotifications())?.map(\.id) == [id])
    #expect(try client.send(ListsOpen(.smartList(id))).count == 3)
    let redone = try client.send(Redo())
    #expect(redone.description == "delete a smart list")
    guard case .failure(let error) = try client.call(ListsOpen(.smartList(id))) else {
        Issue.record("a deleted smart list opened")
        return
    }
    #expect(error.code == .requestFailed && error.data?["reason"] == "notFound" && error.data?["ids"] == [.string(id.description)])
}

@Test func movesAndUnknownIdsFollowTheRulesOfLists() throws {
    let (client, _, _) = try fixture()
    let a = try client.send(SmartListsCreate(name: "A")).smartList.id
    let b = try client.send(SmartListsCreate(name: "B")).smartList.id
    let c = try client.send(SmartListsCreate(name: "C", before: a)).smartList.id
    #expect(try client.send(ListsList()).smartLists.map(\.id) == [c, a, b])
    #expect(try client.send(SmartListsMove(ids: [c], before: nil)).changed)
    #expect(try client.send(ListsList()).smartLists.map(\.id) == [a, b, c])
    #expect(try client.send(SmartListsMove(ids: [a, b], before: c)).changed == false)
    let undone = try client.send(Undo())
    #expect(undone.description == "reorder smart lists")
    #expect(try client.send(ListsList()).smartLists.map(\.id) == [c, a, b])

    guard case .failure(let beforeInBlock) = try client.call(SmartListsMove(ids: [a], before: a)),
          case .failure(let unknown) = try client.call(SmartListsUpdate(id: SmartListID(999), name: "x")),
          case .failure(let unknownSource) = try client.call(SmartListsCreate(name: "x", lists: [ListID(998), ListID(997)])) else {
        Issue.record("a refused request succeeded")
        return
    }
    #expect(beforeInBlock.data?["reason"] == "beforeInBlock")
    #expect(unknown.message == "unknown smart list id: s999" && unknown.data?["ids"] == ["s999"])
    #expect(unknownSource.data?["ids"] == ["l997", "l998"])
}
