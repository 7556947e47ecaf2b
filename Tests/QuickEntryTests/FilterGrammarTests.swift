/// The filter grammar, form by form: input → filter, spans and warnings (Wednesday 2026-11-25, 11:00 in Paris).

import Domain
import QuickEntry
import Testing

struct FilterRow: CustomTestStringConvertible, Sendable {
    var text: String
    var filter: Filter
    var warnings: [WarningReason] = []
    var messages: [String] = []
    var kinds: String?

    init(_ text: String, _ filter: Filter, warnings: [WarningReason] = [], messages: [String] = [], kinds: String? = nil) {
        (self.text, self.filter, self.warnings, self.messages, self.kinds) = (text, filter, warnings, messages, kinds)
    }

    var testDescription: String { text }
}

private func due(_ text: String) -> Due { try! Due(parsing: text) }

let filterWords: [FilterRow] = [
    FilterRow("", Filter(), kinds: ""),
    FilterRow("milk", Filter(text: "milk"), kinds: "text"),
    FilterRow("buy  milk", Filter(text: "buy milk")),
    FilterRow("buy #home milk", Filter(text: "buy milk", tagsAllOf: ["home"]), kinds: "text tag text"),
    FilterRow("#home", Filter(tagsAllOf: ["home"]), kinds: "tag"),
    FilterRow("#home #work #home", Filter(tagsAllOf: ["home", "work"])),
    FilterRow("#home|#work", Filter(tagsAnyOf: ["home", "work"]), kinds: "tag"),
    FilterRow("#a|#b|#a #c", Filter(tagsAnyOf: ["a", "b"], tagsAllOf: ["c"])),
    FilterRow("#a|b", Filter(tagsAllOf: ["a|b"])),
    FilterRow("#a|#b #c|#d", Filter(tagsAnyOf: ["c", "d"]), warnings: [.replaced]),
    FilterRow("!high+", Filter(priorityAtLeast: .high), kinds: "priority"),
    FilterRow("!high", Filter(priorityAtLeast: .high)),
    FilterRow("!medium", Filter(priorityAtLeast: .medium)),
    FilterRow("!low+", Filter(priorityAtLeast: .low)),
    FilterRow("!", Filter(priorityAtLeast: .low)),
    FilterRow("!!+", Filter(priorityAtLeast: .medium)),
    FilterRow("!!!", Filter(priorityAtLeast: .high)),
    FilterRow("!none", Filter(), warnings: [.notAFilter], messages: ["no condition"]),
    FilterRow("!urgent", Filter(), warnings: [.unknownPriority]),
    FilterRow("!low !high", Filter(priorityAtLeast: .high), warnings: [.replaced]),
    FilterRow("done", Filter(done: .done), kinds: "done"),
    FilterRow("DONE", Filter(done: .done)),
    FilterRow("open", Filter(done: .notDone)),
    FilterRow("done open", Filter(done: .notDone), warnings: [.replaced]),
    FilterRow("\\done", Filter(text: "done"), kinds: "escape"),
    FilterRow("\\#home \\!x \\@y", Filter(text: "#home !x @y")),
    FilterRow("\\due<fri", Filter(text: "due<fri")),
    FilterRow("C# a@b.c", Filter(text: "C# a@b.c")),
    FilterRow("undone opened", Filter(text: "undone opened")),
    FilterRow("overdue", Filter(), warnings: [.notAFilter], messages: ["overdue is a smart group"], kinds: "due"),
    FilterRow("@Work", Filter(), warnings: [.notAFilter], messages: ["a filter cannot pick a list"], kinds: "list"),
    FilterRow("@\"Work stuff\" milk", Filter(text: "milk"), warnings: [.notAFilter], kinds: "list text"),
    FilterRow("// milk", Filter(text: "// milk")),
    FilterRow("#home !high+ due<fri done milk", Filter(text: "milk", done: .done, tagsAllOf: ["home"], priorityAtLeast: .high,
                                                       dueBefore: due("2026-11-27")),
              kinds: "tag priority due done text"),
]

let filterDues: [FilterRow] = [
    FilterRow("due<fri", Filter(dueBefore: due("2026-11-27")), kinds: "due"),
    FilterRow("DUE<Fri", Filter(dueBefore: due("2026-11-27"))),
    FilterRow("due<=fri", Filter(dueBefore: due("2026-11-28"))),
    FilterRow("due>today", Filter(dueAfter: due("2026-11-25T23:59:59.999Z"))),
    FilterRow("due>=fri", Filter(dueAfter: due("2026-11-26T23:59:59.999Z"))),
    FilterRow("due:fri", Filter(dueBefore: due("2026-11-28"), dueAfter: due("2026-11-26T23:59:59.999Z"))),
    FilterRow("due=fri", Filter(dueBefore: due("2026-11-28"), dueAfter: due("2026-11-26T23:59:59.999Z"))),
    FilterRow("^fri", Filter(dueBefore: due("2026-11-28"), dueAfter: due("2026-11-26T23:59:59.999Z"))),
    FilterRow("due<next week", Filter(dueBefore: due("2026-11-30")), kinds: "due"),
    FilterRow("due<in 2 weeks milk", Filter(text: "milk", dueBefore: due("2026-12-09")), kinds: "due text"),
    FilterRow("due>dec 1", Filter(dueAfter: due("2026-12-01T23:59:59.999Z"))),
    FilterRow("due<fri 5pm", Filter(dueBefore: due("2026-11-27T17:00:00+01:00"))),
    FilterRow("due<=fri 5pm", Filter(dueBefore: due("2026-11-27T17:00:00.001+01:00"))),
    FilterRow("due>5pm", Filter(dueAfter: due("2026-11-25T17:00:00+01:00"))),
    FilterRow("due>=5pm", Filter(dueAfter: due("2026-11-25T16:59:59.999+01:00"))),
    FilterRow("due:tomorrow 9:30", Filter(dueBefore: due("2026-11-26T09:30:00.001+01:00"),
                                          dueAfter: due("2026-11-26T09:29:59.999+01:00"))),
    FilterRow("due>mon due<fri", Filter(dueBefore: due("2026-11-27"), dueAfter: due("2026-11-30T23:59:59.999Z"))),
    FilterRow("due<fri due<mon", Filter(dueBefore: due("2026-11-30")), warnings: [.replaced]),
    FilterRow("due:fri due:mon", Filter(dueBefore: due("2026-12-01"), dueAfter: due("2026-11-29T23:59:59.999Z")),
              warnings: [.replaced]),
    FilterRow("due<fri due:mon", Filter(dueBefore: due("2026-12-01"), dueAfter: due("2026-11-29T23:59:59.999Z")),
              warnings: [.replaced]),
    FilterRow("due<=9999-12-31", Filter()),
    FilterRow("due>=0001-01-01", Filter()),
    FilterRow("due<fryday", Filter(), warnings: [.unknownDue], messages: ["did you mean friday?"], kinds: "due"),
    FilterRow("due<", Filter(), warnings: [.unknownDue], messages: ["write the date right after due<, as in due<fri"]),
    FilterRow("due:none", Filter(), warnings: [.notAFilter], messages: ["without a due"]),
]

@Test(arguments: filterWords + filterDues)
func aFilterLineGivesTheFilterItMeans(_ row: FilterRow) {
    let parsed = FilterGrammar.parse(row.text, clock: clock())
    #expect(parsed.filter == row.filter)
    #expect(parsed.warnings.map(\.reason) == row.warnings, "\(parsed.warnings.map(\.message))")
    for (warning, expected) in zip(parsed.warnings, row.messages) {
        #expect(warning.message.contains(expected), "\(warning.message)")
    }
    if let kinds = row.kinds { #expect(parsed.spans.map(\.kind.rawValue).joined(separator: " ") == kinds) }
    checkSpans(row.text, parsed.spans, parsed.warnings)
}

/// The bounds mean what they say: of items due around Friday 27 November, `due<fri` keeps those before the
/// day, `due>fri` those after it, `due:fri` the day and its times, compared as the server's filter compares.
@Test func dayBoundsKeepExactlyTheDaysTheySay() throws {
    let dues = ["2026-11-26", "2026-11-26T23:59:00+01:00", "2026-11-27", "2026-11-27T00:00:00+01:00",
                "2026-11-27T23:59:59.999-05:00", "2026-11-28", "2026-11-28T00:00:00+14:00"].map(due)
    var state = TaskState()
    var mutations: [Mutation] = [.createList(id: ListID(1), fields: ListFields(name: "L"), before: nil)]
    for (offset, due) in dues.enumerated() {
        mutations.append(.createItem(id: ItemID(UInt64(offset + 2)), list: ListID(1), fields: ItemFields(title: "t", due: due),
                                     before: nil, at: Timestamp(milliseconds: 0)))
    }
    _ = try state.apply(mutations)
    let items = dues.indices.compactMap { state.item(ItemID(UInt64($0 + 2))) }
    #expect(items.count == dues.count)
    func kept(_ text: String) -> [String] {
        let filter = FilterGrammar.parse(text, clock: clock()).filter
        return items.filter(filter.matches).compactMap { $0.due?.iso8601 }
    }
    #expect(kept("due<fri") == ["2026-11-26", "2026-11-26T23:59:00+01:00"])
    #expect(kept("due<=fri") == ["2026-11-26", "2026-11-26T23:59:00+01:00", "2026-11-27", "2026-11-27T00:00:00+01:00",
                                 "2026-11-27T23:59:59.999-05:00"])
    #expect(kept("due:fri") == ["2026-11-27", "2026-11-27T00:00:00+01:00", "2026-11-27T23:59:59.999-05:00"])
    #expect(kept("due>=fri") == ["2026-11-27", "2026-11-27T00:00:00+01:00", "2026-11-27T23:59:59.999-05:00", "2026-11-28",
                                 "2026-11-28T00:00:00+14:00"])
    #expect(kept("due>fri") == ["2026-11-28", "2026-11-28T00:00:00+14:00"])
}
