// Undo test support: an image of the state undo must give back, and a fixture that applies groups with views open.

import Testing
@testable import Domain

/// What undo must give back: every list in order with every field, every item with every field and position
/// (but `revision` and `modifiedAt`, which undo advances), each list's manual order and counts.
struct StateImage: Equatable {
    var lists: [TaskList]
    var items: [ItemID: Item]
    var orders: [ListID: [ItemID]]
    var counts: [ListID: [Int]]

    init(_ state: TaskState) {
        lists = state.orderedLists
        items = [:]
        for record in state.items.values {
            var item = record.item
            item.revision = 0
            item.modifiedAt = Timestamp(milliseconds: 0)
            items[item.id] = item
        }
        orders = [:]
        counts = [:]
        for list in lists {
            orders[list.id] = state.items(in: list.id, ranks: 0..<Int.max).map(\.id)
            counts[list.id] = [state.itemCount(in: list.id), state.openItemCount(in: list.id)]
        }
    }
}

extension TaskState {
    /// Checks what restores must keep: no two lists, and no two items of a list, share a position; every list
    /// has its manual order and every item is in its list's.
    func checkPositionsAreUnique(sourceLocation: SourceLocation = #_sourceLocation) {
        let listPositions = orderedLists.map(\.position)
        #expect(Set(listPositions).count == listPositions.count, "list positions are unique", sourceLocation: sourceLocation)
        #expect(Set(manualOrders.keys) == Set(lists.keys), "one manual order per list", sourceLocation: sourceLocation)
        for list in lists.keys {
            let positions = items(in: list, ranks: 0..<Int.max).map(\.position)
            #expect(Set(positions).count == positions.count, "item positions in \(list) are unique", sourceLocation: sourceLocation)
            #expect(positions == positions.sorted(), "manual order of \(list)", sourceLocation: sourceLocation)
        }
        #expect(lists.keys.reduce(0) { $0 + itemCount(in: $1) } == itemCount, "every item is in its list's order",
                sourceLocation: sourceLocation)
    }
}

/// An engine with views open on it, whose every change is checked against a reference client, and whose
/// item revisions are checked never to go back.
struct UndoFixture {
    var engine = Engine()
    var clients = ClientSet()
    var clock: Int64 = 10_000
    /// The highest revision seen of every item, deleted ones included.
    var revisions: [ItemID: UInt64] = [:]

    var now: Timestamp { Timestamp(milliseconds: clock) }

    /// Applies a group and hands its view changes to the clients.
    @discardableResult
    mutating func apply(_ mutations: [Mutation], sourceLocation: SourceLocation = #_sourceLocation) throws -> Applied {
        let applied = try engine.apply(mutations)
        clients.receive(applied.viewChanges, engine: engine, sourceLocation: sourceLocation)
        for change in applied.changes.items {
            guard let new = change.new else { continue }
            if let seen = revisions[new.id] {
                #expect(new.revision > seen, "revision of \(new.id) goes forward", sourceLocation: sourceLocation)
            }
            revisions[new.id] = new.revision
        }
        engine.state.checkPositionsAreUnique(sourceLocation: sourceLocation)
        return applied
    }

    /// Applies the inverse of `changes` at a later time: an undo, or a redo when `changes` are an undo's.
    @discardableResult
    mutating func invert(_ changes: Changes, sourceLocation: SourceLocation = #_sourceLocation) throws -> Applied {
        clock += 1_000
        let applied = try apply(try engine.inverse(of: changes, at: now), sourceLocation: sourceLocation)
        for change in applied.changes.items where change.old != nil {
            if let new = change.new {
                #expect(new.modifiedAt == now, "a restored item is modified at the undo's time", sourceLocation: sourceLocation)
            }
        }
        return applied
    }

    /// Opens a view and starts a client for it.
    @discardableResult
    mutating func open(_ list: ListID, _ sort: Sort, _ window: Window) throws -> ViewID {
        let opened = try engine.openView(source: .list(list), sort: sort, window: window)
        clients.open(opened.snapshot)
        return opened.snapshot.view
    }
}
