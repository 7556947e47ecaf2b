// iCalendar reading: every VTODO property taskls has a field for, STATUS and PRIORITY in all their values, dues in
// every form (day, UTC, TZID by the file's VTIMEZONE or by name, floating), alarms taskls can and cannot represent,
// calendars as lists, and what is kept as extras or counted as lost.

import Domain
import Interchange
import Testing

struct ICalendarReadingTests {
    @Test func aTaskReadsEveryFieldTasklsHasAndKeepsTheRest() throws {
        let text = icsCalendar(
            icsTodo(["UID:parent-1", "SUMMARY:Plan", "DTSTAMP:20261101T100000Z"])
            + icsTodo([
                "UID:task-1",
                "DTSTAMP:20261102T080000Z",
                "CREATED:20261101T090000Z",
                "LAST-MODIFIED:20261102T070000Z",
                "SUMMARY:Buy milk\\, eggs\\; bread \\\\ more",
                "DESCRIPTION:First line\\nsecond line\\Nthird",
                "STATUS:COMPLETED",
                "COMPLETED:20261103T101500Z",
                "DUE;VALUE=DATE:20261124",
                "PRIORITY:1",
                "CATEGORIES:home,shop\\,ping",
                "CATEGORIES:errands",
                "RELATED-TO;RELTYPE=PARENT:parent-1",
                "RRULE:FREQ=WEEKLY;BYDAY=MO",
                "X-TASKLS-REPEAT-FROM:completion",
                "X-APPLE-SORT-ORDER:42",
                "URL;VALUE=URI:https://example.com/a;b",
                "PERCENT-COMPLETE:100",
                "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Reminder", "TRIGGER;RELATED=END:PT9H", "END:VALARM",
            ]),
            header: ["X-WR-CALNAME:Home"])
        let reading = try icsRead(text)
        #expect(reading.document.lists == [ExchangeList(name: "Home")])
        #expect(reading.losses.isEmpty)
        let rule = try RepeatRule(rrule: "FREQ=WEEKLY;BYDAY=MO", anchor: .completion)
        #expect(reading.document.tasks[1] == ExchangeTask(
            uid: "task-1", list: "Home", parentUID: "parent-1", title: "Buy milk, eggs; bread \\ more",
            notes: "First line\nsecond line\nthird", done: true, completedAt: icsInstant("2026-11-03T10:15:00Z"),
            createdAt: icsInstant("2026-11-01T09:00:00Z"), modifiedAt: icsInstant("2026-11-02T07:00:00Z"),
            due: icsDue("2026-11-24"), priority: .high, tags: ["home", "shop,ping", "errands"],
            repeatRule: rule, alerts: [.offset(minutes: 540)],
            extras: [Extra(key: "ical:X-APPLE-SORT-ORDER", value: ":42"),
                     Extra(key: "ical:URL", value: ";VALUE=URI:https://example.com/a;b"),
                     Extra(key: "ical:PERCENT-COMPLETE", value: ":100")],
            line: 10))
        #expect(reading.document.tasks[0].modifiedAt == icsInstant("2026-11-01T10:00:00Z"), "DTSTAMP without LAST-MODIFIED")
    }

    /// STATUS (and COMPLETED) → done, completedAt, and the extras that give back what export would not write.
    @Test(arguments: [
        (["STATUS:NEEDS-ACTION"], false, false, [Extra]()),
        (["STATUS:COMPLETED", "COMPLETED:20261103T101500Z"], true, true, []),
        (["STATUS:COMPLETED"], true, false, []),
        (["STATUS:IN-PROCESS"], false, false, [Extra(key: "ical:STATUS", value: ":IN-PROCESS")]),
        (["STATUS:CANCELLED"], true, false, [Extra(key: "ical:STATUS", value: ":CANCELLED")]),
        (["status:cancelled", "COMPLETED:20261103T101500Z"], true, true, [Extra(key: "ical:STATUS", value: ":cancelled")]),
        (["STATUS:X-WAITING"], false, false, [Extra(key: "ical:STATUS", value: ":X-WAITING")]),
        (["COMPLETED:20261103T101500Z"], true, true, []),
        ([], false, false, []),
        (["STATUS:NEEDS-ACTION", "COMPLETED:20261103T101500Z"], false, false,
         [Extra(key: "ical:COMPLETED", value: ":20261103T101500Z")]),
    ])
    func statusSaysWhetherATaskIsDone(lines: [String], done: Bool, hasCompletion: Bool, extras: [Extra]) throws {
        let task = try icsRead(icsCalendar(icsTodo(["UID:a", "SUMMARY:x"] + lines))).document.tasks[0]
        #expect(task.done == done)
        #expect(task.completedAt == (hasCompletion ? icsInstant("2026-11-03T10:15:00Z") : nil))
        #expect(task.extras == extras)
    }

    /// PRIORITY 1–4 high, 5 medium, 6–9 low, 0 none; the number kept when export (1, 5, 9) would write another.
    @Test(arguments: [
        ("0", Priority.none, false), ("1", .high, false), ("2", .high, true), ("4", .high, true), ("5", .medium, false),
        ("6", .low, true), ("9", .low, false), (" 9 ", .low, false), ("09", .low, false), ("3", .high, true),
    ])
    func priorityNumbersFallIntoThreeLevels(value: String, priority: Priority, kept: Bool) throws {
        let task = try icsRead(icsCalendar(icsTodo(["UID:a", "SUMMARY:x", "PRIORITY:" + value]))).document.tasks[0]
        #expect(task.priority == priority)
        #expect(task.extras == (kept ? [Extra(key: "ical:PRIORITY", value: ":" + value)] : []))
    }

    /// DUE in every form; the local zone is Berlin.
    @Test(arguments: [
        ("DUE;VALUE=DATE:20261124", "2026-11-24"),
        ("DUE:20261124", "2026-11-24"),
        ("DUE:20261124T083000Z", "2026-11-24T09:30:00+01:00"),
        ("DUE:20260724T073000Z", "2026-07-24T09:30:00+02:00"),
        ("DUE:20261124T093000", "2026-11-24T09:30:00+01:00"),
        ("DUE:20260329T023000", "2026-03-29T03:30:00+02:00"),
        ("DUE;TZID=America/New_York:20261124T093000", "2026-11-24T09:30:00-05:00"),
        ("DUE;TZID=\"America/New_York\":20260724T093000", "2026-07-24T09:30:00-04:00"),
        ("due;tzid=America/New_York:20261124t093000", "2026-11-24T09:30:00-05:00"),
        ("DUE;TZID=/mozilla.org/20050126_1/America/New_York:20261124T093000", "2026-11-24T09:30:00-05:00"),
        ("DUE;TZID=/freeassociation.sourceforge.net/Tzfile/Asia/Kolkata:20261124T093000", "2026-11-24T09:30:00+05:30"),
        ("DUE;TZID=W. Europe Standard Time:20260724T093000", "2026-07-24T09:30:00+02:00"),
        ("DUE;TZID=\"Tokyo Standard Time\":20260724T093000", "2026-07-24T09:30:00+09:00"),
    ])
    func dueReadsEveryForm(line: String, due: String) throws {
        let task = try icsRead(icsCalendar(icsTodo(["UID:a", "SUMMARY:x", line]))).document.tasks[0]
        #expect(task.due == icsDue(due))
    }

    @Test func aTZIDIsTheFilesVTIMEZONEFirstThenTheMachinesZone() throws {
        let zones = ICalendarTestZones()
        let text = icsCalendar(
            ["BEGIN:VTIMEZONE", "TZID:Europe/Berlin", "BEGIN:STANDARD", "DTSTART:19700101T000000",
             "TZOFFSETFROM:+0300", "TZOFFSETTO:+0300", "END:STANDARD", "END:VTIMEZONE"]
            + icsTodo(["UID:a", "SUMMARY:x", "DUE;TZID=Europe/Berlin:20260724T093000"])
            + icsTodo(["UID:b", "SUMMARY:y", "DUE;TZID=Asia/Tokyo:20260724T093000"])
            + icsTodo(["UID:c", "SUMMARY:z", "DUE;TZID=Asia/Tokyo:20260725T093000"]))
        let tasks = try icsRead(text, options: icsReadOptions(zones: zones)).document.tasks
        #expect(tasks.map(\.due) == [icsDue("2026-07-24T09:30:00+03:00"), icsDue("2026-07-24T09:30:00+09:00"),
                                     icsDue("2026-07-25T09:30:00+09:00")])
        #expect(zones.asked == ["Asia/Tokyo"], "the file's zone is not looked up, a name is looked up once")
    }

    /// Alarms: relative ones count from the due (RELATED=END, or START when DTSTART is the due or absent), absolute
    /// ones are instants; what taskls cannot represent is kept whole.
    @Test(arguments: [
        (["DUE:20261124T083000Z"], ["TRIGGER:-PT15M"], Alert.offset(minutes: -15)),
        (["DUE:20261124T083000Z"], ["TRIGGER;RELATED=END:-PT1H"], .offset(minutes: -60)),
        (["DUE:20261124T083000Z"], ["TRIGGER;VALUE=DURATION;RELATED=START:+PT30M"], .offset(minutes: 30)),
        (["DUE:20261124T083000Z", "DTSTART:20261124T083000Z"], ["TRIGGER:-PT15M"], .offset(minutes: -15)),
        (["DUE:20261124T083000Z", "DTSTART:20261120T083000Z"], ["TRIGGER;RELATED=END:-P1D"], .offset(minutes: -1440)),
        (["DUE;VALUE=DATE:20261124"], ["TRIGGER:PT9H"], .offset(minutes: 540)),
        (["DUE;VALUE=DATE:20261124", "DTSTART;VALUE=DATE:20261124"], ["TRIGGER:-PT6H"], .offset(minutes: -360)),
        ([], ["TRIGGER;RELATED=END:-P1DT2H30M"], .offset(minutes: -1590)),
        (["DUE:20261124T083000Z"], ["TRIGGER;VALUE=DATE-TIME:20261123T170000Z"], .at(icsInstant("2026-11-23T17:00:00Z"))),
        ([], ["TRIGGER;VALUE=DATE-TIME:20261123T180000"], .at(icsInstant("2026-11-23T17:00:00Z"))),
        (["DUE:20261124T083000Z"], ["TRIGGER:-PT15M", "REPEAT:0"], .offset(minutes: -15)),
    ])
    func alarmsTasklsCanRepresentBecomeAlerts(todo: [String], alarm: [String], alert: Alert) throws {
        let alarmLines = ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Reminder"] + alarm + ["END:VALARM"]
        let reading = try icsRead(icsCalendar(icsTodo(["UID:a", "SUMMARY:x"] + todo + alarmLines)))
        let task = reading.document.tasks[0]
        #expect(task.alerts == [alert])
        #expect(task.extras.filter { $0.key == "ical:VALARM" }.isEmpty)
        #expect(reading.losses.isEmpty)
    }

    @Test(arguments: [
        (["DUE:20261124T083000Z", "DTSTART:20261120T083000Z"], ["ACTION:DISPLAY", "TRIGGER:-PT15M"]),
        ([String](), ["ACTION:DISPLAY", "TRIGGER:-PT15M", "DESCRIPTION:x"].map { $0 }),
        (["DUE:20261124T083000Z"], ["ACTION:EMAIL", "TRIGGER:-PT15M", "SUMMARY:x", "ATTENDEE:mailto:a@example.com"]),
        (["DUE:20261124T083000Z"], ["ACTION:AUDIO", "TRIGGER:-PT15M"]),
        (["DUE:20261124T083000Z"], ["ACTION:DISPLAY", "TRIGGER:-PT15M", "REPEAT:2", "DURATION:PT5M"]),
        (["DUE:20261124T083000Z"], ["ACTION:DISPLAY", "TRIGGER:-PT30S"]),
        (["DUE:20261124T083000Z"], ["ACTION:DISPLAY", "TRIGGER:-P400D"]),
        (["DUE:20261124T083000Z"], ["ACTION:DISPLAY", "TRIGGER:soon"]),
        (["DUE:20261124T083000Z"], ["ACTION:DISPLAY"]),
    ])
    func alarmsTasklsCannotRepresentAreKeptWhole(todo: [String], alarm: [String]) throws {
        // The second case: DTSTART without a due, relative to the start.
        let start = todo.isEmpty ? ["DTSTART:20261120T083000Z"] : []
        let alarmLines = ["BEGIN:VALARM"] + alarm + ["END:VALARM"]
        let reading = try icsRead(icsCalendar(icsTodo(["UID:a", "SUMMARY:x"] + todo + start + alarmLines)))
        let task = reading.document.tasks[0]
        #expect(task.alerts.isEmpty)
        #expect(task.extras.last == Extra(key: "ical:VALARM", value: alarmLines.joined(separator: "\n")))
        #expect(reading.losses.map(\.description) == [
            "1 task: alarms taskls cannot represent: kept, not used (taskls alerts are DISPLAY alarms at a time or relative to the due, without repeats)"])
    }

    @Test func lossesAreCountedOnceATask() throws {
        let alarm = ["BEGIN:VALARM", "ACTION:EMAIL", "TRIGGER:-PT1H", "END:VALARM"]
        let reading = try icsRead(icsCalendar(icsTodo(["UID:a", "SUMMARY:x"] + alarm + alarm)
                                              + icsTodo(["UID:b", "SUMMARY:y"] + alarm)))
        #expect(reading.losses.map(\.count) == [2])
        #expect(reading.document.tasks[0].extras.count == 2)
    }

    @Test func anAppleAlarmBecomesAnAlertAndItsIdentityIsCountedAsLost() throws {
        let reading = try icsRead(icsCalendar(icsTodo([
            "UID:a", "SUMMARY:x", "DUE:20261124T083000Z", "BEGIN:VALARM", "X-WR-ALARMUID:E1", "UID:E1",
            "TRIGGER:-PT15M", "ACTION:DISPLAY", "DESCRIPTION:Reminder", "ACKNOWLEDGED:20261124T081500Z", "END:VALARM"])))
        #expect(reading.document.tasks[0].alerts == [.offset(minutes: -15)])
        #expect(reading.losses.map(\.description) == [
            "1 task: alarm details (UID, ACKNOWLEDGED, X-… properties of a VALARM) (taskls keeps an alert's time only)"])
    }

    @Test func aRepeatRuleTasklsCannotReadIsKeptAndCounted() throws {
        let reading = try icsRead(icsCalendar(
            icsTodo(["UID:a", "SUMMARY:x", "DUE:20261124T083000Z", "RRULE:FREQ=MONTHLY;BYDAY=MO;BYSETPOS=-1",
                     "X-TASKLS-REPEAT-FROM:completion"])
            + icsTodo(["UID:b", "SUMMARY:y", "DUE:20261124T083000Z", "RRULE:FREQ=DAILY", "RRULE:FREQ=WEEKLY",
                       "X-TASKLS-REPEAT-FROM:sometimes", "EXDATE:20261125T083000Z"])))
        let (first, second) = (reading.document.tasks[0], reading.document.tasks[1])
        #expect(first.repeatRule == nil)
        #expect(first.extras == [Extra(key: "ical:RRULE", value: ":FREQ=MONTHLY;BYDAY=MO;BYSETPOS=-1"),
                                 Extra(key: "ical:X-TASKLS-REPEAT-FROM", value: ":completion")])
        #expect(second.repeatRule == (try RepeatRule(rrule: "FREQ=DAILY")))
        #expect(second.extras == [Extra(key: "ical:RRULE", value: ":FREQ=WEEKLY"),
                                  Extra(key: "ical:EXDATE", value: ":20261125T083000Z"),
                                  Extra(key: "ical:X-TASKLS-REPEAT-FROM", value: ":sometimes")])
        #expect(reading.losses.map(\.description) == [
            "1 task: repeat rules taskls cannot read: kept, not used (taskls repeats by FREQ (DAILY to YEARLY), INTERVAL, BYMONTH, BYMONTHDAY, BYDAY, WKST, COUNT and UNTIL)",
            "1 task: repeat rules taskls cannot read: kept, not used (taskls repeats a task by one rule)",
            "1 task: extra and excluded dates of a repeating task (RDATE, EXDATE): kept, not used (taskls repeats by its rule alone)",
        ])
    }

    @Test func eachCalendarIsAListAndOtherComponentsAreCountedAsLost() throws {
        let text = icsCalendar(icsTodo(["UID:a", "SUMMARY:A"]),
                               header: ["X-WR-CALNAME:Work\\, mostly", "X-APPLE-CALENDAR-COLOR:#FF9500", "X-WR-CALDESC:x"])
            + icsCalendar(["BEGIN:VEVENT", "UID:e", "SUMMARY:Meeting", "END:VEVENT"] + icsTodo(["UID:b", "SUMMARY:B"]),
                          header: ["NAME:Home", "COLOR:turquoise", "X-TASKLS-ICON:house"])
            + icsCalendar(icsTodo(["UID:c", "SUMMARY:C"]) + ["BEGIN:VJOURNAL", "UID:j", "END:VJOURNAL"])
            + icsCalendar(icsTodo(["UID:d", "SUMMARY:D"]), header: ["X-WR-CALNAME:Work, mostly", "COLOR:red",
                                                                       "X-APPLE-CALENDAR-COLOR:#FF0000"])
        let reading = try icsRead(text)
        #expect(reading.document.lists == [ExchangeList(name: "Work, mostly", color: "#FF9500"),
                                           ExchangeList(name: "Home", color: "turquoise", icon: "house")])
        #expect(reading.document.tasks.map(\.list) == ["Work, mostly", "Home", nil, "Work, mostly"])
        #expect(reading.losses.map(\.description) == [
            "1 task: their list's calendar property X-WR-CALDESC (taskls keeps a list's name, color and icon)",
            "1 task: events (VEVENT) (taskls imports tasks (VTODO) only)",
            "1 task: journal entries (VJOURNAL) (taskls imports tasks (VTODO) only)",
            "1 task: their list's X-APPLE-CALENDAR-COLOR beside its COLOR (taskls keeps one color a list)",
        ])
    }

    @Test func linesAreReadAsPeopleAndProgramsWriteThem() throws {
        // LF-only line ends, folds with a space and with a tab (between the scalars of one emoji too), lower-case
        // names, a byte order mark, blank lines, trailing white space after the end.
        let text = "\u{FEFF}begin:vcalendar\nversion:2.0\n\nbegin:vtodo\nuid:a\nsummary:Grüße 👋\n\t🏽 an\n  alle\n"
            + "description:one \n two\nEND:VTODO\nend:vcalendar  \n  \n\n"
        let task = try icsRead(text).document.tasks[0]
        #expect(task.title == "Grüße 👋🏽 an alle")
        #expect(task.notes == "one two")
        #expect(task.line == 4)
    }

    @Test func aFoldInsideAUTF8SequenceIsMendedWhenTheFileIsDecoded() throws {
        // "Grüße": the fold splits "ü" (C3 BC) and "ß" (C3 9F), on CRLF and on LF.
        let bytes = Array("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:a\r\nSUMMARY:Gr".utf8) + [0xC3, 0x0D, 0x0A, 0x20, 0xBC]
            + [0xC3, 0x0A, 0x09, 0x9F] + Array("e\r\nDUE:2026\r\nEND:VTODO\r\nEND:VCALENDAR\r\n".utf8)
        #expect(String(decoding: bytes, as: UTF8.self).contains("\u{FFFD}"))
        #expect(icsProblems(ICalendarFormat.text(decoding: bytes))
            == ["tasks.ics:7: DUE: \"2026\" is not a date (YYYYMMDD) or a date-time (YYYYMMDDTHHMMSS, with Z for UTC)"],
            "the lines keep their numbers")
        let fixed = ICalendarFormat.text(decoding: bytes).replacingOccurrences(of: "DUE:2026\r\n", with: "")
        #expect(try icsRead(fixed).document.tasks[0].title == "Grüße")
        #expect(ICalendarFormat.text(decoding: Array("a\r\n b\n\tc\r\n".utf8)) == "a\r\n b\n\tc\r\n")
    }

    @Test func parentLinksAndOtherRelationsAreKept() throws {
        let reading = try icsRead(icsCalendar(
            icsTodo(["UID:p", "SUMMARY:Parent", "RELATED-TO;RELTYPE=CHILD:c"])
            + icsTodo(["UID:c", "SUMMARY:Child", "X-A:1", "RELATED-TO:p", "RELATED-TO;RELTYPE=PARENT:q"])
            + icsTodo(["UID:o", "SUMMARY:Orphan", "X-A:1", "RELATED-TO;RELTYPE=PARENT:elsewhere", "X-B:2"])))
        let tasks = reading.document.tasks
        #expect(tasks.map(\.parentUID) == [nil, "p", nil])
        #expect(tasks[0].extras == [Extra(key: "ical:RELATED-TO", value: ";RELTYPE=CHILD:c")])
        #expect(tasks[1].extras == [Extra(key: "ical:X-A", value: ":1"),
                                    Extra(key: "ical:RELATED-TO", value: ";RELTYPE=PARENT:q")])
        #expect(tasks[2].extras == [Extra(key: "ical:X-A", value: ":1"),
                                    Extra(key: "ical:RELATED-TO", value: ";RELTYPE=PARENT:elsewhere"),
                                    Extra(key: "ical:X-B", value: ":2")],
                "a parent not in the file stays a link, in its place")
    }

    @Test func aChangedOccurrenceIsLeftOutAndCounted() throws {
        let reading = try icsRead(icsCalendar(
            icsTodo(["UID:r", "SUMMARY:Repeats", "DUE:20261124T083000Z", "RRULE:FREQ=DAILY"])
            + icsTodo(["UID:r", "SUMMARY:Repeats, once later", "RECURRENCE-ID:20261125T083000Z",
                       "DUE:20261125T100000Z"])))
        #expect(reading.document.tasks.map(\.title) == ["Repeats"])
        #expect(reading.losses.map(\.description) == [
            "1 task: changed occurrences of a repeating task (VTODO with RECURRENCE-ID) (taskls keeps one due per repeating task)"])
    }

    @Test func otherFormatsExtrasComeBackFromXTasklsExtra() throws {
        let task = try icsRead(icsCalendar(icsTodo([
            "UID:a", "SUMMARY:x", "X-TASKLS-EXTRA;KEY=\"taskwarrior:uda.estimate\":\"3h\\, maybe\"",
            "X-TASKLS-EXTRA;KEY=\"todotxt:a^'b^^c^nd\":v", "X-TASKLS-EXTRA:no key",
        ]))).document.tasks[0]
        #expect(task.extras == [Extra(key: "taskwarrior:uda.estimate", value: "\"3h, maybe\""),
                                Extra(key: "todotxt:a\"b^c\nd", value: "v"),
                                Extra(key: "ical:X-TASKLS-EXTRA", value: ":no key")])
    }

    @Test func theZoneOfAnExtraTravelsWithIt() throws {
        let zone = ["BEGIN:VTIMEZONE", "TZID:Europe/Berlin", "X-LIC-LOCATION:Europe/Berlin", "BEGIN:DAYLIGHT",
                    "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200", "TZNAME:CEST", "DTSTART:19700329T020000",
                    "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3", "END:DAYLIGHT", "BEGIN:STANDARD", "TZOFFSETFROM:+0200",
                    "TZOFFSETTO:+0100", "TZNAME:CET", "DTSTART:19701025T030000", "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10",
                    "END:STANDARD", "END:VTIMEZONE"]
        let tasks = try icsRead(icsCalendar(zone
            + icsTodo(["UID:a", "SUMMARY:x", "DTSTART;TZID=Europe/Berlin:20261120T090000",
                       "DUE;TZID=Europe/Berlin:20261124T170000"])
            + icsTodo(["UID:b", "SUMMARY:y", "DUE;TZID=Europe/Berlin:20261124T170000"]))).document.tasks
        #expect(tasks[0].extras == [Extra(key: "ical:DTSTART", value: ";TZID=Europe/Berlin:20261120T090000"),
                                    Extra(key: "ical:VTIMEZONE", value: zone.joined(separator: "\n"))])
        #expect(tasks[1].extras.isEmpty)
        #expect(tasks.map(\.due) == [icsDue("2026-11-24T17:00:00+01:00"), icsDue("2026-11-24T17:00:00+01:00")])
    }
}
