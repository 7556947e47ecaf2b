// The Taskwarrior format against the real Taskwarrior 2.6: a database built with `task` read, written and imported
// into a fresh Taskwarrior gives the same `task export`; a random document written, imported and exported by
// Taskwarrior reads back the same. Marker `taskwarrior`: `ran`, or `skipped (REASON)` when `task` is missing.

import Domain
import Foundation
import Interchange
import Testing
import TestSupport
import Wire

@Suite struct TaskwarriorRealToolTests {
    /// Zone of the real-tool tests: an offset that is not whole hours and no daylight saving, so a day's midnight
    /// is not a UTC one and the dates Taskwarrior steps by seconds stay on local midnights.
    static let zone = "Asia/Kolkata"

    @Test func aDatabaseReadWrittenAndImportedIntoAFreshTaskwarriorExportsTheSame() throws {
        guard TaskwarriorDatabase.available(marker: "taskwarrior") else { return }
        let (original, deleted) = try TaskwarriorDatabase.sample(zoneName: Self.zone)
        defer { original.remove() }
        let export = try original.export()
        let reading = try TaskwarriorFormat.read(export, options: .taskwarrior(Self.zone))
        var document = reading.document
        for index in document.tasks.indices where document.tasks[index].list == nil { document.tasks[index].list = "Inbox" }
        let writing = TaskwarriorFormat.write(document, options: .taskwarrior(Self.zone))
        let fresh = try TaskwarriorDatabase(zoneName: Self.zone)
        defer { fresh.remove() }
        try fresh.importText(writing.text)
        let again = try fresh.export()
        #expect(try TaskwarriorDatabase.differences(export, again, leftOut: [deleted]) == [])
        #expect(reading.losses.map(\.description).contains("1 task: deleted tasks (taskls keeps no deleted tasks)"))
        print(reading.losses, writing.losses)
        print(writing.text)
    }
}
