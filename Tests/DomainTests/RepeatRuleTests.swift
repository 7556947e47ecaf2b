// RepeatRule: RRULE text read and written back (tables), what is refused and why, and next dues at the calendar's
// edges: month ends, 29 February, numbered weekdays, intervals across a month end, daylight saving in Berlin and
// New York, a day vs a time, rules that ended, and completing late with each anchor.

import Foundation
import Testing
@testable import Domain

/// A real zone from Foundation's database (the domain never reads one; the server passes it in).
struct FoundationZone: ZoneOffsets {
    let zone: TimeZone

    init(_ identifier: String) { zone = TimeZone(identifier: identifier)! }

    func offsetSeconds(at instant: Timestamp) -> Int {
        zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant.milliseconds) / 1000))
    }
}

/// The instant an ISO 8601 date-time names.
private func instant(_ text: String) -> Timestamp {
    guard case .dateTime(let instant, _) = try! Due(parsing: text) else { fatalError("not an instant: \(text)") }
    return instant
}

private func date(_ text: String) -> CalendarDate {
    guard case .date(let date) = try! Due(parsing: text) else { fatalError("not a date: \(text)") }
    return date
}

struct RepeatRuleTextTests {
    /// Text → canonical text.
    @Test(arguments: [
        ("FREQ=DAILY", "FREQ=DAILY"),
        ("freq=daily;interval=1", "FREQ=DAILY"),
        ("FREQ=WEEKLY;INTERVAL=2;BYDAY=WE,MO", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE"),
        ("BYDAY=MO,TU,WE,TH,FR;FREQ=WEEKLY", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"),
        ("FREQ=MONTHLY;BYMONTHDAY=15", "FREQ=MONTHLY;BYMONTHDAY=15"),
        ("FREQ=MONTHLY;BYMONTHDAY=-1,1,+15", "FREQ=MONTHLY;BYMONTHDAY=-1,1,15"),
        ("FREQ=MONTHLY;BYDAY=-1FR", "FREQ=MONTHLY;BYDAY=-1FR"),
        ("FREQ=MONTHLY;BYDAY=+2mo,1TU", "FREQ=MONTHLY;BYDAY=2MO,1TU"),
        ("FREQ=MONTHLY;BYMONTHDAY=13;BYDAY=FR", "FREQ=MONTHLY;BYMONTHDAY=13;BYDAY=FR"),
        ("FREQ=YEARLY;BYMONTH=11;BYDAY=4TH", "FREQ=YEARLY;BYMONTH=11;BYDAY=4TH"),
        ("FREQ=YEARLY;BYDAY=20MO", "FREQ=YEARLY;BYDAY=20MO"),
        ("FREQ=YEARLY;BYDAY=-53SU", "FREQ=YEARLY;BYDAY=-53SU"),
        ("FREQ=YEARLY;BYMONTH=6,1;BYMONTHDAY=1", "FREQ=YEARLY;BYMONTH=1,6;BYMONTHDAY=1"),
        ("FREQ=DAILY;BYMONTH=2;BYMONTHDAY=31", "FREQ=DAILY;BYMONTH=2;BYMONTHDAY=31"),
        ("FREQ=WEEKLY;WKST=SU;INTERVAL=2;BYDAY=SU,TU", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,SU;WKST=SU"),
        ("FREQ=WEEKLY;WKST=MO", "FREQ=WEEKLY"),
        ("FREQ=DAILY;COUNT=10", "FREQ=DAILY;COUNT=10"),
        ("FREQ=DAILY;COUNT=0010", "FREQ=DAILY;COUNT=10"),
        ("FREQ=DAILY;UNTIL=20261231", "FREQ=DAILY;UNTIL=20261231"),
        ("FREQ=DAILY;UNTIL=20261231t235959z", "FREQ=DAILY;UNTIL=20261231T235959Z"),
        ("FREQ=YEARLY;INTERVAL=1000", "FREQ=YEARLY;INTERVAL=1000"),
    ])
    func readsAndWritesBack(text: String, canonical: String) throws {
        let rule = try RepeatRule(rrule: text)
        #expect(rule.rrule == canonical)
        #expect(try RepeatRule(rrule: canonical) == rule)
        for anchor in RepeatRule.Anchor.allCases {
            let anchored = try RepeatRule(rrule: rule.rrule, anchor: anchor)
            #expect(anchored.anchor == anchor)
            #expect(try RepeatRule(rrule: anchored.rrule, anchor: anchored.anchor) == anchored)
        }
    }

    @Test func theTypedFieldsAreWhatTheTextSays() throws {
        let rule = try RepeatRule(rrule: "FREQ=MONTHLY;INTERVAL=3;BYDAY=-1FR,2MO;UNTIL=20271231T120000Z", anchor: .completion)
        #expect(rule.frequency == .monthly)
        #expect(rule.interval == 3)
        #expect(rule.weekdays == [RepeatRule.WeekdayRule(.friday, ordinal: -1), RepeatRule.WeekdayRule(.monday, ordinal: 2)])
        #expect(rule.end == .until(.instant(instant("2027-12-31T12:00:00Z"))))
        #expect(rule.anchor == .completion)
        let made = try RepeatRule(frequency: .monthly, interval: 3,
                                  weekdays: [.init(.monday, ordinal: 2), .init(.friday, ordinal: -1)],
                                  end: .until(.instant(instant("2027-12-31T12:00:00Z"))), anchor: .completion)
        #expect(made == rule)
    }

    /// Text → a phrase the problem must contain; the field is always `repeat.rule`.
    @Test(arguments: [
        ("", "is empty"),
        ("FREQ=DAILY;", "empty part"),
        (";FREQ=DAILY", "empty part"),
        ("FREQ=DAILY;;INTERVAL=2", "empty part"),
        ("INTERVAL=2", "FREQ is missing"),
        ("FREQ", "FREQ is not a NAME=VALUE part"),
        ("FREQ=", "FREQ has no value"),
        ("FREQ=FORTNIGHTLY", "FREQ=FORTNIGHTLY is not a frequency"),
        ("FREQ=HOURLY", "FREQ=HOURLY is not supported"),
        ("FREQ=MINUTELY", "FREQ=MINUTELY is not supported"),
        ("RRULE:FREQ=DAILY", "without RRULE:"),
        ("FREQ=DAILY;FREQ=WEEKLY", "FREQ is given twice"),
        ("FREQ=DAILY;INTERVAL=2;INTERVAL=3", "INTERVAL is given twice"),
        ("FREQ=DAILY;COLOR=RED", "COLOR is not an RRULE part"),
        ("FREQ=DAILY;BYSETPOS=-1", "BYSETPOS is not supported"),
        ("FREQ=DAILY;BYHOUR=9", "BYHOUR is not supported"),
        ("FREQ=DAILY;BYMINUTE=30", "BYMINUTE is not supported"),
        ("FREQ=DAILY;BYSECOND=0", "BYSECOND is not supported"),
        ("FREQ=YEARLY;BYWEEKNO=20", "BYWEEKNO is not supported"),
        ("FREQ=YEARLY;BYYEARDAY=100", "BYYEARDAY is not supported"),
        ("FREQ=DAILY;COUNT=3;UNTIL=20261231", "COUNT and UNTIL cannot both be given"),
        ("FREQ=DAILY;INTERVAL=0", "INTERVAL=0 is out of range"),
        ("FREQ=DAILY;INTERVAL=1001", "INTERVAL=1001 is out of range"),
        ("FREQ=DAILY;INTERVAL=-1", "INTERVAL=-1 is not a whole number"),
        ("FREQ=DAILY;INTERVAL=two", "INTERVAL=two is not a whole number"),
        ("FREQ=DAILY;INTERVAL=99999999", "INTERVAL=99999999 is not a whole number"),
        ("FREQ=DAILY;COUNT=0", "COUNT=0 is out of range"),
        ("FREQ=DAILY;COUNT=100001", "COUNT=100001 is out of range"),
        ("FREQ=DAILY;UNTIL=2026-12-31", "UNTIL=2026-12-31 is not a date"),
        ("FREQ=DAILY;UNTIL=20260231", "UNTIL=20260231 is not a calendar date"),
        ("FREQ=DAILY;UNTIL=20261231T235959", "must be in UTC"),
        ("FREQ=DAILY;UNTIL=20261231T245959Z", "time of day out of range"),
        ("FREQ=MONTHLY;BYMONTHDAY=0", "BYMONTHDAY=0 is out of range"),
        ("FREQ=MONTHLY;BYMONTHDAY=32", "BYMONTHDAY=32 is out of range"),
        ("FREQ=MONTHLY;BYMONTHDAY=-32", "BYMONTHDAY=-32 is out of range"),
        ("FREQ=MONTHLY;BYMONTHDAY=1,,2", "BYMONTHDAY=1,,2 has an empty entry"),
        ("FREQ=MONTHLY;BYMONTHDAY=1,1", "has 1 twice"),
        ("FREQ=YEARLY;BYMONTH=13", "BYMONTH=13 is out of range"),
        ("FREQ=YEARLY;BYMONTH=0", "BYMONTH=0 is out of range"),
        ("FREQ=WEEKLY;BYMONTHDAY=1", "BYMONTHDAY cannot be used with FREQ=WEEKLY"),
        ("FREQ=WEEKLY;BYDAY=XX", "BYDAY=XX is not a weekday"),
        ("FREQ=WEEKLY;BYDAY=MO,MO", "has MO twice"),
        ("FREQ=WEEKLY;BYDAY=2MO", "BYDAY=2MO: a numbered weekday needs FREQ=MONTHLY or FREQ=YEARLY"),
        ("FREQ=DAILY;BYDAY=-1FR", "BYDAY=-1FR: a numbered weekday needs"),
        ("FREQ=MONTHLY;BYDAY=6MO", "BYDAY=6MO is out of range: 1 to 5"),
        ("FREQ=MONTHLY;BYDAY=0MO", "BYDAY=0MO is out of range"),
        ("FREQ=YEARLY;BYMONTH=3;BYDAY=-6MO", "BYDAY=-6MO is out of range: 1 to 5"),
        ("FREQ=YEARLY;BYDAY=54MO", "BYDAY=54MO is out of range: 1 to 53"),
        ("FREQ=MONTHLY;BYDAY=1MO;BYMONTHDAY=1", "BYDAY=1MO with BYMONTHDAY is not supported"),
        ("FREQ=MONTHLY;BYDAY=1000MO", "BYDAY=1000MO is not a weekday"),
        ("FREQ=WEEKLY;WKST=XX", "WKST=XX is not a weekday"),
    ])
    func refuses(text: String, problem: String) {
        do {
            let rule = try RepeatRule(rrule: text)
            Issue.record("\(text) was read as \(rule.rrule)")
        } catch {
            guard case .invalidField(let field, let said) = error else {
                Issue.record("\(text): \(error)")
                return
            }
            #expect(field == "repeat.rule")
            #expect(said.contains(problem), "\(text): \(said)")
        }
    }

    @Test func anchorsAreReadByName() throws {
        for anchor in RepeatRule.Anchor.allCases { #expect(try RepeatRule.Anchor(parsing: anchor.rawValue) == anchor) }
        #expect(RepeatRule.Anchor.allCases.map(\.orgCookie) == ["+", "++", ".+"])
        #expect(throws: DomainError.invalidField(field: "repeat.from", problem: "later is not an anchor: due, dueFuture or completion")) {
            try RepeatRule.Anchor(parsing: "later")
        }
    }
}

/// The next due of `rrule` after `due`, written as the protocol writes dues; nil when the rule has ended.
private func next(_ rrule: String, _ anchor: RepeatRule.Anchor = .due, after due: String, done: String = "2026-11-25T10:00:00Z",
                  today: String = "2026-11-25", zone: String = "UTC", occurrence: Int = 1) throws -> String? {
    let rule = try RepeatRule(rrule: rrule, anchor: anchor)
    return rule.next(after: try Due(parsing: due), completedAt: instant(done), today: date(today), zone: FoundationZone(zone),
                     occurrence: occurrence)?.iso8601
}

struct RepeatRuleNextTests {
    /// (rule, due, next) with the `due` anchor in UTC.
    @Test(arguments: [
        // The 31st: a month without it is skipped, unless the rule says the last day.
        ("FREQ=MONTHLY", "2026-01-31", "2026-03-31"),
        ("FREQ=MONTHLY", "2026-03-31", "2026-05-31"),
        ("FREQ=MONTHLY;BYMONTHDAY=31", "2026-03-31", "2026-05-31"),
        ("FREQ=MONTHLY", "2026-01-30", "2026-03-30"),
        ("FREQ=MONTHLY", "2026-01-15", "2026-02-15"),
        ("FREQ=MONTHLY;BYMONTHDAY=-1", "2026-01-31", "2026-02-28"),
        ("FREQ=MONTHLY;BYMONTHDAY=-1", "2026-04-30", "2026-05-31"),
        ("FREQ=MONTHLY;BYMONTHDAY=-1", "2028-01-31", "2028-02-29"),
        ("FREQ=MONTHLY;BYMONTHDAY=1,15", "2026-11-15", "2026-12-01"),
        ("FREQ=MONTHLY;BYMONTHDAY=1,15", "2026-11-03", "2026-11-15"),
        ("FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=1,15", "2026-11-15", "2027-01-01"),
        // 29 February: leap years only, or the last day of February when asked.
        ("FREQ=YEARLY", "2028-02-29", "2032-02-29"),
        ("FREQ=YEARLY", "2096-02-29", "2104-02-29"),
        ("FREQ=YEARLY;INTERVAL=100", "2000-02-29", "2400-02-29"),
        ("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1", "2027-02-28", "2028-02-29"),
        ("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1", "2028-02-29", "2029-02-28"),
        ("FREQ=YEARLY", "2026-11-25", "2027-11-25"),
        // Numbered weekdays: the last Friday, the second Monday, Thanksgiving.
        ("FREQ=MONTHLY;BYDAY=-1FR", "2026-11-27", "2026-12-25"),
        ("FREQ=MONTHLY;BYDAY=-1FR", "2026-12-25", "2027-01-29"),
        ("FREQ=MONTHLY;BYDAY=-1FR", "2026-11-28", "2026-12-25"),
        ("FREQ=MONTHLY;BYDAY=2MO", "2026-11-09", "2026-12-14"),
        ("FREQ=MONTHLY;BYDAY=2MO", "2026-12-14", "2027-01-11"),
        ("FREQ=MONTHLY;BYDAY=5FR", "2026-10-30", "2027-01-29"),
        ("FREQ=YEARLY;BYMONTH=11;BYDAY=4TH", "2026-11-26", "2027-11-25"),
        ("FREQ=MONTHLY;BYMONTHDAY=13;BYDAY=FR", "2026-11-13", "2027-08-13"),
        // Every 2 weeks on Monday and Wednesday, across a month end.
        ("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE", "2026-11-30", "2026-12-02"),
        ("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE", "2026-12-02", "2026-12-14"),
        ("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE", "2026-11-25", "2026-12-07"),
        ("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE", "2026-11-26", "2026-12-07"),
        ("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE;WKST=SU", "2026-11-25", "2026-12-07"),
        ("FREQ=WEEKLY;INTERVAL=2;BYDAY=SU,MO", "2026-11-29", "2026-12-07"),
        ("FREQ=WEEKLY;INTERVAL=2;BYDAY=SU,MO;WKST=SU", "2026-11-29", "2026-11-30"),
        ("FREQ=WEEKLY", "2026-11-25", "2026-12-02"),
        ("FREQ=WEEKLY;BYMONTH=12", "2026-11-25", "2026-12-02"),
        ("FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR", "2026-11-27", "2026-11-30"),
        ("FREQ=DAILY;INTERVAL=3", "2026-11-30", "2026-12-03"),
        ("FREQ=DAILY;BYMONTHDAY=1", "2026-11-25", "2026-12-01"),
        // The end of the calendar.
        ("FREQ=DAILY", "9999-12-30", "9999-12-31"),
    ])
    func dueDates(rrule: String, due: String, expected: String) throws {
        #expect(try next(rrule, after: due) == expected)
    }

    /// A rule that can never occur again gives nil, quickly.
    @Test(arguments: [
        ("FREQ=MONTHLY;BYMONTH=2;BYMONTHDAY=31", "2026-01-31"),
        ("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", "2026-01-30"),
        ("FREQ=DAILY;BYMONTH=2,4,6,9,11;BYMONTHDAY=31", "2026-01-31"),
        ("FREQ=DAILY;INTERVAL=7;BYDAY=MO", "2026-11-24"),
        ("FREQ=MONTHLY;INTERVAL=12;BYMONTH=6", "2026-11-15"),
        ("FREQ=MONTHLY;BYMONTH=4,6", "2026-03-31"),
        ("FREQ=YEARLY;BYMONTH=2", "2026-01-30"),
        // Past the search (400 years): 29 February every 1000 years comes back in 4000.
        ("FREQ=YEARLY;INTERVAL=1000", "2000-02-29"),
        ("FREQ=DAILY", "9999-12-31"),
        ("FREQ=WEEKLY", "9999-12-27"),
        ("FREQ=MONTHLY", "9999-12-01"),
        ("FREQ=YEARLY", "9999-01-01"),
    ])
    func neverAgain(rrule: String, due: String) throws {
        let started = ContinuousClock.now
        for anchor in [RepeatRule.Anchor.due, .dueFuture] {
            #expect(try next(rrule, anchor, after: due, today: due) == nil)
        }
        #expect(ContinuousClock.now - started < .seconds(1))
    }

    /// 9:00 stays 9:00 on the wall clock across daylight saving changes, both ways; a reading the clocks skip
    /// moves past the gap, a reading they show twice is the first.
    @Test(arguments: [
        // Berlin: 2027-03-28 02:00 → 03:00 (+01:00 → +02:00); 2026-10-25 03:00 → 02:00 (+02:00 → +01:00).
        ("FREQ=DAILY", "2027-03-27T09:00:00+01:00", "Europe/Berlin", "2027-03-28T09:00:00+02:00"),
        ("FREQ=DAILY", "2027-03-27T08:00:00Z", "Europe/Berlin", "2027-03-28T09:00:00+02:00"),
        ("FREQ=DAILY", "2026-10-24T09:00:00+02:00", "Europe/Berlin", "2026-10-25T09:00:00+01:00"),
        ("FREQ=WEEKLY", "2027-03-22T09:00:00+01:00", "Europe/Berlin", "2027-03-29T09:00:00+02:00"),
        ("FREQ=MONTHLY;BYDAY=-1SU", "2027-02-28T09:00:00+01:00", "Europe/Berlin", "2027-03-28T09:00:00+02:00"),
        ("FREQ=DAILY", "2027-03-27T02:30:00+01:00", "Europe/Berlin", "2027-03-28T03:30:00+02:00"),
        ("FREQ=DAILY", "2027-03-28T03:30:00+02:00", "Europe/Berlin", "2027-03-29T03:30:00+02:00"),
        ("FREQ=DAILY", "2026-10-24T02:30:00+02:00", "Europe/Berlin", "2026-10-25T02:30:00+02:00"),
        ("FREQ=DAILY", "2026-10-25T02:30:00+01:00", "Europe/Berlin", "2026-10-26T02:30:00+01:00"),
        // New York: 2027-03-14 02:00 → 03:00 (-05:00 → -04:00); 2026-11-01 02:00 → 01:00 (-04:00 → -05:00).
        ("FREQ=DAILY", "2027-03-13T09:00:00-05:00", "America/New_York", "2027-03-14T09:00:00-04:00"),
        ("FREQ=DAILY", "2026-10-31T09:00:00-04:00", "America/New_York", "2026-11-01T09:00:00-05:00"),
        ("FREQ=MONTHLY", "2027-02-14T09:00:00-05:00", "America/New_York", "2027-03-14T09:00:00-04:00"),
        ("FREQ=DAILY", "2027-03-13T02:30:00-05:00", "America/New_York", "2027-03-14T03:30:00-04:00"),
        ("FREQ=DAILY", "2026-10-31T01:30:00-04:00", "America/New_York", "2026-11-01T01:30:00-04:00"),
        // The local date counts, not UTC's: 23:30 in New York is the next day in UTC.
        ("FREQ=WEEKLY;BYDAY=FR", "2026-11-27T23:30:00-05:00", "America/New_York", "2026-12-04T23:30:00-05:00"),
        // A due day stays a day.
        ("FREQ=DAILY", "2027-03-27", "Europe/Berlin", "2027-03-28"),
        ("FREQ=DAILY", "2027-03-13", "America/New_York", "2027-03-14"),
    ])
    func wallClockTimes(rrule: String, due: String, zone: String, expected: String) throws {
        #expect(try next(rrule, after: due, done: "2026-01-01T00:00:00Z", today: "2026-01-01", zone: zone) == expected)
    }

    @Test func aRuleEndsAfterCountOrUntil() throws {
        #expect(try next("FREQ=DAILY;COUNT=3", after: "2026-11-25", occurrence: 1) == "2026-11-26")
        #expect(try next("FREQ=DAILY;COUNT=3", after: "2026-11-26", occurrence: 2) == "2026-11-27")
        #expect(try next("FREQ=DAILY;COUNT=3", after: "2026-11-27", occurrence: 3) == nil)
        #expect(try next("FREQ=DAILY;COUNT=1", after: "2026-11-25", occurrence: 1) == nil)
        #expect(try next("FREQ=MONTHLY;UNTIL=20261231", after: "2026-11-15") == "2026-12-15")
        #expect(try next("FREQ=MONTHLY;UNTIL=20261231", after: "2026-12-15") == nil)
        #expect(try next("FREQ=DAILY;UNTIL=20261231", after: "2026-12-30") == "2026-12-31")
        #expect(try next("FREQ=DAILY;UNTIL=20261231T235959Z", after: "2026-12-31T09:00:00Z") == nil)
        #expect(try next("FREQ=DAILY;UNTIL=20270101T090000Z", after: "2026-12-31T09:00:00Z") == "2027-01-01T09:00:00Z")
        #expect(try next("FREQ=DAILY;UNTIL=20270101T085959Z", after: "2026-12-31T09:00:00Z") == nil)
        // An UNTIL day bounds a time by its local date; an UNTIL instant bounds a day by the zone's date then.
        #expect(try next("FREQ=DAILY;UNTIL=20270101", after: "2026-12-31T23:00:00-05:00", zone: "America/New_York")
                == "2027-01-01T23:00:00-05:00")
        #expect(try next("FREQ=DAILY;UNTIL=20270101T030000Z", after: "2026-12-31", zone: "America/New_York") == nil)
        #expect(try next("FREQ=DAILY;UNTIL=20270101T060000Z", after: "2026-12-31", zone: "America/New_York") == "2027-01-01")
        // The anchor does not change the end.
        #expect(try next("FREQ=DAILY;COUNT=2", .dueFuture, after: "2026-11-01", occurrence: 2) == nil)
        #expect(try next("FREQ=DAILY;UNTIL=20261130", .completion, after: "2026-11-01") == "2026-11-26")
        #expect(try next("FREQ=DAILY;UNTIL=20261125", .completion, after: "2026-11-01") == nil)
    }

    /// Completing late (today is Wednesday 2026-11-25): `due` steps once from the due, `dueFuture` to the first
    /// occurrence ahead, `completion` counts from the completion day.
    @Test func completingLateWithEachAnchor() throws {
        let weekly = "FREQ=WEEKLY;BYDAY=MO"
        #expect(try next(weekly, .due, after: "2026-11-02") == "2026-11-09")
        #expect(try next(weekly, .dueFuture, after: "2026-11-02") == "2026-11-30")
        #expect(try next(weekly, .completion, after: "2026-11-02") == "2026-12-07")
        #expect(try next("FREQ=WEEKLY", .completion, after: "2026-11-02") == "2026-12-02")
        #expect(try next("FREQ=DAILY;INTERVAL=3", .completion, after: "2026-11-02") == "2026-11-28")
        #expect(try next("FREQ=DAILY;INTERVAL=3", .dueFuture, after: "2026-11-02") == "2026-11-26")
        #expect(try next("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO", .completion, after: "2026-11-02") == "2026-12-14")
        #expect(try next("FREQ=MONTHLY", .completion, after: "2027-01-10", done: "2027-01-31T10:00:00Z", today: "2027-01-31")
                == "2027-02-28")
        #expect(try next("FREQ=MONTHLY;BYMONTHDAY=1", .dueFuture, after: "2026-09-01") == "2026-12-01")
        #expect(try next("FREQ=MONTHLY;BYMONTHDAY=1", .due, after: "2026-09-01") == "2026-10-01")
        // The completion day is local: 2026-11-25T02:00Z is still the 24th in New York.
        #expect(try next("FREQ=DAILY", .completion, after: "2026-11-20", done: "2026-11-25T02:00:00Z", zone: "America/New_York")
                == "2026-11-25")
        // Completed early (the due is tomorrow): the next is after the due, whatever the anchor that looks ahead.
        #expect(try next("FREQ=DAILY", .dueFuture, after: "2026-11-26") == "2026-11-27")
        #expect(try next("FREQ=DAILY", .due, after: "2026-11-26") == "2026-11-27")
        // Times: a daily 18:00 task, done at 10:00 five days late, then done again at 19:00.
        let evening = "2026-11-20T18:00:00Z"
        #expect(try next("FREQ=DAILY", .due, after: evening) == "2026-11-21T18:00:00Z")
        #expect(try next("FREQ=DAILY", .dueFuture, after: evening) == "2026-11-25T18:00:00Z")
        #expect(try next("FREQ=DAILY", .completion, after: evening) == "2026-11-26T18:00:00Z")
        #expect(try next("FREQ=DAILY", .dueFuture, after: evening, done: "2026-11-25T19:00:00Z") == "2026-11-26T18:00:00Z")
        #expect(try next("FREQ=DAILY", .dueFuture, after: "2026-11-25T18:00:00Z", done: "2026-11-25T09:00:00Z")
                == "2026-11-26T18:00:00Z")
        // From completion keeps the due's wall-clock time in the zone, across the change to summer time.
        #expect(try next("FREQ=DAILY;INTERVAL=2", .completion, after: "2027-03-20T09:00:00+01:00", done: "2027-03-27T12:00:00Z",
                         zone: "Europe/Berlin") == "2027-03-29T09:00:00+02:00")
    }
}
