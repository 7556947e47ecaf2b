// BackupWriter: an exchange document as the backup JSON, every field, one line per list, smart list and task.

import Domain
import Wire

/// Writes the backup JSON (see `BackupFormat`; protocol.md gives the shape).
enum BackupWriter {
    /// The whole file: the top level's members, each array's elements one per line.
    /// - Complexity: O(size of the document).
    static func write(_ document: ExchangeDocument) -> ExchangeWriting {
        var text = "{\"format\":\"\(BackupFormat.formatName)\",\"version\":\(BackupFormat.version),\n"
        text += "\"lists\":" + array(document.lists.map(list)) + ",\n"
        text += "\"smartLists\":" + array(document.smartLists.map(smartList)) + ",\n"
        text += "\"tasks\":" + array(document.tasks.map(task)) + "}\n"
        var losses = LossTally()
        var counts: [String: Int] = [:]
        for list in document.lists { counts[list.name, default: 0] += 1 }
        for task in document.tasks where task.list.map({ counts[$0, default: 0] > 1 }) == true {
            losses.add("which of two lists of the same name a task is in",
                       because: "the backup names a task's list by its name")
        }
        return ExchangeWriting(text: text, losses: losses.losses)
    }

    /// `[]`, or the elements one per line.
    private static func array(_ elements: [JSON]) -> String {
        guard !elements.isEmpty else { return "[]" }
        return "[\n" + elements.map(\.text).joined(separator: ",\n") + "\n]"
    }

    /// A list: `name`, `color`, `icon`, `storeID` (`l3`).
    static func list(_ list: ExchangeList) -> JSON {
        .object(JSONObject([
            ("name", .string(list.name)), ("color", optional(list.color)), ("icon", optional(list.icon)),
            ("storeID", optional(list.storeID.map { "l" + String($0) })),
        ]))
    }

    /// A smart list: `name`, `color`, `icon`, `filter`, `lists` (names, or null for every list).
    static func smartList(_ smartList: ExchangeSmartList) -> JSON {
        .object(JSONObject([
            ("name", .string(smartList.name)), ("color", optional(smartList.color)), ("icon", optional(smartList.icon)),
            ("filter", filter(smartList.filter)), ("lists", smartList.lists.map(strings) ?? .null),
        ]))
    }

    /// A task: every field of `ExchangeTask` but its line, in its order.
    static func task(_ task: ExchangeTask) -> JSON {
        let repeatJSON: JSON = task.repeatRule.map {
            .object(JSONObject([("rule", .string($0.rrule)), ("from", .string($0.anchor.rawValue))]))
        } ?? .null
        return .object(JSONObject([
            ("uid", optional(task.uid)), ("storeID", optional(task.storeID.map { "i" + String($0) })),
            ("list", optional(task.list)), ("parentUID", optional(task.parentUID)), ("title", .string(task.title)),
            ("notes", .string(task.notes)), ("done", .bool(task.done)), ("completedAt", instant(task.completedAt)),
            ("createdAt", instant(task.createdAt)), ("modifiedAt", instant(task.modifiedAt)),
            ("due", optional(task.due?.iso8601)), ("priority", .string(task.priority.rawValue)),
            ("tags", strings(task.tags)), ("repeat", repeatJSON), ("occurrences", occurrences(task.occurrences)),
            ("alerts", .array(task.alerts.map(alert))),
            ("extras", .array(task.extras.map { .object(JSONObject([("key", .string($0.key)), ("value", .string($0.value))])) })),
        ]))
    }

    /// A filter as `view/filter` takes it, members at their defaults left out.
    static func filter(_ filter: Filter) -> JSON {
        var object = JSONObject()
        if !filter.text.isEmpty { object["text"] = .string(filter.text) }
        if filter.done != .any { object["done"] = .string(filter.done.rawValue) }
        if !filter.tagsAnyOf.isEmpty { object["tagsAnyOf"] = strings(filter.tagsAnyOf) }
        if !filter.tagsAllOf.isEmpty { object["tagsAllOf"] = strings(filter.tagsAllOf) }
        if let priority = filter.priorityAtLeast { object["priorityAtLeast"] = .string(priority.rawValue) }
        if let due = filter.dueBefore { object["dueBefore"] = .string(due.iso8601) }
        if let due = filter.dueAfter { object["dueAfter"] = .string(due.iso8601) }
        return .object(object)
    }

    /// A repeating task's history: `completed`, `skipped`, `recent` (`due`, `outcome`, `at`).
    static func occurrences(_ occurrences: Occurrences) -> JSON {
        let recent: [JSON] = occurrences.recent.map {
            .object(JSONObject([("due", .string($0.due.iso8601)),
                                ("outcome", .string($0.outcome == .completed ? "completed" : "skipped")),
                                ("at", .string($0.at.iso8601))]))
        }
        return .object(JSONObject([("completed", .integer(Int64(occurrences.completed))),
                                   ("skipped", .integer(Int64(occurrences.skipped))), ("recent", .array(recent))]))
    }

    /// `{"at": INSTANT}` or `{"offset": MINUTES}`.
    static func alert(_ alert: Alert) -> JSON {
        switch alert {
        case .at(let instant): .object(JSONObject([("at", .string(instant.iso8601))]))
        case .offset(let minutes): .object(JSONObject([("offset", .integer(Int64(minutes)))]))
        }
    }

    private static func optional(_ text: String?) -> JSON { text.map(JSON.string) ?? .null }
    private static func instant(_ instant: Timestamp?) -> JSON { instant.map { .string($0.iso8601) } ?? .null }
    private static func strings(_ texts: [String]) -> JSON { .array(texts.map(JSON.string)) }
}
