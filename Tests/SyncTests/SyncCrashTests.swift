// Two machines syncing through a real Radicale, the laptop's sync program killed (SIGKILL, through the store's
// crash hook) at random steps of its own I/O: taking the locks, appending the server's changes to the journal (a
// torn write included), keeping the status and the state. After each crash both machines sync again and must hold
// the same tasks: every task made on either side once, every edit kept — nothing lost, nothing duplicated. Marker
// `caldav`.

import Foundation
import TestSupport
import Testing


/// The tasks of a store as todo.txt lines with their uid, sorted (the order of lists and tasks aside).
private func tasks(_ store: String) throws -> [String] {
    try taskls(store, ["export", "--format", "todotxt"]).output.split(separator: "\n").map(String.init).sorted()
}

@Test func aSyncKilledAtRandomStepsLosesAndDuplicatesNothing() async throws {
    guard RadicaleServer.available(marker: "caldav") else { return }
    let machines = try TwoMachines(prefix: "taskls-sync-crash")
    defer { machines.stop() }
    let (scratch, laptop, desktop) = (machines.scratch, machines.laptop, machines.desktop)
    var expected: [String: String] = [:]
    var lines = ""
    for number in 0..<6 {
        expected["t\(number)"] = "Task \(number)"
        lines += "Task \(number) +Errands uid:t\(number)\n"
    }
    try lines.write(toFile: scratch + "/tasks.txt", atomically: true, encoding: .utf8)
    #expect(try taskls(laptop, ["import", scratch + "/tasks.txt"]).status == 0)
    for store in [laptop, desktop] {
        #expect(try machines.shareEverything(store))
        #expect(try taskls(store, ["sync", "now"]).status == 0)
    }

    var random = SplitMix64(seed: 0xC0FFEE)
    var killed = 0
    var finished = 0
    for round in 0..<8 {
        // Edits on both machines (different tasks, so no clash decides anything), and a new task on each.
        for (index, store) in [laptop, desktop].enumerated() {
            var edits = ""
            let uid = "t\(Int(random.next() % 3) * 2 + index)"
            expected[uid] = "Edited \(uid) in round \(round)"
            edits += "\(expected[uid]!) +Errands uid:\(uid)\n"
            let new = "n\(round)-\(index)"
            expected[new] = "New \(new)"
            edits += "New \(new) +Errands uid:\(new)\n"
            try edits.write(toFile: scratch + "/edits.txt", atomically: true, encoding: .utf8)
            #expect(try taskls(store, ["import", scratch + "/edits.txt"]).status == 0)
        }
        #expect(try taskls(desktop, ["sync", "now"]).status == 0)
        // The laptop's sync, killed at one of the first steps of its store I/O (a sync takes about 30: locks,
        // journal appends, the status, and the state as it starts, sends and ends).
        let step = 1 + Int(random.next() % 40)
        let crashed = try taskls(laptop, ["sync", "now"], environment: ["TASKLS_CRASH_AT": String(step)])
        if crashed.status == -SIGKILL { killed += 1 } else { finished += 1 }
        // Both again, until quiet.
        for store in [laptop, desktop, laptop] {
            let again = try taskls(store, ["sync", "now"])
            #expect(again.status == 0, "round \(round), crash at step \(step): \(again.output)")
        }
        let laptopTasks = try tasks(laptop)
        #expect(laptopTasks == (try tasks(desktop)), "round \(round), crash at step \(step)")
        // Every task once, with its latest title.
        let titles = laptopTasks.filter { $0.contains(" uid:") }
        #expect(titles.count == expected.count, "round \(round): \(titles.count) tasks for \(expected.count)")
        for (uid, title) in expected {
            #expect(titles.contains { $0.contains(title + " +Errands") && $0.hasSuffix("uid:" + uid) }, "round \(round): \(uid) is not \"\(title)\"")
        }
    }
    #expect(killed >= 4 && finished >= 1, "crashes \(killed), finished \(finished)")
}
