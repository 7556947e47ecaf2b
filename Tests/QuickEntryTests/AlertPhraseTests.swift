/// The item grammar's alert phrases, form by form: input → alerts, title, due, spans and warnings. The clock is
/// Wednesday 2026-11-25, 11:00 in Paris (UTC+01:00), as in the transcripts.

import Domain
import Foundation
import QuickEntry
import Testing

/// One row: what a line must give.
struct AlertRow: CustomTestStringConvertible, Sendable {
    var text: String
    /// The alerts, nil when the line gives none.
    var alerts: [Alert]?
    var title: String?
    var due: String?
    var warnings: [WarningReason] = []
    /// Text each warning's message must contain, in order (when given).
    var messages: [String] = []
    /// The spans' kinds, space separated (when given).
    var kinds: String?

    init(_ text: String, _ alerts: [Alert]?, title: String? = "x", due: String? = nil, warnings: [WarningReason] = [],
         messages: [String] = [], kinds: String? = nil) {
        (self.text, self.alerts, self.title, self.due) = (text, alerts, title, due)
        (self.warnings, self.messages, self.kinds) = (warnings, messages, kinds)
    }

    var testDescription: String { text }
}

/// `{"offset": minutes}`.
private func offset(_ minutes: Int) -> Alert { .offset(minutes: minutes) }

/// `{"at": instant}`.
private func at(_ text: String) -> Alert { .at(instant(text)) }

let alertForms: [AlertRow] = [
    // Before the due.
    AlertRow("x remind 1h before", [offset(-60)], kinds: "title alert"),
    AlertRow("Remind 1H Before x", [offset(-60)], kinds: "alert title"),
    AlertRow("x remind 30m before", [offset(-30)]),
    AlertRow("x remind 30min before", [offset(-30)]),
    AlertRow("x remind 30 min before", [offset(-30)], kinds: "title alert"),
    AlertRow("x remind 5 mins before", [offset(-5)]),
    AlertRow("x remind 1 minute before", [offset(-1)]),
    AlertRow("x remind 45 minutes before", [offset(-45)]),
    AlertRow("x remind 1 hour before", [offset(-60)]),
    AlertRow("x remind 3 hours before", [offset(-180)]),
    AlertRow("x remind 2hr before", [offset(-120)]),
    AlertRow("x remind 2 hrs before", [offset(-120)]),
    AlertRow("x remind 1d before", [offset(-1440)]),
    AlertRow("x remind 2 days before", [offset(-2880)]),
    AlertRow("x remind 1 day before", [offset(-1440)]),
    AlertRow("x remind 1w before", [offset(-10_080)]),
    AlertRow("x remind 2 weeks before", [offset(-20_160)]),
    AlertRow("x remind 0m before", [offset(0)]),
    AlertRow("x remind 366 days before", [offset(-527_040)]),
    AlertRow("x ^fri 17:00 remind 1h before", [offset(-60)], due: "2026-11-27T17:00:00+01:00", kinds: "title due alert"),
    AlertRow("x ^fri remind 1h before", [offset(-60)], due: "2026-11-27"),
    // A wall-clock time on the due's day.
    AlertRow("x remind at 9:00", [offset(540)], kinds: "title alert"),
    AlertRow("x ^fri remind at 9:00", [offset(540)], due: "2026-11-27", kinds: "title due alert"),
    AlertRow("x remind at 9am ^fri", [offset(540)], due: "2026-11-27", kinds: "title alert due"),
    AlertRow("x remind at 9 am ^fri", [offset(540)], due: "2026-11-27", kinds: "title alert due"),
    AlertRow("x ^fri remind at 0:00", [offset(0)], due: "2026-11-27"),
    AlertRow("x ^fri remind at 23:59", [offset(1439)], due: "2026-11-27"),
    AlertRow("x ^fri 17:00 remind at 9:00", [offset(-480)], due: "2026-11-27T17:00:00+01:00"),
    AlertRow("x remind at 9:00 ^fri 17:00", [offset(-480)], due: "2026-11-27T17:00:00+01:00"),
    AlertRow("x ^fri 8:00 remind at 6pm", [offset(600)], due: "2026-11-27T08:00:00+01:00"),
    // 9:00 on the client's clock: the due is 13:00 in Paris.
    AlertRow("x ^2026-12-01T17:00+05:00 remind at 9:00", [offset(-240)], due: "2026-12-01T17:00:00+05:00"),
    AlertRow("x every day remind at 9:00", [offset(540)], due: "2026-11-25", kinds: "title repeat alert"),
    // Days before, at a time.
    AlertRow("x ^fri remind the day before at 18:00", [offset(-360)], due: "2026-11-27", kinds: "title due alert"),
    AlertRow("x ^fri remind the day before", [offset(-1440)], due: "2026-11-27"),
    AlertRow("x ^fri remind 2 days before at 18:00", [offset(-1440 * 2 + 1080)], due: "2026-11-27"),
    AlertRow("x ^fri remind 1 week before at 9am", [offset(-10_080 + 540)], due: "2026-11-27"),
    AlertRow("x ^fri 17:00 remind the day before at 18:00", [offset(-1380)], due: "2026-11-27T17:00:00+01:00"),
    AlertRow("x ^fri remind the day before at home", [offset(-1440)], title: "x at home", due: "2026-11-27",
             kinds: "title due alert title title"),
    // Across the night the clocks go forward (2027-03-28 in Paris): the wall-clock reading, not 24 hours.
    AlertRow("x ^2027-03-28 17:00 remind the day before at 18:00", [offset(-22 * 60)], due: "2027-03-28T17:00:00+02:00"),
    AlertRow("x ^2027-03-28 remind the day before at 18:00", [offset(-360)], due: "2027-03-28"),
    // At an instant: a due phrase with a time.
    AlertRow("x remind fri 9:00", [at("2026-11-27T08:00:00Z")], kinds: "title alert"),
    AlertRow("x remind tomorrow 8:30", [at("2026-11-26T07:30:00Z")]),
    AlertRow("x remind 2026-12-01 9:00", [at("2026-12-01T08:00:00Z")]),
    AlertRow("x remind dec 1 5pm", [at("2026-12-01T16:00:00Z")]),
    AlertRow("x remind 2026-12-01T17:00+05:00", [at("2026-12-01T12:00:00Z")]),
    AlertRow("x remind 2026-12-01T17:00", [at("2026-12-01T16:00:00Z")]),
    AlertRow("x remind 3d 9:00", [at("2026-11-28T08:00:00Z")]),
    AlertRow("x remind 9am", [at("2026-11-26T08:00:00Z")]),
    AlertRow("x remind 5pm", [at("2026-11-25T16:00:00Z")]),
    AlertRow("x ^fri remind tomorrow 8:30", [at("2026-11-26T07:30:00Z")], due: "2026-11-27"),
    AlertRow("x remind 2027-03-28 2:30", [at("2027-03-28T01:30:00Z")], warnings: [.skippedTime],
             messages: ["02:30 does not exist on 2027-03-28 in Europe/Paris (the clocks go forward); 03:30 is used"]),
    // None.
    AlertRow("x remind none", [], kinds: "title alert"),
    AlertRow("x remind off", []),
    AlertRow("x Remind NONE", []),
    // Several: in order, repeats dropped; `remind none` drops the ones before it.
    AlertRow("x remind 1h before remind at 9:00", [offset(-60), offset(540)], kinds: "title alert alert"),
    AlertRow("x remind at 9:00 remind 1h before", [offset(540), offset(-60)]),
    AlertRow("x remind 1h before remind 60 min before", [offset(-60)]),
    AlertRow("x remind fri 9:00 remind 1 day before remind fri 9am", [at("2026-11-27T08:00:00Z"), offset(-1440)]),
    AlertRow("x remind 1h before remind none", [], warnings: [.replaced], messages: ["replaced by remind none, later in the text"]),
    AlertRow("x remind 1h before remind 1h before remind off", [], warnings: [.replaced, .replaced]),
    AlertRow("x remind none remind 1h before", [offset(-60)]),
    AlertRow("x remind 1h before remind none remind at 9:00", [offset(540)], warnings: [.replaced]),
    // Among the other fields.
    AlertRow("Call Bob ^fri 5pm remind 1h before !high #work // about the quote", [offset(-60)], title: "Call Bob",
             due: "2026-11-27T17:00:00+01:00", kinds: "title title due alert priority tag notes"),
]

let alertRefusals: [AlertRow] = [
    // Not an alert: `remind` is a title word, and so are the words after it.
    AlertRow("Remind Bob", nil, title: "Remind Bob", kinds: "title title"),
    AlertRow("remind", nil, title: "remind"),
    AlertRow("x remind", nil, title: "x remind"),
    AlertRow("x remind me tomorrow", nil, title: "x remind me tomorrow"),
    AlertRow("x remind at home", nil, title: "x remind at home"),
    AlertRow("x remind at 9", nil, title: "x remind at 9"),
    AlertRow("x remind the team", nil, title: "x remind the team"),
    AlertRow("x remind 5 people", nil, title: "x remind 5 people"),
    AlertRow("x remind - now", nil, title: "x remind - now"),
    AlertRow("x remind fryday 9:00", nil, title: "x remind fryday 9:00"),
    AlertRow("x remind ^fri", nil, title: "x remind", due: "2026-11-27", kinds: "title title due"),
    // Escaped: text.
    AlertRow("x \\remind 1h before", nil, title: "x remind 1h before", kinds: "title escape title title"),
    AlertRow("x \\Remind none", nil, title: "x Remind none", kinds: "title escape title"),
    // Broken alerts: a warning, no alert, the words taken.
    AlertRow("x remind fri", nil, warnings: [.unknownAlert], messages: ["remind fri needs a time: remind fri 9:00"],
             kinds: "title alert"),
    AlertRow("x remind tomorrow", nil, warnings: [.unknownAlert], messages: ["remind tomorrow needs a time"]),
    AlertRow("x remind 2026-12-01", nil, warnings: [.unknownAlert], messages: ["needs a time"]),
    AlertRow("x remind 3d", nil, warnings: [.unknownAlert], messages: ["remind 3d needs before: remind 3d before"]),
    AlertRow("x remind 1h", nil, warnings: [.unknownAlert], messages: ["remind 1h needs before: remind 1h before"]),
    AlertRow("x remind 2 days", nil, warnings: [.unknownAlert], messages: ["remind 2 days needs before"], kinds: "title alert"),
    AlertRow("x remind 1h after", nil, title: "x after", warnings: [.unknownAlert], messages: ["needs before"],
             kinds: "title alert title"),
    AlertRow("x remind the day", nil, warnings: [.unknownAlert], messages: ["remind the day needs before"]),
    AlertRow("x remind the day after", nil, title: "x after", warnings: [.unknownAlert], kinds: "title alert title"),
    AlertRow("x remind at 25:00", nil, warnings: [.unknownAlert], messages: ["25:00 is not a time of day"]),
    AlertRow("x remind at 13pm", nil, warnings: [.unknownAlert], messages: ["13pm is not a time"]),
    AlertRow("x remind fri 25:00", nil, warnings: [.unknownAlert], messages: ["25:00 is not a time of day"], kinds: "title alert"),
    AlertRow("x remind dec 32 9:00", nil, title: "x 9:00", warnings: [.unknownAlert], messages: ["dec 32 is not a date"]),
    AlertRow("x remind next fri", nil, title: "x fri", warnings: [.unknownAlert], messages: ["next needs week"]),
    AlertRow("x remind 367 days before", nil, warnings: [.unknownAlert], messages: ["at most 366 days from the due"]),
    AlertRow("x remind 53 weeks before", nil, warnings: [.unknownAlert], messages: ["at most 366 days"]),
    AlertRow("x remind 999999 minutes before", nil, warnings: [.unknownAlert], messages: ["at most 366 days"]),
    AlertRow("x ^fri remind 367 days before at 9:00", nil, due: "2026-11-27", warnings: [.unknownAlert],
             messages: ["remind 367 days before at 9:00: an alert is at most 366 days from the due"]),
    AlertRow("x remind 1h before at 9:00", nil, warnings: [.unknownAlert], messages: ["only days or weeks before take a time"]),
    AlertRow("x remind 1 day before at 25:00", nil, warnings: [.unknownAlert], messages: ["25:00 is not a time of day"]),
    // A broken one among good ones: the good ones count.
    AlertRow("x remind 1h remind at 9:00", [offset(540)], warnings: [.unknownAlert]),
]

@Test(arguments: alertForms + alertRefusals)
func alertPhrasesRead(_ row: AlertRow) {
    let parsed = ItemGrammar.parse(row.text, clock: clock(), lists: .known(directory))
    #expect(parsed.alerts == row.alerts)
    #expect(parsed.title == row.title)
    #expect(written(parsed.due) == row.due)
    #expect(parsed.warnings.map(\.reason) == row.warnings, "\(parsed.warnings.map(\.message))")
    for (warning, message) in zip(parsed.warnings, row.messages) {
        #expect(warning.message.contains(message), "\(warning.message)")
    }
    if let kinds = row.kinds { #expect(parsed.spans.map(\.kind.rawValue).joined(separator: " ") == kinds) }
    checkSpans(row.text, parsed.spans, parsed.warnings)
    // An alert span's value is the alert it gave, or none for `remind none`; a broken one's is none, and warned.
    var given: [Alert] = []
    for span in parsed.spans where span.kind == .alert {
        switch span.value {
        case .alerts(let alerts)?:
            #expect(alerts.count <= 1)
            given = alerts.isEmpty ? [] : given + alerts.filter { !given.contains($0) }
        case nil:
            #expect(parsed.warnings.contains { $0.range == span.range && $0.reason == .unknownAlert })
        default:
            Issue.record("an alert span's value is \(String(describing: span.value))")
        }
    }
    // The spans' values, cleared at `remind none` and without repeats, are the alerts.
    #expect(given == (parsed.alerts ?? []))
}

extension ZoneRules: AlertZone {}

/// What the server does with a line's alert, checked against Foundation's calendar: an item due as the line says
/// fires the line's alert when the wall clock in the zone reads the time the phrase names, in zones with daylight
/// saving and odd offsets, on days the clocks change.
@Test(arguments: ["Europe/Paris", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "Pacific/Chatham"])
func anAlertFiresWhenTheWallClockReadsWhatThePhraseSays(zoneName: String) throws {
    let zone = ZoneRules(zoneName)
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone.zone
    /// The instant the wall clock reads `hour`:`minute` on `date` (the first, for a reading shown twice).
    func wallClock(_ date: CalendarDate, _ hour: Int, _ minute: Int) throws -> Timestamp {
        let found = try #require(calendar.date(from: DateComponents(year: date.year, month: date.month, day: date.day,
                                                                    hour: hour, minute: minute)))
        return Timestamp(milliseconds: Int64((found.timeIntervalSince1970 * 1000).rounded()))
    }
    var checked = 0
    // Each day from 2026-12-01 for a year and a half, so both of each zone's daylight saving changes are in it.
    let start = try #require(CalendarDate(year: 2026, month: 12, day: 1))
    for step in stride(from: 0, to: 540, by: 3) {
        let day = CalendarDate(daysSinceEpoch: start.daysSinceEpoch + Int64(step))
        let local = ClientClock(now: instant("2026-11-25T10:00:00Z"), zone: zone)
        for (phrase, daysBefore, hour, minute) in [("remind at 9:00", 0, 9, 0), ("remind the day before at 18:00", 1, 18, 0),
                                                   ("remind 2 days before at 7:30am", 2, 7, 30)] {
            let fireDay = CalendarDate(daysSinceEpoch: day.daysSinceEpoch - Int64(daysBefore))
            let expected = try wallClock(fireDay, hour, minute)
            for dueText in [day.iso8601, day.iso8601 + " 17:00"] {
                let parsed = ItemGrammar.parse("x ^\(dueText) \(phrase)", clock: local, lists: .known(directory))
                let alert = try #require(parsed.alerts?.first, "x ^\(dueText) \(phrase)")
                #expect(alert.fireInstant(due: parsed.due?.due, zone: zone) == expected, "x ^\(dueText) \(phrase) in \(zoneName)")
                checked += 1
            }
        }
    }
    #expect(checked == 180 * 3 * 2)
}

/// An alert as protocol.md writes it: `{"offset": -60}`, `{"at": "2026-11-27T08:00:00.000Z"}`; `[]` for none.
private func documented(_ alerts: [Alert]?) -> String? {
    guard let alerts else { return nil }
    guard let alert = alerts.first, alerts.count == 1 else { return alerts.isEmpty ? "[]" : "\(alerts)" }
    switch alert {
    case .offset(let minutes): return "{\"offset\": \(minutes)}"
    case .at(let instant): return "{\"at\": \"\(instant.iso8601)\"}"
    }
}

@Test func theAlertPhraseExamplesOfProtocolMdAreWhatTheGrammarReads() throws {
    let found = examples(try section("### Alert phrases"))
    #expect(found.count >= 12, "only \(found.count) examples found")
    for (phrase, result) in found {
        let parsed = ItemGrammar.parse("x " + phrase, clock: clock(), lists: .known(directory))
        #expect(documented(parsed.alerts) == result, "protocol.md: `\(phrase)` → `\(result)`")
        #expect(parsed.warnings.isEmpty, "protocol.md: `\(phrase)`: \(parsed.warnings.map(\.message))")
    }
}
