/// Four `taskls` processes write one store at once (random mutations in pipelined batches, deliberate conflicts,
/// compactions by several of them): they end in one state, a fresh process reads the same, and it is exactly
/// what their acknowledged mutations make, replayed in revision order; refused mutations changed nothing.

#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
import Transcript
import Wire

@Suite struct FourWritersTests {
    static let writers = 4
    static let mutationsPerWriter = 500
    /// Small enough that the journal passes it (and the snapshot's size) several times during the run.
    static let threshold = 6000
    static let arguments = ["--compact-after", "\(threshold)"]
    /// An item id no process ever gives (a refused `items/delete` of it takes the lock and catches up).
    static let unknownItem: JSON = "i999999999"

    @Test func fourWritersEndInOneStateMadeOfWhatTheyAcknowledged() throws {
        let started = monotonicMilliseconds()
        let directory = makeStoreTestDirectory()
        let logs = (0..<Self.writers).map { "\(directory).steps-\($0)" }
        defer {
            removeTree(directory)
            for log in logs { unlink(log) }
        }

        // A first process makes the list every writer keeps a view of, so no writer's history holds its creation.
        let setup = try StoreServer(directory: directory, arguments: Self.arguments)
        try #require(setup.initialize())
        let anchor = try #require(setup.call("lists/create", ["name": "Shared"])?["result"]?["list"]?.string("id"))
        let seeds = (0..<12).map { setup.makeRequest("items/create", ["list": .string(anchor), "title": .string("Seed \($0)")]) }
        var initialItems: [String: AcknowledgedReplay.Item] = [:]
        for answer in setup.callTogether(seeds) {
            let item = try #require(answer?["result"]?["item"])
            initialItems[try #require(item.string("id"))] = AcknowledgedReplay.Item(item)
        }
        let initialRevision = try #require(setup.call("lists/list")?["result"]?.integer("revision"))
        setup.finish()

        var source = MutationSource(anchor: anchor, items: initialItems.mapValues(\.list), seed: 0x5EED_0004)
        var writers: [Writer] = []
        for index in 0..<Self.writers {
            let server = try StoreServer(directory: directory, arguments: Self.arguments, environment: ["TASKLS_CRASH_LOG": logs[index]])
            try #require(server.initialize(), "writer \(index) did not initialize")
            let snapshot = try #require(server.call("lists/open", ["list": .string(anchor), "window": ["start": 0, "end": 30]])?["result"])
            writers.append(Writer(index: index, server: server, snapshot: snapshot))
        }

        // Rounds: each writer that has mutations left gets a batch of one to three in one write, all writers
        // before any answer is read, so they contend for the lock; then every answer is read.
        var round = 0
        var spotChecks = 0
        while writers.contains(where: { $0.sent < Self.mutationsPerWriter }) {
            round += 1
            let hot = source.hotItem()
            // Every tenth round one writer alone catches up first, so its move by view index is at the current version.
            let solo = round % 10 == 0 ? (round / 10) % Self.writers : nil
            if let solo {
                let request = writers[solo].server.makeRequest("items/delete", ["ids": [Self.unknownItem]])
                let answer = try #require(writers[solo].server.callTogether([request])[0], "writer \(solo) did not answer")
                #expect(answer.errorReason == "notFound", "\(answer.text)")
                writers[solo].absorbNotifications()
            }
            var batches: [[JSON]] = Array(repeating: [], count: Self.writers)
            for index in source.shuffled(Array(0..<Self.writers)) where writers[index].sent < Self.mutationsPerWriter && (solo ?? index) == index {
                let size = min(source.batchSize(), Self.mutationsPerWriter - writers[index].sent)
                var previous = ""
                batches[index] = (0..<size).map { position in
                    let (method, params) = source.next(view: writers[index].viewState, hot: hot, moveByIndex: solo != nil && position == 0,
                                                       afterUndo: previous == "undo")
                    previous = method
                    return writers[index].server.makeRequest(method, params)
                }
                try #require(writers[index].server.send(batches[index]), "writer \(index) is gone")
                writers[index].sent += size
            }
            for index in 0..<Self.writers where !batches[index].isEmpty {
                let answers = writers[index].server.responses(to: batches[index])
                for request in batches[index] {
                    let response = try #require(answers[request["id"]!], "writer \(index) did not answer \(request.text)")
                    let entry = WriterEntry(writer: index, request: request, response: response)
                    writers[index].record(entry)
                    source.learn(entry)
                }
                writers[index].absorbNotifications()
            }
            if round % 40 == 0 {
                spotChecks += try spotCheckRefusals(&writers[(round / 40) % Self.writers], source)
            }
        }
        #expect(spotChecks >= 4, "only \(spotChecks) refusals were spot-checked")

        // Every writer catches up (a refused write applies the others' records first); then all agree.
        var sequences: [Int64] = []
        for index in 0..<Self.writers {
            let answer = writers[index].server.call("items/delete", ["ids": [Self.unknownItem]])
            #expect(answer?.errorReason == "notFound", "writer \(index): \(answer?.text ?? "no answer")")
            sequences.append(writers[index].server.call("store/status")?["result"]?.integer("sequence") ?? -1)
        }
        #expect(Set(sequences).count == 1, "the writers stopped at different records: \(sequences)")
        var observed: [ObservedState] = []
        for index in 0..<Self.writers {
            observed.append(try #require(writers[index].server.observe(), "writer \(index) did not answer"))
        }
        for index in 1..<Self.writers {
            #expect(observed[index] == observed[0], "writer \(index) sees another state than writer 0:\n\(observed[index])\n\(observed[0])")
        }
        var warnings: [String] = []
        for writer in writers {
            writer.server.finish()
            #expect(errorLines(writer.server).isEmpty, "writer \(writer.index) logged errors: \(errorLines(writer.server))")
            warnings += writer.server.process.standardError.split(separator: "\n").filter { $0.hasPrefix("taskls: warning:") }.map(String.init)
        }
        let fresh = try StoreServer(directory: directory, arguments: Self.arguments)
        try #require(fresh.initialize())
        let final = try #require(fresh.observe())
        fresh.finish()
        #expect(final == observed[0], "a fresh process reads another state than the writers:\n\(final)\n\(observed[0])")
        let check = try storeCheck(directory)
        #expect(check.status == 0 && check.report.contains("ok: \(final.lists) lists, \(final.items) items"), "\(check.report)")

        // Every acknowledged mutation but those that say they changed nothing (a move to where the items were)
        // changed something, so their revisions are exactly the ones after the setup's, once each: no refused
        // mutation took one, none was applied twice.
        let entries = writers.map(\.entries)
        let unchanged = AcknowledgedReplay.unchanged(entries)
        let revisions = entries.enumerated().flatMap { writer, list in
            list.enumerated().compactMap { index, entry in unchanged.contains([writer, index]) ? nil : entry.result?.integer("revision") }
        }.sorted()
        let finalState = try JSONParser.parse(final.text)
        let finalRevision = try #require(finalState["overview"]?.integer("revision"))
        #expect(revisions == Array((initialRevision + 1)...max(initialRevision + 1, finalRevision)),
                "acknowledged revisions are not \(initialRevision + 1)…\(finalRevision) once each: \(revisions.count) acknowledged")

        // The replay of what was acknowledged is what the store holds.
        var replay = AcknowledgedReplay(writers: Self.writers, lists: [anchor], items: initialItems)
        replay.replay(entries, unchanged: unchanged)
        #expect(replay.problems.isEmpty, "\(replay.problems.prefix(20).joined(separator: "\n"))")
        let finalLists = Set((finalState["overview"]?.elements("lists") ?? []).compactMap { $0.string("id") })
        #expect(finalLists == replay.lists, "lists: the store has \(finalLists.sorted()), the acknowledged mutations make \(replay.lists.sorted())")
        var finalItems: [String: AcknowledgedReplay.Item] = [:]
        for item in finalState.elements("items") ?? [] {
            if let id = item.string("id") { finalItems[id] = AcknowledgedReplay.Item(item) }
        }
        #expect(finalItems.count == final.items, "the windows did not cover every item: \(finalItems.count) of \(final.items)")
        var mismatches: [String] = []
        for id in Set(finalItems.keys).union(replay.items.keys).sorted() where finalItems[id] != replay.items[id] {
            mismatches.append("\(id): store \(finalItems[id]?.description ?? "absent"), acknowledged \(replay.items[id]?.description ?? "absent")")
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) items differ from the acknowledged mutations:\n\(mismatches.prefix(20).joined(separator: "\n"))")
        let created = entries.joined().filter { $0.method == "items/create" && $0.result != nil }.count

        // Compactions happened, by more than one writer.
        let compactions = logs.map { log in crashLogSteps(log).filter { $0.hasSuffix(" compaction.rename-snapshot") }.count }
        #expect(compactions.reduce(0, +) >= 3 && compactions.filter { $0 > 0 }.count >= 2, "compactions per writer: \(compactions)")

        var reasons: [String: Int] = [:]
        for entry in entries.joined() where entry.result == nil {
            reasons["\(entry.response.errorCode ?? 0) \(entry.response.errorReason ?? "-")", default: 0] += 1
        }
        var methods: [String: Int] = [:]
        for entry in entries.joined() where entry.result != nil {
            methods[entry.method + (entry.params["view"] != nil ? " by index" : ""), default: 0] += 1
        }
        #expect(methods["items/move by index", default: 0] >= 10, "moves by view index acknowledged: \(methods)")
        let acknowledged = entries.joined().filter { $0.result != nil }.count
        print("FourWriters: \(round) rounds, \(acknowledged) acknowledged \(methods.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }), \(entries.joined().count - acknowledged) refused \(reasons.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }); \(created) items created, \(finalItems.count) at the end in \(final.lists) lists; revision \(finalRevision); compactions per writer \(compactions); \(warnings.count) warnings logged \(Set(warnings).sorted().prefix(3)); \(monotonicMilliseconds() - started) ms")
    }

    /// With every other writer idle: catches `writer` up, then sends mutations that must be refused (an update
    /// of a deleted item, a move by a stale view version) and checks that the record sequence and the revision
    /// stayed where they were. Returns how many refusals it checked.
    private func spotCheckRefusals(_ writer: inout Writer, _ source: MutationSource) throws -> Int {
        let server = writer.server
        let caughtUp = server.call("items/delete", ["ids": [Self.unknownItem]])
        #expect(caughtUp?.errorReason == "notFound", "\(caughtUp?.text ?? "no answer")")
        writer.absorbNotifications()
        func position() -> [Int64?] {
            [server.call("store/status")?["result"]?.integer("sequence"), server.call("lists/list")?["result"]?.integer("revision")]
        }
        let before = position()
        var requests: [JSON] = []
        if let gone = source.deletedItems.last(where: { server.call("items/get", ["id": .string($0)])?.errorReason == "notFound" }) {
            requests.append(server.makeRequest("items/update", ["id": .string(gone), "title": "Never applied"]))
            requests.append(server.makeRequest("items/move", ["ids": [.string(gone)], "before": nil, "list": .string(source.anchor)]))
        }
        if let view = writer.viewState, view.version > 1, view.count >= 2 {
            requests.append(server.makeRequest("items/move", ["view": .string(view.id), "version": .integer(view.version - 1), "from": 0, "to": 1]))
        }
        for (request, answer) in zip(requests, server.callTogether(requests)) {
            let response = try #require(answer, "writer \(writer.index) did not answer \(request.text)")
            let stale = request["params"]?["version"] != nil
            #expect(response.errorCode == (stale ? -32801 : -32803), "\(request.text) -> \(response.text)")
            if stale { #expect(response["error"]?["data"]?.integer("version") == writer.viewState?.version, "\(response.text)") }
            writer.record(WriterEntry(writer: writer.index, request: request, response: response))
        }
        writer.absorbNotifications()
        #expect(position() == before, "refused mutations moved writer \(writer.index) from \(before)")
        return requests.count
    }
}

/// One writer: its process, what it sent and was answered, and the view it keeps on the shared list.
private struct Writer {
    let index: Int
    let server: StoreServer
    var sent = 0
    var entries: [WriterEntry] = []
    /// The view on the shared list as the notifications so far leave it.
    var viewState: (id: String, version: Int64, count: Int)?

    init(index: Int, server: StoreServer, snapshot: JSON) {
        self.index = index
        self.server = server
        if let id = snapshot.string("view"), let version = snapshot.integer("version"), let count = snapshot.integer("count") {
            viewState = (id, version, Int(count))
        }
    }

    mutating func record(_ entry: WriterEntry) { entries.append(entry) }

    /// Follows the view's version and count through the notifications received so far.
    mutating func absorbNotifications() {
        for notification in server.takeNotifications() {
            guard let params = notification["params"], params.string("view") == viewState?.id else { continue }
            switch notification.string("method") {
            case "view/changed":
                if let version = params.integer("version"), let count = params.integer("count") {
                    viewState?.version = version
                    viewState?.count = Int(count)
                }
            case "view/closed": viewState = nil
            default: break
            }
        }
    }
}

/// Random mutations from what the driver last heard: known lists and items (possibly stale, which makes
/// conflicts), deleted ids (deliberate conflicts), and the writer's view (moves by index, some with a stale version).
private struct MutationSource {
    let anchor: String
    private var random: SplitMix64
    private(set) var lists: [String]
    /// Known items and their lists.
    private var items: [String: String]
    private(set) var deletedItems: [String] = []
    private var counter = 0

    init(anchor: String, items: [String: String], seed: UInt64) {
        self.anchor = anchor
        lists = [anchor]
        self.items = items
        random = SplitMix64(seed: seed)
    }

    mutating func shuffled(_ values: [Int]) -> [Int] { values.shuffled(using: &random) }
    mutating func batchSize() -> Int { Int.random(in: 1...3, using: &random) }

    /// Now and then an item several writers will aim at in one round.
    mutating func hotItem() -> String? {
        guard Int.random(in: 0..<4, using: &random) == 0 else { return nil }
        return items.keys.sorted().randomElement(using: &random)
    }

    private mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    private mutating func pick(_ count: Int, hot: String?, excluding excluded: Set<String> = []) -> [String] {
        var ids: [String] = []
        if let hot, !excluded.contains(hot), chance(60) { ids.append(hot) }
        let known = items.keys.sorted().filter { !excluded.contains($0) }
        while ids.count < count, let id = known.randomElement(using: &random) {
            if !ids.contains(id) { ids.append(id) }
            if known.count <= ids.count { break }
        }
        return ids
    }

    private mutating func due() -> JSON {
        let day = Int.random(in: 15...30, using: &random)
        return chance(70) ? .string("2026-11-\(day)") : .string("2026-11-\(day)T10:30:00Z")
    }

    /// The next mutation (method and params) for a writer whose view is `view`; `moveByIndex` asks for a move by
    /// view index at the version last notified.
    mutating func next(view: (id: String, version: Int64, count: Int)?, hot: String?, moveByIndex: Bool, afterUndo: Bool) -> (String, JSON) {
        counter += 1
        // A redo is possible only until the writer's next step: most come right after an undo, in the same batch.
        if afterUndo && chance(60) { return ("redo", .object([:])) }
        let roll = moveByIndex ? 99 : Int.random(in: 0..<100, using: &random)
        if roll < 3 && lists.count < 8 { return ("lists/create", ["name": .string("List \(counter)")]) }
        if roll < 30 || items.isEmpty { return create() }
        switch roll {
        case ..<52:
            var params: JSONObject = ["title": .string("Updated \(counter)")]
            let ids = pick(Int.random(in: 1...2, using: &random), hot: hot)
            if ids.count == 1 { params["id"] = .string(ids[0]) } else { params["ids"] = .ids(ids) }
            if chance(30) { params["done"] = .bool(chance(50)) }
            if chance(25) { params["due"] = chance(20) ? .null : due() }
            if chance(25) { params["priority"] = .string(["none", "low", "medium", "high"].randomElement(using: &random)!) }
            if chance(20) { params["tags"] = chance(30) ? [] : .ids(["t\(Int.random(in: 1...3, using: &random))", "work"]) }
            return ("items/update", .object(params))
        case ..<62:
            let ids = pick(Int.random(in: 1...2, using: &random), hot: hot)
            let list = lists.randomElement(using: &random)!
            let candidates = items.filter { $0.value == list && !ids.contains($0.key) }.keys.sorted()
            let before: JSON = chance(50) ? .null : candidates.randomElement(using: &random).map { .string($0) } ?? .null
            return ("items/move", ["ids": .ids(ids), "before": before, "list": .string(list)])
        case ..<70:
            return ("items/delete", ["ids": .ids(pick(Int.random(in: 1...2, using: &random), hot: hot))])
        case ..<71:
            guard let list = lists.filter({ $0 != anchor }).randomElement(using: &random) else { return create() }
            return ("lists/delete", ["id": .string(list)])
        case ..<77:
            return ("undo", .object([:]))
        case ..<79:
            return ("redo", .object([:]))
        case ..<85:
            // A deliberate conflict: an item some writer deleted (refused, unless an undo brought it back).
            guard let gone = deletedItems.randomElement(using: &random) else { return create() }
            switch Int.random(in: 0..<3, using: &random) {
            case 0: return ("items/update", ["id": .string(gone), "title": .string("Updated \(counter)")])
            case 1: return ("items/move", ["ids": [.string(gone)], "before": nil, "list": .string(anchor)])
            default: return ("items/delete", ["ids": [.string(gone)]])
            }
        default:
            guard let view, view.count >= 2 else { return create() }
            // A move by view index: at the version last notified (stale when another writer's change has arrived
            // unread), or deliberately at an older one.
            let version = roll < 89 ? view.version - 1 : view.version
            let from = Int.random(in: 0..<view.count, using: &random)
            var to = Int.random(in: 0..<(view.count - 1), using: &random)
            if to >= from { to += 1 }
            return ("items/move", ["view": .string(view.id), "version": .integer(version), "from": .integer(Int64(from)), "to": .integer(Int64(to))])
        }
    }

    private mutating func create() -> (String, JSON) {
        let list = lists.randomElement(using: &random)!
        var params: JSONObject = ["list": .string(list), "title": .string("Created \(counter)")]
        if chance(20), let before = items.filter({ $0.value == list }).keys.sorted().randomElement(using: &random) {
            params["before"] = .string(before)
        }
        if chance(50) { params["due"] = due() }
        if chance(30) { params["priority"] = .string(["low", "medium", "high"].randomElement(using: &random)!) }
        if chance(20) { params["tags"] = .ids(["t\(Int.random(in: 1...3, using: &random))"]) }
        if chance(10) { params["done"] = true }
        return ("items/create", .object(params))
    }

    /// Learns from an answer: what was created, deleted and moved, and which ids are unknown.
    mutating func learn(_ entry: WriterEntry) {
        guard let result = entry.result else {
            for id in (entry.response["error"]?["data"]?.elements("ids") ?? []).compactMap(\.stringValue) {
                if items.removeValue(forKey: id) != nil { deletedItems.append(id) }
                if id != anchor { lists.removeAll { $0 == id } }
            }
            return
        }
        let params = entry.params
        switch entry.method {
        case "lists/create":
            if let id = result["list"]?.string("id") { lists.append(id) }
        case "lists/delete":
            if let id = params.string("id") {
                lists.removeAll { $0 == id }
                for (item, list) in items where list == id {
                    items[item] = nil
                    deletedItems.append(item)
                }
            }
        case "items/create":
            if let item = result["item"], let id = item.string("id"), let list = item.string("list") { items[id] = list }
        case "items/delete":
            for id in (params.elements("ids") ?? []).compactMap(\.stringValue) where items.removeValue(forKey: id) != nil {
                deletedItems.append(id)
            }
        case "items/move":
            if let list = params.string("list") {
                for id in (params.elements("ids") ?? []).compactMap(\.stringValue) where items[id] != nil { items[id] = list }
            }
        default:
            break
        }
    }
}
