/// JSON params to domain values: every shape the server reads is decoded here and nowhere else.

import Domain
import Wire

/// Reads a wire id (`l3`, `i42`, `v1`): the kind letter, then a decimal raw value.
private func rawID(_ json: JSON, path: String, letter: Character, kind: String) throws(ResponseError) -> UInt64 {
    let text = try String(json: json, path: path)
    let digits = text.dropFirst()
    // Only the canonical spelling: no sign, no leading zero, so every id has exactly one form.
    let article = kind == "item" ? "an" : "a"
    guard text.first == letter, digits.first != "0", !digits.isEmpty, digits.allSatisfy({ ("0"..."9").contains($0) }) else {
        throw .invalidParams("\(path): '\(text)' is not \(article) \(kind) id")
    }
    guard let raw = UInt64(digits) else {
        throw .invalidParams("\(path): '\(text)' is out of range; \(kind) ids number from 1 to 2^64 - 1")
    }
    return raw
}

extension ListID: JSONDecodable {
    public init(json: JSON, path: String) throws(ResponseError) {
        self.init(try rawID(json, path: path, letter: "l", kind: "list"))
    }
}

extension ItemID: JSONDecodable {
    public init(json: JSON, path: String) throws(ResponseError) {
        self.init(try rawID(json, path: path, letter: "i", kind: "item"))
    }
}

extension ViewID: JSONDecodable {
    public init(json: JSON, path: String) throws(ResponseError) {
        self.init(try rawID(json, path: path, letter: "v", kind: "view"))
    }
}

extension Priority: JSONDecodable {
    public init(json: JSON, path: String) throws(ResponseError) {
        let text = try String(json: json, path: path)
        guard let priority = Priority(rawValue: text) else {
            throw .invalidParams("\(path): unknown priority '\(text)'; expected none, low, medium or high")
        }
        self = priority
    }
}

extension Due: JSONDecodable {
    public init(json: JSON, path: String) throws(ResponseError) {
        let text = try String(json: json, path: path)
        do {
            self = try Due(parsing: text, field: path)
        } catch {
            if case .invalidField(_, let problem) = error { throw .invalidParams("\(path): \(problem)") }
            throw error.responseError
        }
    }
}

extension Sort: JSONDecodable {
    /// `{"by": "manual"|"title"|"due"|"priority"|"created"|"modified", "direction": "ascending"|"descending"}`.
    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try Fields(json: json, path: path)
        try fields.rejectUnknown(["by", "direction"])
        let by: String = try fields.required("by")
        guard let field = SortField(rawValue: by) else {
            let names = SortField.allCases.map(\.rawValue).joined(separator: ", ")
            throw .invalidParams("\(fields.path("by")): unknown sort '\(by)'; expected one of \(names)")
        }
        var direction = SortDirection.ascending
        if let text: String = try fields.optional("direction") {
            guard let parsed = SortDirection(rawValue: text) else {
                throw .invalidParams("\(fields.path("direction")): expected ascending or descending, got '\(text)'")
            }
            direction = parsed
        }
        self.init(field, direction)
    }
}

extension Window: JSONDecodable {
    /// `{"start": S, "end": E}`, a half-open range of view indexes.
    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try Fields(json: json, path: path)
        try fields.rejectUnknown(["start", "end"])
        let start: Int = try fields.required("start")
        let end: Int = try fields.required("end")
        guard start >= 0 else { throw .invalidParams("\(fields.path("start")): must not be negative") }
        guard end >= start else { throw .invalidParams("\(fields.path("end")): must not be less than start") }
        guard end - start <= Limits.windowRows else {
            throw .invalidParams("\(path): must span at most \(Limits.windowRows) rows, got \(end - start)")
        }
        self.init(start: start, end: end)
    }
}

/// Reads a list of ids: a non-empty array without repeats.
func identifiers<ID: JSONDecodable & Hashable>(_ fields: Fields, _ key: String) throws(ResponseError) -> [ID] {
    let ids: [ID] = try fields.required(key)
    guard !ids.isEmpty else { throw .invalidParams("\(fields.path(key)): must not be empty") }
    guard ids.count <= Limits.idsPerMutation else {
        throw .invalidParams("\(fields.path(key)): at most \(Limits.idsPerMutation) ids per request")
    }
    guard Set(ids).count == ids.count else { throw .invalidParams("\(fields.path(key)): lists an id twice") }
    return ids
}

extension ItemFields {
    /// The fields of a new item from `items/create` params.
    init(_ fields: Fields) throws(ResponseError) {
        self.init(
            title: try fields.required("title"),
            notes: try fields.optional("notes") ?? "",
            done: try fields.optional("done") ?? false,
            due: try fields.nullable("due"),
            priority: try fields.optional("priority") ?? .none,
            tags: try fields.optional("tags") ?? [])
    }
}

extension ItemPatch {
    /// The fields `items/update` changes: absent leaves a field alone, `null` clears `due`.
    init(_ fields: Fields) throws(ResponseError) {
        self.init()
        title = try fields.optional("title")
        notes = try fields.optional("notes")
        done = try fields.optional("done")
        switch try fields.patch("due", as: Due.self) {
        case .unchanged: due = nil
        case .cleared: due = .clear
        case .set(let value): due = .set(value)
        }
        priority = try fields.optional("priority")
        tags = try fields.optional("tags")
    }

    /// Whether the patch changes nothing at all.
    var isEmpty: Bool { self == ItemPatch() }
}

extension ListPatch {
    /// The fields `lists/update` changes: absent leaves a field alone, `null` clears `color` or `icon`.
    init(_ fields: Fields) throws(ResponseError) {
        self.init()
        name = try fields.optional("name")
        color = try clearable(fields, "color")
        icon = try clearable(fields, "icon")
    }
}

private func clearable(_ fields: Fields, _ key: String) throws(ResponseError) -> Clearable<String>? {
    switch try fields.patch(key, as: String.self) {
    case .unchanged: nil
    case .cleared: .clear
    case .set(let value): .set(value)
    }
}

extension Filter: JSONDecodable {
    /// `{"text"?, "done"?: "any"|"done"|"notDone", "tagsAnyOf"?, "tagsAllOf"?, "priorityAtLeast"?,
    /// "dueBefore"?, "dueAfter"?}`; an absent member matches everything.
    public init(json: JSON, path: String) throws(ResponseError) {
        let fields = try Fields(json: json, path: path)
        try fields.rejectUnknown(["text", "done", "tagsAnyOf", "tagsAllOf", "priorityAtLeast", "dueBefore", "dueAfter"])
        var done = Filter.Completion.any
        if let text: String = try fields.optional("done") {
            guard let parsed = Filter.Completion(rawValue: text) else {
                throw .invalidParams("\(fields.path("done")): expected any, done or notDone, got '\(text)'")
            }
            done = parsed
        }
        self.init(
            text: try fields.optional("text") ?? "", done: done,
            tagsAnyOf: try fields.optional("tagsAnyOf") ?? [], tagsAllOf: try fields.optional("tagsAllOf") ?? [],
            priorityAtLeast: try fields.optional("priorityAtLeast"),
            dueBefore: try fields.optional("dueBefore"), dueAfter: try fields.optional("dueAfter"))
    }
}

extension Grouping: JSONDecodable {
    /// `"none"`, `"dueBucket"`, `"priority"`, `"list"` or `"done"`.
    public init(json: JSON, path: String) throws(ResponseError) {
        self = try named(json, path: path, what: "sections")
    }
}

extension SmartGroup: JSONDecodable {
    /// `"today"`, `"scheduled"`, `"overdue"`, `"all"` or `"completed"`.
    public init(json: JSON, path: String) throws(ResponseError) {
        self = try named(json, path: path, what: "group")
    }
}

/// The case of a string-named enum that `json` names, or `-32602` listing the names it may be.
private func named<Value: RawRepresentable & CaseIterable>(
    _ json: JSON, path: String, what: String
) throws(ResponseError) -> Value where Value.RawValue == String {
    let text = try String(json: json, path: path)
    guard let value = Value(rawValue: text) else {
        let names = Value.allCases.map(\.rawValue).joined(separator: ", ")
        throw .invalidParams("\(path): unknown \(what) '\(text)'; expected one of \(names)")
    }
    return value
}
