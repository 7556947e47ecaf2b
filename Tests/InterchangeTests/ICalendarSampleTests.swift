// Real-world VTODOs in the shapes Apple Reminders, Nextcloud Tasks and Thunderbird write them: read, fields checked,
// written, read again, and everything (extras byte for byte) the same; Python's parsers read both files alike.

import Domain
import Interchange
import Testing

/// Apple Reminders (an iCloud list): X-APPLE-SORT-ORDER, a VTIMEZONE for the TZID its times use, folded lines, an
/// alarm with its own UIDs, a structured location with quoted parameters.
private let appleReminders = icsText([
    "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Apple Inc.//iPhone OS 17.1//EN", "CALSCALE:GREGORIAN",
    "X-WR-CALNAME:Groceries", "X-APPLE-CALENDAR-COLOR:#FF9500FF",
    "BEGIN:VTIMEZONE", "TZID:Europe/Berlin",
    "BEGIN:DAYLIGHT", "TZOFFSETFROM:+0100", "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", "DTSTART:19810329T020000",
    "TZNAME:MESZ", "TZOFFSETTO:+0200", "END:DAYLIGHT",
    "BEGIN:STANDARD", "TZOFFSETFROM:+0200", "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU", "DTSTART:19961027T030000",
    "TZNAME:MEZ", "TZOFFSETTO:+0100", "END:STANDARD",
    "END:VTIMEZONE",
    "BEGIN:VTODO", "COMPLETED:20261102T180512Z", "CREATED:20261101T093012Z", "DTSTAMP:20261102T180512Z",
    "LAST-MODIFIED:20261102T180512Z", "PERCENT-COMPLETE:100", "STATUS:COMPLETED", "SUMMARY:Oat milk",
    "UID:4A5C1F2E-6B7D-4E8F-9A0B-1C2D3E4F5A6B", "X-APPLE-SORT-ORDER:706432211", "END:VTODO",
    "BEGIN:VTODO", "CREATED:20261101T093512Z",
    "DESCRIPTION:The good one from the bakery on the corner\\, not the supermar",
    " ket one. Ask for it sliced.",
    "DTSTAMP:20261103T071502Z", "DTSTART;TZID=Europe/Berlin:20261124T090000", "DUE;TZID=Europe/Berlin:20261124T090000",
    "LAST-MODIFIED:20261103T071502Z", "PRIORITY:1", "SEQUENCE:1", "STATUS:NEEDS-ACTION", "SUMMARY:Sourdough bread",
    "UID:9B8C7D6E-5F4A-4B3C-8D2E-1F0A9B8C7D6E", "URL;VALUE=URI:https://example.com/bakery",
    "X-APPLE-SORT-ORDER:706432298",
    "X-APPLE-STRUCTURED-LOCATION;VALUE=URI;X-APPLE-RADIUS=100;X-TITLE=\"Bakery, Ma",
    " in St\":geo:52.520008,13.404954",
    "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Reminder", "TRIGGER:-PT15M", "UID:0D1E2F3A-4B5C-4D6E-8F7A-9B0C1D2E3F4A",
    "X-WR-ALARMUID:0D1E2F3A-4B5C-4D6E-8F7A-9B0C1D2E3F4A", "END:VALARM", "END:VTODO",
    "BEGIN:VTODO", "CREATED:20261101T094012Z", "DTSTAMP:20261101T094012Z", "DUE;VALUE=DATE:20261130",
    "LAST-MODIFIED:20261101T094012Z", "RRULE:FREQ=WEEKLY;INTERVAL=1;BYDAY=MO", "STATUS:NEEDS-ACTION",
    "SUMMARY:Weekly shop 🛒", "UID:1A2B3C4D-5E6F-4A7B-8C9D-0E1F2A3B4C5D", "X-APPLE-SORT-ORDER:706432301", "END:VTODO",
    "END:VCALENDAR",
])

/// Nextcloud Tasks: subtasks by RELATED-TO (with and without RELTYPE), PERCENT-COMPLETE, CLASS, X-OC-HIDESUBTASKS,
/// IN-PROCESS, a PRIORITY of 3, UTC and day dues.
private let nextcloudTasks = icsText([
    "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Nextcloud Tasks v0.16.1", "X-WR-CALNAME:Work",
    "X-APPLE-CALENDAR-COLOR:#0082c9",
    "BEGIN:VTODO", "UID:b7c1d2e3-f4a5-4b6c-8d7e-9f0a1b2c3d4e", "CREATED:20261101T100000Z",
    "LAST-MODIFIED:20261104T120000Z", "DTSTAMP:20261104T120000Z", "SUMMARY:Quarterly report",
    "DESCRIPTION:Numbers from finance\\nDraft by Friday", "PRIORITY:5", "STATUS:IN-PROCESS", "PERCENT-COMPLETE:40",
    "CLASS:PUBLIC", "CATEGORIES:Work,Reports", "X-OC-HIDESUBTASKS:0", "DUE:20261127T160000Z", "END:VTODO",
    "BEGIN:VTODO", "UID:c8d2e3f4-a5b6-4c7d-9e8f-0a1b2c3d4e5f", "CREATED:20261101T100500Z",
    "LAST-MODIFIED:20261102T090000Z", "DTSTAMP:20261102T090000Z", "SUMMARY:Collect figures",
    "RELATED-TO;RELTYPE=PARENT:b7c1d2e3-f4a5-4b6c-8d7e-9f0a1b2c3d4e", "PRIORITY:3", "STATUS:COMPLETED",
    "COMPLETED:20261102T090000Z", "PERCENT-COMPLETE:100", "CLASS:CONFIDENTIAL", "X-OC-HIDESUBTASKS:1", "END:VTODO",
    "BEGIN:VTODO", "UID:d9e3f4a5-b6c7-4d8e-af90-1b2c3d4e5f6a", "CREATED:20261101T101000Z",
    "LAST-MODIFIED:20261101T101000Z", "DTSTAMP:20261101T101000Z", "SUMMARY:Proofread",
    "RELATED-TO:b7c1d2e3-f4a5-4b6c-8d7e-9f0a1b2c3d4e", "STATUS:NEEDS-ACTION", "DUE;VALUE=DATE:20261126",
    "CLASS:PRIVATE", "X-OC-HIDESUBTASKS:0", "END:VTODO",
    "END:VCALENDAR",
])

/// Thunderbird (an exported calendar, no name): X-MOZ-GENERATION, DTSTART;TZID before the due, VTIMEZONEs with
/// X-LIC-LOCATION, an alarm relative to the start and one relative to the due.
private let berlinMozilla = [
    "BEGIN:VTIMEZONE", "TZID:Europe/Berlin", "X-LIC-LOCATION:Europe/Berlin",
    "BEGIN:DAYLIGHT", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200", "TZNAME:CEST", "DTSTART:19700329T020000",
    "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3", "END:DAYLIGHT",
    "BEGIN:STANDARD", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100", "TZNAME:CET", "DTSTART:19701025T030000",
    "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10", "END:STANDARD",
    "END:VTIMEZONE",
]
private let thunderbirdAlarm = ["BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER;VALUE=DURATION:-PT15M",
                                "DESCRIPTION:Default Mozilla Description", "END:VALARM"]
private let thunderbird = icsText([
    "BEGIN:VCALENDAR", "PRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN", "VERSION:2.0"]
    + berlinMozilla + [
    "BEGIN:VTIMEZONE", "TZID:America/New_York", "X-LIC-LOCATION:America/New_York",
    "BEGIN:DAYLIGHT", "TZOFFSETFROM:-0500", "TZOFFSETTO:-0400", "TZNAME:EDT", "DTSTART:19700308T020000",
    "RRULE:FREQ=YEARLY;BYDAY=2SU;BYMONTH=3", "END:DAYLIGHT",
    "BEGIN:STANDARD", "TZOFFSETFROM:-0400", "TZOFFSETTO:-0500", "TZNAME:EST", "DTSTART:19701101T020000",
    "RRULE:FREQ=YEARLY;BYDAY=1SU;BYMONTH=11", "END:STANDARD",
    "END:VTIMEZONE",
    "BEGIN:VTODO", "CREATED:20261101T100000Z", "LAST-MODIFIED:20261103T080000Z", "DTSTAMP:20261103T080000Z",
    "UID:5f3a8c1e-2b4d-4e6f-8a9b-0c1d2e3f4a5b", "SUMMARY:Write the annual review", "STATUS:NEEDS-ACTION",
    "X-MOZ-GENERATION:3", "DTSTART;TZID=Europe/Berlin:20261120T090000", "DUE;TZID=Europe/Berlin:20261124T170000",
    "PERCENT-COMPLETE:0", "SEQUENCE:2", "X-MOZ-LASTACK:20261103T080000Z"] + thunderbirdAlarm + ["END:VTODO",
    "BEGIN:VTODO", "CREATED:20261101T110000Z", "LAST-MODIFIED:20261101T110000Z", "DTSTAMP:20261101T110000Z",
    "UID:6a4b9d2f-3c5e-4f7a-9b0c-1d2e3f4a5b6c", "SUMMARY:Call the New York office", "X-MOZ-GENERATION:1",
    "DUE;TZID=America/New_York:20261125T100000",
    "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER;VALUE=DURATION;RELATED=END:-PT1H",
    "DESCRIPTION:Default Mozilla Description", "END:VALARM", "END:VTODO",
    "END:VCALENDAR",
])

struct ICalendarSampleTests {
    /// Reads `sample`, writes what it read, reads that: the same document, extras byte for byte; Python's parsers
    /// read the sample and the rewrite as taskls does.
    private func roundTrip(_ sample: String) throws -> ExchangeReading {
        let reading = try icsRead(sample)
        let written = ICalendarFormat.write(reading.document, options: icsWriteOptions())
        let again = try icsRead(written.text)
        #expect(again.document.lists == reading.document.lists)
        #expect(again.document.tasks.map(icsWithoutLine) == reading.document.tasks.map(icsWithoutLine))
        for (first, second) in zip(reading.document.tasks, again.document.tasks) {
            #expect(first.extras.map { Array($0.value.utf8) } == second.extras.map { Array($0.value.utf8) })
        }
        #expect(written.losses.isEmpty)
        #expect(ICalendarFormat.write(again.document, options: icsWriteOptions()).text == written.text)
        try icsCheckWithPython([sample, written.text])
        return reading
    }

    @Test func appleRemindersRoundTrips() throws {
        let reading = try roundTrip(appleReminders)
        #expect(reading.document.lists == [ExchangeList(name: "Groceries", color: "#FF9500FF")])
        let tasks = reading.document.tasks
        #expect(tasks.map(\.title) == ["Oat milk", "Sourdough bread", "Weekly shop 🛒"])
        #expect(tasks[0].done && tasks[0].completedAt == icsInstant("2026-11-02T18:05:12Z"))
        #expect(tasks[0].extras == [Extra(key: "ical:PERCENT-COMPLETE", value: ":100"),
                                    Extra(key: "ical:X-APPLE-SORT-ORDER", value: ":706432211")])
        #expect(tasks[1].notes == "The good one from the bakery on the corner, not the supermarket one. Ask for it sliced.")
        #expect(tasks[1].due == icsDue("2026-11-24T09:00:00+01:00"))
        #expect(tasks[1].priority == .high)
        #expect(tasks[1].alerts == [.offset(minutes: -15)], "relative to a DTSTART that is the due")
        let zone = appleReminders.components(separatedBy: "\r\n")
        let zoneText = zone[zone.firstIndex(of: "BEGIN:VTIMEZONE")!...zone.firstIndex(of: "END:VTIMEZONE")!]
        #expect(tasks[1].extras == [
            Extra(key: "ical:DTSTART", value: ";TZID=Europe/Berlin:20261124T090000"),
            Extra(key: "ical:SEQUENCE", value: ":1"),
            Extra(key: "ical:URL", value: ";VALUE=URI:https://example.com/bakery"),
            Extra(key: "ical:X-APPLE-SORT-ORDER", value: ":706432298"),
            Extra(key: "ical:X-APPLE-STRUCTURED-LOCATION",
                  value: ";VALUE=URI;X-APPLE-RADIUS=100;X-TITLE=\"Bakery, Main St\":geo:52.520008,13.404954"),
            Extra(key: "ical:VTIMEZONE", value: zoneText.joined(separator: "\n")),
        ])
        #expect(tasks[2].due == icsDue("2026-11-30"))
        #expect(tasks[2].repeatRule == (try RepeatRule(rrule: "FREQ=WEEKLY;BYDAY=MO")))
        #expect(reading.losses.map(\.description) == [
            "1 task: alarm details (UID, ACKNOWLEDGED, X-… properties of a VALARM) (taskls keeps an alert's time only)"])
    }

    @Test func nextcloudTasksRoundTrips() throws {
        let reading = try roundTrip(nextcloudTasks)
        #expect(reading.document.lists == [ExchangeList(name: "Work", color: "#0082c9")])
        let tasks = reading.document.tasks
        #expect(tasks.map(\.parentUID) == [nil, "b7c1d2e3-f4a5-4b6c-8d7e-9f0a1b2c3d4e", "b7c1d2e3-f4a5-4b6c-8d7e-9f0a1b2c3d4e"])
        #expect(tasks.map(\.done) == [false, true, false])
        #expect(tasks.map(\.priority) == [.medium, .high, .none])
        #expect(tasks[0].notes == "Numbers from finance\nDraft by Friday")
        #expect(tasks[0].tags == ["Work", "Reports"])
        #expect(tasks[0].due == icsDue("2026-11-27T17:00:00+01:00"))
        #expect(tasks[0].extras == [Extra(key: "ical:PERCENT-COMPLETE", value: ":40"), Extra(key: "ical:CLASS", value: ":PUBLIC"),
                                    Extra(key: "ical:X-OC-HIDESUBTASKS", value: ":0"),
                                    Extra(key: "ical:STATUS", value: ":IN-PROCESS")])
        #expect(tasks[1].extras == [Extra(key: "ical:PERCENT-COMPLETE", value: ":100"),
                                    Extra(key: "ical:CLASS", value: ":CONFIDENTIAL"),
                                    Extra(key: "ical:X-OC-HIDESUBTASKS", value: ":1"),
                                    Extra(key: "ical:PRIORITY", value: ":3")])
        #expect(tasks[2].due == icsDue("2026-11-26"))
        #expect(reading.losses.isEmpty)
    }

    @Test func thunderbirdRoundTrips() throws {
        let reading = try roundTrip(thunderbird)
        #expect(reading.document.lists.isEmpty)
        let tasks = reading.document.tasks
        #expect(tasks.map(\.list) == [nil, nil])
        #expect(tasks[0].due == icsDue("2026-11-24T17:00:00+01:00"))
        #expect(tasks[0].alerts.isEmpty)
        #expect(tasks[0].extras == [
            Extra(key: "ical:X-MOZ-GENERATION", value: ":3"),
            Extra(key: "ical:DTSTART", value: ";TZID=Europe/Berlin:20261120T090000"),
            Extra(key: "ical:PERCENT-COMPLETE", value: ":0"),
            Extra(key: "ical:SEQUENCE", value: ":2"),
            Extra(key: "ical:X-MOZ-LASTACK", value: ":20261103T080000Z"),
            Extra(key: "ical:VALARM", value: thunderbirdAlarm.joined(separator: "\n")),
            Extra(key: "ical:VTIMEZONE", value: berlinMozilla.joined(separator: "\n")),
        ])
        #expect(tasks[1].due == icsDue("2026-11-25T10:00:00-05:00"))
        #expect(tasks[1].alerts == [.offset(minutes: -60)])
        #expect(tasks[1].extras == [Extra(key: "ical:X-MOZ-GENERATION", value: ":1")])
        #expect(reading.losses.map(\.description) == [
            "1 task: alarms taskls cannot represent: kept, not used (taskls alerts are DISPLAY alarms at a time or relative to the due, without repeats)"])
    }
}
