// TaskWriter: one task written as a VTODO: its fields as properties, its alerts as VALARMs, its extras written
// back where they came from (`ical:` ones as the property or component they were, others as X-TASKLS-EXTRA).

import Domain

extension ICalendarFormat {
    /// How a due is written: a day, a UTC time, or a wall-clock reading in a zone the calendar defines.
    enum DueForm: Equatable {
        /// `DUE;VALUE=DATE:20261124`.
        case date(CalendarDate)
        /// `DUE:20261124T083000Z`.
        case utc(Timestamp)
        /// `DUE;TZID=Europe/Berlin:20261124T093000`.
        case zoned(tzid: String, date: CalendarDate, millisecond: Int64)
    }

    /// An extra as it is written.
    enum ExtraForm {
        /// A property line: `NAME` and the extra's value (`;PARAMS:value`).
        case property(String)
        /// A component kept whole: its lines.
        case component(String)
        /// A VTIMEZONE (with a TZID) a task's extras use: written once in its calendar, before the tasks.
        case zone
    }

    /// Writes tasks as VTODOs.
    struct TaskWriter {
        let options: WriteOptions

        /// Writes `task`'s VTODO with its due written as `form`.
        func write(_ task: ExchangeTask, due form: DueForm?, to writer: inout LineWriter, _ losses: inout LossTally) {
            writer.line("BEGIN:VTODO")
            if let uid = task.uid { writer.text("UID", uid) }
            writer.line("DTSTAMP:" + compactUTC(options.now))
            if let created = task.createdAt { writer.line("CREATED:" + compactUTC(created)) }
            if let modified = task.modifiedAt { writer.line("LAST-MODIFIED:" + compactUTC(modified)) }
            writer.text("SUMMARY", task.title)
            if !task.notes.isEmpty { writer.text("DESCRIPTION", task.notes) }
            let (extras, status, priority) = Self.extrasWritten(task)
            if !status { writer.line("STATUS:" + (task.done ? "COMPLETED" : "NEEDS-ACTION")) }
            if task.done, let completed = task.completedAt { writer.line("COMPLETED:" + compactUTC(completed)) }
            if !priority, task.priority != .none { writer.line("PRIORITY:" + Self.priorityNumber(task.priority)) }
            switch form {
            case .date(let date)?: writer.line("DUE;VALUE=DATE:" + compact(date))
            case .utc(let instant)?: writer.line("DUE:" + compactUTC(instant))
            case .zoned(let tzid, let date, let millisecond)?:
                writer.line("DUE;TZID=" + TextValue.parameterValue(tzid) + ":" + compact(date, millisecond: millisecond))
            case nil: break
            }
            if !task.tags.isEmpty { writer.line("CATEGORIES:" + task.tags.map(TextValue.escape).joined(separator: ",")) }
            if let parent = task.parentUID { writer.text("RELATED-TO;RELTYPE=PARENT", parent) }
            if let rule = task.repeatRule {
                writer.line("RRULE:" + rule.rrule)
                if rule.anchor != .due { writer.line("X-TASKLS-REPEAT-FROM:" + rule.anchor.rawValue) }
            }
            var components: [String] = []
            for extra in extras {
                switch Self.form(of: extra) {
                case .property(let line): writer.line(line)
                case .component(let text): components.append(text)
                case .zone: continue
                }
            }
            for alert in task.alerts {
                writer.line("BEGIN:VALARM")
                writer.line("ACTION:DISPLAY")
                writer.text("DESCRIPTION", task.title)
                switch alert {
                case .offset(let minutes): writer.line("TRIGGER;RELATED=END:" + durationText(minutes: minutes))
                case .at(let instant): writer.line("TRIGGER;VALUE=DATE-TIME:" + compactUTC(instant))
                }
                writer.line("END:VALARM")
            }
            for text in components { writer.component(text) }
            writer.line("END:VTODO")
            countLosses(task, &losses)
        }

        /// What the file cannot say of a task: a repeating task's history, milliseconds of its due or alert times,
        /// carriage returns in its text.
        private func countLosses(_ task: ExchangeTask, _ losses: inout LossTally) {
            if task.occurrences != .none {
                losses.add("a repeating task's history", because: "iCalendar keeps no record of completed occurrences")
            }
            var instants: [Timestamp] = task.alerts.compactMap { if case .at(let instant) = $0 { instant } else { nil } }
            if case .dateTime(let instant, _)? = task.due { instants.append(instant) }
            if instants.contains(where: { $0.milliseconds % 1000 != 0 }) {
                losses.add("milliseconds of due and alert times", because: "iCalendar times are whole seconds")
            }
            if ([task.title, task.notes] + task.tags).contains(where: { $0.utf8.contains(TextValue.carriageReturn) }) {
                losses.add("carriage returns in titles, notes or tags", because: "iCalendar text has line feeds only")
            }
        }

        /// The PRIORITY written for a priority: 1 high, 5 medium, 9 low.
        static func priorityNumber(_ priority: Priority) -> String {
            switch priority {
            case .high: "1"
            case .medium: "5"
            case .low: "9"
            case .none: "0"
            }
        }

        /// The extras written, and whether a kept STATUS and a kept PRIORITY stand for the computed ones.
        ///
        /// The first `ical:STATUS` is written instead of the computed STATUS when it agrees with `done` (IN-PROCESS
        /// or an X- status for a task not done, CANCELLED for one done) and dropped when it does not; the first
        /// `ical:PRIORITY` likewise when its number means the task's priority. `ical:COMPLETED` is written for a task
        /// not done only; `ical:RRULE` and `ical:X-TASKLS-REPEAT-FROM` only for a task without a repeat rule.
        static func extrasWritten(_ task: ExchangeTask) -> (extras: [Extra], status: Bool, priority: Bool) {
            var status: Bool?
            var priority: Bool?
            var written: [Extra] = []
            for extra in task.extras {
                switch extra.key {
                case "ical:STATUS" where status == nil:
                    let value = propertyValue(extra)?.uppercased()
                    let done = value == "COMPLETED" || value == "CANCELLED"
                    status = value != nil && done == task.done
                    if status! { written.append(extra) }
                case "ical:PRIORITY" where priority == nil:
                    let number = propertyValue(extra).flatMap { Int($0) }
                    priority = number.map { (0...9).contains($0) && TaskReader.priority($0) == task.priority } ?? false
                    if priority! { written.append(extra) }
                case "ical:COMPLETED" where task.done:
                    continue
                case "ical:RRULE" where task.repeatRule != nil, "ical:X-TASKLS-REPEAT-FROM" where task.repeatRule != nil:
                    continue
                default:
                    written.append(extra)
                }
            }
            return (written, status ?? false, priority ?? false)
        }

        /// The value of a property kept as an extra (after its parameters), trimmed; nil when it is not one.
        static func propertyValue(_ extra: Extra) -> String? {
            guard case .success(let line) = parse(LogicalLine(text: String(extra.name) + extra.value, line: 0)) else {
                return nil
            }
            return String(line.trimmedValue)
        }

        /// How an extra is written: an `ical:` extra as the property or the component it was, when it still reads as
        /// one (a name of letters, digits and dashes, not BEGIN or END; a value of parameters and a value on one line,
        /// or a whole component); anything else as `X-TASKLS-EXTRA;KEY=<key>:<value>` (the value as TEXT), which a
        /// read gives back as the same extra.
        static func form(of extra: Extra) -> ExtraForm {
            if extra.format == "ical", extra.name != "BEGIN", extra.name != "END" {
                let name = String(extra.name)
                if extra.value.hasPrefix("BEGIN:") {
                    let lines = extra.value.split(separator: "\n").enumerated().map {
                        LogicalLine(text: String($0.element), line: $0.offset + 1)
                    }
                    let structure = structure(of: lines, top: name)
                    if structure.problems.isEmpty, structure.components.count == 1, !name.isEmpty {
                        let zone = name == "VTIMEZONE" && structure.components[0].property("TZID") != nil
                        return zone ? .zone : .component(extra.value)
                    }
                } else if extra.value.first == ";" || extra.value.first == ":",
                          !extra.value.utf8.contains(where: { $0 == TextValue.lineFeed || $0 == TextValue.carriageReturn }),
                          case .success(let line) = parse(LogicalLine(text: name + extra.value, line: 0)), line.name == name {
                    return .property(name + extra.value)
                }
            }
            return .property("X-TASKLS-EXTRA;KEY=" + TextValue.parameterValue(extra.key) + ":" + TextValue.escape(extra.value))
        }
    }
}
