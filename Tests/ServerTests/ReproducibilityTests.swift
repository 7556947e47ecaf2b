/// A seeded randomized test through the in-process server: several views open at once while
/// thousands of random requests change their lists; after every request each view, kept only
/// from its notifications by `ReferenceClient`, must equal a fresh `view/snapshot`.
///
/// Reproduce or soak with environment variables: `TASKLS_REFERENCE_SEED=0x…` runs that one
/// sequence, `TASKLS_REFERENCE_SEQUENCES` and `TASKLS_REFERENCE_STEPS` change the amounts.

import Foundation
import Testing
import TestSupport
import Wire

@Test func everyOpenViewStaysExactThroughRandomRequests() throws {
    let configuration = RandomConfiguration.fromEnvironment()
    var totals = SessionStatistics()
    var failedSequences = 0
    var lapsesByRule: [String: Int] = [:]
    for sequence in 0..<configuration.sequences {
        let seed = configuration.seed(ofSequence: sequence)
        let session = try RandomSession(seed: seed)
        defer {
            // A lapse leaves the rows exact, so the sequence went on; each rule is reported once.
            for lapse in session.lapses {
                if lapsesByRule[lapse.rule] == nil {
                    Issue.record(
                        """
                        seed \(hex(seed)), \(lapse.context): \(lapse.violation)
                        reproduce: TASKLS_REFERENCE_SEED=\(hex(seed)) swift test --filter everyOpenViewStaysExactThroughRandomRequests
                        """)
                }
                lapsesByRule[lapse.rule, default: 0] += 1
            }
        }
        do {
            try session.play(steps: configuration.steps)
        } catch {
            failedSequences += 1
            Issue.record(
                """
                seed \(hex(seed)), operation \(session.operation), request \(session.requests): \(error)
                last requests of this sequence (oldest first):
                \(session.logTail(30))
                reproduce: TASKLS_REFERENCE_SEED=\(hex(seed)) swift test --filter everyOpenViewStaysExactThroughRandomRequests
                """)
            if failedSequences == 3 { break }
        }
        totals.add(session.statistics)
    }
    let lapses = lapsesByRule.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
    print(
        "everyOpenViewStaysExactThroughRandomRequests: \(configuration.sequences) sequences from seed \(hex(configuration.baseSeed)); \(totals)"
            + (lapses.isEmpty ? "" : "; lapses: \(lapses)"))
}

func hex(_ seed: UInt64) -> String { "0x" + String(seed, radix: 16) }

/// How many sequences and steps to run, from the environment or the defaults that keep a debug
/// build under about 20 seconds.
struct RandomConfiguration {
    var baseSeed: UInt64 = 0x7A5C_15EE_D026_0001
    var sequences = 20
    var steps = 300

    static func fromEnvironment() -> RandomConfiguration {
        var configuration = RandomConfiguration()
        let environment = ProcessInfo.processInfo.environment
        if let text = environment["TASKLS_REFERENCE_SEED"], let seed = parse(text) {
            configuration.baseSeed = seed
            configuration.sequences = 1
        }
        if let text = environment["TASKLS_REFERENCE_SEQUENCES"], let sequences = Int(text), sequences > 0 {
            configuration.sequences = sequences
        }
        if let text = environment["TASKLS_REFERENCE_STEPS"], let steps = Int(text), steps > 0 {
            configuration.steps = steps
        }
        return configuration
    }

    /// Sequence 0 runs the base seed itself, so a reported seed replays alone.
    func seed(ofSequence sequence: Int) -> UInt64 {
        baseSeed &+ UInt64(sequence) &* 0x9E37_79B9_7F4A_7C15
    }

    private static func parse(_ text: String) -> UInt64? {
        text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
    }
}

/// Counts of what a session did, summed over sessions for the summary line.
struct SessionStatistics: CustomStringConvertible {
    var operations: [String: Int] = [:]
    var requests = 0
    var snapshots = 0
    var notifications = 0
    var changeOps: [String: Int] = [:]
    var refusals: [String: Int] = [:]
    var mostViewsOpen = 0

    mutating func add(_ other: SessionStatistics) {
        operations.merge(other.operations, uniquingKeysWith: +)
        changeOps.merge(other.changeOps, uniquingKeysWith: +)
        refusals.merge(other.refusals, uniquingKeysWith: +)
        requests += other.requests
        snapshots += other.snapshots
        notifications += other.notifications
        mostViewsOpen = max(mostViewsOpen, other.mostViewsOpen)
    }

    var description: String {
        let operationCount = operations.values.reduce(0, +)
        let mix = operations.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        let ops = changeOps.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        let refused = refusals.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        return "\(operationCount) operations (\(mix)); \(requests) requests (refused as expected: \(refused)), "
            + "\(snapshots) verifying snapshots, \(notifications) notifications (ops: \(ops)); up to \(mostViewsOpen) views open at once"
    }
}

/// A check of the test failed: the message says what was expected and what came.
struct SessionFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// What the test knows the store holds, from the requests it made and their results.
struct ShadowStore {
    var revision: Int64
    /// List ids in creation order.
    var lists: [String] = []
    /// Each list's items in manual order.
    var order: [String: [String]] = [:]
    /// The last full item seen for each id, its `list` kept current across moves.
    var items: [String: JSON] = [:]
    /// Ids of deleted items, which name nothing any more.
    var deleted: [String] = []

    func list(of item: String) -> String {
        guard case .string(let list)? = items[item]?["list"] else { preconditionFailure("no list for \(item)") }
        return list
    }

    mutating func insert(_ item: JSON, id: String, into list: String, before: String?) {
        items[id] = item
        let position = before.flatMap { order[list]!.firstIndex(of: $0) } ?? order[list]!.count
        order[list]!.insert(id, at: position)
    }

    mutating func remove(_ ids: [String]) {
        for id in ids {
            order[list(of: id)]!.removeAll { $0 == id }
            items[id] = nil
            deleted.append(id)
        }
    }

    /// Moves `ids` (given in their manual order) as a block before `before`, or to the end of `list`.
    mutating func move(_ ids: [String], to list: String, before: String?) {
        for id in ids {
            order[self.list(of: id)]!.removeAll { $0 == id }
            items[id] = items[id]!.setting("list", .string(list))
        }
        let position = before.flatMap { order[list]!.firstIndex(of: $0) } ?? order[list]!.count
        order[list]!.insert(contentsOf: ids, at: position)
    }

    mutating func deleteList(_ list: String) {
        remove(order[list]!)
        order[list] = nil
        lists.removeAll { $0 == list }
    }
}

/// One seeded sequence: a fresh server, the reference client, the shadow store and a log of
/// every request, so a failure names the seed and the requests that led to it.
final class RandomSession {
    static let maximumViews = 9
    static let maximumLists = 4
    static let maximumItems = 150
    static let windowSizes = [1, 1, 2, 3, 4, 5, 7, 10, 16, 25, 40, 100]
    static let words = [
        "apple", "Apple", "äpple", "Äpple", "APPLE", "banana", "Banana", "cafe", "café", "Café", "CAFE",
        "eclair", "éclair", "Éclair", "e\u{301}clair", "naive", "naïve", "resume", "résumé", "Résumé",
        "über", "uber", "Uber", "zebra", "Zebra", "zèbra", "ñu", "nu", "Ñu", "ça", "ca",
    ]
    static let tags = ["home", "work", "Work", " home ", "urgent", "café", "errands"]

    let seed: UInt64
    private var random: SplitMix64
    private let server: TestClient
    private var client = ReferenceClient()
    private var store: ShadowStore
    private var log: [String] = []
    /// Notifications that arrived with the last request, in order.
    private var received: [(method: String, params: JSON?)] = []
    private(set) var operation = 0
    private(set) var requests = 0
    private(set) var statistics = SessionStatistics()
    /// Lapses the reference client saw (rows still exact), with the request that caused each.
    private(set) var lapses: [(rule: String, violation: ProtocolViolation, context: String)] = []

    init(seed: UInt64) throws {
        self.seed = seed
        random = SplitMix64(seed: seed)
        server = try TestClient()
        let lists = try server.request("lists/list").get()
        store = ShadowStore(revision: try ReferenceView.integer(lists["revision"], "lists/list result.revision"))
    }

    /// The last `count` log lines, each cut to a readable length.
    func logTail(_ count: Int) -> String {
        log.suffix(count).map { $0.count > 1_200 ? $0.prefix(1_200) + " …" : $0 }.joined(separator: "\n")
    }

    /// A few lists and items, several views, then `steps` random operations.
    func play(steps: Int) throws {
        for _ in 0..<random.int(in: 2...3) { try createList() }
        for list in store.lists {
            for _ in 0..<random.int(in: 0...25) { try createItem(in: list) }
        }
        for _ in 0..<random.int(in: 5...7) { try openView() }
        for _ in 0..<steps {
            operation += 1
            try randomOperation()
        }
        for list in store.lists { try auditManualOrder(of: list) }
    }

    private enum Operation: String {
        case createItem, updateItems, moveByID, moveByIndex, deleteItems, sortView, setWindow
        case openView, closeView, createList, deleteList, audit
    }

    private func randomOperation() throws {
        guard !store.lists.isEmpty else { return try createList() }
        let full = store.items.count >= Self.maximumItems
        let choice = random.weighted([
            (Operation.createItem, full ? 0 : 22),
            (.updateItems, 18), (.moveByID, 12), (.moveByIndex, 10), (.deleteItems, full ? 20 : 7),
            (.sortView, 5), (.setWindow, 8),
            (.openView, client.views.count < Self.maximumViews ? 4 : 0), (.closeView, client.views.count > 2 ? 3 : 0),
            (.createList, store.lists.count < Self.maximumLists ? 2 : 0), (.deleteList, 1), (.audit, 3),
        ])
        statistics.operations[choice.rawValue, default: 0] += 1
        switch choice {
        case .createItem: try createItem(in: random.pick(store.lists))
        case .updateItems: try updateItems()
        case .moveByID: try moveByID()
        case .moveByIndex: try moveByIndex()
        case .deleteItems: try deleteItems()
        case .sortView: try sortView()
        case .setWindow: try setRandomWindow()
        case .openView: try openView()
        case .closeView: try closeView()
        case .createList: try createList()
        case .deleteList: try deleteList()
        case .audit:
            let list = random.pick(store.lists)
            try auditManualOrder(of: list)
            try auditSortedOrder(of: list)
            try auditListCounts()
        }
    }

    // MARK: The requests

    private func createList() throws {
        try perform("lists/create", ["name": .string("List \(store.lists.count + 1) \(random.pick(Self.words))")], mutates: true) { result in
            let list = try self.success(result)["list"]
            let id = try ReferenceView.string(list?["id"], "lists/create result.list.id")
            try self.check(list?["total"] == 0 && list?["open"] == 0, "a new list has no items: \(list?.text ?? "")")
            self.store.lists.append(id)
            self.store.order[id] = []
        }
    }

    private func deleteList() throws {
        let list = random.pick(store.lists)
        let expectedClosed = Set(client.views.values.filter { $0.list == list }.map(\.id))
        try perform("lists/delete", ["id": .string(list)], mutates: true) { result in
            _ = try self.success(result)
            let closed = self.received.filter { $0.method == "view/closed" }.compactMap { $0.params?["view"] }
            try self.check(
                Set(closed) == Set(expectedClosed.map(JSON.string)) && closed.count == expectedClosed.count,
                "lists/delete \(list) must close exactly its views \(expectedClosed.sorted()), closed \(closed.map(\.text))")
            try self.check(
                self.received.allSatisfy { $0.method == "view/closed" },
                "lists/delete changed views of other lists: \(self.describe(self.received))")
            self.store.deleteList(list)
        }
        if let view = expectedClosed.sorted().first, random.chance(50) {
            try expectUnknownView("view/snapshot", ["view": .string(view)])
        }
        if store.lists.isEmpty || random.chance(50) { try createList() }
    }

    private func createItem(in list: String) throws {
        let title = randomTitle()
        var params: JSONObject = ["list": .string(list), "title": .string(title)]
        let before: String?
        switch random.below(10) {
        case 0..<4 where !store.order[list]!.isEmpty: before = random.pick(store.order[list]!)
        case 4: before = nil; params["before"] = .null
        default: before = nil
        }
        if let before { params["before"] = .string(before) }
        if random.chance(60) { params["due"] = randomDue() }
        if random.chance(50) { params["priority"] = .string(random.pick(["none", "low", "medium", "high"])) }
        if random.chance(30) { params["tags"] = randomTags() }
        if random.chance(20) { params["notes"] = .string(random.pick(["2 litres", "línea\nsecond", "x"])) }
        if random.chance(15) { params["done"] = true }
        try perform("items/create", .object(params), mutates: true) { result in
            let item = try self.success(result)["item"] ?? .null
            let id = try ReferenceView.string(item["id"], "items/create result.item.id")
            try self.check(item["list"] == .string(list), "items/create put the item in \(item["list"]?.text ?? "?"), not \(list)")
            try self.check(item["title"] == .string(title), "items/create title: sent \(title), got \(item["title"]?.text ?? "?")")
            try self.checkItem(item, against: params)
            try self.check(self.store.items[id] == nil && !self.store.deleted.contains(id), "items/create reused the id \(id)")
            self.store.insert(item, id: id, into: list, before: before)
        }
    }

    private func updateItems() throws {
        guard !store.items.isEmpty else { return }
        let all = store.items.keys.sorted()
        let ids = random.chance(60) ? [random.pick(all)] : random.sample(all, count: min(all.count, random.int(in: 2...4)))
        var params: JSONObject = ids.count == 1 && random.chance(70) ? ["id": .string(ids[0])] : ["ids": .array(ids.map(JSON.string))]
        let first = store.items[ids[0]]!
        if random.chance(3) { return try updateLeavingItemsAsTheyAre(ids, params) }
        repeat {
            if random.chance(35) { params["title"] = .string(randomTitle()) }
            if random.chance(30) { params["due"] = random.chance(25) ? .null : randomDue() }
            if random.chance(30) { params["priority"] = .string(random.pick(["none", "low", "medium", "high"])) }
            if random.chance(25) { params["done"] = .bool(first["done"] != true) }
            if random.chance(10) { params["tags"] = randomTags() }
            if random.chance(10) { params["notes"] = .string(random.pick(["", "changed", "more\nnotes"])) }
        } while params.members.count == 1
        // Something changes for sure: updates that change nothing are sent on purpose, above.
        if !ids.contains(where: { willChange(store.items[$0]!, params) }) { params["done"] = .bool(first["done"] != true) }
        try perform("items/update", .object(params), mutates: true) { result in
            let items = try ReferenceView.array(try self.success(result)["items"], "items/update result.items")
            for item in items {
                let id = try ReferenceView.string(item["id"], "items/update result.items[].id")
                try self.check(ids.contains(id), "items/update returned \(id), which was not asked for")
                try self.check(item["list"] == self.store.items[id]!["list"], "items/update moved \(id) to another list")
                try self.checkItem(item, against: params)
                self.store.items[id] = item
            }
        }
    }

    /// An update that sets fields to the values they have: protocol.md says "An item the change
    /// leaves as it was is not touched", so no view may change, and "a request that changes
    /// nothing ... leaves the revision as it was".
    private func updateLeavingItemsAsTheyAre(_ ids: [String], _ params: JSONObject) throws {
        var params = params
        let first = store.items[ids[0]]!
        for field in ["title", "priority", "done", "due"] where random.chance(50) || params.members.count == 1 {
            if ids.allSatisfy({ store.items[$0]![field] == first[field] }) { params[field] = first[field] }
        }
        if params.members.count == 1 { params["done"] = first["done"] ?? false }
        guard ids.allSatisfy({ id in ["title", "priority", "done", "due"].allSatisfy { params[$0] == nil || store.items[id]![$0] == params[$0] } }) else {
            return
        }
        // Moves touch items without answering them, so read their revisions first.
        for id in ids {
            try perform("items/get", ["id": .string(id)]) { result in self.store.items[id] = try self.success(result) }
        }
        try perform("items/update", .object(params), mutates: true, changesNothing: true) { result in
            try self.check(self.received.isEmpty, "an update that changes nothing changed views: \(self.describe(self.received))")
            for item in try ReferenceView.array(try self.success(result)["items"], "items/update result.items") {
                let id = try ReferenceView.string(item["id"], "items/update result.items[].id")
                try self.check(
                    item["revision"] == self.store.items[id]?["revision"] && item["modified"] == self.store.items[id]?["modified"],
                    "an item the update leaves as it was is not touched, but its revision or modified changed: \(item.text)")
            }
        }
    }

    private func moveByID() throws {
        let sources = store.lists.filter { !store.order[$0]!.isEmpty }
        guard !sources.isEmpty else { return }
        let source = random.pick(sources)
        let manual = store.order[source]!
        let block = random.sample(manual, count: random.int(in: 1...min(5, manual.count)))
        let others = store.lists.filter { $0 != source }
        var params: JSONObject = ["ids": .array(block.map(JSON.string))]
        var destination = source
        var before: String?
        var refusal: String?
        switch random.below(100) {
        case 0..<5:
            before = random.pick(block)
            refusal = "beforeInBlock"
        case 5..<8 where !others.isEmpty && manual.count > block.count:
            destination = random.pick(others)
            params["list"] = .string(destination)
            before = random.pick(manual.filter { !block.contains($0) })
            refusal = "beforeInOtherList"
        case 8..<30 where !others.isEmpty:
            destination = random.pick(others)
            let candidates = store.order[destination]!
            if random.chance(50) || candidates.isEmpty {
                params["list"] = .string(destination)
                before = candidates.isEmpty || random.chance(40) ? nil : random.pick(candidates)
            } else {
                before = random.pick(candidates)
                if random.chance(30) { params["list"] = .string(destination) }
            }
        default:
            let candidates = manual.filter { !block.contains($0) }
            before = candidates.isEmpty || random.chance(25) ? nil : random.pick(candidates)
            if random.chance(20) { params["list"] = .string(source) }
        }
        params["before"] = before.map(JSON.string) ?? .null
        if let refusal {
            try perform("items/move", .object(params), mutates: true) { result in
                try self.expectRefusal(result, reason: refusal)
            }
            return
        }
        // protocol.md: a move that leaves the list's order as it was changes nothing.
        var moved = store
        moved.move(block, to: destination, before: before)
        try perform("items/move", .object(params), mutates: true, changesNothing: moved.order == store.order) { result in
            _ = try self.success(result)
            self.store.move(block, to: destination, before: before)
        }
    }

    private func moveByIndex() throws {
        let manualViews = client.views.values.filter(\.isManualAscending).map(\.id).sorted()
        if random.chance(8) {
            // Any other sort is refused.
            let sorted = client.views.values.filter { !$0.isManualAscending && $0.count > 0 }.map(\.id).sorted()
            guard !sorted.isEmpty else { return }
            let view = random.pick(sorted)
            let params: JSON = ["view": .string(view), "version": .integer(client.views[view]!.version), "from": 0, "to": 0]
            return try perform("items/move", params, mutates: true) { result in try self.expectRefusal(result, reason: "sortedView") }
        }
        guard let view = manualViews.isEmpty ? nil : random.pick(manualViews) else {
            if client.views.count < Self.maximumViews, let list = store.lists.first(where: { !store.order[$0]!.isEmpty }) {
                try openView(on: list, sort: ["by": "manual"], expectedSort: ["by": "manual", "direction": "ascending"])
            }
            return
        }
        let current = client.views[view]!
        let count = current.count
        guard count > 0 else { return }
        let moved = random.int(in: 1...min(5, count))
        let from = random.int(in: 0...(count - moved))
        guard count > moved else { return }
        var to = random.int(in: 0...(count - moved))
        if to == from { to = (to + 1) % (count - moved + 1) }
        var params: JSONObject = ["view": .string(view), "version": .integer(current.version), "from": .integer(Int64(from)), "to": .integer(Int64(to))]
        if moved > 1 || random.chance(50) { params["count"] = .integer(Int64(moved)) }
        if current.version > 1 && random.chance(20) {
            params["version"] = .integer(current.version - Int64(random.int(in: 1...Int(min(3, current.version - 1)))))
            try perform("items/move", .object(params), mutates: true) { result in
                guard case .failure(let error) = result, error.code == .contentModified else {
                    throw SessionFailure("items/move with a stale version \(params["version"]!.text) (current \(current.version)) must be refused with -32801, got \(self.describe(result))")
                }
                try self.check(
                    error.data?["version"] == .integer(current.version),
                    "-32801 must carry data.version \(current.version), got \(error.data?.text ?? "none")")
                self.statistics.refusals["staleVersion", default: 0] += 1
            }
            return
        }
        try perform("items/move", .object(params), mutates: true) { result in
            _ = try self.success(result)
            var order = self.store.order[current.list]!
            let block = Array(order[from..<(from + moved)])
            order.removeSubrange(from..<(from + moved))
            order.insert(contentsOf: block, at: to)
            self.store.order[current.list] = order
        }
    }

    private func deleteItems() throws {
        guard !store.items.isEmpty else { return }
        let lists = random.sample(store.lists.filter { !store.order[$0]!.isEmpty }, count: 1)
            + (random.chance(20) ? [random.pick(store.lists)] : [])
        var ids: [String] = []
        for list in lists {
            let manual = store.order[list]!.filter { !ids.contains($0) }
            guard !manual.isEmpty else { continue }
            let start = random.below(manual.count)
            ids += manual[start..<min(manual.count, start + random.int(in: 1...5))]
        }
        if random.chance(10), let gone = store.deleted.isEmpty ? nil : random.pick(store.deleted) {
            ids.insert(gone, at: random.int(in: 0...ids.count))
            try perform("items/delete", ["ids": .array(ids.map(JSON.string))], mutates: true) { result in
                try self.expectRefusal(result, reason: "notFound")
                guard case .failure(let error) = result else { return }
                try self.check(error.data?["ids"] == [.string(gone)], "notFound must list the unknown id \(gone), got \(error.data?.text ?? "none")")
            }
            return
        }
        try perform("items/delete", ["ids": .array(ids.map(JSON.string))], mutates: true) { result in
            _ = try self.success(result)
            self.store.remove(ids)
        }
    }

    private func sortView() throws {
        guard let view = randomView() else { return }
        let (sort, expected) = randomSort()
        try perform("view/sort", ["view": .string(view), "sort": sort ?? ["by": "manual"]]) { result in
            let answer = try self.success(result)
            try self.check(
                self.received.count == 1 && self.received[0].params?["view"] == .string(view),
                "view/sort must send exactly one view/changed, for \(view), got \(self.describe(self.received))")
            let ops = self.received[0].params?["ops"]
            try self.check(
                ops.map { ReferenceView.opNames($0) == ["reset"] } ?? false,
                "view/sort's view/changed must hold one reset op, got \(ops?.text ?? "no ops")")
            try self.client.sorted(view, by: expected, answer: answer)
        }
    }

    private func setRandomWindow() throws {
        guard let view = randomView() else { return }
        try setWindow(view, randomWindow(count: client.views[view]!.count))
    }

    private func setWindow(_ view: String, _ window: ViewWindow) throws {
        try perform("view/setWindow", ["view": .string(view), "window": window.json]) { result in
            try self.check(self.received.isEmpty, "view/setWindow sent notifications: \(self.describe(self.received))")
            try self.client.setWindow(view, try self.success(result))
            try self.check(self.client.views[view]!.window == window, "view/setWindow to \(window) answered \(self.client.views[view]!.window)")
        }
    }

    private func openView() throws {
        let list = random.pick(store.lists)
        let (sort, expected) = randomSort()
        try openView(on: list, sort: random.chance(10) ? nil : sort, expectedSort: expected)
    }

    /// Opens a view; `sort` nil leaves it out (the default is manual ascending).
    @discardableResult
    private func openView(on list: String, sort: JSON?, expectedSort: JSON, window: ViewWindow? = nil) throws -> String {
        var params: JSONObject = ["list": .string(list)]
        if let sort { params["sort"] = sort }
        let shownSort: JSON = sort == nil ? ["by": "manual", "direction": "ascending"] : expectedSort
        var expectedWindow = ViewWindow(start: 0, end: 100)
        if let window {
            expectedWindow = window
            params["window"] = window.json
        } else if random.chance(85) {
            expectedWindow = randomWindow(count: store.order[list]!.count)
            params["window"] = expectedWindow.json
        }
        var opened = ""
        try perform("lists/open", .object(params)) { result in
            try self.check(self.received.isEmpty, "lists/open sent notifications: \(self.describe(self.received))")
            opened = try self.client.open(try self.success(result))
            let view = self.client.views[opened]!
            try self.check(view.list == list, "lists/open on \(list) answered a view of \(view.list)")
            try self.check(view.window == expectedWindow, "lists/open with window \(expectedWindow) answered \(view.window)")
            try self.check(view.sort.isCanonicallyEqual(to: shownSort), "lists/open with sort \(shownSort.text) answered \(view.sort.text)")
        }
        statistics.mostViewsOpen = max(statistics.mostViewsOpen, client.views.count)
        return opened
    }

    private func closeView() throws {
        guard let view = randomView() else { return }
        try perform("view/close", ["view": .string(view)]) { result in
            try self.check(try self.success(result) == .null, "view/close answers null, got \(self.describe(result))")
            self.client.close(view)
        }
        if random.chance(30) { try expectUnknownView("view/setWindow", ["view": .string(view), "window": ["start": 0, "end": 5]]) }
    }

    private func expectUnknownView(_ method: String, _ params: JSON) throws {
        try perform(method, params) { result in try self.expectRefusal(result, reason: "unknownView") }
    }

    // MARK: Audits: the whole order, page by page

    /// Pages through a manual view of `list` with `view/setWindow`: its rows must be the list's
    /// items in the order the test's own requests left them, with the fields their results gave.
    private func auditManualOrder(of list: String) throws {
        let existing = client.views.values.filter { $0.list == list && $0.isManualAscending }.map(\.id).sorted()
        let temporary = existing.isEmpty
        let view = temporary
            ? try openView(on: list, sort: ["by": "manual"], expectedSort: ["by": "manual", "direction": "ascending"], window: ViewWindow(start: 0, end: 1))
            : random.pick(existing)
        let rows = try pageThrough(view)
        let ids = rows.map { $0["id"]?.stringValue ?? "?" }
        let expected = store.order[list]!
        try check(ids == expected, "the manual view \(view) of \(list) pages as \(ids), but the requests made it \(expected)")
        try checkFields(of: rows)
        if temporary {
            try perform("view/close", ["view": .string(view)]) { result in
                _ = try self.success(result)
                self.client.close(view)
            }
        }
    }

    /// Pages through a sorted view of `list`, if one is open, and checks what protocol.md fixes
    /// about its order: the same items, keys in order, ties in manual order when ascending, items
    /// without a due date last in both directions.
    private func auditSortedOrder(of list: String) throws {
        let sorted = client.views.values.filter { $0.list == list && !$0.isManualAscending }.map(\.id).sorted()
        guard !sorted.isEmpty else { return }
        let view = random.pick(sorted)
        let rows = try pageThrough(view)
        try checkFields(of: rows)
        let ids = try rows.map { try ReferenceView.string($0["id"], "row.id") }
        let manual = store.order[list]!
        try check(ids.sorted() == manual.sorted(), "the sorted view \(view) pages as \(ids), but the list holds \(manual)")
        let sort = client.views[view]!.sort
        let field = sort["by"]?.stringValue ?? ""
        let ascending = sort["direction"] != "descending"
        let rank = Dictionary(uniqueKeysWithValues: manual.enumerated().map { ($0.element, $0.offset) })
        let items = ids.map { store.items[$0]! }
        let key = { (index: Int) in "\(ids[index]) (\(field) \(items[index][field]?.text ?? "?"), manual position \(rank[ids[index]]!))" }
        let shown = { "view \(view) sorted \(sort.text) of list \(list) pages as \(ids.indices.map(key).joined(separator: ", "))" }
        /// Checks every pair that `compare` orders (nil: protocol.md does not say how they compare).
        func checkOrder<Key>(_ keys: [Key?], _ compare: (Key, Key) -> ComparisonResult?) throws {
            let expected: ComparisonResult = ascending ? .orderedAscending : .orderedDescending
            for first in keys.indices {
                guard let firstKey = keys[first] else { continue }
                for second in (first + 1)..<keys.count {
                    guard let secondKey = keys[second], let comparison = compare(firstKey, secondKey) else { continue }
                    try check(
                        comparison == expected || comparison == .orderedSame,
                        "row \(first) \(key(first)) comes before row \(second) \(key(second)), out of \(ascending ? "ascending" : "descending") order; \(shown())")
                    if comparison == .orderedSame && ascending {
                        try check(
                            rank[ids[first]]! < rank[ids[second]]!,
                            "rows \(first) \(key(first)) and \(second) \(key(second)) tie but are not in manual order; \(shown())")
                    }
                }
            }
        }
        do {
            switch field {
            case "manual": try check(ids == manual.reversed(), "manual descending is not the reversed list order; \(shown())")
            case "title": try checkOrder(items.map { Self.folded($0["title"]) }) { Self.compare($0, $1) }
            case "created": try checkOrder(items.map { $0["created"]?.stringValue }) { Self.compare($0, $1) }
            case "due":
                let firstWithout = items.firstIndex { $0["due"] == .null } ?? items.count
                try check(items[firstWithout...].allSatisfy { $0["due"] == .null }, "items without a due date must come last; \(shown())")
                try checkOrder(items.map { Due($0["due"]) }) { $0.compare(to: $1) }
            case "priority":
                let priorities = items.map { $0["priority"] ?? .null }
                var finished: Set<JSON> = []
                for (index, priority) in priorities.enumerated() where index > 0 && priorities[index - 1] != priority {
                    try check(!finished.contains(priority), "priority \(priority.text) is split in two runs; \(shown())")
                    finished.insert(priorities[index - 1])
                }
                try checkOrder(priorities) { $0 == $1 ? .orderedSame : nil }
            default: break
            }
        } catch let failure as SessionFailure {
            // The rows are still exact, so the sequence goes on; the order is reported once per field.
            let violation = ProtocolViolation(failure.description, rule: "order by \(field)")
            lapses.append((violation.rule, violation, "operation \(operation), request \(requests)"))
        }
    }

    /// `lists/list` counts each list's items (`total`) and those not done (`open`).
    private func auditListCounts() throws {
        try perform("lists/list", [:]) { result in
            let lists = try ReferenceView.array(try self.success(result)["lists"], "lists/list result.lists")
            try self.check(
                Set(lists.compactMap { $0["id"]?.stringValue }) == Set(self.store.lists),
                "lists/list has \(lists.map { $0["id"]?.text ?? "?" }), expected \(self.store.lists)")
            for list in lists {
                let id = list["id"]?.stringValue ?? ""
                let items = self.store.order[id] ?? []
                let open = items.filter { self.store.items[$0]!["done"] != true }.count
                try self.check(
                    list["total"] == .integer(Int64(items.count)) && list["open"] == .integer(Int64(open)),
                    "lists/list counts \(list.text), expected total \(items.count) and open \(open)")
            }
        }
    }

    /// Every row of a view, read with `view/setWindow` a page at a time; the window is put back.
    private func pageThrough(_ view: String) throws -> [JSON] {
        let original = client.views[view]!.window
        let page = random.int(in: 1...40)
        var rows: [JSON] = []
        var start = 0
        repeat {
            try setWindow(view, ViewWindow(start: start, end: start + page))
            rows += client.views[view]!.rows
            start += page
        } while start < client.views[view]!.count
        try setWindow(view, original)
        return rows
    }

    /// Each row shows its item's fields as the test's requests set them.
    private func checkFields(of rows: [JSON]) throws {
        for row in rows {
            guard let id = row["id"]?.stringValue, let item = store.items[id] else {
                throw SessionFailure("row \(row.text) names no item the test knows")
            }
            for field in ["list", "title", "done", "due", "priority", "tags"] {
                try check(row[field] == item[field], "row \(row.text) shows \(field) \(row[field]?.text ?? "nothing"), but the item has \(item[field]?.text ?? "nothing")")
            }
            let hasNotes = item["notes"] != nil && item["notes"] != ""
            try check(row["hasNotes"] == .bool(hasNotes), "row \(row.text) says hasNotes but the item's notes are \(item["notes"]?.text ?? "nothing")")
        }
    }

    // MARK: Sending a request and checking every view after it

    /// Sends one request, applies the notifications that came before its answer, checks the
    /// revision of a mutation, lets `handle` check the answer and update the shadow store, then
    /// compares every open view with a fresh snapshot.
    private func perform(
        _ method: String, _ params: JSON, mutates: Bool = false, changesNothing: Bool = false,
        handle: (Result<JSON, ResponseError>) throws -> Void
    ) throws {
        requests += 1
        statistics.requests += 1
        log.append("#\(requests) (operation \(operation)) --> \(method) \(params.text)")
        let result = try server.request(method, params)
        received = server.takeNotifications()
        log.append("    <-- \(describe(result))" + (received.isEmpty ? "" : " after \(describe(received))"))
        statistics.notifications += received.count
        for notification in received {
            if let ops = notification.params?["ops"] {
                for name in ReferenceView.opNames(ops) { statistics.changeOps[name, default: 0] += 1 }
            }
            let (view, outcome) = try client.receive(notification.method, notification.params)
            if case .gap(let expected, let got)? = outcome {
                throw SessionFailure("version gap on \(view): expected version \(expected), got \(got): \(notification.params?.text ?? "")")
            }
        }
        for lapse in client.takeLapses() {
            lapses.append((lapse.rule, lapse, "operation \(operation), request \(requests), after\n\(logTail(6))"))
        }
        switch result {
        case .success(let value) where mutates:
            let revision = try ReferenceView.integer(value["revision"], "\(method) result.revision")
            if changesNothing {
                // protocol.md: "a request that changes nothing ... leaves the revision as it was".
                try check(revision == store.revision, "\(method) \(params.text) changed nothing but moved the revision from \(store.revision) to \(revision)")
            } else {
                try check(revision == store.revision + 1, "\(method) must raise the revision by one: was \(store.revision), answered \(revision)")
            }
            store.revision = revision
        case .success: break
        case .failure(let error):
            try check(received.isEmpty, "\(method) was refused (\(error)) but views changed: \(describe(received))")
        }
        try handle(result)
        try verifyViews()
    }

    /// Every open view equals a fresh snapshot, and counts the items its list really holds.
    private func verifyViews() throws {
        for id in client.views.keys.sorted() {
            statistics.snapshots += 1
            let snapshot: JSON
            switch try server.request("view/snapshot", ["view": .string(id)]) {
            case .success(let value): snapshot = value
            case .failure(let error): throw SessionFailure("view/snapshot \(id) was refused: \(error)")
            }
            let late = server.takeNotifications()
            try check(late.isEmpty, "notifications came after the answer of the request that caused them: \(describe(late))")
            let view = client.views[id]!
            if let difference = view.difference(from: snapshot) {
                throw SessionFailure("the client's copy of \(id) is not the server's after the last request: \(difference)")
            }
            let items = store.order[view.list]?.count ?? -1
            try check(view.count == items, "\(id) counts \(view.count) rows, but its list \(view.list) holds \(items) items")
        }
    }

    // MARK: Helpers

    private func check(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition { throw SessionFailure(message()) }
    }

    private func success(_ result: Result<JSON, ResponseError>) throws -> JSON {
        switch result {
        case .success(let value): return value
        case .failure(let error): throw SessionFailure("the request was refused: \(error) \(error.data?.text ?? "")")
        }
    }

    private func expectRefusal(_ result: Result<JSON, ResponseError>, reason: String) throws {
        guard case .failure(let error) = result, error.code == .requestFailed, error.data?["reason"] == .string(reason) else {
            throw SessionFailure("expected -32803 with reason \(reason), got \(describe(result))")
        }
        statistics.refusals[reason, default: 0] += 1
    }

    /// A created or updated item shows the fields the request set.
    private func checkItem(_ item: JSON, against params: JSONObject) throws {
        for field in ["title", "priority", "done"] {
            if let sent = params[field] { try check(item[field] == sent, "\(field): sent \(sent.text), the item has \(item[field]?.text ?? "nothing")") }
        }
        if params["due"] == .null { try check(item["due"] == .null, "due: sent null, the item has \(item["due"]?.text ?? "nothing")") }
        if case .string? = params["due"] { try check(item["due"]?.stringValue != nil, "due: sent \(params["due"]!.text), the item has none") }
        let done = item["done"] == true
        try check(
            done ? item["completed"]?.stringValue != nil : item["completed"] == .null,
            "completed must be set exactly while done: \(item.text)")
    }

    /// Whether `params` certainly change `item` (a title that differs even canonically, another
    /// priority, done flipped, or a due date set or cleared).
    private func willChange(_ item: JSON, _ params: JSONObject) -> Bool {
        if let title = params["title"]?.stringValue, title != item["title"]?.stringValue { return true }
        if let priority = params["priority"], priority != item["priority"] { return true }
        if let done = params["done"], done != item["done"] { return true }
        if let due = params["due"], (due == .null) != (item["due"] == .null) { return true }
        return false
    }

    private func randomView() -> String? {
        let views = client.views.keys.sorted()
        return views.isEmpty ? nil : random.pick(views)
    }

    private func randomTitle() -> String {
        switch random.below(10) {
        case 0..<6: random.pick(Self.words)
        case 6..<9: random.pick(Self.words) + " " + random.pick(Self.words)
        default: random.pick(Self.words) + " " + String(random.below(10))
        }
    }

    private func randomDue() -> JSON {
        let day = "2026-11-2\(random.below(9))"
        let hour = random.pick(["00", "09", "12", "23"])
        let minute = random.pick(["00", "30"])
        return .string(
            random.weighted([
                (day, 5), (day + "T\(hour):\(minute)Z", 2), (day + "T\(hour):\(minute):15+02:00", 1),
                (day + "T\(hour):\(minute):15.250-05:30", 1),
            ]))
    }

    private func randomTags() -> JSON {
        .array((0..<random.int(in: 0...3)).map { _ in .string(random.pick(Self.tags)) })
    }

    /// A sort for a request (nil: leave it out) and the sort a snapshot then shows.
    private func randomSort() -> (JSON?, JSON) {
        let field = random.weighted([("manual", 6), ("title", 3), ("due", 3), ("priority", 2), ("created", 2), ("modified", 2)])
        let direction = random.chance(50) ? "ascending" : "descending"
        let expected: JSON = ["by": .string(field), "direction": .string(direction)]
        if direction == "ascending" && random.chance(30) { return (["by": .string(field)], expected) }
        return (expected, expected)
    }

    /// A window at the top, in the middle, at the end or past the end of `count` rows.
    private func randomWindow(count: Int) -> ViewWindow {
        let size = random.pick(Self.windowSizes)
        let start =
            switch random.below(4) {
            case 0: 0
            case 1: random.int(in: 0...count)
            case 2: max(0, count - size)
            default: count + random.int(in: 0...3)
            }
        return ViewWindow(start: start, end: start + size)
    }

    private func describe(_ result: Result<JSON, ResponseError>) -> String {
        switch result {
        case .success(let value): value.text
        case .failure(let error): "error \(error)" + (error.data.map { " \($0.text)" } ?? "")
        }
    }

    private func describe(_ notifications: [(method: String, params: JSON?)]) -> String {
        notifications.map { "\($0.method) \($0.params?.text ?? "")" }.joined(separator: "; ")
    }

    private static func folded(_ title: JSON?) -> String? {
        title?.stringValue?.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
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

    init?(_ value: JSON?) {
        guard let text = value?.stringValue, text.count >= 10 else { return nil }
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

extension ReferenceView {
    /// Whether the view is in the only order rows can be moved in by index.
    var isManualAscending: Bool { sort["by"] == "manual" && sort["direction"] == "ascending" }

    /// The `op` names of a notification's ops.
    static func opNames(_ ops: JSON) -> [String] {
        guard case .array(let elements) = ops else { return [] }
        return elements.map { $0["op"]?.stringValue ?? "?" }
    }
}

extension JSON {
    /// The object with member `key` set to `value`.
    func setting(_ key: String, _ value: JSON) -> JSON {
        guard case .object(var object) = self else { return self }
        object[key] = value
        return .object(object)
    }
}
