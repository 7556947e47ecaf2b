// TaskText: one task as the calendar object a CalDAV server keeps (a VCALENDAR holding one VTODO), both ways.

import Domain
import Interchange

/// Turns a task into the iCalendar text of its calendar object and back, with the user's time zones.
public struct TaskText: Sendable {
    /// The zones a VTODO's `TZID` may name.
    public var zones: any ZoneDatabase
    /// The user's time zone and its name (a due with a time is written in it, with its `VTIMEZONE`).
    public var localZone: any ZoneOffsets & Sendable
    public var localZoneName: String?

    public init(zones: any ZoneDatabase, localZone: any ZoneOffsets & Sendable, localZoneName: String?) {
        self.zones = zones
        self.localZone = localZone
        self.localZoneName = localZoneName
    }

    /// The calendar object of `task`: one VCALENDAR, its one VTODO (no list name: the calendar is the list), and
    /// the `VTIMEZONE`s its dates use. `DTSTAMP` is `now`.
    public func text(of task: ExchangeTask, now: Timestamp) -> String {
        var task = task
        task.list = nil
        return ICalendarFormat.write(ExchangeDocument(tasks: [task]),
                                     options: WriteOptions(localZone: localZone, localZoneName: localZoneName, now: now)).text
    }

    /// The task a calendar object holds; nil when it cannot be read or holds no single task with a uid (a
    /// malformed object, an event, a recurring task's overridden instances).
    public func task(in text: String, href: String) -> ExchangeTask? {
        let options = ReadOptions(fileName: href, localZone: localZone, zones: zones, keepsParentsOutside: true)
        guard let reading = try? ICalendarFormat.read(text, options: options), reading.document.tasks.count == 1,
              var task = reading.document.tasks.first, task.uid != nil else { return nil }
        task.list = nil
        task.line = 0
        return task
    }
}
