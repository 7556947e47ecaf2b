// Tests of view orders: every field and direction, ties by manual order then id, missing dues last, folded titles.

import Testing
@testable import Domain

struct SortTests {
    /// A list whose items have the given (title, due, priority) in manual order.
    static func engine(_ rows: [(String, String?, Priority)]) throws -> (Engine, ListID) {
        var engine = Engine()
        let list = try engine.makeList()
        for (offset, row) in rows.enumerated() {
            let fields = ItemFields(title: row.0, due: try row.1.map { try Due(parsing: $0) }, priority: row.2)
            _ = try engine.apply([.createItem(id: ItemID(engine.state.nextIdentifier), list: list, fields: fields,
                                              before: nil, at: Timestamp(milliseconds: Int64(1000 - offset)))])
        }
        return (engine, list)
    }

    static let sample: [(String, String?, Priority)] = [
        ("banana", "2026-11-23", .low),
        ("Éclair", nil, .high),
        ("apple", "2026-11-22T10:00:00Z", .none),
        ("eclair", "2026-11-22", .high),
        ("Cherry", nil, .medium),
        ("éclair", "2026-11-22", .low),
    ]

    @Test(arguments: [
        (Sort(.manual), ["banana", "Éclair", "apple", "eclair", "Cherry", "éclair"]),
        (Sort(.manual, .descending), ["éclair", "Cherry", "eclair", "apple", "Éclair", "banana"]),
        (Sort(.title), ["apple", "banana", "Cherry", "Éclair", "eclair", "éclair"]),
        (Sort(.title, .descending), ["Éclair", "eclair", "éclair", "Cherry", "banana", "apple"]),
        (Sort(.due), ["eclair", "éclair", "apple", "banana", "Éclair", "Cherry"]),
        (Sort(.due, .descending), ["banana", "apple", "eclair", "éclair", "Éclair", "Cherry"]),
        (Sort(.priority), ["apple", "banana", "éclair", "Cherry", "Éclair", "eclair"]),
        (Sort(.priority, .descending), ["Éclair", "eclair", "Cherry", "banana", "éclair", "apple"]),
        (Sort(.created), ["éclair", "Cherry", "eclair", "apple", "Éclair", "banana"]),
        (Sort(.modified, .descending), ["banana", "Éclair", "apple", "eclair", "Cherry", "éclair"]),
    ])
    func ordersAreTotalAndStable(sort: Sort, expected: [String]) throws {
        var (engine, list) = try Self.engine(Self.sample)
        let opened = try engine.openView(source: .list(list), sort: sort, window: Window(start: 0, end: 10))
        #expect(titles(opened.snapshot.rows) == expected)
        #expect(opened.snapshot.count == 6)
        #expect(opened.snapshot.state == .ready)
    }

    @Test func longSharedPrefixesCompareInFull() throws {
        var (engine, list) = try Self.engine([
            ("groceries: buy milk", nil, .none), ("Groceries: buy bread", nil, .none), ("groceries: buy", nil, .none),
        ])
        let ascending = try engine.openView(source: .list(list), sort: Sort(.title), window: Window(start: 0, end: 9))
        #expect(titles(ascending.snapshot.rows) == ["groceries: buy", "Groceries: buy bread", "groceries: buy milk"])
        let descending = try engine.openView(source: .list(list), sort: Sort(.title, .descending), window: Window(start: 0, end: 9))
        #expect(titles(descending.snapshot.rows) == ["groceries: buy milk", "Groceries: buy bread", "groceries: buy"])
    }

    @Test func longPositionsKeepManualOrderBothWays() throws {
        var engine = Engine()
        let list = try engine.makeList()
        let ids = try engine.makeItems(["first", "last"], in: list)
        var anchor = ids[1]
        for number in 0..<100 {
            let id = ItemID(engine.state.nextIdentifier)
            _ = try engine.apply([.createItem(id: id, list: list, fields: ItemFields(title: "n\(number)"), before: anchor,
                                              at: Timestamp(milliseconds: 0))])
            anchor = id
        }
        let expected = ["first"] + (0..<100).reversed().map { "n\($0)" } + ["last"]
        #expect(engine.item(anchor)!.position.bytes.count > 12)
        let ascending = try engine.openView(source: .list(list), sort: .manual, window: Window(start: 0, end: 200))
        #expect(titles(ascending.snapshot.rows) == expected)
        let descending = try engine.openView(source: .list(list), sort: Sort(.manual, .descending), window: Window(start: 0, end: 200))
        #expect(titles(descending.snapshot.rows) == expected.reversed())
    }

    @Test(arguments: [
        ("Éclair", "eclair"), ("ÉCLAIR", "eclair"), ("Straße", "strasse"), ("Ångström", "angstrom"),
        ("Œuvre", "oeuvre"), ("Łódź", "lodz"), ("Ærø", "aero"), ("e\u{301}clair", "eclair"), ("Ǖber", "uber"),
        ("Άλφα", "αλφα"), ("Ёлка", "елка"), ("naïve café", "naive cafe"), ("日本", "日本"),
    ])
    func titlesFoldToBaseLetters(title: String, folded: String) {
        #expect(CollationKey(folding: title) == CollationKey(folding: folded))
        #expect(CollationKey(folding: title).bytes == Array(folded.utf8))
    }

    @Test func foldedKeysCompareAsBytes() {
        #expect(CollationKey(folding: "abc") < CollationKey(folding: "abd"))
        #expect(CollationKey(folding: "ab") < CollationKey(folding: "abc"))
        #expect(CollationKey(folding: "Zebra") > CollationKey(folding: "apple"))
    }
}
