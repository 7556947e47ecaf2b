/// What `RandomSession` checks: every request's answer and notifications, every open view against a fresh
/// snapshot and against the rows the shadow store expects after each request, and audits of whole orders page
/// by page.

import Foundation
import TasklsProtocol
import Wire

/// A result that carries the store's revision: what every request that may change the store answers.
protocol RevisionCarrying {
    /// The store's revision after the request.
    var revision: UInt64 { get }
}

extension ListsCreateResult: RevisionCarrying {}
extension ListsDeleteResult: RevisionCarrying {}
extension ItemsCreateResult: RevisionCarrying {}
extension ItemsUpdateResult: RevisionCarrying {}
extension ItemsMoveResult: RevisionCarrying {}
extension ItemsDeleteResult: RevisionCarrying {}

extension RandomSession {
    // MARK: Sending a request and checking every view after it

    /// Sends one request, applies the notifications that came before its answer, checks the
    /// revision of a mutation, lets `handle` check the answer and update the shadow store, then
    /// compares every open view with a fresh snapshot.
    func perform<Request: RequestMessage>(
        _ request: Request, mutates: Bool = false, changesNothing: Bool = false,
        handle: (Result<Request.Result, ResponseError>) throws -> Void
    ) throws {
        requests += 1
        statistics.requests += 1
        let (number, current) = (requests, operation)
        log.append { "#\(number) (operation \(current)) --> \(Request.method) \(request.json.text)" }
        let result = try server.call(request)
        received = server.takeNotifications()
        let notifications = received
        // Written out only for a failure: most of the run's time would go to writing rows as text.
        log.append { "    <-- \(Self.describe(result))" + (notifications.isEmpty ? "" : " after \(Self.describe(notifications))") }
        statistics.notifications += received.count
        for notification in received {
            if case .viewChanged(let change) = notification {
                for operation in change.ops { statistics.changeOps[operation.name, default: 0] += 1 }
            }
            let (view, outcome) = try client.receive(notification)
            if case .gap(let expected, let got)? = outcome {
                throw SessionFailure("version gap on \(view): expected version \(expected), got \(got): \(notification.params.text)")
            }
        }
        defer {
            for lapse in client.takeLapses() {
                lapses.append((lapse.rule, lapse, "operation \(operation), request \(requests), after\n\(logTail(6))"))
            }
        }
        switch result {
        case .success(let value) where mutates:
            guard let revision = (value as? any RevisionCarrying)?.revision else {
                throw SessionFailure("\(Request.method) changes the store but its result carries no revision: \(value.json.text)")
            }
            if changesNothing {
                // protocol.md: "a request that changes nothing ... leaves the revision as it was".
                try check(revision == store.revision, "\(Request.method) \(request.json.text) changed nothing but moved the revision from \(store.revision) to \(revision)")
            } else {
                try check(revision == store.revision + 1, "\(Request.method) must raise the revision by one: was \(store.revision), answered \(revision)")
            }
            store.revision = revision
        case .success: break
        case .failure(let error):
            try check(received.isEmpty, "\(Request.method) was refused (\(error)) but views changed: \(describe(received))")
        }
        try handle(result)
        try verifyViews()
    }

    /// Every open view equals a fresh snapshot, counts the rows the shadow store expects, and its window's rows
    /// sit in the tree where the shadow store has them (in its order too, when manual ascending).
    private func verifyViews() throws {
        // Views of one list with the same filter and collapsed items have the same rows.
        var rowsCache: [RowsKey: [ShadowRow]] = [:]
        for id in spelled(client.views.keys) {
            statistics.snapshots += 1
            let snapshot: ViewSnapshotResult
            switch try server.call(ViewSnapshot(view: id)) {
            case .success(let value): snapshot = value
            case .failure(let error): throw SessionFailure("view/snapshot \(id) was refused: \(error)")
            }
            let late = server.takeNotifications()
            try check(late.isEmpty, "notifications came after the answer of the request that caused them: \(describe(late))")
            let view = client.views[id]!
            if let difference = view.difference(from: snapshot) {
                throw SessionFailure("the client's copy of \(id) is not the server's after the last request: \(difference)")
            }
            guard let shadow = store.views[view.id] else { throw SessionFailure("the test does not know \(view.id)") }
            let key = RowsKey(list: shadow.list, filter: shadow.filter, collapsed: shadow.collapsed)
            let rows = rowsCache[key] ?? store.rows(of: shadow)
            rowsCache[key] = rows
            try checkTree(of: view, expected: rows)
        }
    }

    /// What a view's rows depend on, beside the store.
    private struct RowsKey: Hashable {
        var list: ListID
        var filter: Filter
        var collapsed: Set<ItemID>
    }

    /// The view's count and its window's rows are those the shadow store expects: the same rows, with the same
    /// place in the tree (`parent`, `depth`, `hasChildren`, `collapsed`, `context`, the item's subtask counts);
    /// in the same order when the view is in manual ascending order.
    private func checkTree(of view: ReferenceView, expected: [ShadowRow]) throws {
        try check(
            view.count == expected.count,
            "\(view.id) counts \(view.count) rows, but the shadow store has \(expected.count): \(expected.map(\.description).joined(separator: " ")) (collapsed: \(spelled(store.views[view.id]!.collapsed)))")
        let shown = try itemRows(view.rows)
        if view.isManualAscending {
            let window = Array(expected[min(view.window.start, expected.count)..<min(view.window.end, expected.count)])
            try check(
                shown.map(\.id) == window.map(\.id),
                "\(view.id) shows \(TreeRules.describe(view.rows)) in window \(view.window.start)..<\(view.window.end), but the shadow store has \(window.map(\.description).joined(separator: " "))")
        }
        // In manual ascending order the rows are the window's, in order; else looked up by id.
        let byID = view.isManualAscending ? [:] : Dictionary(uniqueKeysWithValues: expected.map { ($0.id, $0) })
        for (offset, row) in shown.enumerated() {
            guard let known = view.isManualAscending ? expected[view.window.start + offset] : byID[row.id] else {
                throw SessionFailure("\(view.id) shows \(row.id), which the shadow store does not have among its rows: \(expected.map(\.description).joined(separator: " "))")
            }
            let actual = ShadowRow(id: row.id, parent: row.parent, depth: row.depth, hasChildren: row.hasChildren,
                                   collapsed: row.collapsed, context: row.context)
            try check(
                actual == known && row.children == store.subtaskCount(of: row.id) && row.openChildren == store.openSubtaskCount(of: row.id),
                "\(view.id) row \(row.json.text) is \(actual) with children \(row.children), openChildren \(row.openChildren), but the shadow store has \(known) with children \(store.subtaskCount(of: row.id)), openChildren \(store.openSubtaskCount(of: row.id)); rows: \(expected.map(\.description).joined(separator: " "))")
        }
    }

    // MARK: Audits: the whole order, page by page

    /// Pages through a manual view of `list` with `view/setWindow`: its rows must be the list's
    /// items in the tree order the test's own requests left them (less those its filter and collapsed items
    /// hide), with the fields their results gave.
    func auditManualOrder(of list: ListID) throws {
        let existing = spelled(client.views.values.filter { $0.list == list && $0.isManualAscending }.map(\.id))
        let temporary = existing.isEmpty
        let view = temporary
            ? try openView(on: list, sort: .manual, expectedSort: .manual, window: Window(start: 0, end: 1))
            : random.pick(existing)
        let items = try itemRows(pageThrough(view))
        let expected = store.rows(of: store.views[view]!).map(\.id)
        try check(items.map(\.id) == expected, "the manual view \(view) of \(list) pages as \(items.map(\.id)), but the requests made it \(expected)")
        try checkFields(of: items)
        if temporary {
            try perform(ViewClose(view: view)) { result in
                _ = try self.success(result)
                self.client.close(view)
                self.store.views[view] = nil
            }
        }
    }

    /// Pages through a sorted view of `list`, if one is open, and checks what protocol.md fixes
    /// about its order: the rows the shadow store expects, in tree order (each row right above its
    /// subtree's), each set of siblings sorted: keys in order, ties in manual order when ascending, items
    /// without a due date last in both directions, manual descending the siblings' manual order reversed.
    func auditSortedOrder(of list: ListID) throws {
        let sorted = spelled(client.views.values.filter { $0.list == list && !$0.isManualAscending }.map(\.id))
        guard !sorted.isEmpty else { return }
        let view = random.pick(sorted)
        let paged = try pageThrough(view)
        let rows = try itemRows(paged)
        try checkFields(of: rows)
        let ids = rows.map(\.id)
        let expected = store.rows(of: store.views[view]!).map(\.id)
        try check(ids.sorted() == expected.sorted(), "the sorted view \(view) pages as \(ids), but the shadow store has the rows \(expected)")
        let sort = client.views[view]!.sort
        let field = sort.field
        let ascending = sort.direction == .ascending
        // Each item's position among its siblings, in manual order.
        var rank: [ItemID: Int] = [:]
        for id in ids { rank[id] = store.items(at: store.place(of: id)).firstIndex(of: id)! }
        let items = ids.map { store.items[$0]! }
        let key = { (index: Int) in
            "\(ids[index]) (\(field.rawValue) \(items[index].json[field.rawValue]?.text ?? "?"), manual position \(rank[ids[index]]!) under \(items[index].parent.map(\.description) ?? "the top level"))"
        }
        let shown = { "view \(view) sorted \(sort.json.text) of list \(list) pages as \(ids.indices.map(key).joined(separator: ", "))" }
        // The rows' indexes, by parent, in the view's order.
        var siblings: [ItemID?: [Int]] = [:]
        for (index, row) in rows.enumerated() { siblings[row.parent, default: []].append(index) }
        let groups = siblings.values.sorted { $0[0] < $1[0] }
        /// Checks every pair of siblings that `compare` orders (nil: protocol.md does not say how they compare).
        func checkOrder<Key>(_ keyOf: (Item) -> Key?, _ compare: (Key, Key) -> ComparisonResult?) throws {
            let expected: ComparisonResult = ascending ? .orderedAscending : .orderedDescending
            for group in groups {
                for (position, first) in group.enumerated() {
                    guard let firstKey = keyOf(items[first]) else { continue }
                    for second in group[(position + 1)...] {
                        guard let secondKey = keyOf(items[second]), let comparison = compare(firstKey, secondKey) else { continue }
                        try check(
                            comparison == expected || comparison == .orderedSame,
                            "row \(first) \(key(first)) comes before its sibling row \(second) \(key(second)), out of \(ascending ? "ascending" : "descending") order; \(shown())")
                        if comparison == .orderedSame && ascending {
                            try check(
                                rank[ids[first]]! < rank[ids[second]]!,
                                "sibling rows \(first) \(key(first)) and \(second) \(key(second)) tie but are not in manual order; \(shown())")
                        }
                    }
                }
            }
        }
        // The tree rules hold over the whole view, not only each window (rows still exact: lapses).
        let broken = TreeRules(filtered: store.views[view]!.filter != .all, ofOneList: true)
            .violations(of: paged, window: Window(start: 0, end: paged.count), count: paged.count, view: view)
        for violation in broken {
            lapses.append((violation.rule, violation, "operation \(operation), request \(requests), paging through the whole view"))
        }
        do {
            switch field {
            case .manual:
                for group in groups {
                    try check(group.map { rank[ids[$0]]! } == group.map { rank[ids[$0]]! }.sorted(by: >),
                              "manual descending does not reverse the siblings \(group.map { ids[$0] }); \(shown())")
                }
            case .title: try checkOrder({ Self.folded($0.title) }, { Self.compare($0, $1) })
            case .created: try checkOrder({ Optional($0.created) }, { Self.compare($0, $1) })
            case .due:
                for group in groups {
                    let dues = group.map { items[$0].due }
                    let firstWithout = dues.firstIndex { $0 == nil } ?? dues.count
                    try check(dues[firstWithout...].allSatisfy { $0 == nil }, "siblings without a due date must come last; \(shown())")
                }
                try checkOrder({ Due($0.due) }, { $0.compare(to: $1) })
            case .priority:
                for group in groups {
                    let priorities = group.map { items[$0].priority }
                    var finished: Set<Priority> = []
                    for (index, priority) in priorities.enumerated() where index > 0 && priorities[index - 1] != priority {
                        try check(!finished.contains(priority), "priority \(priority.rawValue) is split in two runs of siblings; \(shown())")
                        finished.insert(priorities[index - 1])
                    }
                }
                try checkOrder({ $0.priority }, { $0 == $1 ? .orderedSame : nil })
            case .modified: break
            }
        } catch let failure as SessionFailure {
            // The rows are still exact, so the sequence goes on; the order is reported once per field.
            let violation = ProtocolViolation(failure.description, rule: "order by \(field.rawValue)")
            lapses.append((violation.rule, violation, "operation \(operation), request \(requests)"))
        }
    }

    /// `lists/list` counts each list's items (`total`) and those not done (`open`).
    func auditListCounts() throws {
        try perform(ListsList()) { result in
            let lists = try self.success(result).lists
            try self.check(
                Set(lists.map(\.id)) == Set(self.store.lists), "lists/list has \(lists.map(\.id)), expected \(self.store.lists)")
            for list in lists {
                let items = self.store.order(of: list.id)
                let open = items.filter { !self.store.items[$0]!.done }.count
                try self.check(
                    list.total == items.count && list.open == open,
                    "lists/list counts \(list.json.text), expected total \(items.count) and open \(open)")
            }
        }
    }

    /// Every row of a view, read with `view/setWindow` a page at a time; the window is put back.
    private func pageThrough(_ view: ViewID) throws -> [Row] {
        let original = client.views[view]!.window
        let page = random.int(in: 1...40)
        var rows: [Row] = []
        var start = 0
        repeat {
            try setWindow(view, Window(start: start, end: start + page))
            rows += client.views[view]!.rows
            start += page
        } while start < client.views[view]!.count
        try setWindow(view, original)
        return rows
    }

    /// The item rows of `rows`, which must all be item rows (the test groups no view into sections).
    private func itemRows(_ rows: [Row]) throws -> [ItemRow] {
        try rows.map { row in
            guard case .item(let item) = row else { throw SessionFailure("a header row in a view without sections: \(row.json.text)") }
            return item
        }
    }

    /// Each row shows its item's fields as the test's requests set them.
    private func checkFields(of rows: [ItemRow]) throws {
        for row in rows {
            guard let item = store.items[row.id] else { throw SessionFailure("row \(row.json.text) names no item the test knows") }
            let shown = row.json
            let known = item.json
            for field in ["list", "parent", "title", "done", "due", "priority", "tags", "repeat"] {
                try check(
                    shown[field] == known[field],
                    "row \(shown.text) shows \(field) \(shown[field]?.text ?? "nothing"), but the item has \(known[field]?.text ?? "nothing")")
            }
            try check(row.hasNotes == !item.notes.isEmpty, "row \(shown.text) says hasNotes but the item's notes are \(known["notes"]?.text ?? "nothing")")
        }
    }

    // MARK: Helpers

    func check(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition { throw SessionFailure(message()) }
    }

    func success<Value>(_ result: Result<Value, ResponseError>) throws -> Value {
        switch result {
        case .success(let value): return value
        case .failure(let error): throw SessionFailure("the request was refused: \(error) \(error.data?.text ?? "")")
        }
    }

    func expectRefusal<Value: ProtocolValue>(_ result: Result<Value, ResponseError>, reason: String) throws {
        guard case .failure(let error) = result, error.code == .requestFailed, error.data?["reason"] == .string(reason) else {
            throw SessionFailure("expected -32803 with reason \(reason), got \(describe(result))")
        }
        statistics.refusals[reason, default: 0] += 1
    }

    /// A created or updated item shows the fields the request set.
    func checkItem(_ item: Item, title: String?, priority: Priority?, done: Bool?, due: Patch<String>) throws {
        if let title { try check(item.title == title, "title: sent \(title), the item has \(item.title)") }
        if let priority { try check(item.priority == priority, "priority: sent \(priority.rawValue), the item has \(item.priority.rawValue)") }
        if let done { try check(item.done == done, "done: sent \(done), the item has \(item.done)") }
        switch due {
        case .cleared: try check(item.due == nil, "due: sent null, the item has \(item.due ?? "")")
        case .set(let sent): try check(item.due != nil, "due: sent \(sent), the item has none")
        case .unchanged: break
        }
        try check(item.done == (item.completed != nil), "completed must be set exactly while done: \(item.json.text)")
    }

    /// Whether `update` certainly changes `item` (a title that differs even canonically, another
    /// priority, done flipped, or a due date set or cleared).
    func willChange(_ item: Item, _ update: ItemsUpdate) -> Bool {
        if let title = update.title, title != item.title { return true }
        if let priority = update.priority, priority != item.priority { return true }
        if let done = update.done, done != item.done { return true }
        switch update.due {
        case .cleared where item.due != nil, .set where item.due == nil: return true
        default: return false
        }
    }

    func describe<Value: ProtocolValue>(_ result: Result<Value, ResponseError>) -> String { Self.describe(result) }

    func describe(_ notifications: [ServerNotification]) -> String { Self.describe(notifications) }

    static func describe<Value: ProtocolValue>(_ result: Result<Value, ResponseError>) -> String {
        switch result {
        case .success(let value): value.json.text
        case .failure(let error): "error \(error)" + (error.data.map { " \($0.text)" } ?? "")
        }
    }

    static func describe(_ notifications: [ServerNotification]) -> String {
        notifications.map { "\($0.method) \($0.params.text)" }.joined(separator: "; ")
    }

    private static func folded(_ title: String) -> String? {
        title.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    private static func compare(_ first: String?, _ second: String?) -> ComparisonResult? {
        guard let first, let second else { return nil }
        return first == second ? .orderedSame : first < second ? .orderedAscending : .orderedDescending
    }
}

/// A due date as protocol.md orders it: by the date, a day before any time on that day, and
/// times by the wall-clock time they were written in (the offset does not take part).
struct Due {
    var date: String
    /// Milliseconds into the day of a due time, or -1 for a day.
    var timeOfDay: Int64

    init?(_ text: String?) {
        guard let text, text.count >= 10 else { return nil }
        let characters = Array(text)
        date = String(characters[0..<10])
        if characters.count == 10 {
            timeOfDay = -1
            return
        }
        func number(_ start: Int, _ length: Int) -> Int64? {
            guard start + length <= characters.count else { return nil }
            return Int64(String(characters[start..<(start + length)]))
        }
        guard let hour = number(11, 2), let minute = number(14, 2) else { return nil }
        var milliseconds = (hour * 60 + minute) * 60_000
        if characters.count > 16, characters[16] == ":", let second = number(17, 2) {
            milliseconds += second * 1000
            if characters.count > 19, characters[19] == ".", let fraction = number(20, 3) { milliseconds += fraction }
        }
        timeOfDay = milliseconds
    }

    func compare(to other: Due) -> ComparisonResult? {
        if date != other.date { return date < other.date ? .orderedAscending : .orderedDescending }
        if timeOfDay == other.timeOfDay { return .orderedSame }
        return timeOfDay < other.timeOfDay ? .orderedAscending : .orderedDescending
    }
}
