/// The item grammar, form by form: input → fields, spans and warnings. The clock is Wednesday 2026-11-25,
/// 11:00 in Paris (UTC+01:00), as in the transcripts.

import Domain
import QuickEntry
import Testing

/// One row: what a line must give. Every field not named must be absent.
struct ItemRow: CustomTestStringConvertible, Sendable {
    var text: String
    var title: String?
    var due: String?
    var priority: Priority?
    var tags: [String]?
    var list: UInt64?
    var notes: String?
    /// The reasons of the warnings, in order.
    var warnings: [WarningReason] = []
    /// Text each warning's message must contain, in order (when given).
    var messages: [String] = []
    /// The spans' kinds, space separated (when given).
    var kinds: String?

    init(_ text: String, title: String? = nil, due: String? = nil, priority: Priority? = nil, tags: [String]? = nil,
         list: UInt64? = nil, notes: String? = nil, warnings: [WarningReason] = [], messages: [String] = [],
         kinds: String? = nil) {
        (self.text, self.title, self.due, self.priority, self.tags) = (text, title, due, priority, tags)
        (self.list, self.notes, self.warnings, self.messages, self.kinds) = (list, notes, warnings, messages, kinds)
    }

    var testDescription: String { text }
}

let titles: [ItemRow] = [
    ItemRow("Buy milk", title: "Buy milk", kinds: "title title"),
    ItemRow("  Buy   milk  ", title: "Buy milk"),
    ItemRow("C# and a@b.c wow!", title: "C# and a@b.c wow!", kinds: "title title title title"),
    ItemRow("# @ ^ alone", title: "# @ ^ alone"),
    ItemRow("Überweisung 漢字 👍🏽 done", title: "Überweisung 漢字 👍🏽 done"),
    ItemRow("", kinds: ""),
    ItemRow("   ", kinds: ""),
    ItemRow("line one\nline two\ttabbed", title: "line one line two tabbed"),
]

let dueDays: [ItemRow] = [
    ItemRow("Buy milk due:fri", title: "Buy milk", due: "2026-11-27", kinds: "title title due"),
    ItemRow("Buy milk DUE:Friday", title: "Buy milk", due: "2026-11-27"),
    ItemRow("^fri Buy milk", title: "Buy milk", due: "2026-11-27", kinds: "due title title"),
    ItemRow("x ^wed", title: "x", due: "2026-12-02"),
    ItemRow("x ^thurs", title: "x", due: "2026-11-26"),
    ItemRow("x ^sun", title: "x", due: "2026-11-29"),
    ItemRow("x ^today", title: "x", due: "2026-11-25"),
    ItemRow("x ^tod", title: "x", due: "2026-11-25"),
    ItemRow("x ^tomorrow", title: "x", due: "2026-11-26"),
    ItemRow("x ^tom", title: "x", due: "2026-11-26"),
    ItemRow("x ^tmr", title: "x", due: "2026-11-26"),
    ItemRow("x ^yesterday", title: "x", due: "2026-11-24"),
    ItemRow("x ^next week", title: "x", due: "2026-11-30", kinds: "title due"),
    ItemRow("x ^+3", title: "x", due: "2026-11-28"),
    ItemRow("x due:+3", title: "x", due: "2026-11-28"),
    ItemRow("x ^+0", title: "x", due: "2026-11-25"),
    ItemRow("x ^-2", title: "x", due: "2026-11-23"),
    ItemRow("x ^3d", title: "x", due: "2026-11-28"),
    ItemRow("x ^+2w", title: "x", due: "2026-12-09"),
    ItemRow("x ^+1m", title: "x", due: "2026-12-25"),
    ItemRow("x ^in 3 days", title: "x", due: "2026-11-28", kinds: "title due"),
    ItemRow("x ^in 1 day", title: "x", due: "2026-11-26"),
    ItemRow("x ^in 2 weeks", title: "x", due: "2026-12-09"),
    ItemRow("x ^in 3 months", title: "x", due: "2027-02-25"),
    ItemRow("x ^2026-12-01", title: "x", due: "2026-12-01"),
    ItemRow("x ^2020-01-01", title: "x", due: "2020-01-01"),
    ItemRow("x ^dec 1", title: "x", due: "2026-12-01", kinds: "title due"),
    ItemRow("x ^1 dec", title: "x", due: "2026-12-01"),
    ItemRow("x ^December 1st", title: "x", due: "2026-12-01"),
    ItemRow("x ^nov 25", title: "x", due: "2026-11-25"),
    ItemRow("x ^nov 24", title: "x", due: "2027-11-24"),
    ItemRow("x ^jan 1", title: "x", due: "2027-01-01"),
    ItemRow("x ^feb 29", title: "x", due: "2028-02-29"),
    ItemRow("x ^sept 3", title: "x", due: "2027-09-03"),
    ItemRow("x ^fri 5 apples", title: "x 5 apples", due: "2026-11-27", kinds: "title due title title"),
    ItemRow("x ^dec 1 2 apples", title: "x 2 apples", due: "2026-12-01"),
    ItemRow("x due:none", title: "x", due: "none"),
    ItemRow("x ^clear", title: "x", due: "none"),
    ItemRow("x due:-", title: "x", due: "none"),
]

let dueTimes: [ItemRow] = [
    ItemRow("x ^5pm", title: "x", due: "2026-11-25T17:00:00+01:00"),
    ItemRow("x ^5:30pm", title: "x", due: "2026-11-25T17:30:00+01:00"),
    ItemRow("x ^17:30", title: "x", due: "2026-11-25T17:30:00+01:00"),
    ItemRow("x ^10am", title: "x", due: "2026-11-26T10:00:00+01:00"),
    ItemRow("x ^11:00", title: "x", due: "2026-11-26T11:00:00+01:00"),
    ItemRow("x ^11:01", title: "x", due: "2026-11-25T11:01:00+01:00"),
    ItemRow("x ^12am", title: "x", due: "2026-11-26T00:00:00+01:00"),
    ItemRow("x ^12pm", title: "x", due: "2026-11-25T12:00:00+01:00"),
    ItemRow("x ^0:00", title: "x", due: "2026-11-26T00:00:00+01:00"),
    ItemRow("x ^tomorrow 9:30", title: "x", due: "2026-11-26T09:30:00+01:00", kinds: "title due"),
    ItemRow("x ^fri 5pm", title: "x", due: "2026-11-27T17:00:00+01:00"),
    ItemRow("x ^fri 5 pm", title: "x", due: "2026-11-27T17:00:00+01:00", kinds: "title due"),
    ItemRow("x ^5 pm", title: "x", due: "2026-11-25T17:00:00+01:00"),
    ItemRow("x ^today 9am", title: "x", due: "2026-11-25T09:00:00+01:00"),
    ItemRow("x ^dec 1 17:30", title: "x", due: "2026-12-01T17:30:00+01:00"),
    ItemRow("x ^in 2 weeks 8am", title: "x", due: "2026-12-09T08:00:00+01:00"),
    ItemRow("x ^2026-12-01 17:30", title: "x", due: "2026-12-01T17:30:00+01:00"),
    ItemRow("x ^2026-12-01T17:30", title: "x", due: "2026-12-01T17:30:00+01:00"),
    ItemRow("x ^2026-12-01T17:30:15", title: "x", due: "2026-12-01T17:30:15+01:00"),
    ItemRow("x ^2026-12-01T17:00+05:00", title: "x", due: "2026-12-01T17:00:00+05:00"),
    ItemRow("x ^2026-12-01T17:00:00Z", title: "x", due: "2026-12-01T17:00:00Z"),
    ItemRow("x due:2026-06-01T09:00", title: "x", due: "2026-06-01T09:00:00+02:00"),
]

let dueProblems: [ItemRow] = [
    ItemRow("x due:fryday", title: "x", warnings: [.unknownDue], messages: ["fryday is not a date; did you mean friday?"],
            kinds: "title due"),
    ItemRow("x ^tomorow", title: "x", warnings: [.unknownDue], messages: ["did you mean tomorrow?"]),
    ItemRow("x ^soon", title: "x", warnings: [.unknownDue], messages: ["soon is not a date; write today"]),
    ItemRow("x due:", title: "x", warnings: [.unknownDue], messages: ["write the date right after due:, as in due:fri"]),
    ItemRow("x ^25:00", title: "x", warnings: [.unknownDue], messages: ["25:00 is not a time of day"]),
    ItemRow("x ^13pm", title: "x", warnings: [.unknownDue], messages: ["13pm is not a time"]),
    ItemRow("x ^fri 25:00 y", title: "x y", warnings: [.unknownDue], kinds: "title due title"),
    ItemRow("x ^dec 32", title: "x", warnings: [.unknownDue], messages: ["dec 32 is not a date"]),
    ItemRow("x ^feb 30", title: "x", warnings: [.unknownDue]),
    ItemRow("x ^dec", title: "x", warnings: [.unknownDue], messages: ["dec needs a day of the month"]),
    ItemRow("x ^dec 0", title: "x", warnings: [.unknownDue], messages: ["dec 0 is not a date"]),
    ItemRow("x ^31 apr", title: "x", warnings: [.unknownDue], messages: ["31 apr is not a date"]),
    ItemRow("x ^32", title: "x", warnings: [.unknownDue], messages: ["32 is not a date"]),
    ItemRow("x ^next fri", title: "x fri", warnings: [.unknownDue], messages: ["next needs week"]),
    ItemRow("x ^in 2", title: "x", warnings: [.unknownDue], messages: ["in 2 needs a unit"]),
    ItemRow("x ^in two weeks", title: "x two weeks", warnings: [.unknownDue]),
    ItemRow("x ^2026-02-30", title: "x", warnings: [.unknownDue], messages: ["2026-02-30 is not a calendar date"]),
    ItemRow("x ^2026-12-01T25:00", title: "x", warnings: [.unknownDue], messages: ["is not a date and time"]),
    ItemRow("x ^+99999m", title: "x", warnings: [.unknownDue], messages: ["past 9999-12-31"]),
    ItemRow("x ^fri ^mon", title: "x", due: "2026-11-30", warnings: [.replaced], messages: ["replaced by ^mon"]),
]

let priorities: [ItemRow] = [
    ItemRow("x !", title: "x", priority: .low, kinds: "title priority"),
    ItemRow("x !!", title: "x", priority: .medium),
    ItemRow("x !!!", title: "x", priority: .high),
    ItemRow("x !low", title: "x", priority: .low),
    ItemRow("x !Medium", title: "x", priority: .medium),
    ItemRow("x !med", title: "x", priority: .medium),
    ItemRow("x !HIGH", title: "x", priority: .high),
    ItemRow("x !h", title: "x", priority: .high),
    ItemRow("x !none", title: "x", priority: Priority.none),
    ItemRow("x !urgent", title: "x", warnings: [.unknownPriority], messages: ["!urgent is not a priority"], kinds: "title priority"),
    ItemRow("x !hihg", title: "x", warnings: [.unknownPriority], messages: ["did you mean !high?"]),
    ItemRow("x !high+", title: "x", warnings: [.unknownPriority], messages: ["!high+ is for filters"]),
    ItemRow("x !!!!", title: "x", warnings: [.unknownPriority]),
    ItemRow("x !low !high", title: "x", priority: .high, warnings: [.replaced]),
]

let tagsAndLists: [ItemRow] = [
    ItemRow("x #home", title: "x", tags: ["home"], kinds: "title tag"),
    ItemRow("x #home #work #home", title: "x", tags: ["home", "work"]),
    ItemRow("x #Home #home", title: "x", tags: ["Home", "home"]),
    ItemRow("x #café #cafe\u{301}", title: "x", tags: ["café"]),
    ItemRow("x #a|b #c,", title: "x", tags: ["a|b", "c,"]),
    ItemRow("x @Groceries", title: "x", list: 2, kinds: "title list"),
    ItemRow("x @groceries", title: "x", list: 2),
    ItemRow("x @GROCERIES", title: "x", list: 2),
    ItemRow("x @cafe", title: "x", list: 4),
    ItemRow("x @CAFÉ", title: "x", list: 4),
    ItemRow("x @\"Work stuff\" y", title: "x y", list: 3, kinds: "title list title"),
    ItemRow("x @\"work STUFF\"", title: "x", list: 3),
    ItemRow("x @\"Inbox\"", title: "x", list: 1),
    ItemRow("x @Home", title: "x", list: 5),
    ItemRow("x @home", title: "x", list: 6),
    ItemRow("x @HOME", title: "x", warnings: [.ambiguousList], messages: ["2 lists are named HOME: Home (l5) and home (l6)"]),
    ItemRow("x @Grocerys", title: "x", warnings: [.unknownList], messages: ["no list named Grocerys; did you mean Grocery or Groceries?"]),
    ItemRow("x @Groc", title: "x", warnings: [.unknownList], messages: ["did you mean Groceries or Grocery?"]),
    ItemRow("x @Nowhere", title: "x", warnings: [.unknownList], messages: ["no list named Nowhere"]),
    ItemRow("x @\"Work stuff", title: "x stuff", warnings: [.unclosedQuote], kinds: "title list title"),
    ItemRow("x @Inbox @Groceries", title: "x", list: 2, warnings: [.replaced]),
    ItemRow("@Inbox", list: 1, kinds: "list"),
]

let notesAndEscapes: [ItemRow] = [
    ItemRow("Buy milk // 2 litres", title: "Buy milk", notes: "2 litres", kinds: "title title notes"),
    ItemRow("Buy milk //   2 litres, #not a tag  ", title: "Buy milk", notes: "2 litres, #not a tag"),
    ItemRow("Buy // a // b", title: "Buy", notes: "a // b"),
    ItemRow("Buy //", title: "Buy", notes: ""),
    ItemRow("// only notes", notes: "only notes", kinds: "notes"),
    ItemRow("Buy // line one\nline two", title: "Buy", notes: "line one\nline two"),
    ItemRow("see http://example.com//x", title: "see http://example.com//x"),
    ItemRow("Fix issue \\#42", title: "Fix issue #42", kinds: "title title escape"),
    ItemRow("\\!urgent call", title: "!urgent call"),
    ItemRow("mail \\@home", title: "mail @home"),
    ItemRow("x \\^fri", title: "x ^fri"),
    ItemRow("x \\due:fri", title: "x due:fri"),
    ItemRow("x \\DUE:fri", title: "x DUE:fri"),
    ItemRow("x \\//", title: "x //"),
    ItemRow("x \\\\#y", title: "x \\#y"),
    ItemRow("C:\\dir \\o", title: "C:\\dir \\o", kinds: "title title"),
    ItemRow("x \\", title: "x \\"),
]

let everything: [ItemRow] = [
    ItemRow("Buy milk ^fri 5pm !high #home @Groceries // 2 litres", title: "Buy milk", due: "2026-11-27T17:00:00+01:00",
            priority: .high, tags: ["home"], list: 2, notes: "2 litres", kinds: "title title due priority tag list notes"),
    ItemRow("#home Call mom !! ^tomorrow", title: "Call mom", due: "2026-11-26", priority: .medium, tags: ["home"]),
]

@Test(arguments: titles + dueDays + dueTimes + dueProblems + priorities + tagsAndLists + notesAndEscapes + everything)
func anItemLineGivesTheFieldsItMeans(_ row: ItemRow) {
    let parsed = ItemGrammar.parse(row.text, clock: clock(), lists: .known(directory))
    #expect(parsed.title == row.title)
    #expect(written(parsed.due) == row.due)
    #expect(parsed.priority == row.priority)
    #expect(parsed.tags == row.tags)
    #expect(parsed.list == row.list.map(ListID.init))
    #expect(parsed.notes == row.notes)
    #expect(parsed.warnings.map(\.reason) == row.warnings, "\(parsed.warnings.map(\.message))")
    for (warning, expected) in zip(parsed.warnings, row.messages) {
        #expect(warning.message.contains(expected), "\(warning.message)")
    }
    if let kinds = row.kinds { #expect(parsed.spans.map(\.kind.rawValue).joined(separator: " ") == kinds) }
    checkSpans(row.text, parsed.spans, parsed.warnings)
}

@Test func theTablesHaveDozensOfRowsPerForm() {
    #expect(dueDays.count + dueTimes.count + dueProblems.count >= 60)
    #expect(titles.count + priorities.count + tagsAndLists.count + notesAndEscapes.count >= 50)
}
