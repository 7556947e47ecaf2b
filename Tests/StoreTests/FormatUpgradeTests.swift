// The upgrades of the store's format: a version-1 snapshot (items without parents, before subtasks), a version-2 one
// (items without repeat rules) or a version-3 one (items without uids or extras) and a journal of the old mutation tags
// open unchanged; subtasks, repeating items and imported items then go into the same journal, and the next compaction
// writes the current version (4).

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

        // Subtasks go into the same journal (new tags), then a compaction writes the current version (3).
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

extension FormatUpgradeTests {
    /// A store written before repeating items (a version-2 snapshot with subtasks, journal records of the older tags)
    /// opens unchanged; a repeating item, its completion and a rule cleared go into the same journal (tags 14 to 17),
    /// and the next compaction writes the current version, which carries the rule and the history.
    @Test func aVersionTwoStoreOpensUnchangedAndCompactsToTheCurrentVersion() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let path = scratch.path("store")
        let groups = try sampleGroups(24)
        let store = try makeStore(path, groups: groups)
        let through = try applying(Array(groups[..<16]))
        let payload = SnapshotCodec.encode(through.stored, version: 2)
        try writeFile(path + "/snapshot", StoreFormat.snapshotHeader(sequence: 16, payload: payload, version: 2) + payload)
        #expect(readFile(path + "/snapshot")![8] == 2)
        withExtendedLifetime(store) {}

        var (reopened, state) = try DurableStore.open(path)
        defer { withExtendedLifetime(reopened) {} }
        expectSameState(state, try applying(groups), "version 2 opens unchanged")

        let list = state.orderedLists[0].id
        let id = ItemID(state.nextIdentifier)
        let time = Timestamp(milliseconds: 1_750_000_200_000)
        let rule = try RepeatRule(rrule: "FREQ=MONTHLY;BYMONTHDAY=-1", anchor: .dueFuture)
        let due = Due.date(CalendarDate(year: 2027, month: 1, day: 31)!)
        let turns: [[Mutation]] = [
            [.createItem(id: id, list: list, fields: ItemFields(title: "statement", due: due, repeatRule: rule), before: nil, at: time)],
            [.advanceItems(advances: [Advance(id: id, next: .date(CalendarDate(year: 2027, month: 2, day: 28)!), outcome: .completed)], at: time)],
            [.updateItems(ids: [id], patch: ItemPatch(title: "statements", repeatRule: .set(rule)), at: time)],
        ]
        for turn in turns {
            _ = try reopened.lockForWriting()
            _ = try state.apply(turn)
            try reopened.append(turn)
            try reopened.commit()
        }
        let ticket = reopened.beginCompaction()
        try ticket.writeSnapshot(of: state)
        #expect(try reopened.finishCompaction(ticket).isEmpty)
        #expect(readFile(path + "/snapshot")![8] == UInt8(StoreFormat.snapshotVersion), "the compaction writes the current version")
        let (_, final) = try DurableStore.open(path)
        expectSameState(final, state, "the current version with a repeating item")
        let item = try #require(final.item(id))
        #expect(item.repeatRule == rule && item.occurrences.completed == 1 && item.occurrences.recent.first?.due == due)
    }
}

extension FormatUpgradeTests {
    /// A store written before import (a version-3 snapshot, journal records of the older tags) opens unchanged;
    /// imported items (an insert, a restore that gives one a uid, a duplicate that copies extras) go into the same
    /// journal (tags 19, 18 and 28), and the next compaction writes version 4, which carries the uids and extras.
    @Test func aVersionThreeStoreOpensUnchangedAndCompactsToVersionFour() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let path = scratch.path("store")
        let groups = try sampleGroups(24)
        let store = try makeStore(path, groups: groups)
        let through = try applying(Array(groups[..<16]))
        let payload = SnapshotCodec.encode(through.stored, version: 3)
        try writeFile(path + "/snapshot", StoreFormat.snapshotHeader(sequence: 16, payload: payload, version: 3) + payload)
        #expect(readFile(path + "/snapshot")![8] == 3)
        withExtendedLifetime(store) {}

        var (reopened, state) = try DurableStore.open(path)
        defer { withExtendedLifetime(reopened) {} }
        expectSameState(state, try applying(groups), "version 3 opens unchanged")

        let list = state.orderedLists[0].id
        let first = state.nextIdentifier
        let time = Timestamp(milliseconds: 1_750_000_300_000)
        let extras = [Extra(key: "taskwarrior:wait", value: "\"20270101T000000Z\""), Extra(key: "ical:X-A", value: ";P=1:v")]
        let last = state.items(in: list, ranks: 0..<Int.max).last { $0.parent == nil }?.position
        let positions = Position.between(last, nil, count: 2)
        func imported(_ offset: UInt64, parent: ItemID? = nil, at position: Position, uid: String?, extras: [Extra],
                      revision: UInt64 = 1) -> Item {
            Item(id: ItemID(first + offset), list: list, title: "imported \(offset)", notes: "", done: false, completedAt: nil,
                 due: nil, priority: .medium, tags: ["tw"], createdAt: time, modifiedAt: time, revision: revision, position: position,
                 parent: parent, uid: uid, extras: extras)
        }
        let parent = imported(0, at: positions[0], uid: "uuid-0", extras: extras)
        let inserted = [parent, imported(1, parent: parent.id, at: .initial, uid: "uuid-1", extras: []),
                        imported(2, at: positions[1], uid: nil, extras: [])]
        let second = imported(2, at: positions[1], uid: "uuid-2", extras: [], revision: 2)
        var turns: [[Mutation]] = [[.insertItems(items: inserted)], [.restoreItems(items: [second])]]
        turns.append(try state.applying(turns).duplicates(of: [parent.id], firstIdentifier: first + 3, at: time))
        for turn in turns {
            _ = try reopened.lockForWriting()
            _ = try state.apply(turn)
            try reopened.append(turn)
            try reopened.commit()
        }
        #expect(state.item(withUID: "uuid-2")?.id == second.id && state.item(ItemID(first + 3))?.extras == extras)
        let (_, journaled) = try DurableStore.open(path)
        expectSameState(journaled, state, "the journal's new tags")
        #expect(journaled.item(withUID: "uuid-1")?.parent == parent.id)

        let ticket = reopened.beginCompaction()
        try ticket.writeSnapshot(of: state)
        #expect(try reopened.finishCompaction(ticket).isEmpty)
        #expect(readFile(path + "/snapshot")![8] == 4, "the compaction writes version 4")
        let (_, final) = try DurableStore.open(path)
        expectSameState(final, state, "version 4 with imported items")
        for uid in ["uuid-0", "uuid-1", "uuid-2"] { #expect(final.item(withUID: uid) == state.item(withUID: uid)) }
        #expect(final.item(ItemID(first))?.extras == extras && final.item(ItemID(first + 3))?.uid == nil)
    }
}

extension TaskState {
    /// This state with `groups` applied.
    func applying(_ groups: [[Mutation]]) throws -> TaskState {
        var state = self
        for group in groups { _ = try state.apply(group) }
        return state
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
