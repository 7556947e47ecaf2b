// Tests of validation: every limit refused with the field named, tags normalized, nothing changed on refusal.

import Testing
@testable import Domain

struct ValidationTests {
    static let long = String(repeating: "é", count: 1_001)

    @Test(arguments: [
        (ItemFields(title: ""), "title", "must not be empty"),
        (ItemFields(title: " \n\t "), "title", "must not be only white space"),
        (ItemFields(title: String(repeating: "é", count: 1_001)), "title", "must be at most 1000 characters"),
        (ItemFields(title: "ok", notes: String(repeating: "n", count: 100_001)), "notes", "must be at most 100000 characters"),
        (ItemFields(title: "ok", tags: ["a", " "]), "tags", "must not contain a tag that is only white space"),
        (ItemFields(title: "ok", tags: ["a", ""]), "tags", "must not contain an empty tag"),
        (ItemFields(title: "ok", tags: [String(repeating: "t", count: 101)]), "tags", "a tag must be at most 100 characters"),
        (ItemFields(title: "ok", tags: (0...50).map { "t\($0)" }), "tags", "must hold at most 50 tags"),
    ])
    func itemFieldsAreRefused(fields: ItemFields, field: String, problem: String) throws {
        var engine = Engine()
        let list = try engine.makeList()
        let before = engine.fingerprint
        #expect(throws: DomainError.invalidField(field: field, problem: problem)) {
            try engine.apply([.createItem(id: ItemID(engine.state.nextIdentifier), list: list, fields: fields,
                                          before: nil, at: Timestamp(milliseconds: 0))])
        }
        #expect(engine.fingerprint == before)
    }

    @Test func limitsThemselvesAreAccepted() throws {
        var engine = Engine()
        let list = try engine.makeList()
        let fields = ItemFields(title: String(repeating: "é", count: 1_000), notes: String(repeating: "n", count: 100_000),
                                tags: (0..<50).map { "t\($0)" })
        _ = try engine.apply([.createItem(id: ItemID(100), list: list, fields: fields, before: nil,
                                          at: Timestamp(milliseconds: 0))])
        #expect(engine.item(ItemID(100))?.tags.count == 50)
    }

    @Test(arguments: [
        (ItemPatch(title: ""), "title"),
        (ItemPatch(title: String(repeating: "x", count: 1_001)), "title"),
        (ItemPatch(notes: String(repeating: "x", count: 100_001)), "notes"),
        (ItemPatch(tags: [""]), "tags"),
    ])
    func patchesAreRefused(patch: ItemPatch, field: String) throws {
        var engine = Engine()
        let list = try engine.makeList()
        let ids = try engine.makeItems(["a"], in: list)
        let before = engine.fingerprint
        do {
            _ = try engine.apply([.updateItems(ids: ids, patch: patch, at: Timestamp(milliseconds: 5))])
            Issue.record("should be refused")
        } catch {
            guard case .invalidField(let named, _) = error else { Issue.record("\(error)"); return }
            #expect(named == field)
        }
        #expect(engine.fingerprint == before)
    }

    @Test(arguments: [
        (ListFields(name: ""), "name"),
        (ListFields(name: "   "), "name"),
        (ListFields(name: String(repeating: "n", count: 201)), "name"),
        (ListFields(name: "ok", color: String(repeating: "c", count: 65)), "color"),
        (ListFields(name: "ok", color: ""), "color"),
        (ListFields(name: "ok", icon: String(repeating: "i", count: 65)), "icon"),
    ])
    func listFieldsAreRefused(fields: ListFields, field: String) throws {
        var engine = Engine()
        let before = engine.fingerprint
        do {
            _ = try engine.apply([.createList(id: ListID(1), fields: fields, before: nil)])
            Issue.record("should be refused")
        } catch {
            guard case .invalidField(let named, _) = error else { Issue.record("\(error)"); return }
            #expect(named == field)
            #expect(error.message.hasPrefix("\(field): "))
        }
        #expect(engine.fingerprint == before)
    }

    @Test func dueBuiltInCodeIsCheckedToo() throws {
        var engine = Engine()
        let list = try engine.makeList()
        let before = engine.fingerprint
        for due in [Due.dateTime(Timestamp(milliseconds: 0), offsetSeconds: 19 * 3600),
                    Due.dateTime(Timestamp(milliseconds: Int64.max), offsetSeconds: 0)] {
            #expect(throws: DomainError.invalidField(field: "due", problem: "must be between years 1 and 9999 with a UTC offset of at most 18 hours")) {
                try engine.apply([.createItem(id: ItemID(50), list: list, fields: ItemFields(title: "t", due: due),
                                              before: nil, at: Timestamp(milliseconds: 0))])
            }
        }
        #expect(engine.fingerprint == before)
    }

    @Test func tagsAreTrimmedAndDeduplicatedInOrder() throws {
        var engine = Engine()
        let list = try engine.makeList()
        _ = try engine.apply([.createItem(id: ItemID(10), list: list,
                                          fields: ItemFields(title: "t", tags: [" home ", "work", "home", "work ", "ünï"]),
                                          before: nil, at: Timestamp(milliseconds: 0))])
        #expect(engine.item(ItemID(10))?.tags == ["home", "work", "ünï"])
    }

    @Test func priorityParsingNamesTheField() throws {
        #expect(try Priority(parsing: "high") == .high)
        #expect(throws: DomainError.invalidField(field: "priority", problem: "must be one of none, low, medium, high")) {
            try Priority(parsing: "urgent")
        }
    }

    @Test func windowsAreValidated() throws {
        var engine = Engine()
        let list = try engine.makeList()
        for window in [Window(start: -1, end: 3), Window(start: 5, end: 4), Window(start: 0, end: 1_001)] {
            #expect(throws: DomainError.self) {
                try engine.openView(source: .list(list), sort: .manual, window: window)
            }
        }
        #expect(engine.openViews.isEmpty)
    }
}
