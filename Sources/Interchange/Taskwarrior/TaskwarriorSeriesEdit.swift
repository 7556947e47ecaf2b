// A series' kept instances as the writer brings them up to date with the task: occurrences taskls completed or
// skipped closed (with their times from the task's history), the mask following, and the template's changed
// fields carried to the pending instances.

import Domain
import Wire

/// The kept instances of one series and its mask, edited for writing.
struct TaskwarriorSeriesEdit {
    /// The instances, in the order kept.
    private(set) var instances: [JSONObject]
    /// The mask, one byte per instance made.
    private(set) var mask: [UInt8]
    /// Whether the mask changed.
    private(set) var maskEdited = false
    private let dues: [Timestamp?]
    private let imasks: [Int?]
    private let task: ExchangeTask
    private let zone: any ZoneOffsets & Sendable

    init(kept: TaskwarriorKept, task: ExchangeTask, zone: any ZoneOffsets & Sendable) {
        instances = kept.instances
        mask = Array((kept.mask ?? "").utf8)
        dues = instances.map { instance in
            guard case .string(let text)? = instance["due"], case .success(let due) = TaskwarriorDate.instant(text) else {
                return nil
            }
            return due
        }
        imasks = instances.map { $0["imask"].flatMap(TaskwarriorRecord.wholeNumber) }
        self.task = task
        self.zone = zone
    }

    /// Whether instance `index` is pending (or waiting).
    func isPending(_ index: Int) -> Bool {
        guard case .string(let status)? = instances[index]["status"] else { return false }
        return status == "pending" || status == "waiting"
    }

    /// The mask index of the occurrence due at `target`: a pending instance's, else the step from `start` that
    /// lands on it (at most 100,000 steps); nil when the due is not on the series' dates.
    func index(of target: Timestamp, start: Timestamp, period: TaskwarriorPeriod) -> Int? {
        if let index = instances.indices.first(where: { isPending($0) && dues[$0] == target }), let imask = imasks[index] {
            return imask
        }
        var due = start
        var step = 0
        while due < target, step < 100_000 {
            due = period.next(after: due, zone: zone)
            step += 1
        }
        return due == target ? step : nil
    }

    /// Closes the pending instances `which` selects (by mask index and due) as the task's history says each
    /// occurrence went: completed, or deleted when it was skipped; `otherwise` when the history does not say.
    mutating func closePending(otherwise: Occurrence.Outcome, where which: (Int?, Timestamp?) -> Bool) {
        for index in instances.indices where isPending(index) && which(imasks[index], dues[index]) {
            let occurrence = dues[index].flatMap(occurrence(due:))
            close(index, skipped: (occurrence?.outcome ?? otherwise) == .skipped, at: occurrence?.at)
        }
    }

    /// Deletes the pending instances `which` selects (occurrences of a series taskls moved off or stopped).
    mutating func deletePending(where which: (Int?, Timestamp?) -> Bool) {
        for index in instances.indices where isPending(index) && which(imasks[index], dues[index]) {
            close(index, skipped: true, at: nil)
        }
    }

    /// Marks the occurrences from the mask's end up to `index` (not made by Taskwarrior yet) completed or
    /// skipped, as the history says, so Taskwarrior does not make them: `+` or `X` per step from `start`.
    mutating func extendMask(to index: Int, start: Timestamp, period: TaskwarriorPeriod) {
        guard mask.count < index else { return }
        var due = start
        for step in 0..<index {
            if step >= mask.count {
                mask.append(occurrence(due: due)?.outcome == .skipped ? UInt8(ascii: "X") : UInt8(ascii: "+"))
                maskEdited = true
            }
            due = period.next(after: due, zone: zone)
        }
    }

    /// Sets `field` (or removes it, for nil) on every pending instance.
    mutating func setOnPending(_ field: String, _ value: JSON?) {
        for index in instances.indices where isPending(index) {
            instances[index][field] = value
        }
    }

    /// Empties the mask (a series started again from a new due).
    mutating func restartMask() {
        mask = []
        maskEdited = true
    }

    private mutating func close(_ index: Int, skipped: Bool, at: Timestamp?) {
        let end = at ?? task.modifiedAt ?? task.completedAt ?? task.createdAt ?? Timestamp(milliseconds: 0)
        let text = JSON.string(TaskwarriorDate.text(end))
        instances[index]["status"] = .string(skipped ? "deleted" : "completed")
        instances[index]["end"] = text
        instances[index]["modified"] = text
        guard let imask = imasks[index] else { return }
        while mask.count <= imask { mask.append(UInt8(ascii: "?")) }
        mask[imask] = skipped ? UInt8(ascii: "X") : UInt8(ascii: "+")
        maskEdited = true
    }

    /// The history's occurrence due at `due` (the last one), if it is among the recent.
    private func occurrence(due: Timestamp) -> Occurrence? {
        task.occurrences.recent.last { TaskwarriorDate.instant(of: $0.due, zone: zone) == due }
    }
}
