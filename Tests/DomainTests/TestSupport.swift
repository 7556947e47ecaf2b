// Test support: a reference client that applies window operations as protocol.md describes, and engine helpers.

import Testing
@testable import Domain

/// A client's copy of one view, updated only from snapshots and change notifications.
struct ReferenceClient {
    var version: UInt64
    var count: Int?
    var window: Window
    var rows: [Row]
    var state: ViewState
    var empty: EmptyReason?

    init(_ snapshot: ViewSnapshot) {
        version = snapshot.version
        count = snapshot.count
        window = snapshot.window
        rows = snapshot.rows
        state = snapshot.state
        empty = snapshot.empty
    }

    /// Applies one change notification: the version must follow, each operation applies to the window
    /// as left by the previous one, and the notification must keep the rules of protocol.md: its ops come
    /// as removals (bottom up), moves, insertions (top down), then updates; no op leaves the window as it
    /// was (an update with the same row, a move to where the row is, a move repeating an unchanged row);
    /// and something a client can see (rows, count, state, empty reason) changes. A `generation` (the reset
    /// of `view/sort`, `view/filter`, `view/sections`) is sent whatever it changes.
    mutating func apply(_ change: ViewChange, generation: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(change.version == version + 1, "version gap: had \(version), got \(change.version)", sourceLocation: sourceLocation)
        let before = (rows: rows, count: count, window: window, state: state, empty: empty)
        version = change.version
        count = change.count
        window = change.window
        state = change.state
        empty = change.empty
        WindowOperation.checkOrder(change.operations, sourceLocation: sourceLocation)
        for operation in change.operations {
            switch operation {
            case .insert(let index, let row):
                #expect(index >= 0 && index <= rows.count, "insert at \(index) of \(rows.count)", sourceLocation: sourceLocation)
                rows.insert(row, at: min(max(index, 0), rows.count))
            case .remove(let index):
                #expect(index >= 0 && index < rows.count, "remove at \(index) of \(rows.count)", sourceLocation: sourceLocation)
                if rows.indices.contains(index) { rows.remove(at: index) }
            case .move(let from, let to, let row):
                #expect(rows.indices.contains(from), "move from \(from) of \(rows.count)", sourceLocation: sourceLocation)
                guard rows.indices.contains(from) else { continue }
                #expect(from != to, "a move to where the row is: \(operation)", sourceLocation: sourceLocation)
                let moving = rows.remove(at: from)
                #expect(to >= 0 && to <= rows.count, "move to \(to) of \(rows.count)", sourceLocation: sourceLocation)
                if let row {
                    #expect(row.id == moving.id, sourceLocation: sourceLocation)
                    #expect(row != moving, "a move carries its row unchanged: \(operation)", sourceLocation: sourceLocation)
                }
                rows.insert(row ?? moving, at: min(max(to, 0), rows.count))
            case .update(let index, let row):
                #expect(rows.indices.contains(index), "update at \(index) of \(rows.count)", sourceLocation: sourceLocation)
                if rows.indices.contains(index) {
                    #expect(rows[index].id == row.id, "update must not move a row", sourceLocation: sourceLocation)
                    #expect(rows[index] != row, "an update with the row unchanged: \(operation)", sourceLocation: sourceLocation)
                    rows[index] = row
                }
            case .reset(let newRows):
                #expect(change.operations.count == 1, "reset must be alone", sourceLocation: sourceLocation)
                rows = newRows
            }
        }
        let visible = rows != before.rows || count != before.count || window != before.window || state != before.state
            || empty != before.empty
        #expect(visible || generation, "a notification with nothing a client can see changed: \(change)",
                sourceLocation: sourceLocation)
    }
}

extension WindowOperation {
    /// The category of an op in the documented order: removals, moves, insertions, updates (a reset is alone).
    var category: Int {
        switch self {
        case .remove: 0
        case .move: 1
        case .insert: 2
        case .update: 3
        case .reset: 4
        }
    }

    /// Checks that `operations` are in the documented order: removals from the bottom up, then moves, then
    /// insertions from the top down, then updates; a reset alone.
    static func checkOrder(_ operations: [WindowOperation], sourceLocation: SourceLocation = #_sourceLocation) {
        let categories = operations.map(\.category)
        #expect(categories == categories.sorted(), "ops out of order (removals, moves, insertions, updates): \(operations)",
                sourceLocation: sourceLocation)
        let removals = operations.compactMap { if case .remove(let index) = $0 { index } else { nil } }
        #expect(removals == removals.sorted(by: >) && Set(removals).count == removals.count,
                "removals from the bottom up: \(operations)", sourceLocation: sourceLocation)
        let insertions = operations.compactMap { if case .insert(let index, _) = $0 { index } else { nil } }
        #expect(insertions == insertions.sorted() && Set(insertions).count == insertions.count,
                "insertions from the top down: \(operations)", sourceLocation: sourceLocation)
    }
}

/// Clients of several views, checked against fresh snapshots after every change.
struct ClientSet {
    var clients: [ViewID: ReferenceClient] = [:]

    mutating func open(_ snapshot: ViewSnapshot) {
        clients[snapshot.view] = ReferenceClient(snapshot)
    }

    /// Applies the changes (each must show a visible change, see `ReferenceClient.apply`) and checks every
    /// open view against the engine.
    mutating func receive(_ changes: [ViewChange], engine: Engine, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(changes.map(\.view) == changes.map(\.view).sorted(), "changes in view-id order", sourceLocation: sourceLocation)
        #expect(Set(changes.map(\.view)).count == changes.count, "one change per view", sourceLocation: sourceLocation)
        for change in changes {
            clients[change.view]?.apply(change, sourceLocation: sourceLocation)
            if case .closed = change.state { clients[change.view] = nil }
        }
        verify(engine, sourceLocation: sourceLocation)
    }

    /// Applies the one reset of a new generation (`Engine.reconfigure`, `setSort`), which is sent even when
    /// the client sees nothing change, and checks every open view against the engine.
    mutating func receiveGeneration(_ change: ViewChange, engine: Engine, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(change.operations.count == 1, "a new generation is one reset", sourceLocation: sourceLocation)
        clients[change.view]?.apply(change, generation: true, sourceLocation: sourceLocation)
        verify(engine, sourceLocation: sourceLocation)
    }

    /// Every client's window equals a fresh snapshot.
    func verify(_ engine: Engine, sourceLocation: SourceLocation = #_sourceLocation) {
        for (id, client) in clients {
            guard let snapshot = try? engine.snapshot(id) else {
                Issue.record("view \(id) should be open", sourceLocation: sourceLocation)
                continue
            }
            #expect(client.rows == snapshot.rows, "rows of view \(id)", sourceLocation: sourceLocation)
            #expect(client.version == snapshot.version, "version of view \(id)", sourceLocation: sourceLocation)
            #expect(client.count == snapshot.count, "count of view \(id)", sourceLocation: sourceLocation)
            #expect(client.state == snapshot.state, "state of view \(id)", sourceLocation: sourceLocation)
            #expect(client.empty == snapshot.empty, "empty reason of view \(id)", sourceLocation: sourceLocation)
        }
    }
}

/// Item ids of a snapshot's rows.
func ids(_ rows: [Row]) -> [UInt64] {
    rows.map { if case .item(let item, _) = $0 { item.id.rawValue } else { 0 } }
}

/// Titles of a snapshot's rows.
func titles(_ rows: [Row]) -> [String] {
    rows.map { if case .item(let item, _) = $0 { item.title } else { "" } }
}

extension Engine {
    /// Creates a list and returns its id.
    mutating func makeList(_ name: String = "Inbox") throws -> ListID {
        let id = ListID(state.nextIdentifier)
        _ = try apply([.createList(id: id, fields: ListFields(name: name), before: nil)])
        return id
    }

    /// Creates items with these titles at the end of `list`, returning their ids.
    @discardableResult
    mutating func makeItems(_ titles: [String], in list: ListID, at time: Int64 = 1_000) throws -> [ItemID] {
        var created: [ItemID] = []
        for title in titles {
            let id = ItemID(state.nextIdentifier)
            _ = try apply([.createItem(id: id, list: list, fields: ItemFields(title: title), before: nil,
                                       at: Timestamp(milliseconds: time))])
            created.append(id)
        }
        return created
    }

    /// Everything that must be unchanged after a refused request.
    var fingerprint: String {
        let items = state.items.values.map(\.item).sorted { $0.id < $1.id }.map { "\($0)" }.joined(separator: "\n")
        let lists = state.orderedLists.map { "\($0) \(state.itemCount(in: $0.id)) \(state.openItemCount(in: $0.id))" }
        let orders = state.manualOrders.keys.sorted().map { "\($0): \(state.manualOrders[$0]!.allKeys.map(\.item))" }
        let indexed = indexes.keys.map { "\($0): \(indexes[$0]!.allKeys.map(\.item))" }.sorted()
        let open = views.keys.sorted().map { "\($0) v\(views[$0]!.version) \(views[$0]!.rows.map(\.item))" }
        return ([items] + lists + orders + indexed + open + ["\(state.nextIdentifier) \(state.revision)"]).joined(separator: "\n")
    }
}

extension Engine {
    /// A move by index of the rows `rows` of `view` (tests name the block as a range); nil when the block is
    /// dropped where it is.
    func moveMutation(view: ViewID, rows: Range<Int>, to target: Int, seenVersion: UInt64,
                      at time: Timestamp) throws(DomainError) -> Mutation? {
        try moveMutation(view: view, from: rows.lowerBound, count: rows.count, to: target, seenVersion: seenVersion, at: time)
    }
}

extension Row {
    /// An item's row in a view without subtasks (depth 0, nothing below it), as most tests expect it.
    static func item(_ item: Item) -> Row { .item(item, TreeFacts()) }
}
