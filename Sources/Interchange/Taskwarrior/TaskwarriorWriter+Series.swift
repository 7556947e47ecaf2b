// Writing a repeating task: a recurrence template (and the kept instances after it). A series read from
// Taskwarrior and not changed comes back as it was; one taskls moved on (completed, skipped) closes the instances
// it passed and marks the mask, so Taskwarrior makes the next one itself.

import Domain
import Wire

extension TaskwarriorWriter {
    /// Writes a task that repeats or carries a series.
    ///
    /// - Done: the series ended: the template `completed`, its pending instances closed.
    /// - Repeating by a period Taskwarrior has, the same as the kept one, with the due on the series' dates: the
    ///   template as it was (its own due, `recur`, mask); the pending instances before the due closed as the
    ///   history says, the occurrences between the mask's end and the due marked done in the mask.
    /// - Repeating otherwise (a new period, a due off the series' dates, or no kept series): the series starts
    ///   again at the task's due (empty mask); the kept pending instances before it closed as the history says
    ///   (deleted when it does not say: the due was moved past them), the others deleted.
    /// - Not repeating, with a kept series whose period taskls cannot say: as it was.
    /// - Not repeating any more, or by a rule Taskwarrior cannot say (counted): a plain task, its pending
    ///   instances closed (before the due) or deleted.
    mutating func writeSeries(_ task: ExchangeTask, kept: TaskwarriorKept, first: inout Bool, into buffer: inout [UInt8]) {
        let zone = options.localZone
        var edit = TaskwarriorSeriesEdit(kept: kept, task: task, zone: zone)
        let target = task.due.map { TaskwarriorDate.instant(of: $0, zone: zone) }
        let keptPeriod = kept.recur.flatMap(TaskwarriorPeriod.init(recur:))
        let spelled = task.repeatRule.flatMap { rule in
            target.flatMap { TaskwarriorPeriod.recur(for: rule, dueDate: zone.localReading(of: $0).date) }
        }
        let newPeriod = spelled.flatMap(TaskwarriorPeriod.init(recur:))
        let samePeriod = newPeriod.map { new in keptPeriod.map { $0.hasSameDates(as: new) } ?? false } ?? false
        if let rule = task.repeatRule { countRepeatLosses(task, rule: rule, period: newPeriod, target: target, kept: kept) }

        var template: (status: String, due: Timestamp?, recur: String, mask: [UInt8]?)?
        if task.done {
            if kept.isSeries, let recur = kept.recur ?? spelled {
                edit.closePending(otherwise: .completed) { _, _ in true }
                template = ("completed", kept.seriesDue ?? target, recur, kept.mask != nil || edit.maskEdited ? edit.mask : nil)
            } else if task.repeatRule != nil {
                losses.add("repeats of done tasks", because: "Taskwarrior repeats open tasks only")
            }
        } else if task.repeatRule != nil, let recur = spelled, let period = newPeriod, let target {
            if kept.isSeries, samePeriod, let start = kept.seriesDue,
               let index = edit.index(of: target, start: start, period: period) {
                edit.closePending(otherwise: .completed) { imask, _ in (imask ?? .max) < index }
                edit.extendMask(to: index, start: start, period: period)
                template = ("recurring", start, kept.recur ?? recur, kept.mask != nil || edit.maskEdited ? edit.mask : nil)
            } else {
                edit.closePending(otherwise: .skipped) { _, due in due.map { $0 < target } ?? false }
                edit.deletePending { _, _ in true }
                if kept.isSeries { edit.restartMask() }
                template = ("recurring", target, samePeriod ? kept.recur ?? recur : recur, kept.isSeries ? [] : nil)
            }
        } else if task.repeatRule == nil, keptPeriod?.rule(until: nil) == nil, kept.isSeries, let recur = kept.recur {
            template = ("recurring", kept.seriesDue ?? target, recur, kept.mask.map { Array($0.utf8) })
        } else {
            edit.closePending(otherwise: .skipped) { _, due in due.flatMap { due in target.map { due < $0 } } ?? false }
            edit.deletePending { _, _ in true }
        }
        carryChanges(task, kept: kept, to: &edit)

        Self.newLine(&first, &buffer)
        if let template {
            var object = TaskwarriorObjectWriter(into: &buffer)
            writeCommon(task, kept: kept, status: template.status, object: &object, into: &buffer)
            if let due = template.due { object.date("due", due, into: &buffer) }
            object.string("recur", template.recur, into: &buffer)
            if let mask = template.mask { object.string("mask", String(decoding: mask, as: UTF8.self), into: &buffer) }
            if case .until(let until)? = task.repeatRule?.end {
                object.date("until", Self.instant(of: until, zone: zone), into: &buffer)
            }
            writeKeptFields(kept, done: task.done, skipping: [], object: &object, into: &buffer)
            if !object.has("rtype") { object.string("rtype", "periodic", into: &buffer) }
            object.close(into: &buffer)
        } else {
            var object = TaskwarriorObjectWriter(into: &buffer)
            writeCommon(task, kept: kept, status: task.done ? "completed" : kept.waiting ? "waiting" : "pending",
                        object: &object, into: &buffer)
            if let target { object.date("due", target, into: &buffer) }
            writeKeptFields(kept, done: task.done, skipping: ["rtype", "until"], object: &object, into: &buffer)
            object.close(into: &buffer)
        }
        for instance in edit.instances {
            Self.newLine(&first, &buffer)
            JSONSerializer.write(.object(instance), into: &buffer)
        }
    }

    /// The template's fields taskls changed (description, project, priority, tags, against the kept template),
    /// set on the pending instances too, as Taskwarrior's modify of a series does.
    private func carryChanges(_ task: ExchangeTask, kept: TaskwarriorKept, to edit: inout TaskwarriorSeriesEdit) {
        guard let original = kept.template else { return }
        let now: [(String, JSON)] = [
            ("description", .string(task.title)),
            ("project", project(task, kept: kept).map(JSON.string) ?? .null),
            ("priority", priority(task, kept: kept) ?? .null),
            ("tags", .array(task.tags.map(JSON.string))),
        ]
        for (field, value) in now where original[field] != value {
            let absent = value == .null || value == .array([])
            edit.setOnPending(field, absent ? nil : value)
        }
    }

    /// What a repeating task's rule loses in Taskwarrior.
    private mutating func countRepeatLosses(_ task: ExchangeTask, rule: RepeatRule, period: TaskwarriorPeriod?,
                                            target: Timestamp?, kept: TaskwarriorKept) {
        if !kept.isSeries, task.occurrences.used > 0 {
            losses.add("repeat history", because: "Taskwarrior keeps a series' history as its done instances")
        }
        guard !task.done else { return }
        guard let period, let target else {
            losses.add("repeat rules Taskwarrior cannot say",
                       because: "Taskwarrior repeats by one period: daily, weekly, monthly, yearly, every N of them, weekdays")
            return
        }
        if case .count? = rule.end {
            losses.add("repeat counts", because: "Taskwarrior ends a repeat at a date (until), not after a count")
        }
        if rule.anchor != .due {
            losses.add("repeats from completion or from today", because: "Taskwarrior 2.6 repeats from the due only")
        }
        if period.movesDay(from: options.localZone.localReading(of: target).date) {
            losses.add("repeats on the 29th to 31st or on 29 February",
                       because: "Taskwarrior moves them to the month's last day and stays there; taskls skips months without the day")
        }
    }

    /// An RRULE's UNTIL as Taskwarrior's `until`: an instant as it is, a day as its last second in the zone.
    static func instant(of until: RepeatRule.Until, zone: some ZoneOffsets) -> Timestamp {
        switch until {
        case .instant(let instant): return instant
        case .date(let date):
            guard case .dateTime(let instant, _) = zone.dateTime(on: date, at: 86_399_000).due else { return Timestamp(milliseconds: 0) }
            return instant
        }
    }
}

extension TaskwarriorPeriod {
    /// Whether both make the same dates from a day's due (months alike whether they keep the time of day).
    func hasSameDates(as other: TaskwarriorPeriod) -> Bool {
        switch (self, other) {
        case (.months(let a, _), .months(let b, _)): a == b
        default: self == other
        }
    }
}
