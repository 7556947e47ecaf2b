// CalendarWriter: a document written as iCalendar: one VCALENDAR per list, with the VTIMEZONEs its dues and its
// tasks' extras use, then its tasks' VTODOs in order.

import Domain

extension ICalendarFormat {
    /// Writes a document (see `ICalendarFormat.write`).
    struct CalendarWriter {
        let options: WriteOptions

        func write(_ document: ExchangeDocument) -> ExchangeWriting {
            var losses = LossTally()
            var order: [String?] = []
            var groups: [String?: [ExchangeTask]] = [:]
            for list in document.lists where groups[list.name] == nil {
                order.append(list.name)
                groups[list.name] = []
            }
            for task in document.tasks {
                if groups[task.list] == nil {
                    order.append(task.list)
                    groups[task.list] = []
                }
                groups[task.list]!.append(task)
            }
            if order.isEmpty {
                let noList: String? = nil
                order.append(noList)
                groups[noList] = []
            }
            var writer = LineWriter()
            for name in order {
                let list = document.lists.first { $0.name == name } ?? name.map { ExchangeList(name: $0) }
                writeCalendar(list, tasks: groups[name]!, to: &writer, &losses)
            }
            for _ in document.smartLists {
                losses.add("smart lists", because: "iCalendar has no smart lists")
            }
            return ExchangeWriting(text: writer.text, losses: losses.losses)
        }

        /// One VCALENDAR: the list's name, color and icon, the zones, the tasks.
        private func writeCalendar(_ list: ExchangeList?, tasks: [ExchangeTask], to writer: inout LineWriter,
                                   _ losses: inout LossTally) {
            writer.line("BEGIN:VCALENDAR")
            writer.line("VERSION:2.0")
            writer.line("PRODID:-//taskls//taskls//EN")
            writer.line("CALSCALE:GREGORIAN")
            if let list {
                writer.text("X-WR-CALNAME", list.name)
                if let color = list.color { writer.text(color.hasPrefix("#") ? "X-APPLE-CALENDAR-COLOR" : "COLOR", color) }
                if let icon = list.icon { writer.text("X-TASKLS-ICON", icon) }
            }
            var forms = tasks.map { $0.due.map(form) }
            for lines in zones(tasks, &forms) {
                for line in lines { writer.line(line) }
            }
            let taskWriter = TaskWriter(options: options)
            for (task, form) in zip(tasks, forms) {
                taskWriter.write(task, due: form, to: &writer, &losses)
            }
            writer.line("END:VCALENDAR")
        }

        /// How a due is written. A day: `VALUE=DATE`. A time whose offset is the local zone's then: in the local zone
        /// by its name when `localZoneName` is given (and the wall-clock reading names that instant: not the second
        /// pass of an hour the clocks repeat), else in UTC, which a reader gives back in the local zone. A time with
        /// another offset: in a zone of that fixed offset (`UTC+05:30`), so a reader gives back the offset too.
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

        /// The VTIMEZONEs a calendar's tasks use, in order: the local zone's (a task's kept copy when it gives every
        /// due written in it back, else one made from `options.localZone`; a due it would not give back is written in
        /// UTC instead), the fixed offsets', then the zones the tasks' extras name, kept from their file.
        private func zones(_ tasks: [ExchangeTask], _ forms: inout [DueForm?]) -> [[String]] {
            var kept: [(tzid: String, lines: [String])] = []
            for task in tasks {
                for extra in task.extras where extra.key == "ical:VTIMEZONE" {
                    guard case .zone = TaskWriter.form(of: extra), let tzid = Self.zoneID(extra.value),
                          !kept.contains(where: { $0.tzid == tzid }) else { continue }
                    kept.append((tzid, extra.value.split(separator: "\n").map(String.init)))
                }
            }
            var result: [[String]] = []
            var written: Set<String> = []
            if let name = options.localZoneName {
                let uses = forms.indices.filter { if case .zoned(name, _, _)? = forms[$0] { true } else { false } }
                if !uses.isEmpty {
                    var lines: [String]
                    var zone: DefinedZone?
                    if let copy = kept.first(where: { $0.tzid == name }), let defined = definedZone(lines: copy.lines),
                       uses.allSatisfy({ Self.givesBack(forms[$0]!, tasks[$0].due!, defined.zone) }) {
                        lines = copy.lines
                    } else {
                        let years = uses.map { index -> Int in
                            guard case .zoned(_, let date, _)? = forms[index] else { return 1970 }
                            return date.year
                        }
                        let nowYear = split(options.now.milliseconds).date.year
                        let range = max(2, years.min()! - 1)...min(9998, max(years.max()!, nowYear) + 1)
                        lines = zoneLines(tzid: name, zone: options.localZone, years: range)
                        zone = definedZone(lines: lines)?.zone
                    }
                    for index in uses {
                        guard let zone, case .dateTime(let instant, _)? = tasks[index].due else { break }
                        if !Self.givesBack(forms[index]!, tasks[index].due!, zone) {
                            forms[index] = .utc(Self.wholeSecond(instant))
                        }
                    }
                    if forms.contains(where: { if case .zoned(name, _, _)? = $0 { true } else { false } }) {
                        result.append(lines)
                        written.insert(name)
                    }
                }
            }
            var offsets: Set<Int> = []
            for (form, task) in zip(forms, tasks) {
                guard case .zoned(let tzid, _, _)? = form, tzid != options.localZoneName,
                      case .dateTime(_, let offset)? = task.due else { continue }
                offsets.insert(offset)
            }
            for offset in offsets.sorted() {
                result.append(fixedZoneLines(offset))
                written.insert(fixedZoneName(offset))
            }
            for zone in kept where written.insert(zone.tzid).inserted {
                result.append(zone.lines)
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

        /// The TZID of a VTIMEZONE kept as text.
        static func zoneID(_ text: String) -> String? {
            let lines = text.split(separator: "\n").enumerated().map {
                LogicalLine(text: String($0.element), line: $0.offset + 1)
            }
            return structure(of: lines, top: "VTIMEZONE").components.first?.property("TZID").map { String($0.trimmedValue) }
        }
    }
}
