// Round trip: groups appended and committed come back on reopen as the state applying them in memory makes.

import Testing
import Domain
@testable import Store
import TestSupport

@Suite struct RoundTripTests {
    @Test func groupsCommittedComeBackOnReopen() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let path = scratch.path("nested/store")   // missing: open creates it, and its parent
        let groups = try sampleGroups(40)

        do {
            let (store, state) = try DurableStore.open(path)
            expectSameState(state, TaskState())
            #expect(store.sequence == 0)
            #expect(try store.lockForWriting().isEmpty)
            // Turns of one, two and three groups: one sync each.
            var index = 0, turn = 1
            while index < groups.count {
                if index > 0 { #expect(try store.lockForWriting().isEmpty) }
                for group in groups[index..<min(index + turn, groups.count)] { try store.append(group) }
                #expect(store.hasUnsyncedRecords)
                try store.commit()
                #expect(!store.hasUnsyncedRecords && !store.isLocked)
                index += turn
                turn = turn % 3 + 1
            }
            #expect(store.sequence == UInt64(groups.count))
        }

        var fractions: [Double] = []
        let (reopened, state) = try DurableStore.open(path) { fractions.append($0) }
        expectSameState(state, try applying(groups))
        #expect(state.revision == UInt64(groups.count), "every sample group changes something")
        #expect(reopened.sequence == UInt64(groups.count))
        #expect(reopened.notes.isEmpty)
        #expect(fractions.last == 1 && fractions == fractions.sorted(), "progress rises to 1: \(fractions)")

        let journal = try journalRecords(path + "/journal")
        #expect(journal.base == 0 && journal.how == .clean)
        #expect(journal.records.map(\.sequence) == Array(1...UInt64(groups.count)))
        #expect(journal.records.map(\.group) == groups)
        #expect(DurableStore.bytesToRead(at: path) == readFile(path + "/journal")!.count)

        #expect(permissions(path) == 0o700)
        #expect(permissions(scratch.path("nested")) == 0o700)
        #expect(permissions(path + "/journal") == 0o600)
        #expect(permissions(path + "/lock") == 0o600)
        #expect(names(in: path) == ["journal", "lock"])
    }

    @Test func anEmptyStoreReopensEmpty() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let path = scratch.path("store")
        _ = try DurableStore.open(path)
        let (store, state) = try DurableStore.open(path)
        expectSameState(state, TaskState())
        #expect(store.sequence == 0 && store.journalBytes == 0)
        #expect(readFile(path + "/journal") == StoreFormat.journalHeader(base: 0))
        // Locking and committing nothing writes nothing.
        #expect(try store.lockForWriting().isEmpty)
        try store.commit()
        #expect(readFile(path + "/journal") == StoreFormat.journalHeader(base: 0))
    }

    @Test func aStoreMustBeADirectory() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        try writeFile(scratch.path("file"), [1, 2, 3])
        let failure = storeFailure { () throws(StoreFailure) in try DurableStore.open(scratch.path("file")) }
        #expect(failure?.kind == .io)
        #expect(failure?.message.contains("not a directory") == true, "\(failure?.message ?? "")")
        #expect(readFile(scratch.path("file")) == [1, 2, 3])
    }
}
