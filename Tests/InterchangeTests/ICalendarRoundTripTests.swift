// iCalendar round trips of randomized documents: read(write(document)) is the document on everything iCalendar
// carries (titles with commas, semicolons, backslashes, line feeds and emoji, long lines folded, dues of both kinds in
// the local zone and other offsets, alerts, repeat rules, tags, subtasks, extras of every kind), and writing again
// gives the same text; Python's icalendar and vobject read every file alike. And the other way: what icalendar writes
// for a VTODO it builds, taskls reads.

import Domain
import Foundation
import Interchange
import TestSupport
import Testing

/// Draws documents that hold only what iCalendar carries: whole seconds, every task with a uid, a list and a
/// modification time, extras in the order a reader gives them (properties, then kept STATUS and PRIORITY, then
/// components, then the zones they use).
private struct DocumentDrawer {
    var random: SplitMix64
    var counts: [String: Int] = [:]

    mutating func count(_ feature: String) { counts[feature, default: 0] += 1 }

    mutating func text(_ length: Int) -> String {
        let pieces = ["a", "b", "Z", "é", "ß", "€", "家", "👋🏽", "🛒", " ", ",", ";", ":", "\\", "\"", "\n", "^", "\t",
                      "word", "longer words here"]
        return (0..<length).map { _ in random.pick(pieces) }.joined()
    }

    mutating func instant(from: String = "1990-01-01T00:00:00Z", to: String = "2040-01-01T00:00:00Z") -> Timestamp {
        let low = icsInstant(from).milliseconds / 1000
        let high = icsInstant(to).milliseconds / 1000
        return Timestamp(milliseconds: (low + Int64(random.below(Int(high - low)))) * 1000)
    }

    mutating func due(_ local: ICalendarTestZone) -> Due? {
        switch random.below(5) {
        case 0:
            return nil
        case 1:
            count("due day")
            return .date(CalendarDate(daysSinceEpoch: Int64(random.int(in: 7000...25000))))
        case 2:
            count("due in another offset")
            return .dateTime(instant(), offsetSeconds: random.pick([0, 19800, -10800, 45900, 50400, -36000]))
        default:
            count("due in the local zone")
            let at = instant()
            return .dateTime(at, offsetSeconds: local.offsetSeconds(at: at))
        }
    }

    mutating func extras(done: Bool, priority: Priority) -> [Extra] {
        var extras: [Extra] = []
        for _ in 0..<random.below(4) {
            switch random.below(4) {
            case 0:
                count("ical property extra")
                let name = "X-" + random.pick(["APPLE-SORT-ORDER", "MOZ-GENERATION", "OC-HIDESUBTASKS", "A1-B"])
                let parameters = random.chance(50) ? ";X-P=\"a;b:c\",plain;Y=1" : ""
                extras.append(Extra(key: "ical:" + name, value: parameters + ":" + text(random.below(30))
                    .replacingOccurrences(of: "\n", with: " ")))
            case 1:
                count("other format extra")
                let key = random.pick(["taskwarrior:uda.estimate", "todotxt:t", "taskwarrior:annotation:1", "json:x\"y^z"])
                extras.append(Extra(key: key, value: text(random.below(40))))
            case 2:
                extras.append(Extra(key: "ical:PERCENT-COMPLETE", value: ":\(random.below(101))"))
            default:
                extras.append(Extra(key: "ical:URL", value: ";VALUE=URI:https://example.com/" + String(random.below(1000))))
            }
        }
        if random.chance(15) {
            count("kept STATUS")
            extras.append(Extra(key: "ical:STATUS", value: done ? ":CANCELLED" : ":IN-PROCESS"))
        }
        if random.chance(20), priority == .high || priority == .low {
            count("kept PRIORITY")
            extras.append(Extra(key: "ical:PRIORITY", value: ":" + String(priority == .high ? random.int(in: 2...4)
                                                                             : random.int(in: 6...8))))
        }
        if random.chance(10) {
            count("kept component")
            extras.append(Extra(key: "ical:VALARM", value: "BEGIN:VALARM\nACTION:EMAIL\nTRIGGER;RELATED=START:-PT1H\n"
                + "SUMMARY:x\nATTENDEE:mailto:a@example.com\nEND:VALARM"))
        }
        return extras
    }

    mutating func document(_ local: ICalendarTestZone, index: Int) throws -> ExchangeDocument {
        let lists = (0..<random.int(in: 1...3)).map { number in
            ExchangeList(name: "List \(number) " + text(random.below(6)), color: random.pick([nil, "#FF9500", "teal"]),
                         icon: random.pick([nil, "house", "cart"]))
        }
        let rules = ["FREQ=DAILY", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE", "FREQ=MONTHLY;BYMONTHDAY=-1",
                     "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29", "FREQ=MONTHLY;BYDAY=-1FR;COUNT=5", "FREQ=DAILY;UNTIL=20270101",
                     "FREQ=WEEKLY;WKST=SU;UNTIL=20270101T120000Z"]
        var tasks: [ExchangeTask] = []
        for list in lists {
            var listTasks: [ExchangeTask] = []
            for number in 0..<random.below(12) {
                let done = random.chance(30)
                let priority = random.pick(Priority.allCases)
                var task = ExchangeTask(
                    uid: "\(index)-\(list.name.prefix(6))-\(number)" + (random.chance(20) ? ",;\\ \(number)" : ""),
                    list: list.name, title: random.chance(10) ? text(120) : "t" + text(random.below(12)),
                    notes: random.chance(40) ? text(random.below(200)) : "", done: done,
                    completedAt: done && random.chance(80) ? instant() : nil,
                    createdAt: random.chance(80) ? instant() : nil, modifiedAt: instant(), due: due(local),
                    priority: priority, tags: (0..<random.below(4)).map { _ in "tag" + text(random.below(5)) })
                if random.chance(25) {
                    count("repeat rule")
                    task.repeatRule = try RepeatRule(rrule: random.pick(rules), anchor: random.pick(RepeatRule.Anchor.allCases))
                }
                for _ in 0..<random.below(3) {
                    count("alert")
                    task.alerts.append(random.chance(50) ? Alert.offset(minutes: random.int(in: -3000...3000))
                                       : .at(instant(from: "2020-01-01T00:00:00Z", to: "2030-01-01T00:00:00Z")))
                }
                if !listTasks.isEmpty, random.chance(35) {
                    count("subtask")
                    task.parentUID = random.pick(listTasks).uid
                }
                task.extras = extras(done: done, priority: priority)
                listTasks.append(task)
            }
            tasks += listTasks
        }
        return ExchangeDocument(lists: lists, tasks: tasks)
    }
}

struct ICalendarRoundTripTests {
    @Test func randomDocumentsReadBackAsWritten() throws {
        let local = ICalendarTestZone(icsLocalZoneName)
        var drawer = DocumentDrawer(random: SplitMix64(seed: 2026_11_20))
        var texts: [String] = []
        var taskCount = 0
        for index in 0..<150 {
            let document = try drawer.document(local, index: index)
            let named = index % 3 != 0
            let writing = ICalendarFormat.write(document, options: icsWriteOptions(named: named))
            let reading = try icsRead(writing.text)
            #expect(reading.document.lists == document.lists, "document \(index)")
            let read = reading.document.tasks.map(icsWithoutLine)
            #expect(read.count == document.tasks.count, "document \(index)")
            for (got, expected) in zip(read, document.tasks) where got != expected {
                Issue.record("document \(index), task \(expected.uid ?? "-"):\n\(got)\n≠\n\(expected)")
            }
            #expect(writing.losses.isEmpty, "document \(index)")
            #expect(reading.losses.allSatisfy { $0.what == "alarms taskls cannot represent: kept, not used" },
                    "document \(index): \(reading.losses)")
            #expect(ICalendarFormat.write(reading.document, options: icsWriteOptions(named: named)).text == writing.text,
                    "document \(index): writing what was read gives the same text")
            texts.append(writing.text)
            taskCount += document.tasks.count
        }
        #expect(taskCount > 1000)
        for feature in ["due day", "due in another offset", "due in the local zone", "ical property extra",
                        "other format extra", "kept STATUS", "kept PRIORITY", "kept component", "repeat rule", "alert",
                        "subtask"] {
            #expect(drawer.counts[feature, default: 0] >= 20, "\(feature): \(drawer.counts[feature, default: 0])")
        }
        #expect(texts.contains { $0.contains("\r\n ") }, "some lines were folded")
        try icsCheckWithPython(texts)
    }

    @Test func whatPythonsIcalendarWritesIsRead() throws {
        guard icsPythonHas("icalendar", marker: "ics-icalendar") else { return }
        let script = #"""
        import datetime, zoneinfo, sys
        from icalendar import Calendar, Todo, Alarm
        calendar = Calendar()
        calendar.add("prodid", "-//python icalendar//EN")
        calendar.add("version", "2.0")
        calendar.add("x-wr-calname", "From Python, with; care")
        berlin = zoneinfo.ZoneInfo("Europe/Berlin")
        parent = Todo()
        parent.add("uid", "py-parent")
        parent.add("summary", "Plan, then act; carefully \\ with emoji 🐍 and a long title that needs folding because it goes on")
        parent.add("description", "line one\nline two, with comma")
        parent.add("dtstamp", datetime.datetime(2026, 11, 20, 8, 0, tzinfo=datetime.timezone.utc))
        parent.add("last-modified", datetime.datetime(2026, 11, 19, 8, 0, tzinfo=datetime.timezone.utc))
        parent.add("due", datetime.datetime(2026, 11, 24, 9, 30, tzinfo=berlin))
        parent.add("priority", 1)
        parent.add("categories", ["home", "a,b"])
        parent.add("rrule", {"freq": "weekly", "byday": ["MO", "WE"]})
        parent.add("status", "NEEDS-ACTION")
        alarm = Alarm()
        alarm.add("action", "DISPLAY")
        alarm.add("description", "Reminder")
        alarm.add("trigger", datetime.timedelta(minutes=-15))
        parent.add_component(alarm)
        calendar.add_component(parent)
        child = Todo()
        child.add("uid", "py-child")
        child.add("summary", "Sub")
        child.add("dtstamp", datetime.datetime(2026, 11, 20, 8, 0, tzinfo=datetime.timezone.utc))
        child.add("related-to", "py-parent")
        child.add("due", datetime.date(2026, 11, 25))
        child.add("status", "COMPLETED")
        child.add("completed", datetime.datetime(2026, 11, 21, 10, 0, tzinfo=datetime.timezone.utc))
        child.add("x-custom", "kept")
        calendar.add_component(child)
        calendar.add_missing_timezones()
        sys.stdout.buffer.write(calendar.to_ical())
        """#
        let run = try icsRunPython(["-c", script])
        try #require(run.status == 0, "\(run.error)")
        #expect(run.output.contains("BEGIN:VTIMEZONE"))
        let reading = try icsRead(run.output)
        #expect(reading.document.lists == [ExchangeList(name: "From Python, with; care")])
        let tasks = reading.document.tasks
        #expect(tasks.map(\.uid) == ["py-parent", "py-child"])
        #expect(tasks[0].title == "Plan, then act; carefully \\ with emoji 🐍 and a long title that needs folding because it goes on")
        #expect(tasks[0].notes == "line one\nline two, with comma")
        #expect(tasks[0].due == icsDue("2026-11-24T09:30:00+01:00"))
        #expect(tasks[0].modifiedAt == icsInstant("2026-11-19T08:00:00Z"))
        #expect(tasks[0].priority == .high)
        #expect(tasks[0].tags == ["home", "a,b"])
        #expect(tasks[0].repeatRule == (try RepeatRule(rrule: "FREQ=WEEKLY;BYDAY=MO,WE")))
        #expect(tasks[0].alerts == [.offset(minutes: -15)])
        #expect(tasks[1].parentUID == "py-parent")
        #expect(tasks[1].due == icsDue("2026-11-25"))
        #expect(tasks[1].done && tasks[1].completedAt == icsInstant("2026-11-21T10:00:00Z"))
        #expect(tasks[1].extras == [Extra(key: "ical:X-CUSTOM", value: ":kept")])
        FileHandle.standardError.write(Data("ics-icalendar: ran\n".utf8))
    }
}
