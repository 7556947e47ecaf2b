// The manual order through `taskls sync` and a real Radicale: a task moved on one machine arrives in its place on
// the other and sends only itself, and a task another client moves (a new `X-APPLE-SORT-ORDER`, as Apple's Reminders
// writes) moves in both stores. Marker `caldav`.

import Foundation
import TestSupport
import Testing

/// The titles (one letter each) of `store`'s list in manual order.
private func titles(_ store: String) throws -> [String] {
    try taskls(store, ["export", "--format", "todotxt"]).output.split(separator: "\n").map { line in
        String(line.split(separator: " ").first { $0.count == 1 && $0.first!.isUppercase } ?? "")
    }
}

@Test func theManualOrderSyncsBothWaysAndAMoveSendsOneTask() async throws {
    guard RadicaleServer.available(marker: "caldav") else { return }
    let server = try RadicaleServer(users: ["ann": "pw"])
    defer { server.stop() }
    let scratch = makeTemporaryDirectory(prefix: "taskls-sync-order")
    defer { removeTree(scratch) }
    let laptop = scratch + "/laptop"
    let desktop = scratch + "/desktop"
    try "pw\n".write(toFile: scratch + "/password", atomically: true, encoding: .utf8)
    // Four tasks made in one second: their creation times tie, so the first sync gives them sort orders.
    try "A +Chores uid:a\nB +Chores uid:b\nC +Chores uid:c\nD +Chores uid:d\n".write(toFile: scratch + "/chores.txt", atomically: true, encoding: .utf8)
    #expect(try taskls(laptop, ["import", scratch + "/chores.txt"]).status == 0)
    for store in [laptop, desktop] {
        #expect(try taskls(store, ["sync", "add", server.base + "/", "--user", "ann", "--password-file", scratch + "/password"]).status == 0)
        #expect(try taskls(store, ["sync", "share", "--all"]).status == 0)
        let run = try taskls(store, ["sync", "now"])
        #expect(run.status == 0 && run.output.contains("Chores: synced"), "\(run)")
    }
    #expect(try titles(desktop) == ["A", "B", "C", "D"])

    // D moved to the top on the laptop: one task sent, and the desktop has the new order. (Neither a REPL on a
    // clock of its own nor `taskls export` syncs by itself: the sync below sends the move.)
    let moved = try taskls(laptop, ["repl", "--clock", "2026-11-27T12:00:00Z"], input: "open Chores\nmv 4 1\n")
    #expect(moved.status == 0, "\(moved)")
    #expect(try titles(laptop) == ["D", "A", "B", "C"])
    var run = try taskls(laptop, ["sync", "now"])
    #expect(run.status == 0 && run.output.contains("(1 sent, 0 received)"), "\(run)")
    run = try taskls(desktop, ["sync", "now"])
    #expect(run.status == 0 && run.output.contains("(0 sent, 1 received)"), "\(run)")
    #expect(try titles(desktop) == ["D", "A", "B", "C"])
    // Nothing more to send either way: the order each side holds agrees with the values.
    for store in [laptop, desktop] {
        run = try taskls(store, ["sync", "now"])
        #expect(run.status == 0 && run.output.contains("(0 sent, 0 received)"), "\(run)")
    }

    // Another client moves C to the top (a sort order below every other), as a raw PUT.
    let url = server.base + "/ann/chores/c.ics"
    let object = try await send("GET", url, user: "ann", password: "pw")
    let text = String(decoding: object.body, as: UTF8.self)
    let etag = try #require(object.header("ETag"))
    var lines = text.components(separatedBy: "\r\n").filter { !$0.hasPrefix("X-APPLE-SORT-ORDER") }
    let end = try #require(lines.firstIndex(of: "END:VTODO"))
    lines.insert("X-APPLE-SORT-ORDER:-900000000", at: end)
    let put = try await send("PUT", url, user: "ann", password: "pw",
                             headers: ["If-Match": etag, "Content-Type": "text/calendar; charset=utf-8"],
                             body: lines.joined(separator: "\r\n"))
    #expect((200..<300).contains(put.status), "\(put.status)")
    for store in [desktop, laptop] {
        run = try taskls(store, ["sync", "now"])
        #expect(run.status == 0 && run.output.contains("(0 sent, 1 received)"), "\(run)")
        #expect(try titles(store) == ["C", "D", "A", "B"])
    }
}
