// A shared list's name and colour against its calendar's: a table of the merge, and the base kept in the status.

import Domain
import Sync
import SyncEngine
import Testing
import Wire

private func properties(_ name: String?, _ color: String? = nil) -> ListProperties { ListProperties(name: name, color: color) }

@Test func aNameOrColourChangedOnOneSideReachesTheOther() {
    let base = ListPropertiesBase(local: properties("Chores", "#FF0000"), remote: properties("Chores", "#FF0000"))
    // Nothing changed.
    var change = ListPropertiesMerge.merge(base: base, local: base.local, remote: base.remote)
    #expect(change.local == nil && change.remote == nil && change.base == base)
    // Renamed here: the calendar takes the name, the colour stays.
    change = ListPropertiesMerge.merge(base: base, local: properties("Housework", "#FF0000"), remote: base.remote)
    #expect(change.local == nil && change.remote == properties("Housework", "#FF0000"))
    #expect(change.base == ListPropertiesBase(local: properties("Housework", "#FF0000"), remote: properties("Housework", "#FF0000")))
    // Recoloured on the server, renamed here: each part goes its way.
    change = ListPropertiesMerge.merge(base: base, local: properties("Housework", "#FF0000"), remote: properties("Chores", "#00FF00"))
    #expect(change.local == properties("Housework", "#00FF00") && change.remote == properties("Housework", "#00FF00"))
    // Renamed on both sides: the server's name stays, and the list takes it.
    change = ListPropertiesMerge.merge(base: base, local: properties("Mine", "#FF0000"), remote: properties("Theirs", "#FF0000"))
    #expect(change.local == properties("Theirs", "#FF0000") && change.remote == nil)
    // A colour removed on the server is removed here; a name removed there is not.
    change = ListPropertiesMerge.merge(base: base, local: base.local, remote: properties(nil, nil))
    #expect(change.local == properties("Chores", nil) && change.remote == nil)
    #expect(change.base == ListPropertiesBase(local: properties("Chores", nil), remote: properties(nil, nil)))
}

@Test func withoutABaseNothingChangesAndBothSidesAreKept() {
    // A list shared with a calendar of another name on purpose keeps both names.
    let change = ListPropertiesMerge.merge(base: nil, local: properties("Groceries"), remote: properties("Shopping", "#0000FF"))
    #expect(change.local == nil && change.remote == nil)
    #expect(change.base == ListPropertiesBase(local: properties("Groceries"), remote: properties("Shopping", "#0000FF")))
    // Later, a rename on either side makes them alike.
    let later = ListPropertiesMerge.merge(base: change.base, local: properties("Food"), remote: properties("Shopping", "#0000FF"))
    #expect(later.remote == properties("Food", "#0000FF") && later.local == nil)
}

@Test func theBaseIsKeptInTheStatusAndAnOldStatusHasNone() throws {
    let status = ListSyncStatus(calendar: "/ann/chores/", token: "t1",
                                properties: ListPropertiesBase(local: properties("Chores", nil), remote: properties("Chores, at home", "#112233")))
    let json = status.json(utcTaskText, now: Timestamp(milliseconds: 0))
    #expect(try ListSyncStatus(json: json, utcTaskText) == status)
    let old = try JSONParser.parse(Array(#"{"calendar": "/ann/chores/", "token": null, "records": []}"#.utf8))
    #expect(try ListSyncStatus(json: old, utcTaskText).properties == nil)
    let bad = try JSONParser.parse(Array(#"{"calendar": "/c/", "token": null, "records": [], "properties": {"list": {"name": 3}}}"#.utf8))
    #expect(throws: SyncError("properties.list.name: a string or null is wanted")) { try ListSyncStatus(json: bad, utcTaskText) }
}
