// A refused turn never comes back: with `pwrite`, `fdatasync` and `ftruncate` failing in every combination, from
// the turn's first append or from its second, no record of a refused turn is ever read, by the handle that wrote
// it (reopened) or by a second handle on the same directory, before or after the faults clear.
//
// Faults are injected on the writing handle's journal descriptor only (`Fault.inject`), so the second handle and
// the other tests running in parallel are untouched.

#if canImport(Glibc)
import Glibc
#endif
import Testing
import Domain
@testable import Store
import TestSupport

@Suite struct RefusedTurnTests {
    /// Every non-empty combination of the three calls.
    static let combinations: [Set<Fault.Call>] = (1..<8).map { bits in
        Set(Fault.Call.allCases.enumerated().filter { bits & (1 << $0.offset) != 0 }.map(\.element))
    }

    @Test(arguments: combinations, [0, 1])
    func aRefusedTurnIsNeverRead(faults: Set<Fault.Call>, appendsBeforeTheFaults: Int) throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let path = scratch.path("store")
        let base = try sampleGroups(3)
        let writer = try makeStore(path, groups: base)
        var (reader, readerState) = try DurableStore.open(path)
        let journalBefore = readFile(path + "/journal")

        let descriptor = writer.currentJournal.descriptor
        defer { Fault.inject([], on: descriptor) }
        // The writer's turn: eight groups, the faults switched on after `appendsBeforeTheFaults` of them.
        #expect(try writer.lockForWriting().isEmpty)
        var state = try applying(base)
        var turn: [[Mutation]] = []
        var failure: StoreFailure?
        for index in 0..<8 {
            if index == appendsBeforeTheFaults { Fault.inject(faults, on: descriptor) }
            let group = sampleGroup(10 + index, on: state)
            do throws(StoreFailure) {
                try writer.append(group)
            } catch {
                failure = error
                break
            }
            _ = try state.apply(group)
            turn.append(group)
        }
        if failure == nil {
            do throws(StoreFailure) {
                try writer.commit()
            } catch {
                failure = error
            }
        }
        let refused = failure != nil
        // Only a failed write or sync refuses a turn; a failing ftruncate alone is never called.
        #expect(refused == (faults.contains(.write) || faults.contains(.sync)), "\(faults): \(failure?.message ?? "acknowledged")")
        let keepsTheLock = refused && faults.contains(.write) && faults.contains(.truncate) && appendsBeforeTheFaults > 0
        #expect(writer.mustVoid == keepsTheLock && writer.isLocked == keepsTheLock)
        #expect(lockIsFree(path) == !keepsTheLock)

        // While the faults last, the second handle reads nothing refused (it cannot read at all while the lock is kept).
        if let read = try reader.readNewRecords(waiting: false) {
            #expect(!keepsTheLock)
            #expect(read.count == (refused ? 0 : turn.count), "\(faults): read \(read.map(\.sequence))")
            for group in read { _ = try readerState.apply(group.mutations) }
        } else {
            #expect(keepsTheLock, "\(faults): the lock is held by nobody")
        }

        Fault.inject([], on: descriptor)
        #expect(writer.retryVoiding() && !writer.isLocked && lockIsFree(path))
        let expected = try applying(base + (refused ? [] : turn))
        for group in try #require(try reader.readNewRecords(waiting: true)) { _ = try readerState.apply(group.mutations) }
        expectSameState(readerState, expected, "the second handle, \(faults)")
        if refused {
            #expect(storeFailure { () throws(StoreFailure) in try writer.lockForWriting() } != nil, "a refused store stays poisoned")
            #expect(readFile(path + "/journal").map { Array($0.prefix(journalBefore?.count ?? 0)) } == journalBefore)
        }

        // A reopen sees exactly the acknowledged groups; the second handle then writes on from there.
        let (_, reopened) = try DurableStore.open(path)
        expectSameState(reopened, expected, "reopened, \(faults)")
        var continued = readerState
        let more = try writeTurn(reader, &continued, groups: 1, from: 30).mine
        let (_, last) = try DurableStore.open(path)
        expectSameState(last, try applying(base + (refused ? [] : turn) + more), "after the second handle wrote, \(faults)")
    }
}
