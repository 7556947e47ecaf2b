// TodoTxtReader: a todo.txt file into an exchange document, line by line, then the file as a whole: identities
// for lines without `uid:`, repeated uids, and `parent:` links that name nothing or go round.

import Domain

/// Reads todo.txt text (see `TodoTxtFormat`).
struct TodoTxtReader {
    /// One line read.
    struct Entry {
        /// The task it says.
        var task: ExchangeTask
        /// What is wrong with it, in order.
        var problems: [ExchangeProblem] = []
        /// What taskls does not keep of it: (what, why).
        var losses: [(what: String, reason: String)] = []
        /// The hash its identity is made of, when it has no `uid:`.
        var identity: String?
    }

    /// The file's name and zones.
    let options: ReadOptions

    /// Reads the whole text.
    /// - Throws: every problem (at most `ExchangeFailure.limit`) unless `options.skipInvalid`.
    /// - Complexity: O(length of the text), plus O(depth) per task for its `parent:` chain.
    func read(_ text: String) throws(ExchangeFailure) -> ExchangeReading {
        let bytes = Array(text.utf8)
        var entries: [Entry] = []
        for (number, range) in TodoTxtReader.lines(of: bytes) {
            if let entry = entry(TodoTxtLine(bytes: bytes, range: range), number: number) { entries.append(entry) }
        }
        assignIdentities(&entries)
        checkLinks(&entries)
        var losses = LossTally()
        var skipped: [ExchangeProblem] = []
        var document = ExchangeDocument()
        var listNames: Set<String> = []
        let problems = entries.flatMap(\.problems)
        if !problems.isEmpty, !options.skipInvalid {
            let limit = ExchangeFailure.limit
            throw ExchangeFailure(problems: Array(problems.prefix(limit)), more: max(0, problems.count - limit))
        }
        for entry in entries {
            guard entry.problems.isEmpty else {
                skipped.append(contentsOf: entry.problems)
                continue
            }
            for loss in entry.losses { losses.add(loss.what, because: loss.reason) }
            if let list = entry.task.list, listNames.insert(list).inserted {
                document.lists.append(ExchangeList(name: list))
            }
            document.tasks.append(entry.task)
        }
        return ExchangeReading(document: document, skipped: skipped, losses: losses.losses)
    }

    // MARK: Lines

    /// The lines of `bytes` with their 1-based numbers: split at LF, CR LF or a lone CR, a byte order mark at the
    /// start dropped.
    /// - Complexity: O(number of bytes).
    static func lines(of bytes: [UInt8]) -> [(number: Int, range: Range<Int>)] {
        var result: [(number: Int, range: Range<Int>)] = []
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var index = start
        var number = 1
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == 0x0A || byte == 0x0D else {
                index += 1
                continue
            }
            result.append((number, start..<index))
            number += 1
            index += 1
            if byte == 0x0D, index < bytes.count, bytes[index] == 0x0A { index += 1 }
            start = index
        }
        if start < bytes.count { result.append((number, start..<bytes.count)) }
        return result
    }

    /// The task of one line, or nil for a blank line.
    func entry(_ line: TodoTxtLine, number: Int) -> Entry? {
        guard line.done || line.priority != nil || line.creationDate != nil || !line.words.isEmpty else { return nil }
        let body = TodoTxtBody(line)
        var entry = Entry(task: ExchangeTask(list: body.list, title: body.title, done: line.done, tags: body.tags,
                                             line: number))
        func problem(_ field: String?, _ message: String) {
            entry.problems.append(ExchangeProblem(file: options.fileName, line: number, field: field, message: message))
        }
        func day(_ text: Substring, field: String) -> CalendarDate? {
            switch TodoTxtValues.day(text) {
            case .success(let date): return date
            case .failure(let failure):
                problem(field, failure.message)
                return nil
            }
        }
        if let range = line.completionDate, let date = day(line.text(range)[...], field: "completion date") {
            entry.task.completedAt = TodoTxtValues.midnight(of: date, in: options.localZone)
        }
        if let range = line.creationDate, let date = day(line.text(range)[...], field: "creation date") {
            entry.task.createdAt = TodoTxtValues.midnight(of: date, in: options.localZone)
        }
        var letter = line.priority.map { Character(Unicode.Scalar($0)) }
        var seen: [String] = []
        var recurrence: (key: String, value: String, reading: TodoTxtValues.Recurrence)?
        for (key, text) in body.known {
            let value = text[...]
            guard !seen.contains(key) else {
                problem(key, "is given twice")
                continue
            }
            seen.append(key)
            func read<Value>(_ result: Result<Value, TodoTxtProblem>) -> Value? {
                switch result {
                case .success(let value): return value
                case .failure(let failure):
                    problem(key, failure.message)
                    return nil
                }
            }
            switch key {
            case "due":
                entry.task.due = day(value, field: "due").map(Due.date)
            case "pri":
                guard let written = read(TodoTxtValues.priorityLetter(value)) else { break }
                if let letter, letter != written {
                    problem("pri", "\(value) contradicts the priority (\(letter)) at the start of the line")
                }
                letter = written
            case "rec":
                if let reading = read(TodoTxtValues.recurrence(value)) { recurrence = (key, text, reading) }
            case "rrule":
                if let rule = read(TodoTxtValues.rule(value)) { recurrence = (key, text, .rule(rule)) }
            case "uid":
                entry.task.uid = read(TodoTxtValues.decoded(value))
            default:
                entry.task.parentUID = read(TodoTxtValues.decoded(value))
            }
        }
        if seen.contains("rec"), seen.contains("rrule") {
            problem("rrule", "and rec both say how the task repeats: keep one")
        }
        entry.task.extras = body.extras.map { Extra(key: "todotxt:" + $0.key, value: $0.value) }
        if let letter {
            entry.task.priority = TodoTxtValues.priority(letter: letter)
            if letter > "C" { entry.task.extras.append(Extra(key: "todotxt:pri", value: String(letter))) }
        }
        if let recurrence {
            switch recurrence.reading {
            case .rule(let rule) where entry.task.due != nil:
                entry.task.repeatRule = rule
            case .rule:
                entry.losses.append(("repeats of tasks without a due",
                                     "taskls repeats only tasks with a due: the repeat is kept as text for export"))
                entry.task.extras.append(Extra(key: "todotxt:" + recurrence.key, value: recurrence.value))
            case .businessDays(let count):
                entry.losses.append(("repeats every \(count) business days",
                                     "taskls has no such rule: the repeat is kept as text for export"))
                entry.task.extras.append(Extra(key: "todotxt:rec", value: recurrence.value))
            }
        }
        if body.title.isEmpty {
            problem(nil, "the line has no title" + (line.words.isEmpty ? "" : ", only key:value pairs"))
        }
        if entry.task.uid == nil { entry.identity = TodoTxtReader.identity(of: line) }
        return entry
    }

    /// The FNV-1a hash a line's identity is made of: of its creation date and its words, one space apart, without
    /// what a tool changes when it completes a task (`x`, the completion date, the priority, `pri:`).
    /// - Complexity: O(length of the line).
    static func identity(of line: TodoTxtLine) -> String {
        var hash = TodoTxtValues.FNV1a()
        var first = true
        func add(_ range: Range<Int>) {
            if !first { hash.add(0x20) }
            first = false
            for byte in line.bytes[range] { hash.add(byte) }
        }
        if let date = line.creationDate { add(date) }
        for word in line.words {
            if case .pair(let colon) = word.kind, line.spells(word.range.lowerBound..<colon, "pri") { continue }
            add(word.range)
        }
        return hash.hex
    }

    // MARK: The file as a whole

    /// Gives each line without `uid:` the uid `todotxt-` and the FNV-1a hash of its identity text, with `-2`,
    /// `-3`… for the second and later lines of the same text (or a uid another line names).
    func assignIdentities(_ entries: inout [Entry]) {
        var taken = Set(entries.compactMap(\.task.uid))
        for index in entries.indices {
            guard let hash = entries[index].identity else { continue }
            let base = "todotxt-" + hash
            var uid = base
            var count = 1
            while taken.contains(uid) {
                count += 1
                uid = base + "-" + String(count)
            }
            taken.insert(uid)
            entries[index].task.uid = uid
        }
    }

    /// Problems for a uid given twice, a `parent:` that names no task, and parents that go round; with
    /// `skipInvalid`, a subtask of an invalid line is invalid too (its parent is left out).
    func checkLinks(_ entries: inout [Entry]) {
        var first: [String: Int] = [:]
        for index in entries.indices {
            let uid = entries[index].task.uid!
            if let earlier = first[uid] {
                let lines = "lines \(entries[earlier].task.line) and \(entries[index].task.line)"
                appendProblem(to: &entries[index], field: "uid", "\"\(uid)\" appears twice (\(lines))")
            } else {
                first[uid] = index
            }
        }
        var parentIndex: [Int?] = Array(repeating: nil, count: entries.count)
        for index in entries.indices {
            guard let parent = entries[index].task.parentUID else { continue }
            if let found = first[parent] {
                parentIndex[index] = found
            } else {
                appendProblem(to: &entries[index], field: "parent", "\"\(parent)\" names no task in this file")
            }
        }
        for cycle in TaskLinkGraph.cycles(parents: parentIndex) {
            let lines = cycle.map { entries[$0].task.line }.sorted().map(String.init).joined(separator: ", ")
            for index in cycle {
                let parent = entries[index].task.parentUID!
                let message = cycle.count == 1 ? "\"\(parent)\" is the task's own uid"
                    : "\"\(parent)\" makes a cycle of parents (lines \(lines))"
                appendProblem(to: &entries[index], field: "parent", message)
            }
        }
        guard options.skipInvalid else { return }
        let invalid = TaskLinkGraph.invalidated(parents: parentIndex, invalid: entries.map { !$0.problems.isEmpty })
        for index in entries.indices where invalid[index] && entries[index].problems.isEmpty {
            let parent = parentIndex[index]!
            appendProblem(to: &entries[index], field: "parent", "\"\(entries[index].task.parentUID!)\" is the task "
                + "on line \(entries[parent].task.line), which is invalid")
        }
    }

    /// Adds a problem to `entry`.
    private func appendProblem(to entry: inout Entry, field: String, _ message: String) {
        entry.problems.append(ExchangeProblem(file: options.fileName, line: entry.task.line, field: field,
                                              message: message))
    }
}
