// Shared stores: two handles on one directory (flock is per open file description, so two opens in one process
// exclude each other as two processes do) append to one journal, each applying the other's records first.

import Testing
import Domain
@testable import Store
import TestSupport

@Suite struct SharedStoreTests {
    @Test func anotherHandleGetsCommittedGroupsAtItsNextLock() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let path = scratch.path("store")
        let (a, _) = try DurableStore.open(path)
        let (b, _) = try DurableStore.open(path)
        var stateA = TaskState(), stateB = TaskState()

        #expect(try a.lockForWriting().isEmpty)
        #expect(!lockIsFree(path), "a holds the lock: another open file description cannot take it")
        var mine: [[Mutation]] = []
        for index in 0..<3 {
            let group = sampleGroup(index, on: stateA)
            _ = try stateA.apply(group)
            try a.append(group)
            mine.append(group)
        }
        try a.commit()
        #expect(lockIsFree(path))

        let others = try b.lockForWriting()
        #expect(others.map(\.sequence) == [1, 2, 3])
        #expect(others.map(\.mutations) == mine)
        for group in others { _ = try stateB.apply(group.mutations) }
        b.unlock()
        expectSameState(stateB, stateA)
        #expect(b.sequence == 3)
        #expect(try b.lockForWriting().isEmpty, "nothing new the second time")
        b.unlock()
    }

    @Test func alternatingWritersMakeOneContiguousJournal() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let path = scratch.path("store")
        let (a, _) = try DurableStore.open(path)
        let (b, _) = try DurableStore.open(path)
        var states = [TaskState(), TaskState()]
        let handles = [a, b]
        var log: [[Mutation]] = []
        for turn in 0..<30 {
            let writer = [0, 1, 1, 0, 1, 0, 0, 0, 1, 1][turn % 10]   // an irregular interleaving of a and b
            let before = log.count
            let (others, mine) = try writeTurn(handles[writer], &states[writer], groups: 1 + turn % 3, from: log.count)
            #expect(others.map(\.sequence).allSatisfy { $0 <= UInt64(before) }, "turn \(turn)")
            log += mine
            #expect(handles[writer].sequence == UInt64(log.count), "turn \(turn)")
        }
        for index in 0..<2 {
            for group in try handles[index].lockForWriting() { _ = try states[index].apply(group.mutations) }
            handles[index].unlock()
        }
        let expected = try applying(log)
        expectSameState(states[0], expected, "a")
        expectSameState(states[1], expected, "b")
        let journal = try journalRecords(path + "/journal")
        #expect(journal.records.map(\.sequence) == Array(1...UInt64(log.count)) && journal.how == .clean)
        #expect(journal.records.map(\.group) == log)
        let (reopened, state) = try DurableStore.open(path)
        expectSameState(state, expected, "reopened")
        #expect(reopened.sequence == UInt64(log.count))
    }

    /// b has not read a's last records when a compacts (two of them appended after a's ticket, so copied into the
    /// new journal): b finishes the old journal from its open descriptor, then skips the copies in the new one.
    @Test func aHandleContinuesAcrossAnotherHandlesCompaction() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let path = scratch.path("store")
        let (a, _) = try DurableStore.open(path)
        let (b, _) = try DurableStore.open(path)
        var stateA = TaskState(), stateB = TaskState()
        var log: [[Mutation]] = []
        log += try writeTurn(a, &stateA, groups: 6, from: 0).mine
        log += try writeTurn(b, &stateB, groups: 1, from: 6).mine            // b reads 1...6, appends 7
        log += try writeTurn(a, &stateA, groups: 2, from: 7).mine            // a reads 7, appends 8, 9
        let ticket = a.beginCompaction()
        #expect(ticket.sequence == 9)
        try ticket.writeSnapshot(of: stateA)
        log += try writeTurn(a, &stateA, groups: 2, from: 9).mine            // 10, 11: copied to the new journal
        let oldInode = try a.directory.inode(of: "journal")
        #expect(try a.finishCompaction(ticket).isEmpty)
        #expect(try a.directory.inode(of: "journal") != oldInode)
        log += try writeTurn(a, &stateA, groups: 3, from: 11).mine           // 12...14 in the new journal only
        #expect(try journalRecords(path + "/journal").records.map(\.sequence) == [10, 11, 12, 13, 14])

        let (others, mine) = try writeTurn(b, &stateB, groups: 1, from: 14)  // b reads 8...14 once each, appends 15
        #expect(others.map(\.sequence) == Array(8...14))
        #expect(others.map(\.mutations) == Array(log[7..<14]))
        log += mine
        expectSameState(stateB, try applying(log), "b")

        let fromB = try a.lockForWriting()
        #expect(fromB.map(\.sequence) == [15])
        for group in fromB { _ = try stateA.apply(group.mutations) }
        a.unlock()
        expectSameState(stateA, try applying(log), "a")
        let (reopened, state) = try DurableStore.open(path)
        expectSameState(state, try applying(log), "reopened")
        #expect(reopened.sequence == 15)
        #expect(try journalRecords(path + "/journal").records.map(\.sequence) == Array(10...15))
    }

    /// Records another handle appends between a ticket and `finishCompaction` are returned to apply and copied.
    @Test func recordsAnotherHandleAppendsDuringACompactionAreKept() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let path = scratch.path("store")
        let (a, _) = try DurableStore.open(path)
        let (b, _) = try DurableStore.open(path)
        var stateA = TaskState(), stateB = TaskState()
        var log = try writeTurn(a, &stateA, groups: 5, from: 0).mine
        let ticket = a.beginCompaction()
        try ticket.writeSnapshot(of: stateA)
        log += try writeTurn(b, &stateB, groups: 2, from: 5).mine
        let others = try a.finishCompaction(ticket)
        #expect(others.map(\.sequence) == [6, 7])
        for group in others { _ = try stateA.apply(group.mutations) }
        #expect(try snapshotSequence(path + "/snapshot") == 5)
        #expect(try journalRecords(path + "/journal").records.map(\.group) == Array(log[5...]))
        log += try writeTurn(b, &stateB, groups: 1, from: 7).mine
        log += try writeTurn(a, &stateA, groups: 1, from: 8).mine
        expectSameState(stateA, try applying(log), "a")
        expectSameState(try DurableStore.open(path).1, try applying(log), "reopened")
    }

    /// Two handles compact at once: the second to finish finds the journal replaced and drops its snapshot.
    @Test func aCompactionOvertakenByAnotherIsDropped() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let path = scratch.path("store")
        let (a, _) = try DurableStore.open(path)
        let (b, _) = try DurableStore.open(path)
        var stateA = TaskState(), stateB = TaskState()
        var log = try writeTurn(a, &stateA, groups: 5, from: 0).mine
        log += try writeTurn(b, &stateB, groups: 1, from: 5).mine
        let slow = b.beginCompaction()
        let fast = a.beginCompaction()
        #expect(fast.sequence == 5 && slow.sequence == 6, "a has not read b's record yet")
        try fast.writeSnapshot(of: stateA)
        try slow.writeSnapshot(of: stateB)
        for group in try a.finishCompaction(fast) { _ = try stateA.apply(group.mutations) }
        let installed = readFile(path + "/snapshot")
        #expect(try b.finishCompaction(slow).isEmpty)
        #expect(readFile(path + "/snapshot") == installed, "b's snapshot was dropped")
        #expect(names(in: path) == ["journal", "lock", "snapshot"])
        log += try writeTurn(b, &stateB, groups: 1, from: 6).mine
        expectSameState(try DurableStore.open(path).1, try applying(log))
    }

    /// b has read nothing since a compacted and wrote more; b's compaction, taken on the journal b still has
    /// open, must not be installed over a's (its offset means nothing in a's new journal).
    @Test func aCompactionBegunBeforeSeeingAnothersIsDropped() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let path = scratch.path("store")
        let (a, _) = try DurableStore.open(path)
        let (b, _) = try DurableStore.open(path)
        var stateA = TaskState(), stateB = TaskState()
        var log = try writeTurn(a, &stateA, groups: 10, from: 0).mine
        log += try writeTurn(b, &stateB, groups: 1, from: 10).mine           // b is current at 11
        _ = try writeTurn(a, &stateA, groups: 0, from: 11)
        let ticket = a.beginCompaction()
        try ticket.writeSnapshot(of: stateA)
        _ = try a.finishCompaction(ticket)
        log += try writeTurn(a, &stateA, groups: 15, from: 11).mine          // 12...26 in a's new journal

        let stale = b.beginCompaction()
        #expect(stale.sequence == 11)
        try stale.writeSnapshot(of: stateB)
        let others = try b.finishCompaction(stale)
        #expect(others.map(\.sequence) == Array(12...26))
        for group in others { _ = try stateB.apply(group.mutations) }
        expectSameState(stateB, try applying(log), "b")
        log += try writeTurn(b, &stateB, groups: 1, from: 26).mine
        let (reopened, state) = try DurableStore.open(path)
        expectSameState(state, try applying(log), "reopened")
        #expect(reopened.sequence == 27)
        #expect(names(in: path) == ["journal", "lock", "snapshot"])
    }

    /// b, idle while a compacted twice with records in between, cannot continue from the journal it has open:
    /// it is told to reload (retryable), holds no lock, and keeps refusing until reopened.
    @Test func aHandleThatMissedTwoCompactionsMustReopen() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let path = scratch.path("store")
        let (a, _) = try DurableStore.open(path)
        let (b, _) = try DurableStore.open(path)
        var state = TaskState()
        var log = try writeTurn(a, &state, groups: 3, from: 0).mine
        for _ in 0..<2 {
            let ticket = a.beginCompaction()
            try ticket.writeSnapshot(of: state)
            _ = try a.finishCompaction(ticket)
            log += try writeTurn(a, &state, groups: 2, from: log.count).mine
        }
        for attempt in 0..<2 {
            let failure = storeFailure { () throws(StoreFailure) in try b.lockForWriting() }
            #expect(failure?.kind == .overtaken && failure?.retryable == true, "attempt \(attempt)")
            #expect(failure?.message.contains("compacted by other processes") == true, "\(failure?.message ?? "")")
            #expect(!b.isLocked && lockIsFree(path), "attempt \(attempt)")
        }
        let (reopened, reopenedState) = try DurableStore.open(path)
        expectSameState(reopenedState, try applying(log))
        #expect(reopened.sequence == 7)
    }
}
