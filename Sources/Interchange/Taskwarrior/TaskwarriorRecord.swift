// One task object of a Taskwarrior file, its members checked (types, UUIDs, dates, masks) and the ones taskls
// maps read; every problem names its member.

import Domain
import Wire

/// One task object as `task export` writes it, checked.
struct TaskwarriorRecord {
    /// Taskwarrior's statuses.
    enum Status: String {
        case pending, waiting, completed, deleted, recurring
    }

    /// Where the object starts in the file.
    let line: Int
    /// Its members as read, in order (`id` and `urgency` among them: Taskwarrior computes them, and whoever
    /// keeps the members leaves them out).
    var object = JSONObject()
    var uuid: String?
    var status: Status = .pending
    var description: String?
    var entry: Timestamp?
    var modified: Timestamp?
    var end: Timestamp?
    var due: Timestamp?
    var until: Timestamp?
    var priority: String?
    var project: String?
    var tags: [String] = []
    /// The annotations' descriptions, in order.
    var annotationTexts: [String] = []
    var depends: [String] = []
    var parent: String?
    var imask: Int?
    var mask: String?
    var recur: String?
    /// What is wrong with it, in member order.
    var problems: [ExchangeProblem] = []

    /// Whether it is a recurrence template: `status: recurring`, or a series taskls ended (`completed` with a mask).
    var isTemplate: Bool { status == .recurring || (status == .completed && mask != nil) }

    /// Reads one value of the file; a value that is not an object is one problem.
    /// - Complexity: O(size of the object).
    init(line: Int, value: JSON, fileName: String) {
        self.line = line
        guard case .object(let members) = value else {
            problems.append(ExchangeProblem(file: fileName, line: line,
                                            message: "expected a task (a JSON object), found \(value.typeDescription)"))
            return
        }
        object = members
        func problem(_ field: String, _ message: String) {
            problems.append(ExchangeProblem(file: fileName, line: line, field: field, message: message))
        }
        func string(_ key: String, _ value: JSON) -> String? {
            guard case .string(let text) = value else {
                problem(key, "expected a string, found \(value.typeDescription)")
                return nil
            }
            return text
        }
        func date(_ key: String, _ value: JSON) -> Timestamp? {
            guard let text = string(key, value) else { return nil }
            switch TaskwarriorDate.instant(text) {
            case .success(let instant): return instant
            case .failure(let reason):
                problem(key, Self.quoted(text) + " " + reason.words)
                return nil
            }
        }
        func uuidValue(_ key: String, _ text: String) -> String? {
            guard Self.isUUID(text) else {
                problem(key, Self.quoted(text) + " is not a UUID (8-4-4-4-12 hexadecimal digits)")
                return nil
            }
            return text
        }
        for member in members.members {
            let (key, value) = member
            switch key {
            case "id", "urgency":
                break
            case "uuid":
                uuid = string(key, value).flatMap { uuidValue(key, $0) }
            case "description":
                guard let text = string(key, value) else { break }
                if text.isEmpty {
                    problem(key, "is empty")
                } else if text.allSatisfy(\.isWhitespace) {
                    problem(key, "is only white space (a taskls title needs a word)")
                } else {
                    description = text
                }
            case "status":
                guard let text = string(key, value) else { break }
                guard let known = Status(rawValue: text) else {
                    problem(key, Self.quoted(text) + " is not a Taskwarrior status: pending, waiting, completed, deleted or recurring")
                    break
                }
                status = known
            case "entry": entry = date(key, value)
            case "modified": modified = date(key, value)
            case "end": end = date(key, value)
            case "due": due = date(key, value)
            case "until": until = date(key, value)
            case "start", "scheduled", "wait": _ = date(key, value)
            case "priority": priority = string(key, value)
            case "project": project = string(key, value)
            case "tags":
                guard case .array(let elements) = value else {
                    problem(key, "expected an array of strings, found \(value.typeDescription)")
                    break
                }
                for (index, element) in elements.enumerated() {
                    if let tag = string("tags[\(index)]", element) { tags.append(tag) }
                }
            case "annotations":
                guard case .array(let elements) = value else {
                    problem(key, "expected an array of annotations, found \(value.typeDescription)")
                    break
                }
                for (index, element) in elements.enumerated() {
                    let path = "annotations[\(index)]"
                    guard case .object(let annotation) = element, let entry = annotation["entry"],
                          let description = annotation["description"] else {
                        problem(path, "expected an object with entry and description, found \(Self.describe(element))")
                        continue
                    }
                    _ = date(path + ".entry", entry)
                    if let text = string(path + ".description", description) { annotationTexts.append(text) }
                }
            case "depends":
                let texts: [String]
                switch value {
                case .string(let text): texts = text.split(separator: ",").map(String.init)
                case .array(let elements): texts = elements.enumerated().compactMap { string("depends[\($0)]", $1) }
                default:
                    problem(key, "expected an array of UUIDs, found \(value.typeDescription)")
                    texts = []
                }
                depends = texts.compactMap { uuidValue(key, $0) }
            case "parent":
                parent = string(key, value).flatMap { uuidValue(key, $0) }
            case "imask":
                imask = Self.wholeNumber(value)
                if imask == nil { problem(key, "expected a whole number from 0, found \(Self.describe(value))") }
            case "mask":
                guard let text = string(key, value) else { break }
                guard text.utf8.allSatisfy({ "-+XW?".utf8.contains($0) }) else {
                    problem(key, Self.quoted(text) + " is not a recurrence mask (one of - + X W ? per instance)")
                    break
                }
                mask = text
            case "recur":
                recur = string(key, value)
            default:
                break
            }
        }
        if uuid == nil, members["uuid"] == nil { problem("uuid", "is missing") }
        if description == nil, members["description"] == nil { problem("description", "is missing") }
        if status == .recurring {
            if members["due"] == nil { problem("due", "is missing (a recurring task needs one)") }
            if members["recur"] == nil { problem("recur", "is missing (a recurring task needs one)") }
        }
    }

    /// `text` in double quotes, as JSON writes it, for messages.
    static func quoted(_ text: String) -> String { JSON.string(text).text }

    /// The members without `id` and `urgency`, as an instance is kept.
    var keptObject: JSONObject {
        JSONObject(object.members.filter { $0.key != "id" && $0.key != "urgency" })
    }

    /// Whether `text` is a UUID: 8-4-4-4-12 hexadecimal digits (either case).
    static func isUUID(_ text: String) -> Bool {
        var count = 0
        for (index, byte) in text.utf8.enumerated() {
            count += 1
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard (48...57).contains(byte) || (97...102).contains(byte) || (65...70).contains(byte) else { return false }
            }
        }
        return count == 36
    }

    /// A whole number from 0 as Taskwarrior writes a mask index: `3`, `3.000000` (after an import) or `"3"`.
    static func wholeNumber(_ value: JSON) -> Int? {
        switch value {
        case .integer(let number): return number >= 0 && number <= Int64(Int32.max) ? Int(number) : nil
        case .double(let number): return number >= 0 && number <= Double(Int32.max) && number.rounded() == number ? Int(number) : nil
        case .string(let text): return Int(text).flatMap { $0 >= 0 ? $0 : nil }
        default: return nil
        }
    }

    /// A value for a message: a string quoted, anything else by its type.
    private static func describe(_ value: JSON) -> String {
        if case .string(let text) = value { return Self.quoted(text) }
        return value.typeDescription
    }
}

