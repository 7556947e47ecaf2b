// iCalendar time zones: VTIMEZONEs read as their rules say (RFC 5545's own New York example, RDATEs, rules that
// end), compared with the zone database; and the VTIMEZONE taskls writes for the local zone giving every due back,
// in zones with daylight saving north and south, half-hour shifts, irregular changes and none.

import Domain
import Foundation
import Interchange
import TestSupport
import Testing

/// RFC 5545 3.6.5's example: New York from 1967, with the 1974–75 changes and the 2007 rules (TZID renamed so the
/// zone database cannot answer for it).
private let rfcNewYork = [
    "BEGIN:VTIMEZONE", "TZID:Test/New_York", "LAST-MODIFIED:20050809T050000Z",
    "BEGIN:DAYLIGHT", "DTSTART:19670430T020000", "RRULE:FREQ=YEARLY;BYMONTH=4;BYDAY=-1SU;UNTIL=19730429T070000Z",
    "TZOFFSETFROM:-0500", "TZOFFSETTO:-0400", "TZNAME:EDT", "END:DAYLIGHT",
    "BEGIN:STANDARD", "DTSTART:19671029T020000", "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU;UNTIL=20061029T060000Z",
    "TZOFFSETFROM:-0400", "TZOFFSETTO:-0500", "TZNAME:EST", "END:STANDARD",
    "BEGIN:DAYLIGHT", "DTSTART:19740106T020000", "RDATE:19750223T020000", "TZOFFSETFROM:-0500", "TZOFFSETTO:-0400",
    "TZNAME:EDT", "END:DAYLIGHT",
    "BEGIN:DAYLIGHT", "DTSTART:19760425T020000", "RRULE:FREQ=YEARLY;BYMONTH=4;BYDAY=-1SU;UNTIL=19860427T070000Z",
    "TZOFFSETFROM:-0500", "TZOFFSETTO:-0400", "TZNAME:EDT", "END:DAYLIGHT",
    "BEGIN:DAYLIGHT", "DTSTART:19870405T020000", "RRULE:FREQ=YEARLY;BYMONTH=4;BYDAY=1SU;UNTIL=20060402T070000Z",
    "TZOFFSETFROM:-0500", "TZOFFSETTO:-0400", "TZNAME:EDT", "END:DAYLIGHT",
    "BEGIN:DAYLIGHT", "DTSTART:20070311T020000", "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU", "TZOFFSETFROM:-0500",
    "TZOFFSETTO:-0400", "TZNAME:EDT", "END:DAYLIGHT",
    "BEGIN:STANDARD", "DTSTART:20071104T020000", "RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU", "TZOFFSETFROM:-0400",
    "TZOFFSETTO:-0500", "TZNAME:EST", "END:STANDARD",
    "END:VTIMEZONE",
]

/// Local readings to try in a zone: noon on the 1st and 15th of each month over `years`, and every quarter hour of
/// each day on which `zone` changes its offset.
private func readings(years: ClosedRange<Int>, changesOf zone: ICalendarTestZone) -> [(date: CalendarDate, millisecond: Int64)] {
    var result: [(CalendarDate, Int64)] = []
    for year in years {
        for month in 1...12 {
            result.append((CalendarDate(year: year, month: month, day: 1)!, 12 * 3_600_000))
            result.append((CalendarDate(year: year, month: month, day: 15)!, 12 * 3_600_000))
            for day in 1...CalendarDate.daysInMonth(year: year, month: month) {
                let date = CalendarDate(year: year, month: month, day: day)!
                let midnight = date.daysSinceEpoch * 86_400_000
                guard zone.offsetSeconds(at: Timestamp(milliseconds: midnight - 43_200_000))
                    != zone.offsetSeconds(at: Timestamp(milliseconds: midnight + 129_600_000)) else { continue }
                for quarter in 0..<96 { result.append((date, Int64(quarter) * 900_000)) }
            }
        }
    }
    return result
}

/// A calendar with `zone` and one VTODO due at each reading in it.
private func dueCalendar(zone: [String], tzid: String, readings: [(date: CalendarDate, millisecond: Int64)]) -> String {
    let todos = readings.enumerated().flatMap { index, reading -> [String] in
        let seconds = Int(reading.millisecond / 1000)
        let time = String(format: "T%02d%02d%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
        let date = String(format: "%04d%02d%02d", reading.date.year, reading.date.month, reading.date.day)
        return icsTodo(["UID:\(index)", "SUMMARY:at \(reading.date) \(time)", "DUE;TZID=\(tzid):\(date)\(time)"])
    }
    return icsCalendar(zone + todos)
}

struct ICalendarTimeZoneTests {
    @Test func theRFCsNewYorkExampleReadsAsTheZoneDatabaseSays() throws {
        let database = ICalendarTestZone("America/New_York")
        let samples = readings(years: 1968...2032, changesOf: database)
        let tasks = try icsRead(dueCalendar(zone: rfcNewYork, tzid: "Test/New_York", readings: samples)).document.tasks
        #expect(tasks.count == samples.count)
        #expect(samples.count > 10_000)
        var wrong: [String] = []
        for (task, sample) in zip(tasks, samples) {
            let expected = database.dateTime(on: sample.date, at: sample.millisecond).due
            if task.due != expected { wrong.append("\(task.title): \(task.due.map(String.init(describing:)) ?? "-") ≠ \(expected)") }
        }
        #expect(wrong.isEmpty, "\(wrong.count) wrong, first: \(wrong.prefix(5))")
    }

    @Test func rdatesAndRulesThatEndAreOnsetsToo() throws {
        // Berlin 2025–2027 by RDATEs alone, then by a rule with COUNT (two years), then a fixed +03:00 from 2030.
        let zone = [
            "BEGIN:VTIMEZONE", "TZID:Test/Berlin",
            "BEGIN:STANDARD", "DTSTART:20241027T030000", "RDATE:20251026T030000,20261025T030000",
            "RDATE;VALUE=DATE-TIME:20271031T030000", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100", "END:STANDARD",
            "BEGIN:DAYLIGHT", "DTSTART:20250330T020000", "RDATE:20260329T020000/PT1H,20270328T020000",
            "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200", "END:DAYLIGHT",
            "BEGIN:DAYLIGHT", "DTSTART:20280326T020000", "RRULE:FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=25,26,27,28,29,30,31;BYDAY=SU;COUNT=2",
            "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200", "END:DAYLIGHT",
            "BEGIN:STANDARD", "DTSTART:20281029T030000", "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU;UNTIL=20291028T010000Z",
            "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100", "END:STANDARD",
            "BEGIN:STANDARD", "DTSTART:20300101T000000", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0300", "END:STANDARD",
            "END:VTIMEZONE",
        ]
        let berlin = ICalendarTestZone("Europe/Berlin")
        let samples = readings(years: 2025...2031, changesOf: berlin)
        let tasks = try icsRead(dueCalendar(zone: zone, tzid: "Test/Berlin", readings: samples)).document.tasks
        var wrong: [String] = []
        for (task, sample) in zip(tasks, samples) {
            let expected = sample.date.year >= 2030 && !(sample.date.year == 2030 && sample.date.month == 1 && sample.date.day == 1
                && sample.millisecond == 0)
                ? ICalendarTestZone("Europe/Istanbul").dateTime(on: sample.date, at: sample.millisecond).due
                : berlin.dateTime(on: sample.date, at: sample.millisecond).due
            if task.due != expected { wrong.append("\(task.title): \(task.due.map(String.init(describing:)) ?? "-") ≠ \(expected)") }
        }
        #expect(tasks.count == samples.count)
        #expect(wrong.isEmpty, "\(wrong.count) wrong, first: \(wrong.prefix(5))")
    }

    @Test func aVTIMEZONETasklsCannotReadGivesWayToTheZoneOfItsName() throws {
        let monthly = { (tzid: String) in
            ["BEGIN:VTIMEZONE", "TZID:\(tzid)", "BEGIN:STANDARD", "DTSTART:19700101T000000", "RRULE:FREQ=MONTHLY",
             "TZOFFSETFROM:+0300", "TZOFFSETTO:+0300", "END:STANDARD", "END:VTIMEZONE"]
        }
        let known = icsCalendar(monthly("Europe/Berlin") + icsTodo(["UID:a", "SUMMARY:x", "DUE;TZID=Europe/Berlin:20260724T093000"]))
        #expect(try icsRead(known).document.tasks[0].due == icsDue("2026-07-24T09:30:00+02:00"))
        let unknown = icsCalendar(monthly("Test/Broken") + icsTodo(["UID:a", "SUMMARY:x", "DUE;TZID=Test/Broken:20260724T093000"]))
        #expect(icsProblems(unknown) == ["tasks.ics:16: TZID: unknown time zone \"Test/Broken\""])
    }

    /// The local zone's VTIMEZONE, named so that no zone database knows it: every due written in it reads back the
    /// same, through taskls's reader and through Python's icalendar and vobject, in zones with daylight saving north
    /// and south, half-hour changes, irregular changes (Casablanca, Apia's lost day, Moscow, São Paulo) and none.
    @Test func theLocalZoneIsWrittenSoEveryDueReadsBack() throws {
        var texts: [String] = []
        for zoneName in ["Europe/Berlin", "America/New_York", "Australia/Sydney", "Australia/Lord_Howe",
                         "America/Santiago", "Africa/Casablanca", "Asia/Tehran", "Asia/Kolkata", "America/Sao_Paulo",
                         "Europe/Moscow", "Pacific/Apia", "America/St_Johns", "Europe/Dublin"] {
            texts.append(try writeAndReadDues(in: zoneName))
        }
        try icsCheckWithPython(texts)
    }

    /// Writes dues across 1996–2035 in `zoneName` as the local zone and reads them back; the text.
    private func writeAndReadDues(in zoneName: String) throws -> String {
        let zone = ICalendarTestZone(zoneName)
        var random = SplitMix64(seed: UInt64(zoneName.utf8.reduce(0) { $0 &* 31 &+ Int($1) }.magnitude))
        let start = icsInstant("1996-01-01T00:00:00Z").milliseconds / 1000
        let end = icsInstant("2036-01-01T00:00:00Z").milliseconds / 1000
        var instants = (0..<200).map { _ in Int64(random.int(in: 0...Int(end - start))) + start }
        // Around each change of offset (found a day at a time, then to the second): a second before and after, half
        // an hour and an hour either way.
        var second = start
        var offset = zone.offsetSeconds(at: Timestamp(milliseconds: second * 1000))
        var changes = 0
        while second < end {
            let next = zone.offsetSeconds(at: Timestamp(milliseconds: (second + 86_400) * 1000))
            guard next != offset else {
                second += 86_400
                continue
            }
            var low = second
            var high = second + 86_400
            while high - low > 1 {
                let middle = (low + high) / 2
                if zone.offsetSeconds(at: Timestamp(milliseconds: middle * 1000)) == offset { low = middle } else { high = middle }
            }
            instants += [high - 3600, high - 1800, high - 1, high, high + 1, high + 1800, high + 3600]
            offset = zone.offsetSeconds(at: Timestamp(milliseconds: high * 1000))
            second = high
            changes += 1
        }
        let tasks = instants.enumerated().map { index, seconds in
            let instant = Timestamp(milliseconds: seconds * 1000)
            return ExchangeTask(uid: "t\(index)", list: "Zone", title: "due \(index)", modifiedAt: instant,
                                due: .dateTime(instant, offsetSeconds: zone.offsetSeconds(at: instant)))
        }
        let options = WriteOptions(localZone: zone, localZoneName: "Test/" + zoneName, now: icsInstant("2026-11-20T08:00:00Z"))
        let text = ICalendarFormat.write(ExchangeDocument(lists: [ExchangeList(name: "Zone")], tasks: tasks), options: options).text
        let zones = ICalendarTestZones()
        let read = try icsRead(text, options: ReadOptions(fileName: "zone.ics", localZone: zone, zones: zones))
        #expect(zones.asked.isEmpty, "\(zoneName): the file's zone answers")
        #expect(read.document.tasks.map(icsWithoutLine) == tasks, "\(zoneName)")
        // In UTC: the second pass of an hour the clocks repeat (its reading in the zone names the first).
        let zoned = text.components(separatedBy: "\r\n").filter { $0.hasPrefix("DUE;TZID=Test/") }.count
        #expect(zoned >= tasks.count * 8 / 10, "\(zoneName): \(zoned) of \(tasks.count) written in the zone")
        #expect(changes > 0 || zoneName == "Asia/Kolkata", "\(zoneName): no change of offset met")
        return text
    }
}
