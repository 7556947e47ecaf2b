/// Dues across daylight saving changes and year ends, in the client's zone: a time is written with the zone's
/// offset at that instant; a time the clocks skip is the time after the gap, warned about; a time they show
/// twice is the first.

import Domain
import QuickEntry
import Testing

struct EdgeRow: CustomTestStringConvertible, Sendable {
    var now: String
    var zone: String
    var text: String
    var due: String
    var warnings: [WarningReason] = []

    var testDescription: String { "\(text) at \(now) in \(zone)" }
}

let daylightSaving: [EdgeRow] = [
    // Paris: 2027-03-28 02:00 → 03:00 (+01:00 → +02:00); 2026-10-25 03:00 → 02:00 (+02:00 → +01:00).
    EdgeRow(now: "2027-03-27T10:00:00Z", zone: "Europe/Paris", text: "^tomorrow 9:30", due: "2027-03-28T09:30:00+02:00"),
    EdgeRow(now: "2027-03-27T10:00:00Z", zone: "Europe/Paris", text: "^tomorrow 1:30", due: "2027-03-28T01:30:00+01:00"),
    EdgeRow(now: "2027-03-27T10:00:00Z", zone: "Europe/Paris", text: "^tomorrow 2:30", due: "2027-03-28T03:30:00+02:00",
            warnings: [.skippedTime]),
    EdgeRow(now: "2027-03-27T10:00:00Z", zone: "Europe/Paris", text: "^tomorrow 2:00", due: "2027-03-28T03:00:00+02:00",
            warnings: [.skippedTime]),
    EdgeRow(now: "2027-03-27T10:00:00Z", zone: "Europe/Paris", text: "^tomorrow 3:00", due: "2027-03-28T03:00:00+02:00"),
    EdgeRow(now: "2027-03-27T10:00:00Z", zone: "Europe/Paris", text: "^+1 5pm", due: "2027-03-28T17:00:00+02:00"),
    EdgeRow(now: "2027-03-27T10:00:00Z", zone: "Europe/Paris", text: "^tomorrow", due: "2027-03-28"),
    EdgeRow(now: "2026-10-24T10:00:00Z", zone: "Europe/Paris", text: "^tomorrow 2:30", due: "2026-10-25T02:30:00+02:00"),
    EdgeRow(now: "2026-10-24T10:00:00Z", zone: "Europe/Paris", text: "^tomorrow 3:00", due: "2026-10-25T03:00:00+01:00"),
    EdgeRow(now: "2026-10-24T10:00:00Z", zone: "Europe/Paris", text: "^tomorrow 9:30", due: "2026-10-25T09:30:00+01:00"),
    EdgeRow(now: "2026-10-24T10:00:00Z", zone: "Europe/Paris", text: "^today 9pm", due: "2026-10-24T21:00:00+02:00"),
    // New York: 2027-03-14 02:00 → 03:00 (-05:00 → -04:00).
    EdgeRow(now: "2027-03-13T15:00:00Z", zone: "America/New_York", text: "^tomorrow 2:15am", due: "2027-03-14T03:15:00-04:00",
            warnings: [.skippedTime]),
    EdgeRow(now: "2027-03-13T15:00:00Z", zone: "America/New_York", text: "^sun 8am", due: "2027-03-14T08:00:00-04:00"),
    // Lord Howe moves by half an hour: 2026-10-04 02:00 → 02:30 (+10:30 → +11:00).
    EdgeRow(now: "2026-10-03T01:00:00Z", zone: "Australia/Lord_Howe", text: "^tomorrow 2:15", due: "2026-10-04T02:45:00+11:00",
            warnings: [.skippedTime]),
    EdgeRow(now: "2026-10-03T01:00:00Z", zone: "Australia/Lord_Howe", text: "^tomorrow 2:30", due: "2026-10-04T02:30:00+11:00"),
    // The day itself follows the zone: 23:30 in Paris on the last day of March 2027 is already +02:00.
    EdgeRow(now: "2027-03-31T21:30:00Z", zone: "Europe/Paris", text: "^today", due: "2027-03-31"),
    // A zone without offset writes Z.
    EdgeRow(now: "2026-11-25T10:00:00Z", zone: "UTC", text: "^5pm", due: "2026-11-25T17:00:00Z"),
    EdgeRow(now: "2026-11-25T10:00:00Z", zone: "Europe/London", text: "^5pm", due: "2026-11-25T17:00:00Z"),
    EdgeRow(now: "2026-07-25T10:00:00Z", zone: "Europe/London", text: "^5pm", due: "2026-07-25T17:00:00+01:00"),
    EdgeRow(now: "2026-11-25T10:00:00Z", zone: "Asia/Kolkata", text: "^5pm", due: "2026-11-25T17:00:00+05:30"),
]

let yearEnds: [EdgeRow] = [
    // 2026-12-31T22:30Z: 23:30 on Thursday 31 December in Paris, already 11:30 on Friday 1 January 2027 in Auckland.
    EdgeRow(now: "2026-12-31T22:30:00Z", zone: "Europe/Paris", text: "^today", due: "2026-12-31"),
    EdgeRow(now: "2026-12-31T22:30:00Z", zone: "Europe/Paris", text: "^tomorrow", due: "2027-01-01"),
    EdgeRow(now: "2026-12-31T22:30:00Z", zone: "Europe/Paris", text: "^jan 1", due: "2027-01-01"),
    EdgeRow(now: "2026-12-31T22:30:00Z", zone: "Europe/Paris", text: "^dec 31", due: "2026-12-31"),
    EdgeRow(now: "2026-12-31T22:30:00Z", zone: "Europe/Paris", text: "^dec 30", due: "2027-12-30"),
    EdgeRow(now: "2026-12-31T22:30:00Z", zone: "Europe/Paris", text: "^next week", due: "2027-01-04"),
    EdgeRow(now: "2026-12-31T22:30:00Z", zone: "Europe/Paris", text: "^fri", due: "2027-01-01"),
    EdgeRow(now: "2026-12-31T22:30:00Z", zone: "Europe/Paris", text: "^thu", due: "2027-01-07"),
    EdgeRow(now: "2026-12-31T22:30:00Z", zone: "Europe/Paris", text: "^+1m", due: "2027-01-31"),
    EdgeRow(now: "2026-12-31T22:30:00Z", zone: "Europe/Paris", text: "^in 2 months", due: "2027-02-28"),
    EdgeRow(now: "2026-12-31T22:30:00Z", zone: "Europe/Paris", text: "^11pm", due: "2027-01-01T23:00:00+01:00"),
    EdgeRow(now: "2026-12-31T22:30:00Z", zone: "Europe/Paris", text: "^23:45", due: "2026-12-31T23:45:00+01:00"),
    EdgeRow(now: "2026-12-31T22:30:00Z", zone: "Pacific/Auckland", text: "^today", due: "2027-01-01"),
    EdgeRow(now: "2026-12-31T22:30:00Z", zone: "Pacific/Auckland", text: "^dec 31", due: "2027-12-31"),
    EdgeRow(now: "2026-12-31T22:30:00Z", zone: "Pacific/Auckland", text: "^fri", due: "2027-01-08"),
    EdgeRow(now: "2026-12-31T22:30:00Z", zone: "Pacific/Auckland", text: "^5pm", due: "2027-01-01T17:00:00+13:00"),
    EdgeRow(now: "2026-12-31T22:30:00Z", zone: "America/Los_Angeles", text: "^today", due: "2026-12-31"),
    EdgeRow(now: "2026-12-31T22:30:00Z", zone: "America/Los_Angeles", text: "^tomorrow 9am", due: "2027-01-01T09:00:00-08:00"),
    // Leap years: 29 February comes back every four years; a month on from 31 January is its last day.
    EdgeRow(now: "2027-03-01T12:00:00Z", zone: "UTC", text: "^feb 29", due: "2028-02-29"),
    EdgeRow(now: "2028-01-31T12:00:00Z", zone: "UTC", text: "^+1m", due: "2028-02-29"),
    EdgeRow(now: "2028-02-29T12:00:00Z", zone: "UTC", text: "^feb 29", due: "2028-02-29"),
    EdgeRow(now: "2028-02-29T12:00:00Z", zone: "UTC", text: "^+12m", due: "2029-02-28"),
    EdgeRow(now: "9999-12-30T12:00:00Z", zone: "UTC", text: "^tomorrow", due: "9999-12-31"),
]

@Test(arguments: daylightSaving + yearEnds)
func dueTimesFollowTheClientsZone(_ row: EdgeRow) {
    let parsed = ItemGrammar.parse("x " + row.text, clock: clock(row.now, row.zone), lists: .known(directory))
    #expect(written(parsed.due) == row.due)
    #expect(parsed.warnings.map(\.reason) == row.warnings, "\(parsed.warnings.map(\.message))")
}

@Test func aSkippedTimeSaysWhatItUsedInstead() {
    let parsed = ItemGrammar.parse("x ^tomorrow 2:30", clock: clock("2027-03-27T10:00:00Z"), lists: .known(directory))
    #expect(parsed.warnings.map(\.message) == [
        "02:30 does not exist on 2027-03-28 in Europe/Paris (the clocks go forward); 03:30 is used",
    ])
}

@Test func theLastDayThereIsHasNoTomorrow() {
    let parsed = ItemGrammar.parse("x ^tomorrow", clock: clock("9999-12-31T12:00:00Z", "UTC"), lists: .known(directory))
    #expect(parsed.due == nil)
    #expect(parsed.warnings.map(\.message) == ["that date is past 9999-12-31"])
}

@Test func listsThatCannotBeReadAreWarnedAboutAndEverythingElseIsRead() {
    let parsed = ItemGrammar.parse("Buy milk @Groceries ^fri", clock: clock(), lists: .unavailable(reason: "the store is still loading"))
    #expect(parsed.title == "Buy milk")
    #expect(parsed.list == nil)
    #expect(written(parsed.due) == "2026-11-27")
    #expect(parsed.warnings.map(\.reason) == [.listsUnavailable])
    #expect(parsed.warnings.first?.message == "the store is still loading: @Groceries was not looked up")
    #expect(parsed.spans.map(\.kind) == [.title, .title, .list, .due])
}
