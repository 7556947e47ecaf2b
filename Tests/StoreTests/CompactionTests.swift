// Compaction: a snapshot installed and the journal restarted with the records appended meanwhile, and a crash
// at any point between the two renames opening with nothing lost or applied twice.

import Foundation
import Testing
import Domain
@testable import Store
import TestSupport

@Suite struct CompactionTests {
    @Test func compactionInstallsASnapshotAndKeepsRecordsAppendedMeanwhile() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let path = scratch.path("store")
        var groups = try sampleGroups(12)
        let store = try makeStore(path, groups: groups)
        var state = try applying(groups)
        #expect(store.wantsCompaction(threshold: 64))
        #expect(!store.wantsCompaction(threshold: 1 << 20))

        let ticket = store.beginCompaction()
        #expect(ticket.sequence == 12)
        try ticket.writeSnapshot(of: state)
        #expect(names(in: path) == ["journal", "lock", ticket.temporaryName])
        // Three records after the ticket, before the snapshot is installed: they must be copied over.
        groups += try writeTurn(store, &state, groups: 2, from: 12).mine
        groups += try writeTurn(store, &state, groups: 1, from: 14).mine
        #expect(try store.finishCompaction(ticket).isEmpty)
        #expect(!store.isLocked)

        #expect(names(in: path) == ["journal", "lock", "snapshot"])
        #expect(permissions(path + "/snapshot") == 0o600 && permissions(path + "/journal") == 0o600)
        #expect(try snapshotSequence(path + "/snapshot") == 12)
        let journal = try journalRecords(path + "/journal")
        #expect(journal.base == 12 && journal.how == .clean)
        #expect(journal.records.map(\.sequence) == [13, 14, 15])
        #expect(journal.records.map(\.group) == Array(groups[12...]))
        #expect(store.journalBytes == readFile(path + "/journal")!.count - StoreFormat.journalHeaderSize)
        #expect(!store.wantsCompaction(threshold: 64), "the journal is now smaller than the snapshot")

        do {
            let (reopened, reopenedState) = try DurableStore.open(path)
            expectSameState(reopenedState, state, "reopened after compaction")
            #expect(reopened.sequence == 15)
        }

        // The same handle keeps appending to the new journal, then compacts again.
        groups += try writeTurn(store, &state, groups: 2, from: 15).mine
        do {
            let (reopened, reopenedState) = try DurableStore.open(path)
            expectSameState(reopenedState, state, "reopened after appending to the new journal")
            #expect(reopened.sequence == 17)
            #expect(try journalRecords(path + "/journal").records.map(\.sequence) == [13, 14, 15, 16, 17])
        }
        let second = store.beginCompaction()
        try second.writeSnapshot(of: state)
        #expect(try store.finishCompaction(second).isEmpty)
        #expect(try snapshotSequence(path + "/snapshot") == 17)
        #expect(readFile(path + "/journal") == StoreFormat.journalHeader(base: 17))
        let (reopened, reopenedState) = try DurableStore.open(path)
        expectSameState(reopenedState, try applying(groups), "reopened after a second compaction")
        #expect(reopened.sequence == 17)
    }

    /// The files a crash leaves at each point of `finishCompaction`, rebuilt from the files before it and after
    /// it (temporaries named after a process that is gone, as a crash leaves them): every one opens to the
    /// whole state, removes the stale temporaries, and takes a next record that follows on.
    @Test func aCrashAtAnyPointOfInstallingASnapshotLosesNothing() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let path = scratch.path("store")
        var groups = try sampleGroups(10)
        let store = try makeStore(path, groups: groups)
        var state = try applying(groups)
        let ticket = store.beginCompaction()
        try ticket.writeSnapshot(of: state)
        groups += try writeTurn(store, &state, groups: 2, from: 10).mine
        let before = (journal: readFile(path + "/journal")!, snapshot: readFile(path + "/" + ticket.temporaryName)!)
        #expect(try store.finishCompaction(ticket).isEmpty)
        let after = (journal: readFile(path + "/journal")!, snapshot: readFile(path + "/snapshot")!)
        #expect(after.snapshot == before.snapshot)
        #expect(try journalRecords(path + "/journal").base == 10)

        let gone = "2147483647"   // above any pid_max: no such process
        let crashes: [(name: String, files: [String: [UInt8]])] = [
            ("snapshot written, not renamed", ["journal": before.journal, "snapshot.tmp-\(gone)": before.snapshot]),
            ("snapshot renamed, journal not replaced", ["journal": before.journal, "snapshot": after.snapshot]),
            ("snapshot renamed, new journal written, not renamed",
             ["journal": before.journal, "snapshot": after.snapshot, "journal.tmp-\(gone)": after.journal]),
            ("both renamed", ["journal": after.journal, "snapshot": after.snapshot]),
        ]
        let next = sampleGroup(12, on: state)
        var withNext = state
        _ = try withNext.apply(next)
        for (index, crash) in crashes.enumerated() {
            let directory = scratch.path("crash-\(index)")
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            for (name, bytes) in crash.files { try writeFile(directory + "/" + name, bytes) }
            do {
                let (reopened, reopenedState) = try DurableStore.open(directory)
                expectSameState(reopenedState, state, "\(crash.name)")
                #expect(reopened.sequence == 12, "\(crash.name)")
                #expect(!names(in: directory).contains { $0.contains(".tmp-") }, "\(crash.name): \(names(in: directory))")
                for (name, bytes) in crash.files where !name.contains(".tmp-") {
                    #expect(readFile(directory + "/" + name) == bytes, "\(crash.name): open leaves \(name) as it was")
                }
                #expect(StoreInspection.check(directory).healthy, "\(crash.name)")
                #expect(try reopened.lockForWriting().isEmpty, "\(crash.name)")
                try reopened.append(next)
                try reopened.commit()
            }
            let (reopened, reopenedState) = try DurableStore.open(directory)
            expectSameState(reopenedState, withNext, "\(crash.name): after one more record")
            #expect(reopened.sequence == 13, "\(crash.name)")
            #expect(try journalRecords(directory + "/journal").records.last?.sequence == 13, "\(crash.name)")
        }
    }

    /// The crash the brief names, done by hand on a live store: the snapshot renamed into place and the process
    /// gone before the journal was replaced. The old handle is dropped (its process died).
    @Test func aSnapshotRenamedByHandOverTheOldJournalIsNotAppliedTwice() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let path = scratch.path("store")
        var state = TaskState()
        var groups: [[Mutation]] = []
        do {
            groups = try sampleGroups(8)
            let store = try makeStore(path, groups: groups)
            state = try applying(groups)
            let ticket = store.beginCompaction()
            try ticket.writeSnapshot(of: state)
            groups += try writeTurn(store, &state, groups: 3, from: 8).mine
            #expect(rename(path + "/" + ticket.temporaryName, path + "/snapshot") == 0)
        }
        var (store, reopenedState) = try DurableStore.open(path)
        expectSameState(reopenedState, state)
        #expect(try snapshotSequence(path + "/snapshot") == 8)
        #expect(try journalRecords(path + "/journal").records.count == 11, "the old journal is still whole")
        // Writing and compacting from here both work.
        groups += try writeTurn(store, &reopenedState, groups: 1, from: 11).mine
        let ticket = store.beginCompaction()
        try ticket.writeSnapshot(of: reopenedState)
        #expect(try store.finishCompaction(ticket).isEmpty)
        (store, reopenedState) = try DurableStore.open(path)
        expectSameState(reopenedState, try applying(groups))
        #expect(store.sequence == 12)
    }

    @Test func aJournalThatEndsBeforeTheSnapshotRestartsAtTheFirstWrite() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let path = scratch.path("store")
        var groups = try sampleGroups(5)
        let store = try makeStore(path, groups: groups)
        let oldJournal = readFile(path + "/journal")!
        let ticket = store.beginCompaction()
        try ticket.writeSnapshot(of: try applying(groups))
        _ = try store.finishCompaction(ticket)
        // The journal of before the compaction, cut after record 3: every record it holds is in the snapshot.
        try writeFile(path + "/journal", Array(oldJournal[..<recordRanges(oldJournal)[2].upperBound]))

        var (reopened, state) = try DurableStore.open(path)
        expectSameState(state, try applying(groups))
        #expect(reopened.sequence == 5)
        groups += try writeTurn(reopened, &state, groups: 1, from: 5).mine
        let journal = try journalRecords(path + "/journal")
        #expect(journal.base == 5 && journal.records.map(\.sequence) == [6])
        (reopened, state) = try DurableStore.open(path)
        expectSameState(state, try applying(groups))
        #expect(reopened.sequence == 6)
    }

    @Test func aStaleTemporaryOfALiveProcessIsKept() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let path = scratch.path("store")
        try makeStore(path, groups: try sampleGroups(2))
        let live = "snapshot.tmp-\(getpid())", gone = "journal.tmp-2147483647", other = "notes.txt"
        for name in [live, gone, other] { try writeFile(path + "/" + name, [1]) }
        _ = try DurableStore.open(path)
        #expect(names(in: path) == ["journal", "lock", other, live].sorted())
    }

    @Test func anAbandonedCompactionChangesNothing() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let path = scratch.path("store")
        let groups = try sampleGroups(6)
        let store = try makeStore(path, groups: groups)
        let journal = readFile(path + "/journal")
        let ticket = store.beginCompaction()
        try ticket.writeSnapshot(of: try applying(groups))
        store.abandonCompaction(ticket)
        #expect(names(in: path) == ["journal", "lock"])
        #expect(readFile(path + "/journal") == journal)
        expectSameState(try DurableStore.open(path).1, try applying(groups))
    }
}
