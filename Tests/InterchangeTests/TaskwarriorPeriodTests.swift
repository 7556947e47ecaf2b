// Taskwarrior's recurrence periods: each `recur` value stepped as Taskwarrior 2.6.2 stepped it (the dues it made
// for `task add x recur:VALUE due:2026-10-31` in UTC), mapped to a taskls rule, and a rule spelled back.

import Domain
@testable import Interchange
import Testing

@Suite struct TaskwarriorPeriodTests {
    static let utc = TaskwarriorTestZone("UTC")

    static func instant(_ text: String) -> Timestamp {
        guard case .success(let instant) = TaskwarriorDate.instant(text) else { fatalError(text) }
        return instant
    }

    /// The second and third dues Taskwarrior 2.6.2 made from 2026-10-31 for each value (its `task export`).
    static let steps: [(recur: String, dues: [String])] = [
        ("weekly", ["20261107", "20261114"]), ("2w", ["20261114", "20261128"]), ("biweekly", ["20261114", "20261128"]),
        ("fortnight", ["20261114", "20261128"]), ("daily", ["20261101", "20261102"]), ("3d", ["20261103", "20261106"]),
        ("3days", ["20261103", "20261106"]), ("day", ["20261101", "20261102"]), ("monthly", ["20261130", "20261230"]),
        ("2mo", ["20261230"]), ("2m", ["20261231"]), ("2months", ["20261230"]), ("quarterly", ["20270131"]),
        ("2q", ["20270430"]), ("yearly", ["20271031"]), ("2y", ["20281030"]), ("annual", ["20271031"]),
        ("biannual", ["20281031"]), ("biyearly", ["20281031"]), ("semiannual", ["20270430"]), ("bimonthly", ["20261231"]),
        ("weekdays", ["20261102", "20261103"]), ("P1W", ["20261107", "20261114"]), ("P2D", ["20261102", "20261104"]),
        ("P1M", ["20261130"]), ("P1Y", ["20271031"]), ("1wk", ["20261107"]), ("2weeks", ["20261114"]),
        ("10d", ["20261110", "20261120"]), ("1w", ["20261107"]), ("1y", ["20271031"]), ("1mo", ["20261130"]),
        ("P3M", ["20270131"]), ("2yr", ["20281030"]),
    ]

    @Test func eachPeriodStepsAsTaskwarriorSteppedIt() throws {
        for (recur, dues) in Self.steps {
            let period = try #require(TaskwarriorPeriod(recur: recur), "\(recur)")
            var due = Self.instant("20261031T000000Z")
            var made: [String] = []
            for _ in dues {
                due = period.next(after: due, zone: Self.utc)
                made.append(String(TaskwarriorDate.text(due).prefix(8)))
            }
            #expect(made == dues, "\(recur)")
        }
        // What `task add` refused: "The duration value 'hourly' is not supported."
        #expect(TaskwarriorPeriod(recur: "hourly") == nil && TaskwarriorPeriod(recur: "sennight") == nil)
        #expect(TaskwarriorPeriod(recur: "0d") == nil && TaskwarriorPeriod(recur: "") == nil)
        #expect(TaskwarriorPeriod(recur: "2h") == .seconds(7200, inWeeks: false))
    }

    @Test func aDurationAddsSecondsSoADayCrossingDaylightSavingMovesAnHour() {
        // Taskwarrior adds 604,800 s to a Berlin midnight: after 25 October the instance is due at 23:00 the day before.
        let berlin = TaskwarriorTestZone("Europe/Berlin")
        let next = TaskwarriorPeriod.seconds(604_800, inWeeks: true).next(after: Self.instant("20261019T220000Z"), zone: berlin)
        #expect(TaskwarriorDate.due(next, zone: berlin).iso8601 == "2026-10-26T23:00:00+01:00")
        // A calendar month keeps the wall clock.
        let month = TaskwarriorPeriod.months(1, keepsTime: true).next(after: Self.instant("20261019T220000Z"), zone: berlin)
        #expect(TaskwarriorDate.due(month, zone: berlin).iso8601 == "2026-11-20")
    }

    @Test func periodsReadAsTheRulesWithTheSameDates() {
        let rules: [(String, String?)] = [
            ("weekly", "FREQ=WEEKLY"), ("2w", "FREQ=WEEKLY;INTERVAL=2"), ("fortnight", "FREQ=WEEKLY;INTERVAL=2"),
            ("P3W", "FREQ=WEEKLY;INTERVAL=3"), ("3d", "FREQ=DAILY;INTERVAL=3"), ("7d", "FREQ=DAILY;INTERVAL=7"),
            ("daily", "FREQ=DAILY"), ("monthly", "FREQ=MONTHLY"), ("2q", "FREQ=MONTHLY;INTERVAL=6"),
            ("P2M", "FREQ=MONTHLY;INTERVAL=2"), ("2mo", "FREQ=DAILY;INTERVAL=60"), ("1y", "FREQ=DAILY;INTERVAL=365"),
            ("yearly", "FREQ=YEARLY"), ("biannual", "FREQ=YEARLY;INTERVAL=2"),
            ("weekdays", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"), ("2h", nil), ("P1DT12H", nil), ("1.5d", nil), ("3y", nil),
        ]
        for (recur, rrule) in rules {
            #expect(TaskwarriorPeriod(recur: recur)?.rule(until: nil)?.rrule == rrule, "\(recur)")
        }
    }

    @Test func rulesAreSpelledAsPeriodsThatReadBackAsThem() throws {
        let friday = CalendarDate(year: 2026, month: 11, day: 27)!
        let spellings: [(String, String?)] = [
            ("FREQ=DAILY", "daily"), ("FREQ=DAILY;INTERVAL=3", "3d"), ("FREQ=WEEKLY", "weekly"),
            ("FREQ=WEEKLY;INTERVAL=2", "2w"), ("FREQ=WEEKLY;BYDAY=FR", "weekly"), ("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "weekdays"),
            ("FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR", "weekdays"), ("FREQ=MONTHLY", "monthly"), ("FREQ=MONTHLY;INTERVAL=3", "3m"),
            ("FREQ=MONTHLY;BYMONTHDAY=27", "monthly"), ("FREQ=YEARLY", "yearly"), ("FREQ=YEARLY;INTERVAL=2", "biannual"),
            ("FREQ=YEARLY;INTERVAL=3", "36m"), ("FREQ=WEEKLY;BYDAY=MO,WE", nil), ("FREQ=MONTHLY;BYMONTHDAY=-1", nil),
            ("FREQ=MONTHLY;BYDAY=-1FR", nil), ("FREQ=YEARLY;BYMONTH=1,7", nil),
        ]
        for (rrule, recur) in spellings {
            let rule = try RepeatRule(rrule: rrule)
            let spelled = TaskwarriorPeriod.recur(for: rule, dueDate: friday)
            #expect(spelled == recur, "\(rrule)")
            if let spelled, !["FREQ=WEEKLY;BYDAY=FR", "FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR", "FREQ=MONTHLY;BYMONTHDAY=27",
                              "FREQ=YEARLY;INTERVAL=3"].contains(rrule) {
                #expect(TaskwarriorPeriod(recur: spelled)?.rule(until: nil) == rule, "\(rrule) read back")
            }
        }
    }
}
