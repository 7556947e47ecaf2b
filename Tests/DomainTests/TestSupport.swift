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

    init(_ snapshot: ViewSnapshot) {
        version = snapshot.version
        count = snapshot.count
        window = snapshot.window
        rows = snapshot.rows
        state = snapshot.state
    }

    /// Applies one change notification: the version must follow, each operation applies to the window
    /// as left by the previous one.
    mutating func apply(_ change: ViewChange) {
        #expect(change.version == version + 1, "version gap: had \(version), got \(change.version)")
        version = change.version
        count = change.count
        window = change.window
        state = change.state
        for operation in change.operations {
            switch operation {
            case .insert(let index, let row):
                #expect(index >= 0 && index <= rows.count, "insert at \(index) of \(rows.count)")
                rows.insert(row, at: min(max(index, 0), rows.count))
            case .remove(let index):
                #expect(index >= 0 && index < rows.count, "remove at \(index) of \(rows.count)")
                if rows.indices.contains(index) { rows.remove(at: index) }
            case .move(let from, let to, let row):
                #expect(rows.indices.contains(from), "move from \(from) of \(rows.count)")
                guard rows.indices.contains(from) else { continue }
                let moving = rows.remove(at: from)
                #expect(to >= 0 && to <= rows.count, "move to \(to) of \(rows.count)")
                if let row { #expect(row.id == moving.id) }
                rows.insert(row ?? moving, at: min(max(to, 0), rows.count))
            case .update(let index, let row):
                #expect(rows.indices.contains(index), "update at \(index) of \(rows.count)")
                if rows.indices.contains(index) {
                    #expect(rows[index].id == row.id, "update must not move a row")
                    rows[index] = row
                }
            case .reset(let newRows):
                #expect(change.operations.count == 1, "reset must be alone")
                rows = newRows
            }
        }
    }
}

/// Clients of several views, checked against fresh snapshots after every change.
struct ClientSet {
    var clients: [ViewID: ReferenceClient] = [:]

    mutating func open(_ snapshot: ViewSnapshot) {
        clients[snapshot.view] = ReferenceClient(snapshot)
    }

    /// Applies the changes and checks every open view against the engine.
    mutating func receive(_ changes: [ViewChange], engine: Engine, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(changes.map(\.view) == changes.map(\.view).sorted(), "changes in view-id order", sourceLocation: sourceLocation)
        #expect(Set(changes.map(\.view)).count == changes.count, "one change per view", sourceLocation: sourceLocation)
        for change in changes {
            clients[change.view]?.apply(change)
            if case .closed = change.state { clients[change.view] = nil }
        }
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
        }
    }
}

/// A deterministic pseudo-random generator (SplitMix64), so randomized tests replay exactly.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

/// Item ids of a snapshot's rows.
func ids(_ rows: [Row]) -> [UInt64] {
    rows.map { if case .item(let item) = $0 { item.id.rawValue } else { 0 } }
}

/// Titles of a snapshot's rows.
func titles(_ rows: [Row]) -> [String] {
    rows.map { if case .item(let item) = $0 { item.title } else { "" } }
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
        let open = views.keys.sorted().map { "\($0) v\(views[$0]!.version) \(views[$0]!.keys.map(\.item))" }
        return ([items] + lists + orders + indexed + open + ["\(state.nextIdentifier) \(state.revision)"]).joined(separator: "\n")
    }
}
