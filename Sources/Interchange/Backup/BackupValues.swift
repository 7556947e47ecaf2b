// BackupValues: the backup reader's strict reading of JSON values (strings, numbers, dues, instants, ids, rules,
// histories, alerts, extras, filters), each problem recorded with the value's JSON path.

import Domain
import Wire

extension BackupReader {
    // MARK: Objects and members

    /// `json` as an object whose members are all in `known` (each once); problems for the rest.
    func object(_ json: JSON, _ path: String, known: [String], what: String) -> JSONObject? {
        guard case .object(let object) = json else {
            return fail(path, "expected \(what) (an object), got \(json.typeDescription)")
        }
        var seen: UInt64 = 0  // bit i: known[i] was met (an object has at most 64 known members)
        for member in object.members {
            guard let index = known.firstIndex(of: member.key) else {
                report(child(path, member.key), "is not a member of \(what): " + known.joined(separator: ", "))
                continue
            }
            if seen & (1 << index) != 0 { report(child(path, member.key), "is given twice") }
            seen |= 1 << index
        }
        return object
    }

    /// The member `key` read by `read`; `fallback` when it is absent (or `null`, where `nullable`) or does not read.
    func member<Value>(_ object: JSONObject, _ key: String, _ path: String, _ fallback: Value, nullable: Bool = false,
                       _ read: (JSON, String) -> Value?) -> Value {
        guard let json = object[key] else { return fallback }
        if nullable, json == .null { return fallback }
        return read(json, child(path, key)) ?? fallback
    }

    /// The member `key`, which must be there.
    func required<Value>(_ object: JSONObject, _ key: String, _ path: String, _ read: (JSON, String) -> Value?) -> Value? {
        guard let json = object[key] else { return fail(child(path, key), "is missing") }
        return read(json, child(path, key))
    }

    // MARK: Plain values

    func string(_ json: JSON, _ path: String) -> String? {
        guard case .string(let text) = json else { return fail(path, "expected a string, got \(json.typeDescription)") }
        return text
    }

    func bool(_ json: JSON, _ path: String) -> Bool? {
        guard case .bool(let flag) = json else { return fail(path, "expected true or false, got \(json.typeDescription)") }
        return flag
    }

    /// A whole number within `range`.
    func integer(_ json: JSON, _ path: String, in range: ClosedRange<Int64>) -> Int? {
        guard case .integer(let number) = json else {
            return fail(path, "expected a whole number, got \(json.typeDescription)")
        }
        guard range.contains(number) else {
            return fail(path, "\(number) is out of range: \(range.lowerBound) to \(range.upperBound)")
        }
        return Int(number)
    }

    /// An array of strings.
    func strings(_ json: JSON, _ path: String) -> [String]? {
        array(json, path) { string($0, $1) }
    }

    /// An array whose every element reads; nil (each problem recorded) when one does not.
    func array<Element>(_ json: JSON, _ path: String, _ read: (JSON, String) -> Element?) -> [Element]? {
        guard case .array(let elements) = json else { return fail(path, "expected an array, got \(json.typeDescription)") }
        var result: [Element] = []
        var complete = true
        for (index, element) in elements.enumerated() {
            if let value = read(element, path + "[\(index)]") { result.append(value) } else { complete = false }
        }
        return complete ? result : nil
    }

    /// One of `names`.
    func name(_ json: JSON, _ path: String, among names: [String]) -> String? {
        guard let text = string(json, path) else { return nil }
        guard names.contains(text) else {
            return fail(path, "\"\(text)\" is not one of " + names.joined(separator: ", "))
        }
        return text
    }

    // MARK: Taskls values

    /// A due: `YYYY-MM-DD` or an instant with its offset.
    func due(_ json: JSON, _ path: String) -> Due? {
        guard let text = string(json, path) else { return nil }
        do {
            return try Due(parsing: text)
        } catch {
            let day = Substring(text.utf8.prefix(10))
            if case .failure(let problem) = TodoTxtValues.day(day), TodoTxtLine.isDateShaped(day.utf8) {
                return fail(path, problem.message)
            }
            guard case .invalidField(_, let problem) = error else { return fail(path, error.message) }
            return fail(path, problem)
        }
    }

    /// An instant: an ISO 8601 date-time with its offset (written in UTC with milliseconds).
    func instant(_ json: JSON, _ path: String) -> Timestamp? {
        switch due(json, path) {
        case .dateTime(let instant, _)?:
            return instant
        case .date?:
            return fail(path, "expected an instant such as 2026-11-22T09:30:00.000Z, got a day")
        case nil:
            return nil
        }
    }

    /// A store id as the protocol spells it: `letter` and a decimal number from 1 to 2^64 - 1 without leading zeros.
    func storeID(_ json: JSON, _ path: String, letter: Character, what: String) -> UInt64? {
        guard let text = string(json, path) else { return nil }
        let digits = text.dropFirst()
        guard text.first == letter, let first = digits.first, first != "0",
              digits.allSatisfy({ $0.isASCII && $0.isNumber }), let number = UInt64(digits) else {
            return fail(path, "\"\(text)\" is not \(what) id such as \(letter)42")
        }
        return number
    }

    func priority(_ json: JSON, _ path: String) -> Priority? {
        name(json, path, among: Priority.allCases.map(\.rawValue)).flatMap(Priority.init(rawValue:))
    }

    /// `{"rule": RRULE, "from": ANCHOR}`.
    func repeatRule(_ json: JSON, _ path: String) -> RepeatRule? {
        guard let object = object(json, path, known: ["rule", "from"], what: "a repeat") else { return nil }
        let anchor = required(object, "from", path) { json, path in
            name(json, path, among: RepeatRule.Anchor.allCases.map(\.rawValue)).flatMap(RepeatRule.Anchor.init(rawValue:))
        }
        guard let rule = required(object, "rule", path, string) else { return nil }
        do {
            let repeatRule = try RepeatRule(rrule: rule, anchor: anchor ?? .due)
            return anchor == nil ? nil : repeatRule
        } catch {
            guard case .invalidField(_, let problem) = error else { return fail(path + ".rule", error.message) }
            return fail(path + ".rule", problem)
        }
    }

    /// `{"completed": N, "skipped": N, "recent": [{"due", "outcome", "at"}, ...]}`.
    func occurrences(_ json: JSON, _ path: String) -> Occurrences? {
        guard let object = object(json, path, known: ["completed", "skipped", "recent"], what: "a history") else {
            return nil
        }
        let counts = 0...Int64(Int32.max)
        let completed = member(object, "completed", path, 0) { integer($0, $1, in: counts) }
        let skipped = member(object, "skipped", path, 0) { integer($0, $1, in: counts) }
        let recent = member(object, "recent", path, []) { json, path in
            array(json, path) { json, path -> Occurrence? in
                guard let entry = self.object(json, path, known: ["due", "outcome", "at"], what: "an occurrence") else {
                    return nil
                }
                let due = required(entry, "due", path, due)
                let outcome = required(entry, "outcome", path) { name($0, $1, among: ["completed", "skipped"]) }
                let at = required(entry, "at", path, instant)
                guard let due, let outcome, let at else { return nil }
                return Occurrence(due: due, outcome: outcome == "completed" ? .completed : .skipped, at: at)
            }
        }
        return Occurrences(completed: completed, skipped: skipped, recent: recent)
    }

    /// `{"at": INSTANT}` or `{"offset": MINUTES}`.
    func alert(_ json: JSON, _ path: String) -> Alert? {
        guard let object = object(json, path, known: ["at", "offset"], what: "an alert") else { return nil }
        switch (object["at"], object["offset"]) {
        case (let at?, nil):
            return instant(at, path + ".at").map(Alert.at)
        case (nil, let offset?):
            let limit = Int64(Int32.max)
            return integer(offset, path + ".offset", in: -limit...limit).map { Alert.offset(minutes: $0) }
        case (.some, .some):
            return fail(path, "give at or offset, not both")
        case (nil, nil):
            return fail(path, "give at (an instant) or offset (minutes from the due)")
        }
    }

    /// `{"key": FORMAT:NAME, "value": TEXT}`.
    func extra(_ json: JSON, _ path: String) -> Extra? {
        guard let object = object(json, path, known: ["key", "value"], what: "an extra") else { return nil }
        let key = required(object, "key", path, string)
        guard let key, let value = required(object, "value", path, string) else { return nil }
        return Extra(key: key, value: value)
    }

    /// A filter as `view/filter` takes it: every member optional, none `null`.
    func filter(_ json: JSON, _ path: String) -> Filter? {
        let known = ["text", "done", "tagsAnyOf", "tagsAllOf", "priorityAtLeast", "dueBefore", "dueAfter"]
        guard let object = object(json, path, known: known, what: "a filter") else { return nil }
        let before = problems.count
        let completion = member(object, "done", path, "any") { name($0, $1, among: Filter.Completion.allCases.map(\.rawValue)) }
        let filter = Filter(
            text: member(object, "text", path, "", string),
            done: Filter.Completion(rawValue: completion) ?? .any,
            tagsAnyOf: member(object, "tagsAnyOf", path, [], strings),
            tagsAllOf: member(object, "tagsAllOf", path, [], strings),
            priorityAtLeast: member(object, "priorityAtLeast", path, nil, priority),
            dueBefore: member(object, "dueBefore", path, nil, due),
            dueAfter: member(object, "dueAfter", path, nil, due))
        return problems.count == before ? filter : nil
    }
}
