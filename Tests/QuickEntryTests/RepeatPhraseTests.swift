/// The item grammar's repeat phrases, form by form: input → rule (as RRULE text) and anchor, title, spans and
/// warnings. The clock is Wednesday 2026-11-25, 11:00 in Paris, as in the transcripts.

import Domain
import QuickEntry
import Testing

/// One row: what a line must give.
struct RepeatRow: CustomTestStringConvertible, Sendable {
    var text: String
    /// The rule's RRULE text, nil when the line gives none.
    var rule: String?
    var anchor: RepeatRule.Anchor = .due
    var title: String?
    var due: String?
    var warnings: [WarningReason] = []
    /// Text each warning's message must contain, in order (when given).
    var messages: [String] = []
    /// The spans' kinds, space separated (when given).
    var kinds: String?

    init(_ text: String, _ rule: String?, _ anchor: RepeatRule.Anchor = .due, title: String? = "x", due: String? = nil,
         warnings: [WarningReason] = [], messages: [String] = [], kinds: String? = nil) {
        (self.text, self.rule, self.anchor, self.title, self.due) = (text, rule, anchor, title, due)
        (self.warnings, self.messages, self.kinds) = (warnings, messages, kinds)
    }

    var testDescription: String { text }
}

let repeatForms: [RepeatRow] = [
    RepeatRow("x every day", "FREQ=DAILY", kinds: "title repeat"),
    RepeatRow("Every Day x", "FREQ=DAILY", kinds: "repeat title"),
    RepeatRow("x every 3 days", "FREQ=DAILY;INTERVAL=3"),
    RepeatRow("x every other day", "FREQ=DAILY;INTERVAL=2"),
    RepeatRow("x every week", "FREQ=WEEKLY"),
    RepeatRow("x every 2 weeks", "FREQ=WEEKLY;INTERVAL=2", kinds: "title repeat"),
    RepeatRow("x every 1 week", "FREQ=WEEKLY"),
    RepeatRow("x every month", "FREQ=MONTHLY"),
    RepeatRow("x every 6 months", "FREQ=MONTHLY;INTERVAL=6"),
    RepeatRow("x every year", "FREQ=YEARLY"),
    RepeatRow("x every 1000 years", "FREQ=YEARLY;INTERVAL=1000"),
    // Weekdays.
    RepeatRow("x every mon,wed", "FREQ=WEEKLY;BYDAY=MO,WE", kinds: "title repeat"),
    RepeatRow("x every mon, wed", "FREQ=WEEKLY;BYDAY=MO,WE"),
    RepeatRow("x every mon and wed", "FREQ=WEEKLY;BYDAY=MO,WE"),
    RepeatRow("x every monday, wednesday and friday", "FREQ=WEEKLY;BYDAY=MO,WE,FR"),
    RepeatRow("x every tuesday", "FREQ=WEEKLY;BYDAY=TU"),
    RepeatRow("x every Sundays", "FREQ=WEEKLY;BYDAY=SU"),
    RepeatRow("x every weekday", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"),
    RepeatRow("x every weekend", "FREQ=WEEKLY;BYDAY=SA,SU"),
    RepeatRow("x every other weekend", "FREQ=WEEKLY;INTERVAL=2;BYDAY=SA,SU"),
    RepeatRow("x every other fri", "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR"),
    RepeatRow("x every week on fri", "FREQ=WEEKLY;BYDAY=FR"),
    RepeatRow("x every 2 weeks on mon,wed", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE"),
    RepeatRow("x every mon and y", "FREQ=WEEKLY;BYDAY=MO", title: "x and y"),
    RepeatRow("x every mon, and y", "FREQ=WEEKLY;BYDAY=MO", title: "x and y"),
    // Days of the month.
    RepeatRow("x every month on the 15th", "FREQ=MONTHLY;BYMONTHDAY=15", kinds: "title repeat"),
    RepeatRow("x every month on 15", "FREQ=MONTHLY;BYMONTHDAY=15"),
    RepeatRow("x every month on the 1st and 15th", "FREQ=MONTHLY;BYMONTHDAY=1,15"),
    RepeatRow("x every month on the 1st, the 15th", "FREQ=MONTHLY;BYMONTHDAY=1,15"),
    RepeatRow("x every month on the 1st,15th", "FREQ=MONTHLY;BYMONTHDAY=1,15"),
    RepeatRow("x every month on the 31st", "FREQ=MONTHLY;BYMONTHDAY=31"),
    RepeatRow("x every month on the last day", "FREQ=MONTHLY;BYMONTHDAY=-1"),
    RepeatRow("x every month on the last fri", "FREQ=MONTHLY;BYDAY=-1FR", kinds: "title repeat"),
    RepeatRow("x every month on the 2nd mon", "FREQ=MONTHLY;BYDAY=2MO"),
    RepeatRow("x every month on the first monday", "FREQ=MONTHLY;BYDAY=1MO"),
    RepeatRow("x every month on the first and third tue", "FREQ=MONTHLY;BYDAY=1TU,3TU"),
    RepeatRow("x every month on the 2nd, 4th thursday", "FREQ=MONTHLY;BYDAY=2TH,4TH"),
    RepeatRow("x every month on the first tue and third tue", "FREQ=MONTHLY;BYDAY=1TU,3TU"),
    RepeatRow("x every 3 months on the last day", "FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=-1"),
    RepeatRow("x every month on time", "FREQ=MONTHLY", title: "x on time"),
    RepeatRow("x every month on the moon", "FREQ=MONTHLY", title: "x on the moon"),
    // A date of the year.
    RepeatRow("x every year on dec 25", "FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=25"),
    RepeatRow("x every year on 29 feb", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29"),
    RepeatRow("x every year on March 3rd", "FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=3"),
    RepeatRow("x every year on holiday", "FREQ=YEARLY", title: "x on holiday"),
    // From completion.
    RepeatRow("x every 3 days after done", "FREQ=DAILY;INTERVAL=3", .completion, kinds: "title repeat"),
    RepeatRow("x every week after completion", "FREQ=WEEKLY", .completion),
    RepeatRow("x every month on the 1st after done", "FREQ=MONTHLY;BYMONTHDAY=1", .completion),
    RepeatRow("x every day after lunch", "FREQ=DAILY", title: "x after lunch"),
    // org-mode's cookies.
    RepeatRow("x +1w", "FREQ=WEEKLY", kinds: "title repeat"),
    RepeatRow("x ++1m", "FREQ=MONTHLY", .dueFuture),
    RepeatRow("x .+3d", "FREQ=DAILY;INTERVAL=3", .completion),
    RepeatRow("x +2y", "FREQ=YEARLY;INTERVAL=2"),
    RepeatRow("x .+1W", "FREQ=WEEKLY", .completion),
    // With a due, around it.
    RepeatRow("Pay rent ^dec 1 every month", "FREQ=MONTHLY", title: "Pay rent", due: "2026-12-01", kinds: "title title due repeat"),
    RepeatRow("every fri ^fri 5pm standup", "FREQ=WEEKLY;BYDAY=FR", title: "standup", due: "2026-11-27T17:00:00+01:00",
              kinds: "repeat due title"),
    RepeatRow("^tomorrow every day x", "FREQ=DAILY", due: "2026-11-26"),
]

let repeatWarnings: [RepeatRow] = [
    // Not a repeat: the title keeps the words.
    RepeatRow("Read every book", nil, title: "Read every book", kinds: "title title title"),
    RepeatRow("every", nil, title: "every"),
    RepeatRow("x every one", nil, title: "x every one"),
    RepeatRow("x \\every day", nil, title: "x every day", kinds: "title escape title"),
    RepeatRow("x \\+1w", nil, title: "x +1w", kinds: "title escape"),
    RepeatRow("C++ +1 +1h ++ .+ +w x", nil, title: "C++ +1 +1h ++ .+ +w x"),
    // Broken repeats: a warning, no rule, the words taken.
    RepeatRow("x every 3 fortnights", nil, title: "x fortnights", warnings: [.unknownRepeat], messages: ["every 3 needs a unit"],
              kinds: "title repeat title"),
    RepeatRow("x every 3", nil, warnings: [.unknownRepeat], messages: ["every 3 needs a unit"]),
    RepeatRow("x every 2 hours", nil, warnings: [.unknownRepeat], messages: ["repeats by hours are not supported"]),
    RepeatRow("x every 0 days", nil, warnings: [.unknownRepeat], messages: ["every 0 days: repeat every 1 to 1000 units"]),
    RepeatRow("x every 1001 days", nil, warnings: [.unknownRepeat], messages: ["repeat every 1 to 1000"]),
    RepeatRow("x +0d", nil, warnings: [.unknownRepeat], messages: ["+0d: repeat every 1 to 1000"]),
    RepeatRow("x every month on the 32nd", nil, warnings: [.unknownRepeat], messages: ["32nd is not a day of the month"]),
    RepeatRow("x every month on the last", nil, warnings: [.unknownRepeat], messages: ["last needs day or a weekday"]),
    RepeatRow("x every month on the 6th fri", "FREQ=MONTHLY;BYMONTHDAY=6", title: "x fri"),
    RepeatRow("x every month on the 15th and the last fri", nil, warnings: [.unknownRepeat],
              messages: ["cannot be mixed"]),
    RepeatRow("x every mon,fun", nil, warnings: [.unknownRepeat], messages: ["fun is not a weekday"]),
    RepeatRow("x every year on feb 30", nil, warnings: [.unknownRepeat], messages: ["every year on feb 30 is not a date"]),
    RepeatRow("x every year on dec", nil, warnings: [.unknownRepeat], messages: ["needs a day of the month"]),
    // Twice: the last one counts.
    RepeatRow("x every day every week", "FREQ=WEEKLY", warnings: [.replaced], messages: ["replaced by every week"]),
    RepeatRow("x +1d ++1w", "FREQ=WEEKLY", .dueFuture, warnings: [.replaced]),
]

@Test(arguments: repeatForms + repeatWarnings)
func repeatPhrasesRead(_ row: RepeatRow) throws {
    let parsed = ItemGrammar.parse(row.text, clock: clock(), lists: .known(directory))
    #expect(parsed.repeat?.rrule == row.rule)
    if row.rule != nil { #expect(parsed.repeat?.anchor == row.anchor) }
    #expect(parsed.title == row.title)
    if row.due == nil, let rule = parsed.repeat {
        // No due phrase: the due is the rule's first day on or after today (`defaultDues` checks it by hand).
        #expect(written(parsed.due) == rule.firstOccurrence(onOrAfter: clock().today)?.iso8601)
        #expect(written(parsed.due) != nil, "a repeat gives a due")
    } else {
        #expect(written(parsed.due) == row.due)
    }
    #expect(parsed.warnings.map(\.reason) == row.warnings, "\(parsed.warnings.map(\.message))")
    for (warning, message) in zip(parsed.warnings, row.messages) {
        #expect(warning.message.contains(message), "\(warning.message)")
    }
    if let kinds = row.kinds { #expect(parsed.spans.map(\.kind.rawValue).joined(separator: " ") == kinds) }
    checkSpans(row.text, parsed.spans, parsed.warnings)
    // A repeat span's value is the rule; a broken one's is none.
    for span in parsed.spans where span.kind == .repeat {
        if case .repeat(let rule)? = span.value {
            #expect(try RepeatRule(rrule: rule.rrule, anchor: rule.anchor) == rule)
        } else {
            #expect(span.value == nil)
            #expect(parsed.warnings.contains { $0.range == span.range && $0.reason == .unknownRepeat })
        }
    }
}

/// The rule a phrase reads repeats as the phrase says: its next dues from the line's own due.
@Test func aPhrasesRuleGivesTheDatesItSays() throws {
    let zone = ZoneRules("Europe/Paris")
    func dues(_ text: String, count: Int) throws -> [String] {
        let parsed = ItemGrammar.parse(text, clock: clock(), lists: .known(directory))
        let rule = try #require(parsed.repeat, "\(text): no repeat")
        var due = try #require(parsed.due?.due, "\(text): no due")
        var found: [String] = []
        for occurrence in 1...count {
            guard let next = rule.next(after: due, completedAt: instant("2026-11-25T10:00:00Z"), today: clock().today,
                                       zone: zone, occurrence: occurrence) else { break }
            found.append(next.iso8601)
            due = next
        }
        return found
    }
    #expect(try dues("rent ^dec 1 every month on the 1st", count: 3) == ["2027-01-01", "2027-02-01", "2027-03-01"])
    #expect(try dues("review ^fri every month on the last fri", count: 3) == ["2026-12-25", "2027-01-29", "2027-02-26"])
    #expect(try dues("gym ^mon 7am every 2 weeks on mon,wed", count: 4)
            == ["2026-12-02T07:00:00+01:00", "2026-12-14T07:00:00+01:00", "2026-12-16T07:00:00+01:00", "2026-12-28T07:00:00+01:00"])
    #expect(try dues("standup ^fri 9:00 every weekday", count: 3)
            == ["2026-11-30T09:00:00+01:00", "2026-12-01T09:00:00+01:00", "2026-12-02T09:00:00+01:00"])
    #expect(try dues("plants ^today every 3 days after done", count: 1) == ["2026-11-28"])
}

/// A repeat phrase without a due phrase: the due is the rule's first day on or after today (Wednesday 2026-11-25),
/// worked out by hand; with a due phrase it is the phrase's, and `due:none` stays none.
@Test(arguments: [
    ("x every day", "2026-11-25"),
    ("x every mon", "2026-11-30"),
    ("x every wed", "2026-11-25"),
    ("x every weekend", "2026-11-28"),
    ("x every month on the 15th", "2026-12-15"),
    ("x every month on the last day", "2026-11-30"),
    ("x every month on the last fri", "2026-11-27"),
    ("x every year on dec 25", "2026-12-25"),
    ("x every year on jan 1", "2027-01-01"),
    ("x every 3 days after done", "2026-11-25"),
    ("x +1w", "2026-11-25"),
    ("x every day ^fri", "2026-11-27"),
    ("x every day due:none", "none"),
])
func defaultDues(_ text: String, _ due: String) {
    let parsed = ItemGrammar.parse(text, clock: clock(), lists: .known(directory))
    #expect(parsed.repeat != nil)
    #expect(written(parsed.due) == due)
}
