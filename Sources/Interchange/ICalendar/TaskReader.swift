// TaskReader: one VTODO read into an `ExchangeTask`: the properties taskls has fields for, the alarms it can
// represent, and every other property or component kept as an `ical:` extra.

import Domain

extension ICalendarFormat {
    /// A task read from a VTODO, with what is wrong with it and where its UID and parent link are.
    struct ReadTask {
        /// The task.
        var task: ExchangeTask
        /// What is wrong with it (an invalid task is refused, or skipped with `skipInvalid`).
        var problems: [ExchangeProblem]
        /// The line of its UID.
        var uidLine: Int
        /// The line of its RELATED-TO parent link.
        var parentLine: Int
        /// The parent link as written and where it goes among the extras, kept as an extra when the parent is not in
        /// the file.
        var parentExtra: (extra: Extra, index: Int)?
        /// What the task loses (what, why), each once; counted when the task is imported.
        var losses: [(what: String, reason: String)] = []

        /// Notes a loss of this task (once, however often it is met).
        mutating func lose(_ what: String, because reason: String) {
            if !losses.contains(where: { $0.what == what && $0.reason == reason }) { losses.append((what, reason)) }
        }
    }

    /// What reading one calendar's tasks needs: the options, its zones and VTIMEZONEs, and the losses of what is not
    /// a task.
    struct TaskReader {
        let options: ReadOptions
        let structure: Structure
        /// The calendar's list name (nil: the import's default list).
        let list: String?
        /// The calendar's VTIMEZONE components by TZID (the first of each), kept with a task whose extras name one.
        let definitions: [String: Component]
        var zones: ZoneNames
        /// What the calendar loses beside its tasks (changed occurrences).
        var losses: LossTally

        /// The properties a task's own fields come from (the first of each; a second is kept as an extra).
        static let readProperties: Set<String> = [
            "UID", "SUMMARY", "DESCRIPTION", "STATUS", "COMPLETED", "CREATED", "LAST-MODIFIED", "DTSTAMP", "DUE",
            "PRIORITY", "RRULE", "X-TASKLS-REPEAT-FROM",
        ]

        /// The task a VTODO holds, or nil for one taskls does not take (a changed occurrence, `RECURRENCE-ID`).
        mutating func read(_ todo: Component) -> ReadTask? {
            if todo.property("RECURRENCE-ID") != nil {
                losses.add("changed occurrences of a repeating task (VTODO with RECURRENCE-ID)",
                           because: "taskls keeps one due per repeating task")
                return nil
            }
            var task = ExchangeTask(list: list, title: "", line: todo.line)
            var result = ReadTask(task: task, problems: todo.malformed.map { problem($0.line, nil, $0.message) },
                                  uidLine: todo.line, parentLine: todo.line)
            var first: [String: ContentLine] = [:]
            var extras: [Extra] = []
            var zonesNamed: [String] = []
            var textParameters = false
            var recurrenceExtras = false
            func keep(_ line: ContentLine) {
                extras.append(Extra(key: "ical:" + line.name, value: String(line.afterName)))
                if let tzid = line.parameter("TZID") { zonesNamed.append(tzid) }
            }
            for line in todo.properties {
                if Self.readProperties.contains(line.name), first[line.name] == nil {
                    first[line.name] = line
                    continue
                }
                switch line.name {
                case "CATEGORIES":
                    task.tags += TextValue.list(line.value).filter { !$0.isEmpty }
                    textParameters = textParameters || !line.parameters.isEmpty
                case "RELATED-TO" where (line.parameter("RELTYPE")?.uppercased() ?? "PARENT") == "PARENT"
                    && task.parentUID == nil:
                    task.parentUID = TextValue.unescape(line.value)
                    result.parentLine = line.line
                    result.parentExtra = (Extra(key: "ical:RELATED-TO", value: String(line.afterName)), extras.count)
                case "X-TASKLS-EXTRA":
                    if let key = line.parameter("KEY") {
                        extras.append(Extra(key: TextValue.decodeParameterValue(key), value: TextValue.unescape(line.value)))
                    } else {
                        keep(line)
                    }
                case "RRULE":
                    keep(line)
                    result.lose("repeat rules taskls cannot read: kept, not used", because: "taskls repeats a task by one rule")
                case "RDATE", "EXDATE", "EXRULE":
                    keep(line)
                    recurrenceExtras = true
                default:
                    keep(line)
                }
            }
            if recurrenceExtras {
                result.lose("extra and excluded dates of a repeating task (RDATE, EXDATE): kept, not used",
                           because: "taskls repeats by its rule alone")
            }
            if let line = first["UID"] {
                task.uid = TextValue.unescape(line.value)
                result.uidLine = line.line
            }
            if let line = first["SUMMARY"] {
                task.title = TextValue.unescape(line.value)
                textParameters = textParameters || !line.parameters.isEmpty
                if task.title.isEmpty {
                    result.problems.append(problem(line.line, "SUMMARY", "is empty: every task needs a title"))
                }
            } else {
                result.problems.append(problem(todo.line, "SUMMARY", "is missing: every task needs a title"))
            }
            if let line = first["DESCRIPTION"] {
                task.notes = TextValue.unescape(line.value)
                textParameters = textParameters || !line.parameters.isEmpty
            }
            if textParameters {
                result.lose("parameters of SUMMARY, DESCRIPTION or CATEGORIES (LANGUAGE, ALTREP…)",
                           because: "taskls keeps their text only")
            }
            task.createdAt = first["CREATED"].flatMap { instant($0, &result.problems) }
            task.modifiedAt = first["LAST-MODIFIED"].flatMap { instant($0, &result.problems) }
                ?? first["DTSTAMP"].flatMap { instant($0, &result.problems) }
            let completed = first["COMPLETED"].flatMap { instant($0, &result.problems) }
            readStatus(first["STATUS"], completedLine: first["COMPLETED"], completed: completed, into: &task, &extras)
            if let line = first["PRIORITY"] {
                readPriority(line, into: &task, &extras, &result.problems)
            }
            if let line = first["DUE"] {
                task.due = due(line, &result.problems)
            }
            readRepeat(first["RRULE"], anchorLine: first["X-TASKLS-REPEAT-FROM"], into: &task, &extras, &result)
            let start = startRelation(todo.property("DTSTART"), due: task.due)
            var kept: [Component] = []
            var alarmDetails = false
            for component in todo.components {
                if component.name == "VALARM", let alert = alert(component, start: start, details: &alarmDetails) {
                    task.alerts.append(alert)
                } else {
                    kept.append(component)
                    if component.name == "VALARM" {
                        result.lose("alarms taskls cannot represent: kept, not used",
                                   because: "taskls alerts are DISPLAY alarms at a time or relative to the due, without repeats")
                    }
                }
            }
            if alarmDetails {
                result.lose("alarm details (UID, ACKNOWLEDGED, X-… properties of a VALARM)",
                           because: "taskls keeps an alert's time only")
            }
            for component in kept {
                extras.append(Extra(key: "ical:" + component.name, value: structure.text(of: component)))
                zonesNamed += Self.zonesNamed(in: component)
            }
            var zonesKept: Set<String> = []
            for tzid in zonesNamed where zonesKept.insert(tzid).inserted {
                if let definition = definitions[tzid] {
                    extras.append(Extra(key: "ical:VTIMEZONE", value: structure.text(of: definition)))
                }
            }
            task.extras = extras
            result.task = task
            return result
        }

        /// STATUS and COMPLETED: done for COMPLETED and CANCELLED (or, without STATUS, when COMPLETED has a time);
        /// the STATUS kept as an extra when writing the task back would not give it (IN-PROCESS, CANCELLED, an
        /// X- status), and COMPLETED kept as an extra on a task that is not done.
        private func readStatus(_ line: ContentLine?, completedLine: ContentLine?, completed: Timestamp?,
                                into task: inout ExchangeTask, _ extras: inout [Extra]) {
            let status = line.map { $0.trimmedValue.uppercased() }
            switch status {
            case nil: task.done = completed != nil
            case "COMPLETED"?, "CANCELLED"?: task.done = true
            default: task.done = false
            }
            if let line, !line.parameters.isEmpty || !(status == "COMPLETED" || status == "NEEDS-ACTION") {
                extras.append(Extra(key: "ical:STATUS", value: String(line.afterName)))
            }
            if task.done {
                task.completedAt = completed
            } else if let completedLine {
                extras.append(Extra(key: "ical:COMPLETED", value: String(completedLine.afterName)))
            }
        }

        /// PRIORITY: 1–4 high, 5 medium, 6–9 low, 0 none; a number export would not write back (2, 3, 4, 6, 7, 8)
        /// kept as an extra.
        private func readPriority(_ line: ContentLine, into task: inout ExchangeTask, _ extras: inout [Extra],
                                  _ problems: inout [ExchangeProblem]) {
            guard let number = Int(line.trimmedValue), (0...9).contains(number) else {
                problems.append(problem(line.line, "PRIORITY", "\(quoted(line.value)) is not a number from 0 to 9"))
                return
            }
            task.priority = Self.priority(number)
            if ![0, 1, 5, 9].contains(number) || !line.parameters.isEmpty {
                extras.append(Extra(key: "ical:PRIORITY", value: String(line.afterName)))
            }
        }

        /// The priority a PRIORITY number means.
        static func priority(_ number: Int) -> Priority {
            switch number {
            case 1...4: .high
            case 5: .medium
            case 6...9: .low
            default: .none
            }
        }

        /// RRULE as the repeat rule (counting from the due, or from what X-TASKLS-REPEAT-FROM says); one taskls
        /// cannot read is kept as an extra, and so is an X-TASKLS-REPEAT-FROM without a rule it applies to.
        private func readRepeat(_ line: ContentLine?, anchorLine: ContentLine?, into task: inout ExchangeTask,
                                _ extras: inout [Extra], _ result: inout ReadTask) {
            let anchor = anchorLine.flatMap { RepeatRule.Anchor(rawValue: String($0.trimmedValue)) }
            if let line {
                if let rule = try? RepeatRule(rrule: String(line.trimmedValue), anchor: anchor ?? .due) {
                    task.repeatRule = rule
                } else {
                    extras.append(Extra(key: "ical:RRULE", value: String(line.afterName)))
                    result.lose("repeat rules taskls cannot read: kept, not used",
                               because: "taskls repeats by FREQ (DAILY to YEARLY), INTERVAL, BYMONTH, BYMONTHDAY, BYDAY, WKST, COUNT and UNTIL")
                }
            }
            if let anchorLine, task.repeatRule == nil || anchor == nil {
                extras.append(Extra(key: "ical:X-TASKLS-REPEAT-FROM", value: String(anchorLine.afterName)))
            }
        }

        /// DUE: `VALUE=DATE` a day; a UTC time read with the local zone's offset then; a time with TZID read in that
        /// zone; a floating time in the local zone.
        private mutating func due(_ line: ContentLine, _ problems: inout [ExchangeProblem]) -> Due? {
            do throws(ExchangeProblem) {
                return try dateTime(line)
            } catch {
                problems.append(error)
                return nil
            }
        }

        /// An instant (COMPLETED, CREATED, LAST-MODIFIED, DTSTAMP): UTC as they should be, else read like a due
        /// (a day is its local midnight).
        private mutating func instant(_ line: ContentLine, _ problems: inout [ExchangeProblem]) -> Timestamp? {
            do throws(ExchangeProblem) {
                switch try dateTime(line) {
                case .dateTime(let instant, _): return instant
                case .date(let date): return options.localZone.dateTime(on: date, at: 0).due.instant
                }
            } catch {
                problems.append(error)
                return nil
            }
        }

        /// A DATE or DATE-TIME property as a due (see `due`).
        private mutating func dateTime(_ line: ContentLine) throws(ExchangeProblem) -> Due {
            let value: DateValue
            do {
                value = try dateValue(line.trimmedValue, dateOnly: line.parameter("VALUE")?.uppercased() == "DATE")
            } catch {
                throw problem(line.line, line.name, error.message)
            }
            let result: Due
            switch value {
            case .date(let date):
                return .date(date)
            case .utc(let instant):
                result = .dateTime(instant, offsetSeconds: options.localZone.offsetSeconds(at: instant))
            case .local(let date, let millisecond):
                if let tzid = line.parameter("TZID") {
                    guard let zone = zones.zone(named: tzid) else {
                        throw problem(line.line, "TZID", "unknown time zone \"\(tzid)\"")
                    }
                    result = zone.dateTime(on: date, at: millisecond).due
                } else {
                    result = options.localZone.dateTime(on: date, at: millisecond).due
                }
            }
            guard (-62_135_596_800_000...253_402_300_799_999).contains(result.instant.milliseconds) else {
                throw problem(line.line, line.name, "\(line.trimmedValue) is outside the years 1 to 9999 in UTC")
            }
            return result
        }

        /// How a VTODO's DTSTART stands to its due, for alarms relative to the start.
        enum StartRelation {
            /// No DTSTART: a trigger relative to the start counts from the due (as Apple and Nextcloud mean it).
            case none
            /// DTSTART is the due (the same day, or the same instant).
            case due
            /// DTSTART is another time: taskls has no field for it.
            case other
        }

        private mutating func startRelation(_ line: ContentLine?, due: Due?) -> StartRelation {
            guard let line else { return .none }
            guard let due, let start = try? dateTime(line) else { return .other }
            switch (start, due) {
            case (.date(let left), .date(let right)): return left == right ? .due : .other
            case (.dateTime(let left, _), .dateTime(let right, _)): return left == right ? .due : .other
            default: return .other
            }
        }

        /// The alert a VALARM means, or nil when taskls cannot represent it (kept whole as an extra): an ACTION other
        /// than DISPLAY, a REPEAT or DURATION, a trigger that is not whole minutes, or one relative to a DTSTART that
        /// is not the due. `details` is set when the alarm has properties beyond ACTION, TRIGGER, DESCRIPTION and
        /// SUMMARY, which the alert does not keep.
        private func alert(_ alarm: Component, start: StartRelation, details: inout Bool) -> Alert? {
            guard alarm.components.isEmpty, alarm.property("ACTION")?.trimmedValue.uppercased() == "DISPLAY",
                  alarm.property("DURATION") == nil,
                  alarm.property("REPEAT").map({ Int($0.trimmedValue) == 0 }) ?? true,
                  let trigger = alarm.property("TRIGGER") else { return nil }
            let alert: Alert
            if trigger.parameter("VALUE")?.uppercased() == "DATE-TIME" {
                switch try? dateValue(trigger.trimmedValue) {
                case .utc(let instant)?: alert = .at(instant)
                case .local(let date, let millisecond)?:
                    alert = .at(options.localZone.dateTime(on: date, at: millisecond).due.instant)
                default: return nil
                }
            } else {
                guard let seconds = duration(trigger.trimmedValue), seconds % 60 == 0,
                      abs(seconds / 60) <= Int64(Alert.maximumOffsetMinutes) else { return nil }
                switch trigger.parameter("RELATED")?.uppercased() ?? "START" {
                case "END": break
                case "START" where start != .other: break
                default: return nil
                }
                alert = .offset(minutes: Int(seconds / 60))
            }
            let plain: Set<String> = ["ACTION", "TRIGGER", "DESCRIPTION", "SUMMARY", "REPEAT"]
            if alarm.properties.contains(where: { !plain.contains($0.name) }) { details = true }
            return alert
        }

        /// The TZIDs a component's properties name, at any depth.
        static func zonesNamed(in component: Component) -> [String] {
            component.properties.compactMap { $0.parameter("TZID") } + component.components.flatMap(zonesNamed)
        }

        /// A problem of this file.
        func problem(_ line: Int, _ field: String?, _ message: String) -> ExchangeProblem {
            ExchangeProblem(file: options.fileName, line: line, field: field, message: message)
        }
    }
}

fileprivate extension Due {
    /// The instant a due stands for: a day's is its midnight in UTC (used only to check the range).
    var instant: Timestamp {
        switch self {
        case .date(let date): Timestamp(milliseconds: date.daysSinceEpoch * 86_400_000)
        case .dateTime(let instant, _): instant
        }
    }
}
