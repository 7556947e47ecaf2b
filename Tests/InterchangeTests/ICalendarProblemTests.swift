// iCalendar problems: each with its file, line and field and words a user can act on; a broken structure refuses
// the file even with skipInvalid, an invalid task is skipped with it; at most 100 problems are listed.

import Domain
import Interchange
import Testing

struct ICalendarProblemTests {
    @Test func invalidTasksAreEachReportedWithLineAndField() {
        let text = icsCalendar(
            icsTodo(["UID:a", "DUE:20261124"])                                             // 4-7
            + icsTodo(["UID:b", "SUMMARY:", "DUE:20260230"])                                 // 8-12
            + icsTodo(["UID:c", "SUMMARY:c", "DUE;TZID=Mars/Olympus_Mons:20261124T090000"])   // 13-17
            + icsTodo(["UID:d", "SUMMARY:d", "PRIORITY:high", "COMPLETED:2026-11-24"])        // 18-23
            + icsTodo(["UID:e", "SUMMARY:e", "DUE:20261124T250000", "DUE:x"])                 // 24-29
            + icsTodo(["UID:f", "SUMMARY:f", "DUE;VALUE=DATE:20261124T090000"])              // 30-34
            + icsTodo(["UID:a", "SUMMARY:again"])                                           // 35-38
            + icsTodo(["UID:g", "SUMMARY:g", "this is not a content line", "X-Y;P=\"open:1"]))  // 39-44
        #expect(icsProblems(text) == [
            "tasks.ics:4: SUMMARY: is missing: every task needs a title",
            "tasks.ics:10: SUMMARY: is empty: every task needs a title",
            "tasks.ics:11: DUE: 20260230 is not a calendar date",
            "tasks.ics:16: TZID: unknown time zone \"Mars/Olympus_Mons\"",
            "tasks.ics:21: PRIORITY: \"high\" is not a number from 0 to 9",
            "tasks.ics:22: COMPLETED: \"2026-11-24\" is not a date (YYYYMMDD) or a date-time (YYYYMMDDTHHMMSS, with Z for UTC)",
            "tasks.ics:27: DUE: 20261124T250000 has a time of day out of range",
            "tasks.ics:33: DUE: VALUE=DATE needs a date (YYYYMMDD), not \"20261124T090000\"",
            "tasks.ics:36: UID: \"a\" appears twice (lines 5 and 36)",
            "tasks.ics:42: \"this is not a content line\" is not a content line (NAME:value)",
            "tasks.ics:43: X-Y: parameter P has an unclosed quote",
        ])
    }

    @Test func skipInvalidLeavesTheInvalidTasksOutAndReportsThem() throws {
        let text = icsCalendar(
            icsTodo(["UID:a", "SUMMARY:a"])                                  // 4-7
            + icsTodo(["UID:b", "DUE:20261124", "BEGIN:VALARM", "ACTION:EMAIL", "END:VALARM"])  // 8-14
            + icsTodo(["UID:c", "SUMMARY:c", "RELATED-TO:b"])                  // 15-19
            + icsTodo(["UID:a", "SUMMARY:a again"]))                           // 20-23
        let reading = try icsRead(text, options: icsReadOptions(skipInvalid: true))
        #expect(reading.document.tasks.map(\.title) == ["a", "c"])
        #expect(reading.skipped.map(\.description) == [
            "tasks.ics:8: SUMMARY: is missing: every task needs a title",
            "tasks.ics:21: UID: \"a\" appears twice (lines 5 and 21)",
        ])
        #expect(reading.losses.isEmpty, "what a task left out loses is not counted")
        #expect(reading.document.tasks[1].parentUID == nil)
        #expect(reading.document.tasks[1].extras == [Extra(key: "ical:RELATED-TO", value: ":b")],
                "a parent left out stays a link")
    }

    @Test func syncKeepsAParentThatIsAnotherCalendarObject() throws {
        // Each calendar object on a CalDAV server holds one task: its parent is in another object.
        let text = icsCalendar(icsTodo(["UID:child", "SUMMARY:Book flights", "RELATED-TO;RELTYPE=PARENT:trip"]))
        var options = icsReadOptions()
        options.keepsParentsOutside = true
        let task = try #require(try icsRead(text, options: options).document.tasks.first)
        #expect(task.parentUID == "trip" && task.extras.isEmpty)
        let file = try #require(try icsRead(text).document.tasks.first)
        #expect(file.parentUID == nil && file.extras.map(\.key) == ["ical:RELATED-TO"])
    }

    @Test func aCycleOfParentsIsReportedOnEachOfItsTasks() throws {
        let text = icsCalendar(
            icsTodo(["UID:a", "SUMMARY:a", "RELATED-TO:b"])        // 4, 7
            + icsTodo(["UID:b", "SUMMARY:b", "RELATED-TO:c"])      // 9, 12
            + icsTodo(["UID:c", "SUMMARY:c", "RELATED-TO:a"])      // 14, 17
            + icsTodo(["UID:d", "SUMMARY:d", "RELATED-TO:a"])      // 19: below the cycle, not in it
            + icsTodo(["UID:e", "SUMMARY:e", "RELATED-TO:e"]))     // 24, 27
        #expect(icsProblems(text) == [
            "tasks.ics:7: RELATED-TO: \"a\" is its own ancestor (a → b → c → a)",
            "tasks.ics:12: RELATED-TO: \"b\" is its own ancestor (b → c → a → b)",
            "tasks.ics:17: RELATED-TO: \"c\" is its own ancestor (c → a → b → c)",
            "tasks.ics:27: RELATED-TO: \"e\" is its own ancestor (e → e)",
        ])
        let reading = try icsRead(text, options: icsReadOptions(skipInvalid: true))
        #expect(reading.document.tasks.map(\.title) == ["d"])
        #expect(reading.skipped.count == 4)
    }

    /// A broken structure refuses the file, with or without skipInvalid.
    @Test(arguments: [
        ("", "tasks.ics: is empty: an iCalendar file starts with BEGIN:VCALENDAR"),
        ("\n\n", "tasks.ics: is empty: an iCalendar file starts with BEGIN:VCALENDAR"),
        ("uuid,description\n1,x\n", "tasks.ics:1: is not an iCalendar file: it starts with \"uuid,description\", not BEGIN:VCALENDAR"),
        ("BEGIN:VCALENDAR\nBEGIN:VTODO\nUID:a\nSUMMARY:a\nEND:VCALENDAR\n", "tasks.ics:2: BEGIN:VTODO has no END:VTODO"),
        ("BEGIN:VCALENDAR\nBEGIN:VTODO\nUID:a\nBEGIN:VTODO\nUID:b\nEND:VTODO\nEND:VCALENDAR\n",
         "tasks.ics:2: BEGIN:VTODO has no END:VTODO"),
        ("BEGIN:VCALENDAR\nBEGIN:VTODO\nSUMMARY:a\nEND:VTODO\n", "tasks.ics:1: BEGIN:VCALENDAR has no END:VCALENDAR"),
        ("BEGIN:VCALENDAR\nEND:VTODO\nEND:VCALENDAR\n", "tasks.ics:2: END:VTODO has no BEGIN:VTODO before it"),
        ("BEGIN:VCALENDAR\nEND:VCALENDAR\nSUMMARY:x\n", "tasks.ics:3: SUMMARY is outside BEGIN:VCALENDAR … END:VCALENDAR"),
        ("BEGIN:VCALENDAR\nEND:VCALENDAR\nBEGIN:VTODO\nEND:VTODO\n",
         "tasks.ics:3: BEGIN:VTODO is outside BEGIN:VCALENDAR … END:VCALENDAR"),
        ("BEGIN:VCALENDAR\nX-BROKEN\nEND:VCALENDAR\n", "tasks.ics:2: \"X-BROKEN\" is not a content line (NAME:value)"),
    ])
    func aBrokenStructureRefusesTheFile(text: String, problem: String) {
        #expect(icsProblems(text) == [problem])
        #expect(icsProblems(text, options: icsReadOptions(skipInvalid: true)) == [problem])
    }

    @Test func aFailureListsAtMostAHundredProblems() {
        let text = icsCalendar((0..<150).flatMap { icsTodo(["UID:\($0)", "SUMMARY:x", "DUE:2026"]) })
        let problems = icsProblems(text)
        #expect(problems.count == 101)
        #expect(problems.first == "tasks.ics:7: DUE: \"2026\" is not a date (YYYYMMDD) or a date-time (YYYYMMDDTHHMMSS, with Z for UTC)")
        #expect(problems.last == "and 50 more")
    }
}
