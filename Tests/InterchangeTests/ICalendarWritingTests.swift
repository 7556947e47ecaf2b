// iCalendar writing: the exact lines of a small document, folding at 75 octets, dues in each form, extras written
// back (as themselves or as X-TASKLS-EXTRA), kept STATUS and PRIORITY, and what the format cannot carry.

import Domain
import Foundation
import Interchange
import TestSupport
import Testing

struct ICalendarWritingTests {
    @Test func aDocumentIsWrittenAsTheseLines() throws {
        let document = ExchangeDocument(
            lists: [ExchangeList(name: "Home, sweet", color: "#FF9500", icon: "house"), ExchangeList(name: "Empty")],
            tasks: [
                ExchangeTask(uid: "p1", list: "Home, sweet", title: "Plan; then act", notes: "one\ntwo",
                             createdAt: icsInstant("2026-11-01T09:00:00.250Z"), modifiedAt: icsInstant("2026-11-02T07:00:00Z"),
                             due: icsDue("2026-11-24"), priority: .medium, tags: ["a,b", "c"],
                             repeatRule: try RepeatRule(rrule: "FREQ=MONTHLY;BYMONTHDAY=-1", anchor: .dueFuture),
                             alerts: [.offset(minutes: 540), .at(icsInstant("2026-11-23T17:00:00Z"))],
                             extras: [Extra(key: "ical:X-APPLE-SORT-ORDER", value: ":42"),
                                      Extra(key: "taskwarrior:uda.size", value: "\"L\""),
                                      Extra(key: "ical:VALARM", value: "BEGIN:VALARM\nACTION:EMAIL\nTRIGGER:-PT1H\nEND:VALARM")]),
                ExchangeTask(uid: "c1", list: "Home, sweet", parentUID: "p1", title: "Sub", done: true,
                             completedAt: icsInstant("2026-11-03T10:15:00Z"), due: icsDue("2026-11-24T09:30:00+01:00"),
                             priority: .high),
            ])
        let writing = ICalendarFormat.write(document, options: icsWriteOptions())
        #expect(writing.losses.isEmpty)
        #expect(writing.text == icsText([
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//taskls//taskls//EN", "CALSCALE:GREGORIAN",
            "X-WR-CALNAME:Home\\, sweet", "X-APPLE-CALENDAR-COLOR:#FF9500", "X-TASKLS-ICON:house",
            "BEGIN:VTIMEZONE", "TZID:Europe/Berlin",
            "BEGIN:STANDARD", "DTSTART:20250101T010000", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0100", "END:STANDARD",
            "BEGIN:DAYLIGHT", "DTSTART:20250330T020000", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200",
            "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", "END:DAYLIGHT",
            "BEGIN:STANDARD", "DTSTART:20251026T030000", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100",
            "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU", "END:STANDARD",
            "END:VTIMEZONE",
            "BEGIN:VTODO", "UID:p1", "DTSTAMP:20261120T080000Z", "CREATED:20261101T090000Z",
            "LAST-MODIFIED:20261102T070000Z", "SUMMARY:Plan\\; then act", "DESCRIPTION:one\\ntwo", "STATUS:NEEDS-ACTION",
            "PRIORITY:5", "DUE;VALUE=DATE:20261124", "CATEGORIES:a\\,b,c", "RRULE:FREQ=MONTHLY;BYMONTHDAY=-1",
            "X-TASKLS-REPEAT-FROM:dueFuture", "X-APPLE-SORT-ORDER:42", "X-TASKLS-EXTRA;KEY=\"taskwarrior:uda.size\":\"L\"",
            "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Plan\\; then act", "TRIGGER;RELATED=END:PT9H", "END:VALARM",
            "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Plan\\; then act", "TRIGGER;VALUE=DATE-TIME:20261123T170000Z",
            "END:VALARM",
            "BEGIN:VALARM", "ACTION:EMAIL", "TRIGGER:-PT1H", "END:VALARM",
            "END:VTODO",
            "BEGIN:VTODO", "UID:c1", "DTSTAMP:20261120T080000Z", "SUMMARY:Sub", "STATUS:COMPLETED",
            "COMPLETED:20261103T101500Z", "PRIORITY:1", "DUE;TZID=Europe/Berlin:20261124T093000",
            "RELATED-TO;RELTYPE=PARENT:p1", "END:VTODO",
            "END:VCALENDAR",
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//taskls//taskls//EN", "CALSCALE:GREGORIAN", "X-WR-CALNAME:Empty",
            "END:VCALENDAR",
        ]))
        try icsCheckWithPython([writing.text])
    }

    @Test func longLinesAreFoldedAt75OctetsBetweenCharacters() throws {
        var random = SplitMix64(seed: 20)
        let pieces = ["a", "é", "€", "👋🏽", "𝄞", " ", ",", ";", "\\", "\n", "家族"]
        var texts: [String] = []
        for length in [70, 74, 75, 76, 150, 400, 1000] {
            let title = String((0..<length).map { _ in random.pick(pieces) }.joined().prefix(length))
            let document = ExchangeDocument(tasks: [ExchangeTask(uid: "u", list: "L", title: title, notes: title + title)])
            let text = ICalendarFormat.write(document, options: icsWriteOptions()).text
            texts.append(text)
            let physical = text.components(separatedBy: "\r\n").dropLast()
            #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
            for line in physical {
                let bytes = Array(line.utf8)
                #expect(bytes.count <= 75, "\(bytes.count) octets: \(line)")
                #expect(String(bytes: bytes, encoding: .utf8) != nil)
            }
            #expect(physical.contains { $0.hasPrefix(" ") }, "the notes are longer than a line")
            let task = try icsRead(text).document.tasks[0]
            #expect(task.title == title)
            #expect(task.notes == title + title)
        }
        try icsCheckWithPython(texts)
    }

    /// How each due is written, with Berlin the local zone.
    @Test(arguments: [
        ("2026-11-24", true, "DUE;VALUE=DATE:20261124", nil),
        ("2026-11-24T09:30:00+01:00", true, "DUE;TZID=Europe/Berlin:20261124T093000", "TZID:Europe/Berlin"),
        ("2026-07-24T09:30:00+02:00", true, "DUE;TZID=Europe/Berlin:20260724T093000", "TZID:Europe/Berlin"),
        ("2026-11-24T09:30:00+01:00", false, "DUE:20261124T083000Z", nil),
        ("2026-11-24T09:30:00+05:30", true, "DUE;TZID=UTC+0530:20261124T093000", "TZID:UTC+0530"),
        ("2026-11-24T09:30:00Z", true, "DUE;TZID=UTC:20261124T093000", "TZID:UTC"),
        ("2026-10-25T02:30:00+02:00", true, "DUE;TZID=Europe/Berlin:20261025T023000", "TZID:Europe/Berlin"),
        ("2026-10-25T02:30:00+01:00", true, "DUE:20261025T013000Z", nil),
        ("2026-11-24T09:30:00.750+01:00", true, "DUE;TZID=Europe/Berlin:20261124T093000", "TZID:Europe/Berlin"),
    ])
    func eachDueIsWrittenSoItReadsBack(due: String, named: Bool, line: String, zone: String?) throws {
        let document = ExchangeDocument(tasks: [ExchangeTask(uid: "u", list: "L", title: "t", due: icsDue(due))])
        let writing = ICalendarFormat.write(document, options: icsWriteOptions(named: named))
        let lines = writing.text.components(separatedBy: "\r\n")
        #expect(lines.contains(line))
        #expect(lines.filter { $0.hasPrefix("TZID:") } == (zone.map { [$0] } ?? []))
        let read = try icsRead(writing.text).document.tasks[0].due
        let whole = due.replacingOccurrences(of: ".750", with: "")
        #expect(read == icsDue(whole))
        #expect(writing.losses.map(\.description) == (due.contains(".750")
            ? ["1 task: milliseconds of due and alert times (iCalendar times are whole seconds)"] : []))
        try icsCheckWithPython([writing.text])
    }

    @Test func duesFarFromNowReadBackToo() throws {
        let berlin = ICalendarTestZone(icsLocalZoneName)
        let instants = ["0005-06-01T12:00:00Z", "1850-06-01T12:00:00Z", "1980-06-01T12:00:00Z", "2026-07-01T12:00:00Z",
                        "2500-06-01T12:00:00Z", "9000-06-01T12:00:00Z"].map(icsInstant)
        let tasks = instants.enumerated().map { index, instant in
            ExchangeTask(uid: "\(index)", list: "L", title: "t", modifiedAt: instant,
                         due: .dateTime(instant, offsetSeconds: berlin.offsetSeconds(at: instant)))
        }
        let text = ICalendarFormat.write(ExchangeDocument(tasks: tasks), options: icsWriteOptions()).text
        #expect(try icsRead(text).document.tasks.map(icsWithoutLine) == tasks)
        #expect(text.contains("DUE;TZID=Europe/Berlin:25000601T140000"), "the zone's rules go on past its last scanned year")
        #expect(text.contains("DUE;TZID=Europe/Berlin:00050601T125328"), "before the scanned years: the offset then (LMT)")
        try icsCheckWithPython([text])
    }

    @Test func extrasAreWrittenBackAsWhatTheyWere() throws {
        let extras = [
            Extra(key: "ical:X-APPLE-SORT-ORDER", value: ":42"),
            Extra(key: "ical:URL", value: ";VALUE=URI:https://example.com/a;b"),
            Extra(key: "ical:x-lower", value: ":kept by name"),
            Extra(key: "ical:X-BROKEN", value: "no colon"),
            Extra(key: "ical:X-MULTI", value: ":line one\nline two"),
            Extra(key: "ical:BEGIN", value: ":VALARM"),
            Extra(key: "taskwarrior:annotation", value: "{\"entry\":\"20261124T090000Z\",\"description\":\"a;b,c\\\\d\"}"),
            Extra(key: "todotxt:t", value: "2026-11-20"),
            Extra(key: "ical:X-COMPONENT", value: "BEGIN:X-COMPONENT\nX-A:1\nEND:X-COMPONENT"),
            Extra(key: "ical:VALARM", value: "BEGIN:VALARM\nACTION:EMAIL"),
        ]
        let document = ExchangeDocument(tasks: [ExchangeTask(uid: "u", list: "L", title: "t", extras: extras)])
        let text = ICalendarFormat.write(document, options: icsWriteOptions()).text
        let lines = text.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n")
        #expect(Array(lines[lines.firstIndex(of: "STATUS:NEEDS-ACTION")! + 1 ..< lines.firstIndex(of: "END:VTODO")!]) == [
            "X-APPLE-SORT-ORDER:42",
            "URL;VALUE=URI:https://example.com/a;b",
            "X-TASKLS-EXTRA;KEY=\"ical:x-lower\"::kept by name",
            "X-TASKLS-EXTRA;KEY=\"ical:X-BROKEN\":no colon",
            "X-TASKLS-EXTRA;KEY=\"ical:X-MULTI\"::line one\\nline two",
            "X-TASKLS-EXTRA;KEY=\"ical:BEGIN\"::VALARM",
            "X-TASKLS-EXTRA;KEY=\"taskwarrior:annotation\":{\"entry\":\"20261124T090000Z\"\\,\"description\":\"a\\;b\\,c\\\\\\\\d\"}",
            "X-TASKLS-EXTRA;KEY=\"todotxt:t\":2026-11-20",
            "X-TASKLS-EXTRA;KEY=\"ical:VALARM\":BEGIN:VALARM\\nACTION:EMAIL",
            "BEGIN:X-COMPONENT", "X-A:1", "END:X-COMPONENT",
        ])
        #expect(try icsRead(text).document.tasks[0].extras
            == extras.filter { $0.key != "ical:X-COMPONENT" } + [extras[8]], "property extras first, then components")
        try icsCheckWithPython([text])
    }

    /// A kept STATUS or PRIORITY is written instead of the computed one while it agrees with the task.
    @Test func keptStatusAndPriorityAreWrittenWhileTheyAgree() throws {
        let cases: [(done: Bool, priority: Priority, extra: Extra, written: [String])] = [
            (false, .none, Extra(key: "ical:STATUS", value: ":IN-PROCESS"), ["STATUS:IN-PROCESS"]),
            (true, .none, Extra(key: "ical:STATUS", value: ":IN-PROCESS"), ["STATUS:COMPLETED"]),
            (true, .none, Extra(key: "ical:STATUS", value: ":CANCELLED"), ["STATUS:CANCELLED"]),
            (false, .none, Extra(key: "ical:STATUS", value: ":CANCELLED"), ["STATUS:NEEDS-ACTION"]),
            (false, .high, Extra(key: "ical:PRIORITY", value: ":3"), ["STATUS:NEEDS-ACTION", "PRIORITY:3"]),
            (false, .low, Extra(key: "ical:PRIORITY", value: ":3"), ["STATUS:NEEDS-ACTION", "PRIORITY:9"]),
            (false, .none, Extra(key: "ical:PRIORITY", value: ":3"), ["STATUS:NEEDS-ACTION"]),
            (false, .none, Extra(key: "ical:COMPLETED", value: ":20261103T101500Z"),
             ["STATUS:NEEDS-ACTION", "COMPLETED:20261103T101500Z"]),
            (true, .none, Extra(key: "ical:COMPLETED", value: ":20261103T101500Z"), ["STATUS:COMPLETED"]),
        ]
        var texts: [String] = []
        for (index, example) in cases.enumerated() {
            let document = ExchangeDocument(tasks: [ExchangeTask(uid: "u", list: "L", title: "t", done: example.done,
                                                                 priority: example.priority, extras: [example.extra])])
            let text = ICalendarFormat.write(document, options: icsWriteOptions()).text
            let written = text.components(separatedBy: "\r\n")
                .filter { $0.hasPrefix("STATUS") || $0.hasPrefix("PRIORITY") || $0.hasPrefix("COMPLETED") }
            #expect(written == example.written, "case \(index)")
            let read = try icsRead(text).document.tasks[0]
            #expect(read.done == example.done && read.priority == example.priority, "case \(index)")
            texts.append(text)
        }
        try icsCheckWithPython(texts)
    }

    @Test func whatICalendarCannotSayIsCounted() throws {
        let history = Occurrences(completed: 2, skipped: 1, recent: [])
        let document = ExchangeDocument(
            tasks: [
                ExchangeTask(uid: "a", list: "L", title: "t\r\nx", repeatRule: try RepeatRule(rrule: "FREQ=DAILY"),
                             occurrences: history),
                ExchangeTask(uid: "b", list: "L", title: "t", alerts: [.at(Timestamp(milliseconds: 1_500))]),
            ],
            smartLists: [ExchangeSmartList(name: "Soon", filter: Filter())])
        let writing = ICalendarFormat.write(document, options: icsWriteOptions())
        #expect(writing.losses.map(\.description) == [
            "1 task: a repeating task's history (iCalendar keeps no record of completed occurrences)",
            "1 task: carriage returns in titles, notes or tags (iCalendar text has line feeds only)",
            "1 task: milliseconds of due and alert times (iCalendar times are whole seconds)",
            "1 task: smart lists (iCalendar has no smart lists)",
        ])
        #expect(try icsRead(writing.text).document.tasks[0].title == "t\nx")
        try icsCheckWithPython([writing.text])
    }

    @Test func listsAreCalendarsInOrderAndAnEmptyDocumentIsOneEmptyCalendar() throws {
        let empty = ICalendarFormat.write(ExchangeDocument(), options: icsWriteOptions()).text
        #expect(empty == icsText(["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//taskls//taskls//EN", "CALSCALE:GREGORIAN",
                                  "END:VCALENDAR"]))
        #expect(try icsRead(empty).document == ExchangeDocument())
        let document = ExchangeDocument(
            lists: [ExchangeList(name: "B", color: "teal"), ExchangeList(name: "A")],
            tasks: [ExchangeTask(uid: "1", list: "A", title: "one"), ExchangeTask(uid: "2", list: "C", title: "two"),
                    ExchangeTask(uid: "3", list: "A", title: "three"), ExchangeTask(uid: "4", title: "four")])
        let text = ICalendarFormat.write(document, options: icsWriteOptions()).text
        let read = try icsRead(text).document
        #expect(read.lists == [ExchangeList(name: "B", color: "teal"), ExchangeList(name: "A"), ExchangeList(name: "C")])
        #expect(read.tasks.map(\.title) == ["one", "three", "two", "four"])
        #expect(read.tasks.map(\.list) == ["A", "A", "C", nil])
        try icsCheckWithPython([empty, text])
    }
}
