/// Decisions protocol.md settles about text: filter members at their defaults (`text: ""`,
/// `tagsAnyOf: []`, `tagsAllOf: []`) are no condition and are not echoed; tags are
/// case-sensitive and NFC/NFD spellings of one tag are equal; text is stored as given, so an update
/// that changes only the Unicode spelling is a change (revision + 1, the new spelling stored).

import TasklsProtocol
import Testing
import Wire

private let precomposed = "Caf\u{E9}"        // "Café", NFC
private let decomposed = "Cafe\u{301}"       // "Café", NFD

/// A server with one list holding items tagged `Home`, `home`, the NFC and the NFD spelling of
/// `Café`, and one without tags.
private func fixture() throws -> (client: TestClient, list: ListID) {
    let client = try TestClient()
    let list = try client.send(ListsCreate(name: "L")).list.id
    for (title, tags) in [("upper", ["Home"]), ("lower", ["home"]), ("nfc", [precomposed]), ("nfd", [decomposed]), ("none", [])] {
        try client.send(ItemsCreate(list: list, title: title, tags: tags))
    }
    return (client, list)
}

/// The titles of the rows `filter` shows.
private func titles(_ client: TestClient, _ list: ListID, _ filter: Filter) throws -> [String] {
    try client.send(ListsOpen(.list(list), filter: filter)).rows.map(\.title)
}

@Test(arguments: [
    ["text": ""], ["tagsAnyOf": []], ["tagsAllOf": []], ["done": "any"],
    ["text": "", "tagsAnyOf": [], "tagsAllOf": [], "done": "any"],
] as [JSON])
func filterMembersAtTheirDefaultsMatchEverythingAndAreNotEchoed(filter: JSON) throws {
    let (client, list) = try fixture()
    // Members at their defaults, which `Filter` leaves out when it writes itself: the params as JSON.
    let snapshot = try client.call(ListsOpen.self, params: ["list": list.json, "filter": filter]).get()
    #expect(snapshot.rows.map(\.title) == ["upper", "lower", "nfc", "nfd", "none"])
    #expect(snapshot.filter == .all)
    #expect(snapshot.json["filter"] == [:])
}

@Test func filterTagsAreCaseSensitiveAndUnicodeSpellingsAreOneTag() throws {
    let (client, list) = try fixture()
    #expect(try titles(client, list, Filter(tagsAnyOf: ["home"])) == ["lower"])
    #expect(try titles(client, list, Filter(tagsAllOf: ["Home"])) == ["upper"])
    #expect(try titles(client, list, Filter(tagsAnyOf: [precomposed])) == ["nfc", "nfd"])
    #expect(try titles(client, list, Filter(tagsAllOf: [decomposed])) == ["nfc", "nfd"])
    #expect(try titles(client, list, Filter(tagsAnyOf: [" home"])) == [], "a filter's tags are not trimmed")
}

@Test func anItemsTagsAreCaseSensitiveAndOneUnicodeSpellingIsKept() throws {
    let (client, list) = try fixture()
    let item = try client.send(ItemsCreate(list: list, title: "t", tags: ["Home", "home", precomposed, decomposed])).item
    #expect(item.tags.map(scalars) == [scalars("Home"), scalars("home"), scalars(precomposed)])
}

/// The code points of a string, so that spellings can be told apart (`==` on `String` cannot).
private func scalars(_ text: String?) -> [UInt32] {
    text?.unicodeScalars.map(\.value) ?? []
}

@Test func anUpdateThatChangesOnlyTheUnicodeSpellingIsAChange() throws {
    let client = try TestClient()
    let list = try client.send(ListsCreate(name: precomposed)).list.id
    let id = try client.send(ItemsCreate(list: list, title: precomposed, notes: precomposed, tags: [precomposed])).item.id
    let view = try client.send(ListsOpen(.list(list))).view
    _ = client.takeNotifications()

    for field in ["title", "notes"] {
        let before = try client.send(ItemsGet(id: id))
        let update = field == "title" ? ItemsUpdate(.id(id), title: decomposed) : ItemsUpdate(.id(id), notes: decomposed)
        guard let item = try client.send(update).items.first else {
            Issue.record("\(field): no item in the answer")
            return
        }
        #expect(scalars(field == "title" ? item.title : item.notes) == scalars(decomposed), "\(field): the new spelling is stored")
        #expect(item.revision != before.revision, "\(field): a new spelling is a change")
        // Back to the first spelling: a change again.
        try client.send(field == "title" ? ItemsUpdate(.id(id), title: precomposed) : ItemsUpdate(.id(id), notes: precomposed))
    }
    // Tags likewise.
    let revision = try client.send(ListsList()).revision
    let retagged = try client.send(ItemsUpdate(.id(id), tags: [decomposed]))
    #expect(scalars(retagged.items.first?.tags.first) == scalars(decomposed))
    #expect(retagged.revision != revision)
    // The view saw every change (the row's revision changed each time).
    let changes = client.takeNotifications().filter { if case .viewChanged(let change) = $0 { change.view == view } else { false } }
    #expect(changes.count == 5)
    // The same spelling again is no change.
    #expect(try client.send(ItemsUpdate(.id(id), tags: [decomposed])).revision == retagged.revision)

    // A list's name likewise: stored as given, a change.
    let listRevision = try client.send(ListsList()).revision
    let renamed = try client.send(ListsUpdate(id: list, name: decomposed))
    #expect(scalars(renamed.list.name) == scalars(decomposed))
    #expect(renamed.revision != listRevision)
}
