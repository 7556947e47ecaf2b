// Tests of ISO 8601 due dates: accepted forms, canonical output, and refusals naming the field.

import Testing
@testable import Domain

struct DueTests {
    @Test(arguments: [
        ("2026-11-22", "2026-11-22"),
        ("2024-02-29", "2024-02-29"),
        ("2000-02-29", "2000-02-29"),
        ("2026-11-22T09:30:00+01:00", "2026-11-22T09:30:00+01:00"),
        ("2026-11-22T09:30+01:00", "2026-11-22T09:30:00+01:00"),
        ("2026-11-22T09:30:00Z", "2026-11-22T09:30:00Z"),
        ("2026-11-22t09:30:00z", "2026-11-22T09:30:00Z"),
        ("2026-11-22T09:30:00+00:00", "2026-11-22T09:30:00Z"),
        ("2026-11-22T09:30:00.5Z", "2026-11-22T09:30:00.500Z"),
        ("2026-11-22T09:30:00.123-05:30", "2026-11-22T09:30:00.123-05:30"),
        ("2026-11-22T00:00:00+14:00", "2026-11-22T00:00:00+14:00"),
        ("1969-12-31T23:59:59Z", "1969-12-31T23:59:59Z"),
        ("0001-01-01", "0001-01-01"),
        ("9999-12-31", "9999-12-31"),
    ])
    func parsesAndFormats(text: String, canonical: String) throws {
        let due = try Due(parsing: text)
        #expect(due.iso8601 == canonical)
        #expect(try Due(parsing: canonical) == due)
    }

    /// Every 13th day from 0001-01-01 through 9999-12-31 (every weekday, day of the month and month; 281k), spelled
    /// digit by digit, reads back as the same day, and its year, month and day are the padded decimals.
    @Test func everyDateIsSpelledAsItsPaddedDecimals() throws {
        let first = try #require(CalendarDate(year: 1, month: 1, day: 1)).daysSinceEpoch
        let last = try #require(CalendarDate(year: 9999, month: 12, day: 31)).daysSinceEpoch
        var checked = 0
        for days in stride(from: first, through: last, by: 13) {
            let date = CalendarDate(daysSinceEpoch: days)
            let text = date.iso8601
            let year = String(date.year), month = String(date.month), day = String(date.day)
            let padded = String(repeating: "0", count: 4 - year.count) + year + "-" + String(repeating: "0", count: 2 - month.count)
                + month + "-" + String(repeating: "0", count: 2 - day.count) + day
            if text != padded || (try? Due(parsing: text)) != .date(date) {
                Issue.record("\(days): \(text), expected \(padded)")
                break
            }
            checked += 1
        }
        #expect(checked > 280_000)
    }

    @Test func dateTimeKeepsTheInstantAndOffset() throws {
        let due = try Due(parsing: "2026-11-22T09:30:00+01:00")
        #expect(due == .dateTime(Timestamp(milliseconds: 1_795_336_200_000), offsetSeconds: 3600))
        #expect(try Due(parsing: "2026-11-22T08:30:00Z") != due)
    }

    @Test(arguments: [
        "", "2026", "2026-11", "2026-1-22", "26-11-22", "2026/11/22", "2026-11-22 ", " 2026-11-22",
        "2026-13-01", "2026-00-10", "2026-11-31", "2026-02-29", "1900-02-29", "2026-11-00", "0000-01-01",
        "2026-11-22T09:30:00", "2026-11-22T24:00:00Z", "2026-11-22T09:60:00Z", "2026-11-22T09:30:60Z",
        "2026-11-22T09:30:00+19:00", "2026-11-22T09:30:00+01:60", "2026-11-22T09:30:00.1234Z",
        "2026-11-22T09:30:00.Z", "2026-11-22T9:30:00Z", "2026-11-22T09:30:00+0100", "2026-11-22Tfoo",
    ])
    func refuses(text: String) {
        #expect(throws: DomainError.self) { try Due(parsing: text) }
        do {
            _ = try Due(parsing: text, field: "due")
        } catch {
            guard case .invalidField(let field, _) = error else {
                Issue.record("expected invalidField, got \(error)")
                return
            }
            #expect(field == "due")
        }
    }

    @Test func badDateSaysWhichDate() {
        #expect(throws: DomainError.invalidField(field: "due", problem: "2026-02-29 is not a calendar date")) {
            try Due(parsing: "2026-02-29")
        }
    }

    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00.000Z"),
        (Int64(1_795_336_200_123), "2026-11-22T08:30:00.123Z"),
        (Int64(-1), "1969-12-31T23:59:59.999Z"),
    ])
    func timestampsFormat(milliseconds: Int64, text: String) {
        #expect(Timestamp(milliseconds: milliseconds).iso8601 == text)
    }

    @Test func calendarDaysRoundTrip() {
        for days in stride(from: Int64(-719_162), through: 2_932_896, by: 997) {
            let date = CalendarDate(daysSinceEpoch: days)
            #expect(date.daysSinceEpoch == days)
            #expect(CalendarDate(year: date.year, month: date.month, day: date.day) == date)
        }
    }

    @Test func dueSortsWholeDaysFirstThenWallClock() throws {
        let day = try Due(parsing: "2026-11-22")
        let morning = try Due(parsing: "2026-11-22T00:00:00Z")
        let lateWest = try Due(parsing: "2026-11-22T23:30:00-05:00")
        let nextDay = try Due(parsing: "2026-11-23")
        #expect(day.sortValue < morning.sortValue)
        #expect(morning.sortValue < lateWest.sortValue)
        #expect(lateWest.sortValue < nextDay.sortValue)
    }
}
