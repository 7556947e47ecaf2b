// Taskwarrior → taskls → Taskwarrior through taskls's own state (the import planner, the items, the export), not
// only the format: a real database's export imported into a taskls state, exported from it and imported into a
// fresh Taskwarrior gives the same `task export`; importing the export again changes nothing. Marker `taskwarrior`.

import Domain
import Foundation
@testable import Interchange
import Testing
import TestSupport
import Wire

@Test func aTaskwarriorDatabaseGoesThroughATasklsStoreAndComesBackTheSame() throws {
    guard TaskwarriorDatabase.available(marker: "taskwarrior") else { return }
    let zone = TaskwarriorRealToolTests.zone
    let (original, deleted) = try TaskwarriorDatabase.sample(zoneName: zone)
    defer { original.remove() }
    let export = try original.export()
    let reading = try TaskwarriorFormat.read(export, options: .taskwarrior(zone))
    let now = Timestamp(milliseconds: 1_795_000_000_000)

    var state = TaskState()
    let plan = state.importPlan(reading.document, settings: ImportSettings(fileName: "export.json", time: now))
    #expect(plan.problems.isEmpty, "\(plan.problems)")
    #expect(plan.created == reading.document.tasks.count && plan.created >= 8)
    _ = try state.apply(plan.mutations)
    #expect(state.itemCount == reading.document.tasks.count)

    // Importing the same export again finds every task by its uuid and changes nothing.
    let again = state.importPlan(reading.document, settings: ImportSettings(fileName: "export.json", time: now))
    #expect(again.mutations.isEmpty && again.unchanged == plan.created, "\(again.updated) updated")

    let written = TaskwarriorFormat.write(state.exportDocument(), options: .taskwarrior(zone))
    let fresh = try TaskwarriorDatabase(zoneName: zone)
    defer { fresh.remove() }
    try fresh.importText(written.text)
    #expect(try TaskwarriorDatabase.differences(export, try fresh.export(), leftOut: [deleted]) == [])
}
