// BackupReader: the backup JSON into an exchange document, strictly: the top level first (JSON, format, version),
// then each list, smart list and task, then the tasks' uids and parent links as a whole.

import Domain
import Wire

/// Reads the backup JSON (see `BackupFormat`). One reader reads one file; problems are gathered as it goes.
final class BackupReader {
    /// The file's name and what to do with invalid parts.
    let options: ReadOptions
    /// The problems found so far (of the part being read: each part takes its own).
    var problems: [ExchangeProblem] = []
    /// The line each problem gets (the line the part being read starts on).
    private var line = 0

    static let topMembers = ["format", "version", "lists", "smartLists", "tasks"]
    static let listMembers = ["name", "color", "icon", "storeID"]
    static let smartListMembers = ["name", "color", "icon", "filter", "lists"]
    static let taskMembers = ["uid", "storeID", "list", "parentUID", "title", "notes", "done", "completedAt", "createdAt",
                              "modifiedAt", "due", "priority", "tags", "repeat", "occurrences", "alerts", "extras"]

    init(options: ReadOptions) { self.options = options }

    /// Records a problem at `path` (empty: the file as a whole).
    func report(_ path: String, _ message: String) {
        problems.append(ExchangeProblem(file: options.fileName, line: line, field: path.isEmpty ? nil : path,
                                        message: message))
    }

    /// Records a problem at `path` and answers nil, so a value reader can `return fail(…)`.
    func fail<Value>(_ path: String, _ message: String) -> Value? {
        report(path, message)
        return nil
    }

    /// The path of member `key` of the value at `path` (the top level's path is empty).
    func child(_ path: String, _ key: String) -> String { path.isEmpty ? key : path + "." + key }

    /// A part read: its value (with defaults where a member did not read) and its problems; only a part without
    /// problems goes into the document.
    private struct Part<Value> {
        var value: Value?
        var problems: [ExchangeProblem]
        var line: Int
    }

    /// Reads the whole text.
    /// - Throws: every problem (at most `ExchangeFailure.limit`): always for the top level, for the parts unless
    ///   `options.skipInvalid`.
    func read(_ text: String) throws(ExchangeFailure) -> ExchangeReading {
        let json: JSON
        do {
            json = try JSONParser.parse(text)
        } catch {
            throw ExchangeFailure(problems: [ExchangeProblem(file: options.fileName,
                                                             line: BackupLines.line(ofOffset: error.offset, in: text),
                                                             message: error.message)])
        }
        guard let top = object(json, "", known: Self.topMembers, what: "a taskls backup"),
              topLevelIsABackup(top) else {
            throw ExchangeFailure(problems: problems)
        }
        let lines = BackupLines.elementLines(in: text)
        let lists = parts(top["lists"], "lists", lines: lines["lists"] ?? []) { list($0, $1) }
        let smartLists = parts(top["smartLists"], "smartLists", lines: lines["smartLists"] ?? []) { smartList($0, $1) }
        var tasks = parts(top["tasks"], "tasks", lines: lines["tasks"] ?? []) { task($0, $1) }
        checkLinks(&tasks)
        let all = lists.flatMap(\.problems) + smartLists.flatMap(\.problems) + tasks.flatMap(\.problems)
        if !all.isEmpty, !options.skipInvalid {
            let limit = ExchangeFailure.limit
            throw ExchangeFailure(problems: Array(all.prefix(limit)), more: max(0, all.count - limit))
        }
        let document = ExchangeDocument(lists: lists.compactMap { $0.problems.isEmpty ? $0.value : nil },
                                        tasks: tasks.compactMap { $0.problems.isEmpty ? $0.value : nil },
                                        smartLists: smartLists.compactMap { $0.problems.isEmpty ? $0.value : nil })
        return ExchangeReading(document: document, skipped: all)
    }

    /// Whether `format` and `version` say a backup this taskls reads, and the arrays are arrays.
    private func topLevelIsABackup(_ top: JSONObject) -> Bool {
        let before = problems.count
        if let format = required(top, "format", "", string), format != BackupFormat.formatName {
            report("format", "expected \"\(BackupFormat.formatName)\", got \"\(format)\"")
        }
        if let version = required(top, "version", "", { integer($0, $1, in: 1...Int64.max) }),
           version > BackupFormat.version {
            report("version", "\(version) is newer than this taskls reads (\(BackupFormat.version)): update taskls")
        }
        for key in ["lists", "smartLists", "tasks"] {
            if let value = top[key], case .array = value {} else if let value = top[key] {
                report(key, "expected an array, got \(value.typeDescription)")
            }
        }
        return problems.count == before
    }

    /// Each element of an array read by `read`, with its own problems and line.
    private func parts<Value>(_ json: JSON?, _ path: String, lines: [Int],
                              _ read: (JSON, String) -> Value?) -> [Part<Value>] {
        guard case .array(let elements)? = json else { return [] }
        return elements.enumerated().map { index, element in
            problems = []
            line = index < lines.count ? lines[index] : 0
            let value = read(element, "\(path)[\(index)]")
            return Part(value: value, problems: problems, line: line)
        }
    }

    // MARK: Parts

    private func list(_ json: JSON, _ path: String) -> ExchangeList? {
        guard let object = object(json, path, known: Self.listMembers, what: "a list") else { return nil }
        let name = required(object, "name", path, string)
        let list = ExchangeList(
            name: name ?? "", color: member(object, "color", path, nil, nullable: true, string),
            icon: member(object, "icon", path, nil, nullable: true, string),
            storeID: member(object, "storeID", path, nil, nullable: true) { storeID($0, $1, letter: "l", what: "a list") })
        return list
    }

    private func smartList(_ json: JSON, _ path: String) -> ExchangeSmartList? {
        guard let object = object(json, path, known: Self.smartListMembers, what: "a smart list") else { return nil }
        let name = required(object, "name", path, string)
        let smartList = ExchangeSmartList(
            name: name ?? "", color: member(object, "color", path, nil, nullable: true, string),
            icon: member(object, "icon", path, nil, nullable: true, string),
            filter: member(object, "filter", path, .all, filter),
            lists: member(object, "lists", path, nil, nullable: true, strings))
        return smartList
    }

    private func task(_ json: JSON, _ path: String) -> ExchangeTask? {
        guard let object = object(json, path, known: Self.taskMembers, what: "a task") else { return nil }
        let title = required(object, "title", path, string)
        let task = ExchangeTask(
            uid: member(object, "uid", path, nil, nullable: true, string),
            list: member(object, "list", path, nil, nullable: true, string),
            parentUID: member(object, "parentUID", path, nil, nullable: true, string),
            title: title ?? "",
            notes: member(object, "notes", path, "", string),
            done: member(object, "done", path, false, bool),
            completedAt: member(object, "completedAt", path, nil, nullable: true, instant),
            createdAt: member(object, "createdAt", path, nil, nullable: true, instant),
            modifiedAt: member(object, "modifiedAt", path, nil, nullable: true, instant),
            due: member(object, "due", path, nil, nullable: true, due),
            priority: member(object, "priority", path, .none, priority),
            tags: member(object, "tags", path, [], strings),
            repeatRule: member(object, "repeat", path, nil, nullable: true, repeatRule),
            alerts: member(object, "alerts", path, []) { array($0, $1, alert) },
            occurrences: member(object, "occurrences", path, .none, occurrences),
            extras: member(object, "extras", path, []) { array($0, $1, extra) },
            storeID: member(object, "storeID", path, nil, nullable: true) { storeID($0, $1, letter: "i", what: "an item") },
            line: line)
        return task
    }

    // MARK: The tasks as a whole

    /// Problems for a uid given twice, a `parentUID` naming no task or making a cycle; with `skipInvalid`, the
    /// subtasks of an invalid task are invalid too.
    private func checkLinks(_ tasks: inout [Part<ExchangeTask>]) {
        func add(_ index: Int, _ message: String, field: String) {
            tasks[index].problems.append(ExchangeProblem(file: options.fileName, line: tasks[index].line,
                                                         field: "tasks[\(index)].\(field)", message: message))
        }
        var first: [String: Int] = [:]
        for index in tasks.indices {
            guard let uid = tasks[index].value?.uid else { continue }
            if let earlier = first[uid] {
                add(index, "\"\(uid)\" appears twice (tasks[\(earlier)] and tasks[\(index)])", field: "uid")
            } else {
                first[uid] = index
            }
        }
        var parents: [Int?] = Array(repeating: nil, count: tasks.count)
        for index in tasks.indices {
            guard let parent = tasks[index].value?.parentUID else { continue }
            if let found = first[parent] {
                parents[index] = found
            } else {
                add(index, "\"\(parent)\" names no task in this file", field: "parentUID")
            }
        }
        for cycle in TaskLinkGraph.cycles(parents: parents) {
            let names = cycle.sorted().map { "tasks[\($0)]" }.joined(separator: ", ")
            for index in cycle {
                let parent = tasks[index].value!.parentUID!
                add(index, cycle.count == 1 ? "\"\(parent)\" is the task's own uid"
                        : "\"\(parent)\" makes a cycle of parents (\(names))", field: "parentUID")
            }
        }
        guard options.skipInvalid else { return }
        let invalid = TaskLinkGraph.invalidated(parents: parents, invalid: tasks.map { !$0.problems.isEmpty })
        for index in tasks.indices where invalid[index] && tasks[index].problems.isEmpty {
            let parent = parents[index]!
            add(index, "\"\(tasks[index].value!.parentUID!)\" is tasks[\(parent)], which is invalid", field: "parentUID")
        }
    }
}
