// Inspection: `store check` reads a store without creating, locking or changing anything and says what it
// finds; `store recover` writes what it salvaged as a new store.

import Foundation
import Testing
import Domain
@testable import Store
import TestSupport

@Suite struct InspectionTests {
    /// A store with a snapshot through record 5 and records 6...8 in the journal, copied without its lock file.
    static func compacted(_ scratch: Scratch) throws -> (path: String, groups: [[Mutation]]) {
        let groups = try sampleGroups(8)
        let original = scratch.path("original")
        let store = try makeStore(original, groups: Array(groups.prefix(5)))
        let ticket = store.beginCompaction()
        try ticket.writeSnapshot(of: try applying(Array(groups.prefix(5))))
        _ = try store.finishCompaction(ticket)
        for group in groups[5...] {
            _ = try store.lockForWriting()
            try store.append(group)
            try store.commit()
        }
        let path = scratch.path("copy")
        try copyStore(original, to: path)
        #expect(unlink(path + "/lock") == 0)
        return (path, groups)
    }

    @Test func aHealthyStoreIsReportedAndLeftAlone() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let (path, groups) = try Self.compacted(scratch)
        let journal = readFile(path + "/journal")!, snapshot = readFile(path + "/snapshot")!
        let report = StoreInspection.check(path)
        #expect(report.healthy)
        #expect(report.sequence == 8)
        expectSameState(report.state, try applying(groups))
        #expect(report.lines.first?.hasPrefix("snapshot: through record 5, \(snapshot.count) bytes") == true, "\(report.lines)")
        #expect(report.lines.contains("journal: \(journal.count) bytes, 3 records applied, 0 already in the snapshot"), "\(report.lines)")
        #expect(report.lines.last?.hasPrefix("ok: ") == true && report.lines.last?.hasSuffix("through record 8") == true, "\(report.lines)")
        #expect(names(in: path) == ["journal", "snapshot"], "check creates no lock file")
        #expect(readFile(path + "/journal") == journal && readFile(path + "/snapshot") == snapshot)
    }

    @Test func aMissingStoreIsNotCreated() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let report = StoreInspection.check(scratch.path("nothing"))
        #expect(!report.healthy)
        #expect(report.lines.count == 1 && report.lines[0].hasPrefix("error: "), "\(report.lines)")
        #expect(permissions(scratch.path("nothing")) == nil)
    }

    @Test func aTornTailIsHealthy() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let (path, groups) = try Self.compacted(scratch)
        let journal = readFile(path + "/journal")!
        let last = recordRanges(journal).last!
        try writeFile(path + "/journal", Array(journal[..<(last.upperBound - 2)]))
        let report = StoreInspection.check(path)
        #expect(report.healthy, "\(report.lines)")
        #expect(report.sequence == 7)
        expectSameState(report.state, try applying(Array(groups.prefix(7))))
        #expect(report.lines.contains("journal: torn last record at byte \(last.lowerBound) (\(last.count - 2) bytes); it was never acknowledged and is dropped on open"),
                "\(report.lines)")
    }

    /// After a crash between the snapshot's rename and the journal's replacement, the journal still holds the
    /// records the snapshot includes: healthy, and they are counted as skipped.
    @Test func recordsAlreadyInTheSnapshotAreSkipped() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let groups = try sampleGroups(6)
        let path = scratch.path("store")
        let store = try makeStore(path, groups: groups)
        let ticket = store.beginCompaction()
        try ticket.writeSnapshot(of: try applying(Array(groups.prefix(6))))
        #expect(rename(path + "/" + ticket.temporaryName, path + "/snapshot") == 0)
        let report = StoreInspection.check(path)
        #expect(report.healthy, "\(report.lines)")
        #expect(report.lines.contains { $0.hasSuffix("0 records applied, 6 already in the snapshot") }, "\(report.lines)")
        expectSameState(report.state, try applying(groups))
    }

    /// A damaged snapshot over a journal that still holds every record (the crash above, then the snapshot damaged):
    /// check salvages the whole state from the journal, and recover writes it out.
    @Test func aDamagedSnapshotIsSalvagedFromAWholeJournal() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let groups = try sampleGroups(6)
        let path = scratch.path("store")
        let store = try makeStore(path, groups: groups)
        let ticket = store.beginCompaction()
        try ticket.writeSnapshot(of: try applying(groups))
        #expect(rename(path + "/" + ticket.temporaryName, path + "/snapshot") == 0)
        let snapshot = readFile(path + "/snapshot")!
        try writeFile(path + "/snapshot", flipping(snapshot, at: snapshot.count - 1, bit: 0))

        let report = StoreInspection.check(path)
        #expect(!report.healthy)
        #expect(report.lines.contains("snapshot: damaged at byte 40: checksum mismatch"), "\(report.lines)")
        #expect(report.sequence == 6)
        expectSameState(report.state, try applying(groups))
        try StoreInspection.recover(report, to: scratch.path("recovered"))
        let (recovered, state) = try DurableStore.open(scratch.path("recovered"))
        expectSameState(state, try applying(groups))
        #expect(recovered.sequence == 6)
        #expect(permissions(scratch.path("recovered")) == 0o700)
        #expect(permissions(scratch.path("recovered/snapshot")) == 0o600 && permissions(scratch.path("recovered/journal")) == 0o600)
    }

    @Test func aDamagedJournalHeaderStillYieldsItsRecords() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let groups = try sampleGroups(4)
        let path = scratch.path("store")
        try makeStore(path, groups: groups)
        try writeFile(path + "/journal", flipping(readFile(path + "/journal")!, at: 2, bit: 1))
        let report = StoreInspection.check(path)
        #expect(!report.healthy)
        #expect(report.lines.contains("journal: damaged at byte 0: not a taskls journal (bad magic); looking for records after it"),
                "\(report.lines)")
        expectSameState(report.state, try applying(groups))
        #expect(report.sequence == 4)
    }
}

extension InspectionTests {
    /// Imported items (uids and extras, in the snapshot and in the journal's insert) are checked and recovered whole.
    @Test func importedItemsAreCheckedAndRecoveredWithTheirUIDsAndExtras() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let path = scratch.path("store")
        var state = try applying([[.createList(id: ListID(1), fields: ListFields(name: "Imported"), before: nil)]])
        let time = Timestamp(milliseconds: 1_763_800_000_000)
        let positions = Position.between(nil, nil, count: 2)
        func imported(_ id: UInt64, at position: Position) -> Item {
            Item(id: ItemID(id), list: ListID(1), title: "t\(id)", notes: "", done: false, completedAt: nil, due: nil,
                 priority: .none, tags: [], createdAt: time, modifiedAt: time, revision: 1, position: position,
                 uid: "uid-\(id)", extras: [Extra(key: "taskwarrior:uda.size", value: "\(id)")])
        }
        let groups: [[Mutation]] = [[.createList(id: ListID(1), fields: ListFields(name: "Imported"), before: nil)],
                                    [.insertItems(items: [imported(2, at: positions[0])])],
                                    [.insertItems(items: [imported(3, at: positions[1])])]]
        let store = try makeStore(path, groups: Array(groups.prefix(2)))
        _ = try state.apply(groups[1])
        let ticket = store.beginCompaction()
        try ticket.writeSnapshot(of: state)
        _ = try store.finishCompaction(ticket)
        _ = try store.lockForWriting()
        try store.append(groups[2])
        try store.commit()
        withExtendedLifetime(store) {}
        let report = StoreInspection.check(path)
        #expect(report.healthy, "\(report.lines)")
        #expect(report.lines.contains { $0.hasPrefix("journal: ") && $0.hasSuffix("1 records applied, 0 already in the snapshot") },
                "\(report.lines)")
        expectSameState(report.state, try applying(groups))
        try StoreInspection.recover(report, to: scratch.path("recovered"))
        let (_, recovered) = try DurableStore.open(scratch.path("recovered"))
        expectSameState(recovered, try applying(groups))
        #expect(recovered.item(withUID: "uid-3")?.extras == [Extra(key: "taskwarrior:uda.size", value: "3")])
    }
}
