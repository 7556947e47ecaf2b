// `taskls sync` through the real binaries against a real Radicale: two stores (two machines) sharing all their
// lists, tasks and lists made on each side reaching the other, an edit made on one machine arriving on the other,
// the password never written anywhere, and a refused password reported. Marker `caldav`.

import Foundation
import TestSupport
import Testing


@Test func twoStoresShareEveryListThroughTasklsSyncAndARealRadicale() async throws {
    guard RadicaleServer.available(marker: "caldav") else { return }
    let password = "s3cret-pass-\(getpid())"
    let server = try RadicaleServer(users: ["ann": password])
    defer { server.stop() }
    let scratch = makeTemporaryDirectory(prefix: "taskls-sync-command")
    let laptop = scratch + "/laptop"
    let desktop = scratch + "/desktop"
    let passwordFile = scratch + "/password"
    try (password + "\n").write(toFile: passwordFile, atomically: true, encoding: .utf8)
    let tasks = scratch + "/tasks.txt"
    try "Milk, eggs; bread +Groceries uid:milk\n(A) Call the plumber +Groceries due:2026-12-01 uid:plumber\nSend the report +Work uid:report\n"
        .write(toFile: tasks, atomically: true, encoding: .utf8)

    // The laptop: its lists, an account (password from a command), every list shared, synced.
    #expect(try taskls(laptop, ["import", tasks]).status == 0)
    var run = try taskls(laptop, ["sync", "add", server.base + "/", "--user", "ann", "--password-command", "cat '\(passwordFile)'", "--name", "home"])
    #expect(run.status == 0 && run.output.contains("account home: ann at 127.0.0.1"), "\(run)")
    #expect(try taskls(laptop, ["sync", "share", "--all"]).status == 0)
    run = try taskls(laptop, ["sync", "now"])
    #expect(run.status == 0 && run.output.contains("Groceries: synced") && run.output.contains("(2 sent, 0 received)")
            && run.output.contains("Work: synced"), "\(run)")

    // The desktop: an empty store, the same account (password from a file), every calendar adopted as a list.
    run = try taskls(desktop, ["sync", "add", server.base + "/", "--user", "ann", "--password-file", passwordFile])
    #expect(run.status == 0 && run.output.contains("Groceries  /ann/groceries/"), "\(run)")
    #expect(try taskls(desktop, ["sync", "share", "--all"]).status == 0)
    run = try taskls(desktop, ["sync", "now"])
    #expect(run.status == 0 && run.output.contains("(0 sent, 2 received)"), "\(run)")
    var exported = try taskls(desktop, ["export", "--format", "todotxt"]).output
    #expect(exported.contains("Milk, eggs; bread +Groceries") && exported.contains("(A) ") && exported.contains("due:2026-12-01")
            && exported.contains("Send the report +Work"), "\(exported)")

    // On the desktop: a task edited, a list made; both reach the laptop.
    let edits = scratch + "/edits.txt"
    try "Oat milk, eggs; bread +Groceries uid:milk\nWater the plants +Home uid:plants\n".write(toFile: edits, atomically: true, encoding: .utf8)
    #expect(try taskls(desktop, ["import", edits]).status == 0)
    run = try taskls(desktop, ["sync", "now"])
    #expect(run.status == 0 && run.output.contains("Home: synced"), "\(run)")
    run = try taskls(laptop, ["sync", "now"])
    #expect(run.status == 0 && run.output.contains("Home: synced"), "\(run)")
    exported = try taskls(laptop, ["export", "--format", "todotxt"]).output
    #expect(exported.contains("Oat milk, eggs; bread +Groceries") && exported.contains("Water the plants +Home")
            && !exported.contains("\nMilk"), "\(exported)")
    let status = try taskls(laptop, ["sync", "status"])
    #expect(status.output.contains("account home: ann at") && status.output.contains("Home: synced at"), "\(status)")

    // The REPL syncs too (sync/now through its embedded server), and `ls` shows each list's state.
    try "Buy bread +Groceries uid:bread\n".write(toFile: scratch + "/bread.txt", atomically: true, encoding: .utf8)
    let repl = try taskls(laptop, ["repl"], input: "import \(scratch)/bread.txt\nsync Groceries\nls\n")
    // (Its server syncs by itself as it opens the store too, so the new task may have gone out before `sync` ran.)
    #expect(repl.status == 0 && repl.output.contains("Groceries: synced 20") && repl.output.contains(" received)")
            && repl.output.contains("Groceries        3      3  synced 20"), "\(repl)")
    #expect(try taskls(desktop, ["sync", "now"]).status == 0)
    #expect(try taskls(desktop, ["export", "--format", "todotxt"]).output.contains("Buy bread +Groceries"))

    // The password is nowhere in either store.
    for store in [laptop, desktop] {
        for name in try FileManager.default.contentsOfDirectory(atPath: store) {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: store + "/" + name))
            #expect(bytes.range(of: Data(password.utf8)) == nil, "the password is in \(store)/\(name)")
        }
    }

    // A refused password: the sync fails, says so, and the store is as it was.
    let wrong = scratch + "/wrong"
    try "nope\n".write(toFile: wrong, atomically: true, encoding: .utf8)
    #expect(try taskls(scratch + "/third", ["sync", "add", server.base + "/", "--user", "ann", "--password-file", wrong]).errors
        .contains("refused the user name and password"))
}

@Test func subtasksSyncWithTheirParents() async throws {
    guard RadicaleServer.available(marker: "caldav") else { return }
    let machines = try TwoMachines(prefix: "taskls-sync-subtasks")
    defer { machines.stop() }
    let (scratch, laptop, desktop) = (machines.scratch, machines.laptop, machines.desktop)
    let calendar = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN", "X-WR-CALNAME:Trip",
                    "BEGIN:VTODO", "UID:plan", "DTSTAMP:20261126T100000Z", "SUMMARY:Plan the trip", "END:VTODO",
                    "BEGIN:VTODO", "UID:flights", "DTSTAMP:20261126T100000Z", "SUMMARY:Book flights", "RELATED-TO;RELTYPE=PARENT:plan", "END:VTODO",
                    "BEGIN:VTODO", "UID:seats", "DTSTAMP:20261126T100000Z", "SUMMARY:Pick seats", "RELATED-TO;RELTYPE=PARENT:flights", "END:VTODO",
                    "END:VCALENDAR", ""].joined(separator: "\r\n")
    try calendar.write(toFile: scratch + "/trip.ics", atomically: true, encoding: .utf8)
    #expect(try taskls(laptop, ["import", scratch + "/trip.ics"]).status == 0)
    for store in [laptop, desktop] {
        #expect(try machines.shareEverything(store))
        let run = try taskls(store, ["sync", "now"])
        #expect(run.status == 0 && run.output.contains("Trip: synced"), "\(run)")
    }
    // The desktop has the tree: each subtask under its parent (as its iCalendar export says).
    let backup = try taskls(desktop, ["export", "--format", "ics"]).output
    #expect(backup.contains("UID:flights") && backup.contains("RELATED-TO;RELTYPE=PARENT:plan")
            && backup.contains("RELATED-TO;RELTYPE=PARENT:flights"), "\(backup)")
    // A subtask made on the desktop arrives under its parent on the laptop.
    let more = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN", "X-WR-CALNAME:Trip",
                "BEGIN:VTODO", "UID:hotel", "DTSTAMP:20261126T100000Z", "SUMMARY:Book the hotel", "RELATED-TO;RELTYPE=PARENT:plan", "END:VTODO",
                "END:VCALENDAR", ""].joined(separator: "\r\n")
    try more.write(toFile: scratch + "/hotel.ics", atomically: true, encoding: .utf8)
    #expect(try taskls(desktop, ["import", scratch + "/hotel.ics"]).status == 0)
    #expect(try taskls(desktop, ["sync", "now"]).status == 0)
    #expect(try taskls(laptop, ["sync", "now"]).status == 0)
    let laptopFile = try taskls(laptop, ["export", "--format", "ics"]).output
    let hotel = try #require(laptopFile.range(of: "UID:hotel"))
    let block = laptopFile[laptopFile[..<hotel.lowerBound].range(of: "BEGIN:VTODO", options: .backwards)!.lowerBound...]
    let end = try #require(block.range(of: "END:VTODO"))
    #expect(block[..<end.lowerBound].contains("RELATED-TO;RELTYPE=PARENT:plan"), "\(laptopFile)")
}
