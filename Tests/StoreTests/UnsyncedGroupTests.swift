// A power cut can keep a later page of an unsynced group of records and lose an earlier one. Such damage is a
// torn tail (nothing after it was acknowledged), told from corruption by the `durable` field of the records after it.

import Foundation
import Testing
import Domain
@testable import Store
import TestSupport

@Suite struct UnsyncedGroupTests {
    /// Records 1...3 in their own turns, then 4...7 in one turn (one sync): what the journal holds, and the state
    /// after the first three groups.
    private func journal(_ scratch: Scratch, lastInOwnTurn: Bool) throws -> (bytes: [UInt8], ranges: [Range<Int>], firstThree: TaskState) {
        let groups = try sampleGroups(lastInOwnTurn ? 8 : 7)
        let path = scratch.path("original")
        let store = try makeStore(path, groups: Array(groups.prefix(3)))
        var state = try applying(Array(groups.prefix(3)))
        _ = try store.lockForWriting()
        for group in groups[3..<7] {
            _ = try state.apply(group)
            try store.append(group)
        }
        try store.commit()
        if lastInOwnTurn {
            _ = try store.lockForWriting()
            try store.append(groups[7])
            try store.commit()
        }
        let bytes = readFile(path + "/journal")!
        return (bytes, recordRanges(bytes), try applying(Array(groups.prefix(3))))
    }

    @Test func damageInsideOneUnsyncedGroupIsATornTail() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let (bytes, ranges, firstThree) = try journal(scratch, lastInOwnTurn: false)
        #expect(ranges.count == 7)
        // Record 5 (the second of the group) lost, records 6 and 7 kept: none of 4...7 was acknowledged.
        let damaged = flipping(bytes, at: ranges[4].lowerBound + 30, bit: 3)
        let path = scratch.path("damaged")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try writeFile(path + "/journal", damaged)
        let (store, state) = try DurableStore.open(path)
        #expect(store.sequence == 4)
        var expected = firstThree
        _ = try expected.apply(try sampleGroups(4)[3])
        expectSameState(state, expected)
        #expect(store.notes.contains { $0.contains("torn") })
        #expect(StoreInspection.check(path).healthy)
        // The next writer cuts the group off and carries on from record 5.
        _ = try store.lockForWriting()
        #expect(readFile(path + "/journal") == Array(damaged[..<ranges[4].lowerBound]))
    }

    @Test func damageFollowedByALaterSyncedTurnIsCorruption() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let (bytes, ranges, _) = try journal(scratch, lastInOwnTurn: true)
        #expect(ranges.count == 8)
        // Record 8 was written after the sync that covered record 5: losing record 5 loses an acknowledged change.
        let damaged = flipping(bytes, at: ranges[4].lowerBound + 30, bit: 3)
        let path = scratch.path("damaged")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try writeFile(path + "/journal", damaged)
        let failure = storeFailure { () throws(StoreFailure) in try DurableStore.open(path) }
        #expect(failure?.kind == .corrupt)
        #expect(failure?.offset == ranges[4].lowerBound)
        #expect(readFile(path + "/journal") == damaged)
        #expect(!StoreInspection.check(path).healthy)
    }
}
