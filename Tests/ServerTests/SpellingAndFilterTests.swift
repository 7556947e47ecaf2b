/// Decisions protocol.md settles about text: filter members at their defaults (`text: ""`,
/// `tagsAnyOf: []`, `tagsAllOf: []`) are no condition and are not echoed; tags are
/// case-sensitive and NFC/NFD spellings of one tag are equal; text is stored as given, so an update
/// that changes only the Unicode spelling is a change (revision + 1, the new spelling stored).

import Domain
import Server
import Testing
import Wire

private let precomposed = "Caf\u{E9}"        // "Café", NFC
private let decomposed = "Cafe\u{301}"       // "Café", NFD

/// A server with one list holding items tagged `Home`, `home`, the NFC and the NFD spelling of
/// `Café`, and one without tags.
private func fixture() throws -> (client: TestClient, list: JSON, items: [String: JSON]) {
    let client = try TestClient()
    let list = try client.request("lists/create", ["name": "L"]).get()["list"]?["id"] ?? .null
    var items: [String: JSON] = [:]
    for (title, tags) in [("upper", ["Home"]), ("lower", ["home"]), ("nfc", [precomposed]), ("nfd", [decomposed]), ("none", [])] {
        let params: JSON = ["list": list, "title": .string(title), "tags": .array(tags.map(JSON.string))]
        items[title] = try client.request("items/create", params).get()["item"]?["id"]
    }
    return (client, list, items)
}

/// The titles of the rows `filter` shows, and the filter the snapshot echoes.
private func rows(_ client: TestClient, _ list: JSON, _ filter: JSON) throws -> (titles: [String], echo: JSON?) {
    let snapshot = try client.request("lists/open", ["list": list, "filter": filter]).get()
    guard case .array(let rows)? = snapshot["rows"] else { return ([], nil) }
    return (rows.compactMap { if case .string(let title)? = $0["title"] { title } else { nil } }, snapshot["filter"])
}

@Test(arguments: [
    ["text": ""], ["tagsAnyOf": []], ["tagsAllOf": []], ["done": "any"],
    ["text": "", "tagsAnyOf": [], "tagsAllOf": [], "done": "any"],
] as [JSON])
func filterMembersAtTheirDefaultsMatchEverythingAndAreNotEchoed(filter: JSON) throws {
    let (client, list, _) = try fixture()
    let shown = try rows(client, list, filter)
    #expect(shown.titles == ["upper", "lower", "nfc", "nfd", "none"])
    #expect(shown.echo == [:])
}

@Test func filterTagsAreCaseSensitiveAndUnicodeSpellingsAreOneTag() throws {
    let (client, list, _) = try fixture()
    #expect(try rows(client, list, ["tagsAnyOf": ["home"]]).titles == ["lower"])
    #expect(try rows(client, list, ["tagsAllOf": ["Home"]]).titles == ["upper"])
    #expect(try rows(client, list, ["tagsAnyOf": .array([.string(precomposed)])]).titles == ["nfc", "nfd"])
    #expect(try rows(client, list, ["tagsAllOf": .array([.string(decomposed)])]).titles == ["nfc", "nfd"])
    #expect(try rows(client, list, ["tagsAnyOf": [" home"]]).titles == [], "a filter's tags are not trimmed")
}

@Test func anItemsTagsAreCaseSensitiveAndOneUnicodeSpellingIsKept() throws {
    let (client, list, _) = try fixture()
    let params: JSON = ["list": list, "title": "t", "tags": ["Home", "home", .string(precomposed), .string(decomposed)]]
    let item = try client.request("items/create", params).get()["item"]
    #expect(item?["tags"] == ["Home", "home", .string(precomposed)])
}

/// The first element of a JSON array.
private func first(_ json: JSON?) -> JSON? {
    guard case .array(let elements)? = json else { return nil }
    return elements.first
}

/// The code points of a JSON string, so that spellings can be told apart (`==` on `String` cannot).
private func scalars(_ json: JSON?) -> [UInt32] {
    guard case .string(let text)? = json else { return [] }
    return text.unicodeScalars.map(\.value)
}

@Test func anUpdateThatChangesOnlyTheUnicodeSpellingIsAChange() throws {
    let client = try TestClient()
    let list = try client.request("lists/create", ["name": .string(precomposed)]).get()["list"]?["id"] ?? .null
    let created = try client.request(
        "items/create", ["list": list, "title": .string(precomposed), "notes": .string(precomposed), "tags": .array([.string(precomposed)])]
    ).get()
    let id = created["item"]?["id"] ?? .null
    let view = try client.request("lists/open", ["list": list]).get()["view"] ?? .null
    _ = client.takeNotifications()

    for field in ["title", "notes"] {
        let before = try client.request("items/get", ["id": id]).get()
        let answer = try client.request("items/update", ["id": id, field: .string(decomposed)]).get()
        guard case .array(let items)? = answer["items"], let item = items.first else {
            Issue.record("no item in \(answer.text)")
            return
        }
        #expect(scalars(item[field]) == scalars(.string(decomposed)), "\(field): the new spelling is stored")
        #expect(item["revision"] != before["revision"], "\(field): a new spelling is a change")
        // Back to the first spelling: a change again.
        _ = try client.request("items/update", ["id": id, field: .string(precomposed)]).get()
    }
    // Tags likewise.
    let revision = try client.request("lists/list").get()["revision"]
    let retagged = try client.request("items/update", ["id": id, "tags": .array([.string(decomposed)])]).get()
    #expect(scalars(first(first(retagged["items"])?["tags"])) == scalars(.string(decomposed)))
    #expect(retagged["revision"] != revision)
    // The view saw every change (the row's revision changed each time).
    #expect(client.takeNotifications().filter { $0.method == "view/changed" && $0.params?["view"] == view }.count == 5)
    // The same spelling again is no change.
    let again = try client.request("items/update", ["id": id, "tags": .array([.string(decomposed)])]).get()
    #expect(again["revision"] == retagged["revision"])

    // A list's name likewise: stored as given, a change.
    let listRevision = try client.request("lists/list").get()["revision"]
    let renamed = try client.request("lists/update", ["id": list, "name": .string(decomposed)]).get()
    #expect(scalars(renamed["list"]?["name"]) == scalars(.string(decomposed)))
    #expect(renamed["revision"] != listRevision)
}
