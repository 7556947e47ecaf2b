/// What the mutations several writers acknowledged must leave: every acknowledged mutation replayed in the
/// order of the revisions they answered (one store, one order), with each writer's own undo history.

import TestSupport
import Wire

/// One mutation a writer sent and the answer it got.
struct WriterEntry {
    var writer: Int
    var request: JSON
    var response: JSON

    var method: String { request.string("method") ?? "" }
    var params: JSON { request["params"] ?? .object([:]) }
    var result: JSON? { response["result"] }
}

/// The lists and items the acknowledged mutations leave, as far as a client can tell them apart: which lists
/// exist, and each item's list and fields (not positions).
struct AcknowledgedReplay {
    /// An item's fields the replay follows.
    struct Item: Equatable, CustomStringConvertible {
        var list: String
        var title: String
        var done: Bool
        var due: JSON
        var priority: String
        var tags: JSON

        /// From an item in full (`items/create`, `items/update`, `items/get`).
        init?(_ json: JSON) {
            guard let list = json.string("list"), let title = json.string("title"), case .bool(let done)? = json["done"],
                  let due = json["due"], let priority = json.string("priority"), let tags = json["tags"] else { return nil }
            self.list = list
            self.title = title
            self.done = done
            self.due = due
            self.priority = priority
            self.tags = tags
        }

        var description: String { "\(list) \"\(title)\" done \(done) due \(due.text) \(priority) \(tags.text)" }
    }

    /// One undo step: every list and item it touched, before and after (nil: absent).
    private struct Step {
        var method: String
        var lists: [(id: String, before: Bool, after: Bool)] = []
        var items: [(id: String, before: Item?, after: Item?)] = []
    }

    private(set) var lists: Set<String> = []
    private(set) var items: [String: Item] = [:]
    /// Where the replay disagrees with what the server answered.
    private(set) var problems: [String] = []
    private var undo: [[Step]]
    private var redo: [[Step]]

    /// A replay starting from `lists` and `items`, for `writers` writers with empty histories.
    init(writers: Int, lists: Set<String>, items: [String: Item]) {
        self.lists = lists
        self.items = items
        undo = Array(repeating: [], count: writers)
        redo = Array(repeating: [], count: writers)
    }

    /// The acknowledged requests that changed nothing, as (writer, index) of `entries`: their result says
    /// `"changed": false` (protocol.md); they answer the revision they found.
    static func unchanged(_ entries: [[WriterEntry]]) -> Set<[Int]> {
        var unchanged: Set<[Int]> = []
        for (writer, list) in entries.enumerated() {
            for (index, entry) in list.enumerated() where entry.result?["changed"] == .bool(false) {
                unchanged.insert([writer, index])
            }
        }
        return unchanged
    }

    /// Replays the entries of every writer: the acknowledged ones in revision order (but `unchanged` ones), each writer's refused undo and redo in its own order (a refusal drops or keeps the
    /// writer's step, as protocol.md says).
    mutating func replay(_ entries: [[WriterEntry]], unchanged: Set<[Int]> = []) {
        var acknowledged: [(revision: Int64, writer: Int, index: Int)] = []
        for (writer, list) in entries.enumerated() {
            for (index, entry) in list.enumerated() {
                if let revision = entry.result?.integer("revision") { acknowledged.append((revision, writer, index)) }
            }
        }
        acknowledged.sort { ($0.revision, $0.writer, $0.index) < ($1.revision, $1.writer, $1.index) }
        var next = Array(repeating: 0, count: entries.count)
        for (_, writer, index) in acknowledged {
            while next[writer] < index {
                refused(entries[writer][next[writer]])
                next[writer] += 1
            }
            if !unchanged.contains([writer, index]) { apply(entries[writer][index]) }
            next[writer] = index + 1
        }
        for (writer, list) in entries.enumerated() {
            for entry in list[next[writer]...] { refused(entry) }
        }
    }

    private mutating func refused(_ entry: WriterEntry) {
        guard entry.result == nil, entry.method == "undo" || entry.method == "redo" else { return }
        let undoing = entry.method == "undo"
        switch entry.response.errorReason {
        case "changedSince", "deletedSince", "listDeleted":
            // The step can never be undone (redone): it is dropped.
            if undoing {
                if undo[entry.writer].popLast() == nil { problems.append("writer \(entry.writer): undo refused for \(entry.response.text) with no step in its history") }
            } else if redo[entry.writer].popLast() == nil {
                problems.append("writer \(entry.writer): redo refused for \(entry.response.text) with no step to redo")
            }
        case "nothingToUndo":
            if !undo[entry.writer].isEmpty { problems.append("writer \(entry.writer): nothingToUndo with \(undo[entry.writer].count) steps in its history") }
        case "nothingToRedo":
            if !redo[entry.writer].isEmpty { problems.append("writer \(entry.writer): nothingToRedo with \(redo[entry.writer].count) steps to redo") }
        default:
            problems.append("writer \(entry.writer): \(entry.method) refused: \(entry.response.text)")
        }
    }

    private mutating func apply(_ entry: WriterEntry) {
        let result = entry.result!
        let params = entry.params
        let writer = entry.writer
        var step = Step(method: entry.method)
        switch entry.method {
        case "lists/create":
            guard let id = result["list"]?.string("id") else { return problem(entry, "no list id") }
            step.lists.append((id, false, true))
        case "lists/delete":
            guard let id = params.string("id") else { return problem(entry, "no id") }
            if !lists.contains(id) { problem(entry, "deletes list \(id), which the replay does not have") }
            step.lists.append((id, true, false))
            for (item, value) in items where value.list == id { step.items.append((item, value, nil)) }
        case "items/create":
            guard let item = result["item"], let id = item.string("id"), let value = Item(item) else { return problem(entry, "no item") }
            step.items.append((id, nil, value))
        case "items/update":
            for item in result.elements("items") ?? [] {
                guard let id = item.string("id"), let value = Item(item) else { return problem(entry, "no item") }
                if items[id] == nil { problem(entry, "updates \(id), which the replay does not have") }
                step.items.append((id, items[id], value))
            }
        case "items/delete":
            for id in (params.elements("ids") ?? []).compactMap(\.stringValue) {
                if items[id] == nil { problem(entry, "deletes \(id), which the replay does not have") }
                step.items.append((id, items[id], nil))
            }
        case "items/move":
            // A move by view index stays in the view's list: nothing the replay follows changes.
            if params["view"] == nil {
                guard let list = params.string("list") else { return problem(entry, "a move by id without its list") }
                for id in (params.elements("ids") ?? []).compactMap(\.stringValue) {
                    guard var value = items[id] else {
                        problem(entry, "moves \(id), which the replay does not have")
                        continue
                    }
                    let before = value
                    value.list = list
                    step.items.append((id, before, value))
                }
            }
        case "undo", "redo":
            let undoing = entry.method == "undo"
            guard let done = undoing ? undo[writer].popLast() : redo[writer].popLast() else {
                return problem(entry, "acknowledged with no step in the writer's history")
            }
            let key = undoing ? "undone" : "redone"
            if result.string(key) != done.method { problem(entry, "\(key) \(result[key]?.text ?? "nothing"), the replay's step is \(done.method)") }
            for list in done.lists { set(list: list.id, undoing ? list.before : list.after) }
            for item in done.items { items[item.id] = undoing ? item.before : item.after }
            if undoing { redo[writer].append(done) } else { undo[writer].append(done) }
            return
        default:
            return problem(entry, "unexpected method")
        }
        for list in step.lists { set(list: list.id, list.after) }
        for item in step.items { items[item.id] = item.after }
        undo[writer].append(step)
        redo[writer] = []
    }

    private mutating func set(list: String, _ exists: Bool) {
        if exists { lists.insert(list) } else { lists.remove(list) }
    }

    private mutating func problem(_ entry: WriterEntry, _ text: String) {
        problems.append("writer \(entry.writer) \(entry.request.text) -> \(entry.response.text): \(text)")
    }
}
