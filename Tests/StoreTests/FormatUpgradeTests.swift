// The upgrade from the store format before subtasks: a version-1 snapshot (items without parents) and a journal of the
// old mutation tags open unchanged; subtasks then go into the same journal, and the next compaction writes version 2.

import Testing
import Domain
@testable import Store
import TestSupport

@Suite struct FormatUpgradeTests {
    /// Groups without any subtask: what a store written before subtasks holds.
    private func flatGroups(_ count: Int) throws -> [[Mutation]] {
        var state = TaskState()
        var groups: [[Mutation]] = []
        var index = 0
        while groups.count < count {
            let group = sampleGroup(index, on: state)
            index += 1
            guard group.allSatisfy({ !$0.involvesParents }) else { continue }
            _ = try state.apply(group)
            groups.append(group)
        }
        return groups
    }

    @Test func aVersionOneStoreOpensUnchangedAndCompactsToTheCurrentVersion() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let path = scratch.path("store")
        let groups = try flatGroups(16)
        let store = try makeStore(path, groups: groups)
        // The snapshot as taskls wrote it before subtasks: version 1, through record 10.
        let through = try applying(Array(groups[..<10]))
        let payload = SnapshotCodec.encode(through.stored, version: 1)
        try writeFile(path + "/snapshot", StoreFormat.snapshotHeader(sequence: 10, payload: payload, version: 1) + payload)
        #expect(readFile(path + "/snapshot")![8] == 1)
        #expect(try journalRecords(path + "/journal").records.allSatisfy { $0.group.allSatisfy { !$0.involvesParents } })
        withExtendedLifetime(store) {}

        let expected = try applying(groups)
        var (reopened, state) = try DurableStore.open(path)
        defer { withExtendedLifetime(reopened) {} }
        expectSameState(state, expected, "version 1 opens unchanged")
        #expect(reopened.sequence == 16)

        // Subtasks go into the same journal (new tags), then a compaction writes the current version.
        let parent = state.orderedLists.flatMap { state.items(in: $0.id, ranks: 0..<Int.max) }.first!
        let time = Timestamp(milliseconds: 1_750_000_100_000)
        let subtask: [Mutation] = [.createItem(id: ItemID(state.nextIdentifier), list: parent.list, fields: ItemFields(title: "under"),
                                               before: nil, parent: .set(parent.id), at: time)]
        _ = try reopened.lockForWriting()
        _ = try state.apply(subtask)
        try reopened.append(subtask)
        try reopened.commit()
        let ticket = reopened.beginCompaction()
        try ticket.writeSnapshot(of: state)
        #expect(try reopened.finishCompaction(ticket).isEmpty)
        #expect(readFile(path + "/snapshot")![8] == UInt8(StoreFormat.snapshotVersion), "the compaction writes the current version")
        let (_, final) = try DurableStore.open(path)
        expectSameState(final, state, "the current version with a subtask")
        #expect(final.item(ItemID(state.nextIdentifier - 1))?.parent == parent.id)
    }

    @Test func aStoreWithSubtasksRoundTripsThroughSnapshotAndJournal() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let path = scratch.path("store")
        // The sample groups make subtasks, indent and outdent, and move subtrees between lists.
        let groups = try sampleGroups(64)
        #expect(groups.joined().contains { $0.involvesParents }, "the samples make subtasks")
        let store = try makeStore(path, groups: Array(groups[..<40]))
        let state = try applying(Array(groups[..<40]))
        #expect(state.orderedLists.contains { list in state.items(in: list.id, ranks: 0..<Int.max).contains { $0.parent != nil } })
        let ticket = store.beginCompaction()
        try ticket.writeSnapshot(of: state)
        #expect(try store.finishCompaction(ticket).isEmpty)
        var current = state
        for group in groups[40...] {
            _ = try store.lockForWriting()
            _ = try current.apply(group)
            try store.append(group)
            try store.commit()
        }
        let (_, reopened) = try DurableStore.open(path)
        expectSameState(reopened, try applying(groups), "snapshot with parents, then journal records with parents")
    }
}

extension Mutation {
    /// Whether the mutation names a parent (the journal then writes it with one of the tags made for subtasks).
    var involvesParents: Bool {
        switch self {
        case .createItem(_, _, _, _, let parent, _): parent != nil
        case .moveItems(_, _, _, let parent, _): parent != nil
        case .restoreItems(let items): items.contains { $0.parent != nil }
        default: false
        }
    }
}
