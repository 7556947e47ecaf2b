// Moves by index with `depth` on protocol.md's example tree (A, A1, A1a, A2, B): every row of its table, moving A1
// with its subtask, and the cases with A1 collapsed.

import Testing
@testable import Domain

/// One drop of protocol.md's table: which row moves (with A1 collapsed or not), where, at which depth (nil: the
/// default), and the tree it leaves (each item with a dot per level; "unchanged", or the refused field).
struct TreeDrop: Sendable, CustomTestStringConvertible {
    var moved: String
    var collapsed = false
    var to: Int
    var depth: Int?
    var expected: String

    var testDescription: String {
        "\(moved)\(collapsed ? " (A1 collapsed)" : "") to \(to) at depth \(depth.map(String.init) ?? "default"): \(expected)"
    }
}

struct TreeMoveTableTests {
    static let drops: [TreeDrop] = [
        // Moving B (from 4); the view without it is A, A1, A1a, A2.
        TreeDrop(moved: "B", to: 0, depth: nil, expected: "B A .A1 ..A1a .A2"),
        TreeDrop(moved: "B", to: 0, depth: 0, expected: "B A .A1 ..A1a .A2"),
        TreeDrop(moved: "B", to: 0, depth: 1, expected: "depth: must be 0 at index 0, got 1"),
        TreeDrop(moved: "B", to: 1, depth: nil, expected: "A .B .A1 ..A1a .A2"),
        TreeDrop(moved: "B", to: 1, depth: 1, expected: "A .B .A1 ..A1a .A2"),
        TreeDrop(moved: "B", to: 1, depth: 0, expected: "depth: must be 1 at index 1, got 0"),
        TreeDrop(moved: "B", to: 1, depth: 2, expected: "depth: must be 1 at index 1, got 2"),
        TreeDrop(moved: "B", to: 2, depth: nil, expected: "A .A1 ..B ..A1a .A2"),
        TreeDrop(moved: "B", to: 2, depth: 2, expected: "A .A1 ..B ..A1a .A2"),
        TreeDrop(moved: "B", to: 2, depth: 1, expected: "depth: must be 2 at index 2, got 1"),
        TreeDrop(moved: "B", to: 3, depth: nil, expected: "A .A1 ..A1a .B .A2"),
        TreeDrop(moved: "B", to: 3, depth: 1, expected: "A .A1 ..A1a .B .A2"),
        TreeDrop(moved: "B", to: 3, depth: 2, expected: "A .A1 ..A1a ..B .A2"),
        TreeDrop(moved: "B", to: 3, depth: 3, expected: "A .A1 ..A1a ...B .A2"),
        TreeDrop(moved: "B", to: 3, depth: 0, expected: "depth: must be within 1...3 at index 3, got 0"),
        TreeDrop(moved: "B", to: 3, depth: 4, expected: "depth: must be within 1...3 at index 3, got 4"),
        TreeDrop(moved: "B", to: 4, depth: nil, expected: "unchanged"),
        TreeDrop(moved: "B", to: 4, depth: 0, expected: "unchanged"),
        TreeDrop(moved: "B", to: 4, depth: 1, expected: "A .A1 ..A1a .A2 .B"),
        TreeDrop(moved: "B", to: 4, depth: 2, expected: "A .A1 ..A1a .A2 ..B"),
        TreeDrop(moved: "B", to: 4, depth: 3, expected: "depth: must be within 0...2 at index 4, got 3"),
        // Moving A1 (from 1) takes A1a along; the view without them is A, A2, B.
        TreeDrop(moved: "A1", to: 2, depth: nil, expected: "A .A2 A1 .A1a B"),
        TreeDrop(moved: "A1", to: 2, depth: 0, expected: "A .A2 A1 .A1a B"),
        TreeDrop(moved: "A1", to: 2, depth: 1, expected: "A .A2 .A1 ..A1a B"),
        TreeDrop(moved: "A1", to: 2, depth: 2, expected: "A .A2 ..A1 ...A1a B"),
        TreeDrop(moved: "A1", to: 1, depth: nil, expected: "unchanged"),
        TreeDrop(moved: "A1", to: 1, depth: 1, expected: "unchanged"),
        TreeDrop(moved: "A1", to: 3, depth: 0, expected: "A .A2 B A1 .A1a"),
        // With A1 collapsed the block is A1 alone (A1a is not a row), and A1a moves with it all the same.
        TreeDrop(moved: "A1", collapsed: true, to: 2, depth: nil, expected: "A .A2 A1 .A1a B"),
        TreeDrop(moved: "A1", collapsed: true, to: 2, depth: 1, expected: "A .A2 .A1 ..A1a B"),
        TreeDrop(moved: "A1", collapsed: true, to: 2, depth: 2, expected: "A .A2 ..A1 ...A1a B"),
        // B (from 3: the rows are A, A1, A2, B) to 2: `prev` is A1, collapsed, `next` A2: depth 1 only, after A1a.
        TreeDrop(moved: "B", collapsed: true, to: 2, depth: nil, expected: "A .A1 ..A1a .B .A2"),
        TreeDrop(moved: "B", collapsed: true, to: 2, depth: 1, expected: "A .A1 ..A1a .B .A2"),
        TreeDrop(moved: "B", collapsed: true, to: 2, depth: 2, expected: "depth: must be 1 at index 2, got 2"),
        // B to 1 (`prev` A, `next` A1): first subtask of A, before A1, whose subtask stays hidden.
        TreeDrop(moved: "B", collapsed: true, to: 1, depth: nil, expected: "A .B .A1 ..A1a .A2"),
    ]

    @Test(arguments: drops)
    func aDropOnTheExampleLandsAsTheTableSays(_ drop: TreeDrop) throws {
        var engine = Engine()
        let list = try engine.makeList()
        var ids: [String: ItemID] = [:]
        for (title, parent) in [("A", nil), ("A1", "A"), ("A1a", "A1"), ("A2", "A"), ("B", nil)] as [(String, String?)] {
            let id = ItemID(engine.state.nextIdentifier)
            _ = try engine.apply([.createItem(id: id, list: list, fields: ItemFields(title: title), before: nil,
                                              parent: parent.map { .set(ids[$0]!) }, at: Timestamp(milliseconds: 1_000))])
            ids[title] = id
        }
        #expect(tree(engine, list) == "A .A1 ..A1a .A2 B")
        var clients = ClientSet()
        let opened = try engine.openView(source: .list(list), sort: .manual, window: Window(start: 0, end: 100))
        let view = opened.snapshot.view
        clients.open(opened.snapshot)
        if drop.collapsed {
            let change = try #require(try engine.setCollapsed(view, ids: [ids["A1"]!], collapse: true))
            clients.receive([change], engine: engine)
        }
        let rows = try engine.snapshot(view).rows.map { row in
            if case .item(let item, _) = row { return item.title }
            return ""
        }
        let from = try #require(rows.firstIndex(of: drop.moved))
        let revision = engine.revision
        let mutation: Mutation?
        do {
            mutation = try engine.moveMutation(view: view, from: from, count: 1, to: drop.to, depth: drop.depth,
                                               seenVersion: try engine.snapshot(view).version,
                                               at: Timestamp(milliseconds: 2_000))
        } catch {
            guard case .invalidField(let field, let problem) = error else { throw error }
            #expect("\(field): \(problem)" == drop.expected)
            return
        }
        if let mutation {
            let applied = try engine.apply([mutation])
            clients.receive(applied.viewChanges, engine: engine)
        }
        #expect(engine.revision == revision + (drop.expected == "unchanged" ? 0 : 1))
        #expect(tree(engine, list) == (drop.expected == "unchanged" ? "A .A1 ..A1a .A2 B" : drop.expected))
        for order in engine.indexes.values { order.checkInvariants() }
        engine.state.manualOrders[list]!.checkInvariants()
    }

    /// The list's tree: each title after a dot per level, in tree order.
    func tree(_ engine: Engine, _ list: ListID) -> String {
        engine.state.items(in: list, ranks: 0..<Int.max).map { item in
            String(repeating: ".", count: engine.state.depth(of: item.id)) + item.title
        }.joined(separator: " ")
    }
}
