// CalendarWriter: a document written as iCalendar: one VCALENDAR per list, with the VTIMEZONEs its dues and its
// tasks' extras use, then its tasks' VTODOs in order.

import Domain

extension ICalendarFormat {
    /// Writes a document (see `ICalendarFormat.write`).
    struct CalendarWriter {
        let options: WriteOptions

        /// One list's calendar being written: the list (nil: tasks of no list), its tasks and how their dues are written.
        private struct Calendar {
            let list: ExchangeList?
            var tasks: [ExchangeTask] = []
            var forms: [DueForm?] = []
        }

        func write(_ document: ExchangeDocument) -> ExchangeWriting {
            var calendars: [Calendar] = []
            var index: [String?: Int] = [:]
            for list in document.lists where index[list.name] == nil {
                index[list.name] = calendars.count
                calendars.append(Calendar(list: list))
            }
            for task in document.tasks {
                if index[task.list] == nil {
                    index[task.list] = calendars.count
                    calendars.append(Calendar(list: task.list.map { ExchangeList(name: $0) }))
                }
                calendars[index[task.list]!].tasks.append(task)
                calendars[index[task.list]!].forms.append(task.due.map(form))
            }
            if calendars.isEmpty { calendars.append(Calendar(list: nil)) }
            let localZone = localZoneLines(&calendars)
            var losses = LossTally()
            var writer = LineWriter()
            for calendar in calendars {
                writeCalendar(calendar, localZone: localZone, to: &writer, &losses)
            }
            for _ in document.smartLists {
                losses.add("smart lists", because: "iCalendar has no smart lists")
            }
            return ExchangeWriting(text: writer.text, losses: losses.losses)
        }

        /// One VCALENDAR: the list's name, color and icon, the zones, the tasks.
        private func writeCalendar(_ calendar: Calendar, localZone: [String]?, to writer: inout LineWriter,
                                   _ losses: inout LossTally) {
            writer.line("BEGIN:VCALENDAR")
            writer.line("VERSION:2.0")
            writer.line("PRODID:-//taskls//taskls//EN")
            writer.line("CALSCALE:GREGORIAN")
            if let list = calendar.list {
                writer.text("X-WR-CALNAME", list.name)
                if let color = list.color { writer.text(color.hasPrefix("#") ? "X-APPLE-CALENDAR-COLOR" : "COLOR", color) }
                if let icon = list.icon { writer.text("X-TASKLS-ICON", icon) }
            }
            for lines in zones(calendar, localZone: localZone) {
                for line in lines { writer.line(line) }
            }
            let taskWriter = TaskWriter(options: options)
            for (task, form) in zip(calendar.tasks, calendar.forms) {
                taskWriter.write(task, due: form, to: &writer, &losses)
            }
            writer.line("END:VCALENDAR")
        }

        /// How a due is written. A day: `VALUE=DATE`. A time whose offset is the local zone's then: in the local zone
        /// by its name when `localZoneName` is given (and the wall-clock reading names that instant: not the second
        /// pass of an hour the clocks repeat), else in UTC, which a reader gives back in the local zone. A time with
        /// another offset: in a zone of that fixed offset (`UTC+0530`), so a reader gives back the offset too.
        /// Milliseconds are dropped.
        func form(_ due: Due) -> DueForm {
            switch due {
            case .date(let date):
                return .date(date)
            case .dateTime(let instant, let offset):
                let whole = Self.wholeSecond(instant)
                let (date, millisecond) = split(whole.milliseconds + Int64(offset) * 1000)
                guard offset == options.localZone.offsetSeconds(at: whole) else {
                    return .zoned(tzid: fixedZoneName(offset), date: date, millisecond: millisecond)
                }
                if let name = options.localZoneName,
                   options.localZone.dateTime(on: date, at: millisecond).due == .dateTime(whole, offsetSeconds: offset) {
                    return .zoned(tzid: name, date: date, millisecond: millisecond)
                }
                return .utc(whole)
            }
        }

        /// The local zone's VTIMEZONE, the same in every calendar of the file (vobject keeps one zone a TZID for the
        /// whole file): a task's kept copy when it gives every due written in the zone back, else one made from
        /// `options.localZone` over the years those dues span (and now); a due it would not give back is written in
        /// UTC instead. Nil when no due is written in the local zone.
        /// - Complexity: O(days in the years scanned) offset lookups, at most 300 years' worth.
        private func localZoneLines(_ calendars: inout [Calendar]) -> [String]? {
            guard let name = options.localZoneName else { return nil }
            var uses: [(calendar: Int, task: Int)] = []
            for (calendarIndex, calendar) in calendars.enumerated() {
                for (taskIndex, form) in calendar.forms.enumerated() {
                    if case .zoned(name, _, _)? = form { uses.append((calendarIndex, taskIndex)) }
                }
            }
            guard !uses.isEmpty else { return nil }
            func givesBack(_ use: (calendar: Int, task: Int), _ zone: DefinedZone) -> Bool {
                Self.givesBack(calendars[use.calendar].forms[use.task]!, calendars[use.calendar].tasks[use.task].due!, zone)
            }
            let copy = calendars.lazy.flatMap(\.tasks).flatMap(\.extras).first { extra in
                guard extra.key == "ical:VTIMEZONE", case .zone = TaskWriter.form(of: extra) else { return false }
                return Self.zoneID(extra.value) == name
            }
            if let copy, let defined = definedZone(lines: Self.lines(copy.value)),
               uses.allSatisfy({ givesBack($0, defined.zone) }) {
                return Self.lines(copy.value)
            }
            let years = uses.map { use -> Int in
                guard case .zoned(_, let date, _)? = calendars[use.calendar].forms[use.task] else { return 1970 }
                return date.year
            }
            // Scanning costs a lookup a day: over 300 years, the 150 either side of now (a due beyond them that the
            // zone's last rules do not give back is written in UTC, below).
            let nowYear = split(options.now.milliseconds).date.year
            var lower = max(2, years.min()! - 1)
            var upper = min(9998, max(years.max()!, nowYear) + 1)
            if upper - lower > 300 {
                lower = max(lower, nowYear - 150)
                upper = max(lower, min(upper, nowYear + 150))
            }
            let range = lower...upper
            let lines = zoneLines(tzid: name, zone: options.localZone, years: range)
            guard let zone = definedZone(lines: lines)?.zone else { return nil }
            var used = false
            for use in uses {
                if givesBack(use, zone) {
                    used = true
                } else if case .dateTime(let instant, _)? = calendars[use.calendar].tasks[use.task].due {
                    calendars[use.calendar].forms[use.task] = .utc(Self.wholeSecond(instant))
                }
            }
            return used ? lines : nil
        }

        /// The VTIMEZONEs a calendar uses, in order: the local zone's, the fixed offsets' its dues use, then the
        /// zones its tasks' extras name, kept from their file (the first copy of each TZID).
        private func zones(_ calendar: Calendar, localZone: [String]?) -> [[String]] {
            var result: [[String]] = []
            var written: Set<String> = []
            if let localZone, let name = options.localZoneName,
               calendar.forms.contains(where: { if case .zoned(name, _, _)? = $0 { true } else { false } }) {
                result.append(localZone)
                written.insert(name)
            }
            var offsets: Set<Int> = []
            for (form, task) in zip(calendar.forms, calendar.tasks) {
                guard case .zoned(let tzid, _, _)? = form, tzid != options.localZoneName,
                      case .dateTime(_, let offset)? = task.due else { continue }
                offsets.insert(offset)
            }
            for offset in offsets.sorted() {
                result.append(fixedZoneLines(offset))
                written.insert(fixedZoneName(offset))
            }
            for extra in calendar.tasks.flatMap(\.extras) where extra.key == "ical:VTIMEZONE" {
                guard case .zone = TaskWriter.form(of: extra), let tzid = Self.zoneID(extra.value),
                      written.insert(tzid).inserted else { continue }
                result.append(Self.lines(extra.value))
            }
            return result
        }

        /// Whether a reader reading `form` in `zone` gets `due` back (to the second).
        private static func givesBack(_ form: DueForm, _ due: Due, _ zone: DefinedZone) -> Bool {
            guard case .zoned(_, let date, let millisecond) = form, case .dateTime(let instant, let offset) = due else {
                return false
            }
            return zone.dateTime(on: date, at: millisecond).due == .dateTime(wholeSecond(instant), offsetSeconds: offset)
        }

        /// The instant with its milliseconds dropped (rounded down).
        static func wholeSecond(_ instant: Timestamp) -> Timestamp {
            Timestamp(milliseconds: instant.milliseconds - (instant.milliseconds % 1000 + 1000) % 1000)
        }

        /// The lines of a component kept as text.
        private static func lines(_ text: String) -> [String] {
            text.split(separator: "\n").map(String.init)
        }

        /// The TZID of a VTIMEZONE kept as text.
        static func zoneID(_ text: String) -> String? {
            let lines = text.split(separator: "\n").enumerated().map {
                LogicalLine(text: String($0.element), line: $0.offset + 1)
            }
            return structure(of: lines, top: "VTIMEZONE").components.first?.property("TZID").map { String($0.trimmedValue) }
        }
    }
}
