// Failed writes: a failed sync poisons the store until it is reopened, a full disk refuses one group and leaves
// the store writable, and a compaction that fails to install still hands over what other handles appended.
//
// `Fault` reads TASKLS_FAIL_SYNC_AFTER once per process and fails every later sync, so it cannot be used
// here (tests run in parallel in one process). Instead the journal's descriptor is pointed at /dev/null, where
// `fdatasync` fails with EINVAL (and `pwrite` succeeds), or at /dev/full, where `pwrite` fails with ENOSPC.

#if canImport(Glibc)
import Glibc
#endif
import Testing
import Domain
@testable import Store
import TestSupport

@Suite struct WriteFailureTests {
    @Test func aFailedSyncPoisonsTheStoreUntilItIsReopened() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let path = scratch.path("store")
        let groups = try sampleGroups(4)
        let store = try makeStore(path, groups: groups)
        let journal = readFile(path + "/journal")

        #expect(try store.lockForWriting().isEmpty)
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        #expect(null >= 0 && dup2(null, store.currentJournal.descriptor) >= 0)
        close(null)
        try store.append(sampleGroup(4, on: try applying(groups)))
        #expect(store.hasUnsyncedRecords)
        let failure = storeFailure { () throws(StoreFailure) in try store.commit() }
        #expect(failure?.kind == .syncFailed && failure?.retryable == true)
        #expect(failure?.file == path + "/journal")
        #expect(failure?.message.contains("refuses writes until the store is reopened") == true, "\(failure?.message ?? "")")
        #expect(store.failure == failure)
        #expect(!store.isLocked && lockIsFree(path), "the lock is released even though the commit failed")

        #expect(storeFailure { () throws(StoreFailure) in try store.lockForWriting() } == failure)
        #expect(storeFailure { () throws(StoreFailure) in try store.append([]) } == failure)
        #expect(!store.wantsCompaction(threshold: 0))
        #expect(readFile(path + "/journal") == journal)

        var (reopened, state) = try DurableStore.open(path)
        expectSameState(state, try applying(groups))
        #expect(reopened.failure == nil && reopened.sequence == 4)
        let more = try writeTurn(reopened, &state, groups: 1, from: 10).mine
        (reopened, state) = try DurableStore.open(path)
        expectSameState(state, try applying(groups + more))
    }

    @Test func aFullDiskRefusesTheGroupAndLeavesTheStoreWritable() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let path = scratch.path("store")
        let groups = try sampleGroups(4)
        let store = try makeStore(path, groups: groups)
        let journal = readFile(path + "/journal")

        #expect(try store.lockForWriting().isEmpty)
        let full = open("/dev/full", O_RDWR | O_CLOEXEC)
        #expect(full >= 0 && dup2(full, store.currentJournal.descriptor) >= 0)
        close(full)
        let group = sampleGroup(4, on: try applying(groups))
        let failure = storeFailure { () throws(StoreFailure) in try store.append(group) }
        #expect(failure?.kind == .full && failure?.retryable == true)
        #expect(failure?.message.contains("free some space and try again") == true, "\(failure?.message ?? "")")
        #expect(store.failure == nil, "a full disk does not poison the store")
        #expect(store.sequence == 4 && !store.hasUnsyncedRecords)
        try store.commit()   // nothing to sync: releases the lock
        #expect(!store.isLocked && lockIsFree(path))
        #expect(readFile(path + "/journal") == journal)
        let (reopened, state) = try DurableStore.open(path)
        expectSameState(state, try applying(groups))
        #expect(reopened.sequence == 4)
    }

    /// Installing a snapshot fails after `finishCompaction` read another handle's records (here the new journal's
    /// temporary file cannot be created): those records must still reach the caller, at its next lock.
    @Test func aCompactionThatFailsToInstallStillHandsOverOthersRecords() throws {
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
        let blocker = path + "/journal.tmp-\(getpid())"
        #expect(mkdir(blocker, 0o700) == 0)
        let failure = storeFailure { () throws(StoreFailure) in try a.finishCompaction(ticket) }
        #expect(failure?.kind == .io, "\(failure?.message ?? "")")
        #expect(!a.isLocked)
        #expect(rmdir(blocker) == 0)

        let (others, mine) = try writeTurn(a, &stateA, groups: 1, from: 7)
        #expect(others.map(\.sequence) == [6, 7], "b's records, read by the failed compaction, are handed over")
        log += mine
        expectSameState(stateA, try applying(log), "a")
        let (reopened, state) = try DurableStore.open(path)
        expectSameState(state, try applying(log), "reopened")
        #expect(reopened.sequence == 8)
    }
}
