// A shared list's name and colour through `taskls sync` and a real Radicale: a list renamed on one machine renames its
// calendar and the list on the other; a calendar renamed and recoloured by another client renames and recolours the
// list on both. Marker `caldav`.

import Foundation
import TestSupport
import Testing

/// The list names and colours `store` holds, as its JSON export gives them ("name color" each).
private func lists(_ store: String) throws -> [String] {
    let exported = try taskls(store, ["export", "--format", "json"]).output
    let document = try JSONSerialization.jsonObject(with: Data(exported.utf8)) as? [String: Any]
    return (document?["lists"] as? [[String: Any]] ?? []).map { list in
        "\(list["name"] as? String ?? "?") \(list["color"] as? String ?? "none")"
    }
}

/// The calendar's display name and colour, as the server has them.
private func calendar(_ url: String) async throws -> String {
    let body = "<?xml version=\"1.0\"?><d:propfind xmlns:d=\"DAV:\" xmlns:a=\"http://apple.com/ns/ical/\"><d:prop><d:displayname/><a:calendar-color/></d:prop></d:propfind>"
    let answer = try await send("PROPFIND", url, user: "ann", password: "pw", headers: ["Depth": "0"], body: body)
    return String(decoding: answer.body, as: UTF8.self)
}

@Test func aListsNameAndColourSyncBothWays() async throws {
    guard RadicaleServer.available(marker: "caldav") else { return }
    let machines = try TwoMachines(prefix: "taskls-sync-list-properties")
    defer { machines.stop() }
    let (server, scratch, laptop, desktop) = (machines.server, machines.scratch, machines.laptop, machines.desktop)
    try "Sweep +Chores\n".write(toFile: scratch + "/chores.txt", atomically: true, encoding: .utf8)
    #expect(try taskls(laptop, ["import", scratch + "/chores.txt"]).status == 0)
    for store in [laptop, desktop] {
        #expect(try machines.shareEverything(store))
        #expect(try taskls(store, ["sync", "now"]).status == 0)
    }
    #expect(try lists(desktop) == ["Chores none"])

    // Renamed on the laptop: the calendar and the desktop's list take the name.
    let renamed = try taskls(laptop, ["repl", "--clock", "2026-11-27T12:00:00Z"], input: "open Chores\nrename Housework\n")
    #expect(renamed.status == 0 && renamed.output.contains("Housework"), "\(renamed)")
    var run = try taskls(laptop, ["sync", "now"])
    #expect(run.status == 0 && run.output.contains("Housework: synced"), "\(run)")
    #expect(try await calendar(server.base + "/ann/chores/").contains(">Housework</"))
    run = try taskls(desktop, ["sync", "now"])
    #expect(run.status == 0 && run.output.contains("Housework: synced"), "\(run)")
    #expect(try lists(desktop) == ["Housework none"])

    // Another client renames and recolours the calendar: both lists follow.
    let update = "<?xml version=\"1.0\"?><d:propertyupdate xmlns:d=\"DAV:\" xmlns:a=\"http://apple.com/ns/ical/\"><d:set><d:prop>"
        + "<d:displayname>Home &amp; garden</d:displayname><a:calendar-color>#3366CCFF</a:calendar-color></d:prop></d:set></d:propertyupdate>"
    let patched = try await send("PROPPATCH", server.base + "/ann/chores/", user: "ann", password: "pw", body: update)
    #expect(patched.status == 207)
    for store in [laptop, desktop] {
        run = try taskls(store, ["sync", "now"])
        #expect(run.status == 0 && run.output.contains("Home & garden: synced"), "\(run)")
        #expect(try lists(store) == ["Home & garden #3366CC"])
    }
    // Nothing more to do: the calendar keeps what the other client gave it.
    #expect(try await calendar(server.base + "/ann/chores/").contains("#3366CCFF"))
}
