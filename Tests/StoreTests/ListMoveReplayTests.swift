// A journaled `lists/move` that repositions the lists it jumps over (not the moved one) replays to the same state:
// in another process reading the journal, and on reopening the store.

import Testing
import Domain
@testable import Store

@Suite struct ListMoveReplayTests {
    @Test func aMoveThatRepositionsTheJumpedListsReplaysToTheSameState() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let path = scratch.path("store")
        let (writer, start) = try DurableStore.open(path)
        let (reader, opened) = try DurableStore.open(path)
        var other = opened
        var state = start
        let time = Timestamp(milliseconds: 1_000)
        func write(_ group: [Mutation]) throws -> Changes {
            #expect(try writer.lockForWriting().isEmpty)
            let changes = try state.apply(group)
            try writer.append(group)
            try writer.commit()
            return changes
        }
        let (big, small, empty) = (ListID(1), ListID(2), ListID(3))
        _ = try write([.createList(id: big, fields: ListFields(name: "Big"), before: nil),
                       .createList(id: small, fields: ListFields(name: "Small"), before: nil),
                       .createList(id: empty, fields: ListFields(name: "Empty"), before: nil)])
        _ = try write((0..<6).map { index in
            .createItem(id: ItemID(10 + UInt64(index)), list: index < 5 ? big : small,
                        fields: ItemFields(title: "item \(index)"), before: nil, at: time)
        })
        let bigPosition = state.lists[big]!.position

        let moved = try write([.moveLists(ids: [big], before: nil)])
        #expect(Set(moved.lists.map(\.id)) == [small, empty], "the lists jumped over move, not the big one")
        #expect(state.lists[big]!.position == bigPosition)
        #expect(state.allLists.map(\.id) == [small, empty, big])
        // The undo, as the server records it (whole lists with their old positions), and a move back.
        _ = try write(try state.inverse(of: moved, at: time))
        #expect(state.allLists.map(\.id) == [big, small, empty])
        _ = try write([.moveLists(ids: [empty, small], before: big)])
        #expect(state.allLists.map(\.id) == [small, empty, big])

        for group in try #require(try reader.readNewRecords(waiting: true)) { _ = try other.apply(group.mutations) }
        expectSameState(other, state, "another process applying the journal")
        let (_, reopened) = try DurableStore.open(path)
        expectSameState(reopened, state, "the store reopened")
    }
}
