// Writing a document as Taskwarrior JSON: one task object per line in a JSON array, as `task export` writes it.
// A task read from Taskwarrior and not changed comes back as it was (its extras give back every other field);
// series are written in +Series, notes as annotations in +Annotations.

import Domain
import Wire

/// Writes exchange documents as Taskwarrior JSON.
struct TaskwarriorWriter {
    let options: WriteOptions
    /// The list the tasks that had no project were imported into (where most of them are), whose tasks that
    /// had none are written without one.
    let defaultList: String?
    var losses = LossTally()

    /// The file: `[`, one task (and after a template its instances) per line, `]`.
    /// - Complexity: O(size of the document).
    static func write(_ document: ExchangeDocument, options: WriteOptions) -> ExchangeWriting {
        var writer = TaskwarriorWriter(options: options, defaultList: defaultList(of: document))
        var buffer: [UInt8] = []
        buffer.reserveCapacity(64 + document.tasks.count * 320)
        buffer.append(UInt8(ascii: "["))
        var first = true
        for task in document.tasks {
            writer.write(task, first: &first, into: &buffer)
        }
        buffer += Array("\n]\n".utf8)
        return ExchangeWriting(text: String(decoding: buffer, as: UTF8.self), losses: writer.losses.losses)
    }

    /// The list most tasks marked `taskwarrior:project: null` are in (the first of the document's lists on a
    /// tie); nil when no task is marked.
    static func defaultList(of document: ExchangeDocument) -> String? {
        var counts: [String: Int] = [:]
        var order: [String] = []
        for task in document.tasks {
            guard let list = task.list,
                  task.extras.contains(where: { $0.key == TaskwarriorKey.project && $0.value == "null" }) else { continue }
            if counts[list] == nil { order.append(list) }
            counts[list, default: 0] += 1
        }
        let rank = Dictionary(document.lists.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        return order.enumerated().max { left, right in
            let (a, b) = (counts[left.element]!, counts[right.element]!)
            if a != b { return a < b }
            return (rank[left.element] ?? Int.max, left.offset) > (rank[right.element] ?? Int.max, right.offset)
        }?.element
    }

    /// Writes one task (a series writes its template and then its instances), each on a line of its own.
    mutating func write(_ task: ExchangeTask, first: inout Bool, into buffer: inout [UInt8]) {
        let kept = TaskwarriorKept(task.extras)
        countLosses(task)
        if kept.isSeries || task.repeatRule != nil {
            writeSeries(task, kept: kept, first: &first, into: &buffer)
        } else {
            Self.newLine(&first, &buffer)
            writePlain(task, kept: kept, into: &buffer)
        }
    }

    /// `,` between tasks, and a line for each.
    static func newLine(_ first: inout Bool, _ buffer: inout [UInt8]) {
        if !first { buffer.append(UInt8(ascii: ",")) }
        first = false
        buffer.append(UInt8(ascii: "\n"))
    }

    /// A task that is no series: its fields, then every kept field it does not write itself.
    mutating func writePlain(_ task: ExchangeTask, kept: TaskwarriorKept, into buffer: inout [UInt8]) {
        var object = TaskwarriorObjectWriter(into: &buffer)
        writeCommon(task, kept: kept, status: task.done ? "completed" : kept.waiting ? "waiting" : "pending",
                    object: &object, into: &buffer)
        if let due = task.due { object.date("due", TaskwarriorDate.instant(of: due, zone: options.localZone), into: &buffer) }
        // An instance whose template is not in the file keeps its period and mask as fields of its own.
        if let recur = kept.recur { object.string("recur", recur, into: &buffer) }
        if let mask = kept.mask { object.string("mask", mask, into: &buffer) }
        writeKeptFields(kept, done: task.done, skipping: [], object: &object, into: &buffer)
        object.close(into: &buffer)
    }

    /// What a plain task and a template write alike: uuid, description, status, entry, modified, end (done),
    /// priority, project, tags and annotations.
    mutating func writeCommon(_ task: ExchangeTask, kept: TaskwarriorKept, status: String,
                              object: inout TaskwarriorObjectWriter, into buffer: inout [UInt8]) {
        if let uid = task.uid { object.string("uuid", uid, into: &buffer) }
        object.string("description", task.title, into: &buffer)
        object.string("status", status, into: &buffer)
        if let created = task.createdAt { object.date("entry", created, into: &buffer) }
        if let modified = task.modifiedAt { object.date("modified", modified, into: &buffer) }
        if task.done, let end = task.completedAt ?? task.modifiedAt ?? task.createdAt {
            object.date("end", end, into: &buffer)
        }
        if let priority = priority(task, kept: kept) { object.value("priority", priority, into: &buffer) }
        if let project = project(task, kept: kept) { object.string("project", project, into: &buffer) }
        if !task.tags.isEmpty { object.value("tags", .array(task.tags.map(JSON.string)), into: &buffer) }
        let annotations = annotations(task, kept: kept)
        if !annotations.isEmpty { object.value("annotations", .array(annotations), into: &buffer) }
    }

    /// The kept fields not written yet, in order; a done task's `start` is dropped (`task done` stops a task).
    func writeKeptFields(_ kept: TaskwarriorKept, done: Bool, skipping: Set<String>,
                         object: inout TaskwarriorObjectWriter, into buffer: inout [UInt8]) {
        for (name, value) in kept.fields where !skipping.contains(name) && !(done && name == "start") {
            object.value(name, value, into: &buffer)
        }
    }

    /// H, M or L; a kept user-defined priority while taskls has none.
    func priority(_ task: ExchangeTask, kept: TaskwarriorKept) -> JSON? {
        switch task.priority {
        case .high: .string("H")
        case .medium: .string("M")
        case .low: .string("L")
        case .none: kept.priority
        }
    }

    /// The task's list, except for a task that had no project and is still in the list it was imported into.
    func project(_ task: ExchangeTask, kept: TaskwarriorKept) -> String? {
        guard let list = task.list else { return nil }
        return kept.noProject && list == defaultList ? nil : list
    }

    /// What the task has that Taskwarrior cannot carry.
    mutating func countLosses(_ task: ExchangeTask) {
        if !task.alerts.isEmpty { losses.add("alerts", because: "Taskwarrior has no alerts") }
        if task.parentUID != nil {
            losses.add("subtasks (written as top-level tasks)", because: "Taskwarrior has no subtasks")
        }
        if case .dateTime(let instant, let offset) = task.due {
            if instant.milliseconds % 1000 != 0 {
                losses.add("due times' milliseconds", because: "Taskwarrior keeps whole seconds")
            }
            if offset != options.localZone.offsetSeconds(at: instant) {
                losses.add("due times' UTC offsets", because: "Taskwarrior keeps instants, read back in your time zone")
            }
            if options.localZone.localReading(of: instant).millisecond < 1000 {
                losses.add("due times at midnight (read back as days)", because: "Taskwarrior writes a day as its midnight")
            }
        }
        let texts = [task.title, task.notes, task.list ?? ""] + task.tags
        if texts.contains(where: { $0.unicodeScalars.contains { $0.value > 0xFFFF } }) {
            losses.add("characters beyond U+FFFF (emoji)", because: "Taskwarrior 2.6's import garbles them")
        }
    }
}
