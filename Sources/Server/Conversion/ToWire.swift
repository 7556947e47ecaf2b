/// Domain values to JSON: every shape the server sends is built here and nowhere else.

import Domain
import Wire

/// Wire spellings of identifiers: opaque strings with a kind letter, e.g. `l3`, `i42`, `v1`.
/// The spelling is the identifiers' `description` (the domain's messages use it too), and
/// `FromWire.swift` reads it back.
enum WireID {
    static func list(_ id: ListID) -> JSON { .string(id.description) }
    static func item(_ id: ItemID) -> JSON { .string(id.description) }
    static func view(_ id: ViewID) -> JSON { .string(id.description) }
}

extension TaskList {
    /// A list as the wire shows it, with its counts when known.
    func json(open: Int? = nil, total: Int? = nil) -> JSON {
        var object: JSONObject = ["id": WireID.list(id), "name": .string(name)]
        object["color"] = color.map(JSON.string) ?? .null
        object["icon"] = icon.map(JSON.string) ?? .null
        if let open { object["open"] = .integer(Int64(open)) }
        if let total { object["total"] = .integer(Int64(total)) }
        return .object(object)
    }
}

extension ListSummary {
    var json: JSON { list.json(open: open, total: total) }
}

extension Item {
    /// The item in full, as `items/get` and the mutation results return it.
    var fullJSON: JSON {
        var object: JSONObject = [
            "id": WireID.item(id), "list": WireID.list(list), "title": .string(title), "notes": .string(notes),
            "done": .bool(done),
        ]
        object["completed"] = completedAt.map { .string($0.iso8601) } ?? .null
        object["due"] = due.map { .string($0.iso8601) } ?? .null
        object["priority"] = .string(priority.rawValue)
        object["tags"] = .array(tags.map(JSON.string))
        object["created"] = .string(createdAt.iso8601)
        object["modified"] = .string(modifiedAt.iso8601)
        object["revision"] = .integer(Int64(revision))
        return .object(object)
    }

    /// The item as a row of a view: what a pane renders, without the notes (fetch those with
    /// `items/get`), so a window's size does not depend on how long anyone's notes are.
    var rowJSON: JSON {
        var object: JSONObject = [
            "kind": "item", "id": WireID.item(id), "list": WireID.list(list), "title": .string(title),
            "done": .bool(done),
        ]
        object["due"] = due.map { .string($0.iso8601) } ?? .null
        object["priority"] = .string(priority.rawValue)
        object["tags"] = .array(tags.map(JSON.string))
        object["hasNotes"] = .bool(!notes.isEmpty)
        object["revision"] = .integer(Int64(revision))
        return .object(object)
    }
}

extension Row {
    var json: JSON {
        switch self {
        case .item(let item): item.rowJSON
        case .header(let header):
            ["kind": "header", "id": .string(header.section.wireID), "title": .string(header.title),
             "count": .integer(Int64(header.count))]
        }
    }
}

extension SectionID {
    /// A header row's id: `s:due:today`, `s:priority:high`, `s:list:l3`, `s:done:false`.
    var wireID: String {
        switch self {
        case .due(let bucket): "s:due:\(bucket.wireName)"
        case .priority(let priority): "s:priority:\(priority.rawValue)"
        case .list(let list): "s:list:\(list)"
        case .done(let done): "s:done:\(done)"
        }
    }
}

extension DueBucket {
    /// The bucket's name on the wire.
    var wireName: String {
        switch self {
        case .overdue: "overdue"
        case .today: "today"
        case .tomorrow: "tomorrow"
        case .nextSevenDays: "next7days"
        case .later: "later"
        case .noDate: "noDate"
        }
    }
}

extension SmartGroup {
    /// The group's title as a pane shows it.
    var title: String {
        switch self {
        case .today: "Today"
        case .scheduled: "Scheduled"
        case .overdue: "Overdue"
        case .all: "All"
        case .completed: "Completed"
        }
    }
}

extension Overview {
    /// What `lists/list` answers and `lists/changed` pushes (with the revision added).
    func json(revision: UInt64) -> JSON {
        [
            "lists": .array(lists.map(\.json)),
            "groups": .array(groups.map { ["id": .string($0.group.rawValue), "name": .string($0.group.title), "count": .integer(Int64($0.count))] }),
            "revision": .integer(Int64(revision)),
        ]
    }
}

extension Filter {
    /// The filter as the client gave it; members at their defaults are left out.
    var json: JSON {
        var object = JSONObject()
        if !text.isEmpty { object["text"] = .string(text) }
        if done != .any { object["done"] = .string(done.rawValue) }
        if !tagsAnyOf.isEmpty { object["tagsAnyOf"] = .array(tagsAnyOf.map(JSON.string)) }
        if !tagsAllOf.isEmpty { object["tagsAllOf"] = .array(tagsAllOf.map(JSON.string)) }
        if let priorityAtLeast { object["priorityAtLeast"] = .string(priorityAtLeast.rawValue) }
        if let dueBefore { object["dueBefore"] = .string(dueBefore.iso8601) }
        if let dueAfter { object["dueAfter"] = .string(dueAfter.iso8601) }
        return .object(object)
    }
}

extension Sort {
    var json: JSON { ["by": .string(field.rawValue), "direction": .string(direction.rawValue)] }
}

extension Window {
    var json: JSON { ["start": .integer(Int64(start)), "end": .integer(Int64(end))] }
}

/// The members every view message shares: state (and progress while loading), count, and
/// why the view is empty when it is.
private func stateMembers(_ state: ViewState, count: Int?, empty: EmptyReason?, into object: inout JSONObject) {
    switch state {
    case .ready: object["state"] = "ready"
    case .loading(let progress):
        object["state"] = "loading"
        object["progress"] = .double((progress * 1000).rounded() / 1000)
    case .closed: object["state"] = "closed"
    case .error(let message, let retryable):
        object["state"] = "error"
        object["error"] = ["message": .string(message), "retryable": .bool(retryable)]
    }
    object["count"] = count.map { .integer(Int64($0)) } ?? .null
    if let empty { object["empty"] = .string(empty.rawValue) }
}

extension ViewSnapshot {
    /// What `lists/open`, `view/setWindow` and `view/snapshot` answer.
    var json: JSON {
        var object: JSONObject = ["view": WireID.view(view), "version": .integer(Int64(version))]
        stateMembers(state, count: count, empty: empty, into: &object)
        object["window"] = window.json
        object["sort"] = sort.json
        object["filter"] = filter.json
        object["sections"] = .string(grouping.rawValue)
        switch source {
        case .list(let list): object["list"] = WireID.list(list)
        case .group(let group): object["group"] = .string(group.rawValue)
        }
        object["rows"] = .array(rows.map(\.json))
        return .object(object)
    }
}

extension WindowOperation {
    var json: JSON {
        switch self {
        case .insert(let index, let row): ["op": "insert", "index": .integer(Int64(index)), "row": row.json]
        case .remove(let index): ["op": "remove", "index": .integer(Int64(index))]
        case .move(let from, let to, let row?):
            ["op": "move", "from": .integer(Int64(from)), "to": .integer(Int64(to)), "row": row.json]
        case .move(let from, let to, nil): ["op": "move", "from": .integer(Int64(from)), "to": .integer(Int64(to))]
        case .update(let index, let row): ["op": "update", "index": .integer(Int64(index)), "row": row.json]
        case .reset(let rows): ["op": "reset", "rows": .array(rows.map(\.json))]
        }
    }
}

extension ViewChange {
    /// The notification for this change: `view/closed` for a view that closed, else `view/changed`.
    /// Public so the benchmarks can measure exactly what the server writes.
    public var notification: Message {
        if case .closed(let reason) = state {
            return .notification(method: "view/closed", params: ["view": WireID.view(view), "reason": .string(reason)])
        }
        var object: JSONObject = ["view": WireID.view(view), "version": .integer(Int64(version))]
        stateMembers(state, count: count, empty: empty, into: &object)
        object["window"] = window.json
        object["ops"] = .array(operations.map(\.json))
        return .notification(method: "view/changed", params: .object(object))
    }
}

extension DomainError {
    /// The JSON-RPC error for this refusal; field names get their `params.` path.
    var responseError: ResponseError {
        switch self {
        case .invalidField(let field, let problem):
            return .invalidParams("params.\(field): \(problem)")
        case .notFound(let kind, let ids):
            let names = ids.map { kind == .list ? ListID($0).description : ItemID($0).description }
            return .requestFailed(
                reason: "notFound", "unknown \(kind.rawValue) id\(ids.count == 1 ? "" : "s"): \(names.joined(separator: ", "))",
                data: ["ids": .array(names.map(JSON.string))])
        case .refused(let reason, let message):
            return .requestFailed(reason: reason, message)
        case .staleVersion(let view, let seen, let current):
            return ResponseError(
                .contentModified, "view \(view) is at version \(current), the request saw version \(seen); nothing was changed",
                data: ["version": .integer(Int64(current))])
        case .unknownView(let view):
            return .requestFailed(reason: "unknownView", "no open view \(view)")
        }
    }
}
