// Reading a Taskwarrior file: its values checked one by one (TaskwarriorRecord), then as a whole (repeated
// uuids, cycles in `depends`), then made exchange tasks: plain ones here, recurrence series in +Series.

import Domain
import Wire

/// Turns a Taskwarrior file into an exchange document.
enum TaskwarriorReader {
    /// Reads the file; refuses it with every problem (up to the limit) unless `skipInvalid`.
    /// - Complexity: O(size of the file), plus O(period steps) for a series with no pending instance.
    static func read(_ text: String, options: ReadOptions) throws(ExchangeFailure) -> ExchangeReading {
        let values = try TaskwarriorScan.values(of: text, fileName: options.fileName)
        var records = values.map { TaskwarriorRecord(line: $0.line, value: $0.value, fileName: options.fileName) }
        markRepeatedUUIDs(&records, fileName: options.fileName)
        markDependencyCycles(&records, fileName: options.fileName)
        let problems = records.flatMap(\.problems)
        if !problems.isEmpty, !options.skipInvalid {
            throw ExchangeFailure(problems: Array(problems.prefix(ExchangeFailure.limit)),
                                  more: max(0, problems.count - ExchangeFailure.limit))
        }
        var builder = TaskwarriorDocumentBuilder(options: options)
        let document = builder.document(of: records)
        return ExchangeReading(document: document, skipped: problems, losses: builder.losses.losses)
    }

    /// A uuid that appears again: a problem on each later task, naming the lines.
    private static func markRepeatedUUIDs(_ records: inout [TaskwarriorRecord], fileName: String) {
        var firstLine: [String: Int] = [:]
        firstLine.reserveCapacity(records.count)
        for index in records.indices {
            guard let uuid = records[index].uuid else { continue }
            if let line = firstLine[uuid] {
                records[index].problems.append(ExchangeProblem(
                    file: fileName, line: records[index].line, field: "uuid",
                    message: TaskwarriorRecord.quoted(uuid) + " appears twice (lines \(line) and \(records[index].line))"))
            } else {
                firstLine[uuid] = records[index].line
            }
        }
    }

    /// Each task on a cycle of `depends` (among the file's tasks) gets a problem naming the cycle.
    /// - Complexity: O(tasks + dependencies): one depth-first walk, without recursion.
    private static func markDependencyCycles(_ records: inout [TaskwarriorRecord], fileName: String) {
        guard records.contains(where: { !$0.depends.isEmpty }) else { return }
        var index: [String: Int] = [:]
        for position in records.indices {
            if let uuid = records[position].uuid, index[uuid] == nil { index[uuid] = position }
        }
        // 0 unvisited, 1 on the current path, 2 done.
        var state = [UInt8](repeating: 0, count: records.count)
        var onCycle = Set<Int>()
        for start in records.indices where state[start] == 0 && !records[start].depends.isEmpty {
            var path: [(node: Int, next: Int)] = [(start, 0)]
            state[start] = 1
            while let top = path.last {
                let edges = records[top.node].depends
                guard top.next < edges.count else {
                    state[top.node] = 2
                    path.removeLast()
                    continue
                }
                path[path.count - 1].next += 1
                guard let target = index[edges[top.next]] else { continue }
                if state[target] == 0 {
                    state[target] = 1
                    path.append((target, 0))
                } else if state[target] == 1, let from = path.firstIndex(where: { $0.node == target }) {
                    let cycle = path[from...].map(\.node)
                    guard !cycle.contains(where: onCycle.contains) else { continue }
                    let words = (cycle + [target]).compactMap { records[$0].uuid }.joined(separator: " → ")
                    for node in cycle {
                        onCycle.insert(node)
                        records[node].problems.append(ExchangeProblem(
                            file: fileName, line: records[node].line, field: "depends", message: "a cycle: " + words))
                    }
                }
            }
        }
    }
}

/// Makes exchange tasks of valid records, in the file's order, counting what is lost.
struct TaskwarriorDocumentBuilder {
    let options: ReadOptions
    var losses = LossTally()

    init(options: ReadOptions) { self.options = options }

    /// The document of the valid records (those without problems): a template with its instances is one task
    /// where the template is; an instance whose template is not in the file is a task of its own; deleted tasks
    /// are left out (counted).
    mutating func document(of records: [TaskwarriorRecord]) -> ExchangeDocument {
        var templates: [String: Int] = [:]
        for (position, record) in records.enumerated() where record.isTemplate && record.problems.isEmpty {
            if let uuid = record.uuid { templates[uuid] = position }
        }
        var instances: [Int: [Int]] = [:]
        var folded = [Bool](repeating: false, count: records.count)
        for (position, record) in records.enumerated() where !record.isTemplate && record.problems.isEmpty {
            guard let parent = record.parent, let template = templates[parent] else { continue }
            instances[template, default: []].append(position)
            folded[position] = true
        }
        var tasks: [ExchangeTask] = []
        tasks.reserveCapacity(records.count)
        for (position, record) in records.enumerated() where !folded[position] && record.problems.isEmpty {
            if record.status == .deleted {
                losses.add("deleted tasks", because: "taskls keeps no deleted tasks")
            } else if record.isTemplate {
                tasks.append(seriesTask(record, instances: (instances[position] ?? []).map { records[$0] }))
            } else {
                tasks.append(plainTask(record))
            }
        }
        return ExchangeDocument(tasks: tasks)
    }

    /// A task that is not a template: every member taskls does not map kept as an extra.
    func plainTask(_ record: TaskwarriorRecord) -> ExchangeTask {
        var task = mappedFields(record)
        task.due = record.due.map { TaskwarriorDate.due($0, zone: options.localZone) }
        task.extras = extras(of: record, series: false)
        return task
    }

    /// The fields a plain task and a template map alike (not the due, not the extras).
    func mappedFields(_ record: TaskwarriorRecord) -> ExchangeTask {
        let done = record.status == .completed
        return ExchangeTask(
            uid: record.uuid, list: record.project, title: record.description ?? "",
            notes: record.annotationTexts.joined(separator: "\n"), done: done, completedAt: done ? record.end : nil,
            createdAt: record.entry, modifiedAt: record.modified, priority: Self.priority(record.priority) ?? .none,
            tags: record.tags, line: record.line)
    }

    /// The extras of a record's members, in order: what taskls maps is left out (for a template also its own
    /// due, kept under `taskwarrior:due`, and `until` when its rule carries it), then `taskwarrior:project: null`
    /// when it has no project.
    func extras(of record: TaskwarriorRecord, series: Bool, untilInRule: Bool = false) -> [Extra] {
        var extras: [Extra] = []
        for (key, value) in record.object.members {
            switch key {
            case "uuid", "description", "entry", "modified", "tags", "project", "id", "urgency":
                continue
            case "due":
                if series { Self.append(TaskwarriorKey.due, value, to: &extras) }
            case "until":
                if !untilInRule { Self.append(TaskwarriorKey.until, value, to: &extras) }
            case "status":
                if record.status == .waiting { Self.append(TaskwarriorKey.status, value, to: &extras) }
            case "end":
                if record.status != .completed { Self.append(TaskwarriorKey.prefix + key, value, to: &extras) }
            case "priority":
                if Self.priority(record.priority) == nil { Self.append(TaskwarriorKey.priority, value, to: &extras) }
            default:
                Self.append(TaskwarriorKey.prefix + key, value, to: &extras)
            }
        }
        if record.project == nil { extras.append(Extra(key: TaskwarriorKey.project, value: "null")) }
        return extras
    }

    /// Taskwarrior's H, M, L; nil for anything else (a user-defined priority, kept as an extra).
    static func priority(_ letter: String?) -> Priority? {
        switch letter {
        case nil: return Priority.none
        case "H": return .high
        case "M": return .medium
        case "L": return .low
        default: return nil
        }
    }

    /// `value` with every whole number written as an integer: `task import` writes a number back as `3.000000`,
    /// which must read as the `3` it was, or importing Taskwarrior's own export again would change the extras.
    static func wholeNumbersAsIntegers(_ value: JSON) -> JSON {
        switch value {
        case .double(let number) where number.rounded() == number && number.magnitude < 9_007_199_254_740_992:
            return .integer(Int64(number))
        case .array(let elements):
            return .array(elements.map(wholeNumbersAsIntegers))
        case .object(let object):
            return .object(JSONObject(object.members.map { (key: $0.key, value: wholeNumbersAsIntegers($0.value)) }))
        default:
            return value
        }
    }

    /// Appends `value` as the extra `key` (its JSON text); an array longer than `TaskwarriorKey.chunkBytes` is
    /// split into several extras with the same key, each an array, in order.
    static func append(_ key: String, _ value: JSON, to extras: inout [Extra]) {
        let value = wholeNumbersAsIntegers(value)
        let text = value.text
        guard text.utf8.count > TaskwarriorKey.chunkBytes, case .array(let elements) = value else {
            extras.append(Extra(key: key, value: text))
            return
        }
        var chunk: [UInt8] = [UInt8(ascii: "[")]
        for element in elements {
            let bytes = element.bytes
            if chunk.count > 1, chunk.count + bytes.count + 1 > TaskwarriorKey.chunkBytes {
                chunk.append(UInt8(ascii: "]"))
                extras.append(Extra(key: key, value: String(decoding: chunk, as: UTF8.self)))
                chunk = [UInt8(ascii: "[")]
            }
            if chunk.count > 1 { chunk.append(UInt8(ascii: ",")) }
            chunk += bytes
        }
        chunk.append(UInt8(ascii: "]"))
        extras.append(Extra(key: key, value: String(decoding: chunk, as: UTF8.self)))
    }
}
