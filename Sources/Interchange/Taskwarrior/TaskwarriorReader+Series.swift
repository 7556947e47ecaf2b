// A recurrence series read as one repeating task: the template's fields, the rule its `recur` names, the first
// pending instance's due, the done instances as its history, and the template and instances kept for export.

import Domain
import Wire

extension TaskwarriorDocumentBuilder {
    /// The repeating task a template and its instances make.
    ///
    /// Its due is the due of the pending (or waiting) instance with the lowest mask index; when none is pending,
    /// the due Taskwarrior will make next (the template's due stepped once per mask character). Its rule is the
    /// period's (`TaskwarriorPeriod.rule`), ending at the template's `until`; a period taskls cannot say leaves it
    /// not repeating (counted). Its history counts the mask's `+` and `X` (or the done instances, if more) and
    /// lists the last 20 completed or deleted instances.
    mutating func seriesTask(_ template: TaskwarriorRecord, instances: [TaskwarriorRecord]) -> ExchangeTask {
        let zone = options.localZone
        let period = template.recur.flatMap(TaskwarriorPeriod.init(recur:))
        let until = template.until.map { instant -> RepeatRule.Until in
            let (date, millisecond) = zone.localReading(of: instant)
            return millisecond == 86_399_000 ? .date(date) : .instant(instant)
        }
        let rule = period?.rule(until: until)
        var task = mappedFields(template)
        let ordered = instances.enumerated().sorted { ($0.element.imask ?? .max, $0.offset) < ($1.element.imask ?? .max, $1.offset) }
            .map(\.element)
        let next = ordered.first { ($0.status == .pending || $0.status == .waiting) && $0.due != nil }?.due
            ?? Self.stepped(template.due, by: period, count: max(template.mask?.count ?? 0, (ordered.compactMap(\.imask).max() ?? -1) + 1),
                           zone: zone)
        task.due = next.map { TaskwarriorDate.due($0, zone: zone) }
        task.repeatRule = rule
        if let recur = template.recur, rule == nil {
            losses.add("repeat " + TaskwarriorRecord.quoted(recur),
                       because: "taskls repeats by days, weeks, months or years: kept for export, the task does not repeat")
        }
        if let period, rule != nil, let start = template.due, period.movesDay(from: zone.localReading(of: start).date) {
            losses.add("repeats on the 29th to 31st or on 29 February",
                       because: "Taskwarrior moves them to the month's last day and stays there; taskls skips months without the day")
        }
        task.occurrences = Self.history(mask: template.mask ?? "", instances: ordered, zone: zone)
        task.extras = extras(of: template, series: true, untilInRule: rule != nil)
        task.extras.append(Extra(key: TaskwarriorKey.template, value: JSON.object([
            "description": template.description.map(JSON.string) ?? .null,
            "project": template.project.map(JSON.string) ?? .null,
            "priority": template.priority.map(JSON.string) ?? .null,
            "tags": .array(template.tags.map(JSON.string)),
        ]).text))
        if !instances.isEmpty {
            Self.append(TaskwarriorKey.instances, .array(instances.map { .object($0.keptObject) }), to: &task.extras)
        }
        return task
    }

    /// `start` stepped `count` times by `period` (the template's due when there is no period to step by).
    /// - Complexity: O(count).
    static func stepped(_ start: Timestamp?, by period: TaskwarriorPeriod?, count: Int, zone: some ZoneOffsets) -> Timestamp? {
        guard var instant = start, let period else { return start }
        for _ in 0..<count { instant = period.next(after: instant, zone: zone) }
        return instant
    }

    /// The history a series' mask and done instances give.
    static func history(mask: String, instances: [TaskwarriorRecord], zone: some ZoneOffsets) -> Occurrences {
        var completed = 0
        var skipped = 0
        for character in mask.utf8 {
            if character == UInt8(ascii: "+") { completed += 1 } else if character == UInt8(ascii: "X") { skipped += 1 }
        }
        var recent: [Occurrence] = []
        var doneCount = 0
        var deletedCount = 0
        for instance in instances {
            let outcome: Occurrence.Outcome
            switch instance.status {
            case .completed: outcome = .completed; doneCount += 1
            case .deleted: outcome = .skipped; deletedCount += 1
            default: continue
            }
            guard let due = instance.due, let at = instance.end ?? instance.modified ?? instance.entry else { continue }
            recent.append(Occurrence(due: TaskwarriorDate.due(due, zone: zone), outcome: outcome, at: at))
        }
        return Occurrences(completed: max(completed, doneCount), skipped: max(skipped, deletedCount),
                           recent: Array(recent.suffix(Occurrences.recentLimit)))
    }
}
