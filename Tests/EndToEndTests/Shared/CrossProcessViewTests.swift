/// A client of one `taskls` process keeps its open views (a list in manual order, a smart group sorted by due,
/// windows in the middle) only by applying `view/changed`, while another process on the same store makes random
/// mutations: after each, the client's windows are the server's, versions follow one by one, and the change
/// arrives promptly while the first process is idle.

#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
import Transcript
import Wire

@Suite struct CrossProcessViewTests {
    static let mutations = 200
    /// The writer compacts now and then, so the watcher follows the journal across replacements.
    static let writerArguments = ["--compact-after", "4000"]

    @Test func anotherProcessesChangesKeepTheseWindowsExact() throws {
        let started = monotonicMilliseconds()
        let directory = makeStoreTestDirectory()
        defer { removeTree(directory) }
        let writer = try StoreServer(directory: directory, arguments: Self.writerArguments)
        try #require(writer.initialize())
        var source = WriterSource(seed: 0x5EED_0002)
        try source.setUp(writer)

        let reader = try StoreServer(directory: directory)
        try #require(reader.initialize())
        try #require(reader.call("lists/list", ["watch": true])?["result"] != nil)
        let opens: [JSON] = [
            ["list": .string(source.inbox), "window": ["start": 8, "end": 20]],
            ["group": "scheduled", "sort": ["by": "due"], "window": ["start": 6, "end": 16]],
        ]
        var models: [WindowModel] = []
        for params in opens {
            let snapshot = try #require(reader.call("lists/open", params)?["result"])
            let model = try #require(WindowModel(snapshot: snapshot), "\(snapshot.text)")
            try #require(model.count >= model.end, "the view is too short for a window in the middle: \(snapshot.text)")
            models.append(model)
        }
        try #require(reader.takeNotifications().isEmpty)
        let client = ViewClient(server: reader, models: models)

        // Changes certain to notify the idle reader, and how many of them did (the delay is `taskls-bench`'s).
        var notified = 0
        var refused: [String] = []
        for step in 1...Self.mutations {
            let (method, params, certain) = source.next()
            client.firstArrival = nil
            let answer = try #require(writer.call(method, params), "the writer did not answer \(method) \(params.text)")
            if answer["result"] == nil { refused.append("\(method): \(answer.errorReason ?? answer.text)") }
            if answer["result"] != nil && certain {
                // The reader is idle: nothing is sent to it until the change arrives.
                if client.awaitNotification(timeout: Int64(storePatience)) != nil {
                    notified += 1
                } else {
                    Issue.record("step \(step): \(method) \(params.text) was acknowledged, but no notification reached the other process")
                }
            }
            let target = try #require(writer.call("store/status")?["result"]?.integer("sequence"))
            try #require(client.hasApplied(target), "step \(step): the reader has not applied record \(target) after a request that reads the store")
            var differences: [String] = []
            for model in client.models {
                let snapshot = try #require(client.call("view/snapshot", ["view": .string(model.view)])?["result"])
                if let difference = model.difference(from: snapshot) { differences.append(difference) }
            }
            if !differences.isEmpty {
                Issue.record("step \(step), after \(method) \(params.text) -> \(answer.text):\n\(differences.joined(separator: "\n"))")
                break
            }
            if !client.problems.isEmpty {
                Issue.record("step \(step), after \(method) \(params.text):\n\(client.problems.joined(separator: "\n"))")
                break
            }
            try source.learn(method, params, answer, from: writer)
            if client.models.contains(where: { $0.count < $0.end }) { source.keepInboxFull = true }
        }
        reader.finish()
        writer.finish()
        #expect(errorLines(reader).isEmpty && errorLines(writer).isEmpty, "\(errorLines(reader) + errorLines(writer))")
        let applied = client.models.map(\.applied)
        #expect(applied.allSatisfy { $0 >= Self.mutations / 4 }, "notifications applied per view: \(applied)")
        #expect(notified >= Self.mutations / 4, "only \(notified) changes were certain to notify")
        print("CrossProcessView: \(notified) changes reached the idle reader by themselves; notifications applied per view \(applied) (resets \(client.models.map(\.resets))); \(refused.count) refused (\(Set(refused).sorted())); \(monotonicMilliseconds() - started) ms")
    }
}

/// The reading process's client: every message it reads goes through here, notifications are applied to the
/// window models in order, and the first notification's arrival time is kept.
private final class ViewClient {
    let server: StoreServer
    private(set) var models: [WindowModel]
    private(set) var problems: [String] = []
    /// When the first notification since this was reset arrived (monotonic milliseconds).
    var firstArrival: Int64?

    init(server: StoreServer, models: [WindowModel]) {
        self.server = server
        self.models = models
    }

    /// The next message, within `timeout` milliseconds; notifications are applied.
    private func read(timeout: Int64) -> JSON? {
        guard let message = server.process.receive(timeout: Int32(clamping: max(0, timeout))) else { return nil }
        guard let method = message.string("method") else { return message }
        if firstArrival == nil { firstArrival = monotonicMilliseconds() }
        guard method == "view/changed" else {
            if method != "lists/changed" { problems.append("unexpected notification \(message.text)") }
            return message
        }
        let params = message["params"] ?? .null
        guard let index = models.firstIndex(where: { $0.view == params.string("view") }) else {
            problems.append("view/changed for a view the client does not have: \(message.text)")
            return message
        }
        if let problem = models[index].apply(params) { problems.append("\(models[index].view): \(problem)") }
        return message
    }

    /// Waits (without sending anything) for the next notification; when it arrived, or nil after `timeout` ms.
    func awaitNotification(timeout: Int64) -> Int64? {
        let deadline = monotonicMilliseconds() + timeout
        while firstArrival == nil, let message = read(timeout: deadline - monotonicMilliseconds()) {
            if message["method"] == nil { problems.append("an answer to nothing: \(message.text)") }
        }
        return firstArrival
    }

    /// Sends a request and reads until its answer, applying the notifications before it.
    func call(_ method: String, _ params: JSON? = nil) -> JSON? {
        let request = server.makeRequest(method, params)
        guard server.send([request]) else { return nil }
        while let message = read(timeout: Int64(storePatience)) {
            guard message["method"] == nil else { continue }
            if message["id"] == request["id"] { return message }
            problems.append("an answer to another request: \(message.text)")
        }
        return nil
    }

    /// Whether the process has applied record `sequence` (every notification of it sent): a request that reads
    /// the store first applies every record other processes made durable before it arrived (protocol.md), so
    /// once `lists/list` is answered, `store/status` must say so. No polling.
    func hasApplied(_ sequence: Int64) -> Bool {
        guard call("lists/list")?["result"] != nil, let status = call("store/status")?["result"]?.integer("sequence") else { return false }
        return status >= sequence
    }
}

/// The writing process's random mutations, from an exact picture of the store (it is the only writer; the
/// picture is read again after anything it cannot predict, such as an undo).
private struct WriterSource {
    private var random: SplitMix64
    private(set) var inbox = ""
    private var other = ""
    /// The lists, and each list's items.
    private var lists: [String] = []
    private var items: [String: [String]] = [:]
    private var counter = 0
    /// Set when a view's window is no longer full: creations win over deletions from then on.
    var keepInboxFull = false
    private var lastWasUndo = false

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    private mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    private mutating func due() -> JSON {
        let day = Int.random(in: 18...30, using: &random)
        return chance(70) ? .string("2026-11-\(day)") : .string("2026-11-\(day)T\(Int.random(in: 10...19, using: &random)):15:00+01:00")
    }

    /// Two lists with items, most of them due (so the smart group holds many).
    mutating func setUp(_ server: StoreServer) throws {
        for name in ["Inbox", "Other"] {
            let list = try #require(server.call("lists/create", ["name": .string(name)])?["result"]?["list"]?.string("id"))
            lists.append(list)
            let creates = (0..<(name == "Inbox" ? 30 : 15)).map { index in
                server.makeRequest("items/create", ["list": .string(list), "title": .string("\(name) \(index)"), "due": chance(85) ? due() : .null,
                                                    "priority": .string(["none", "low", "medium", "high"][index % 4])])
            }
            for answer in server.callTogether(creates) {
                items[list, default: []].append(try #require(answer?["result"]?["item"]?.string("id")))
            }
        }
        inbox = lists[0]
        other = lists[1]
    }

    /// The next mutation, and whether it certainly changes what the reader watches (the overview's counts or
    /// lists), so a notification must follow.
    mutating func next() -> (String, JSON, Bool) {
        let next = draw()
        lastWasUndo = next.0 == "undo"
        return next
    }

    private mutating func draw() -> (String, JSON, Bool) {
        counter += 1
        // A redo is possible only until the next step: most come right after an undo.
        if lastWasUndo && chance(60) { return ("redo", .object([:]), false) }
        let all = lists.flatMap { items[$0] ?? [] }
        var roll = Int.random(in: 0..<100, using: &random)
        if all.count < 4 || (keepInboxFull && roll >= 67 && roll < 77) { roll = 0 }
        switch roll {
        case ..<22:
            let extras = lists.filter { $0 != inbox && $0 != other }
            let list = chance(60) ? inbox : (chance(60) || extras.isEmpty ? other : extras.randomElement(using: &random)!)
            var params: JSONObject = ["list": .string(list), "title": .string("New \(counter)")]
            if chance(75) { params["due"] = due() }
            if chance(30) { params["priority"] = .string(["low", "medium", "high"].randomElement(using: &random)!) }
            if chance(30), let before = items[list]?.randomElement(using: &random) { params["before"] = .string(before) }
            return ("items/create", .object(params), true)
        case ..<52:
            var params: JSONObject = ["id": .string(all.randomElement(using: &random)!)]
            if chance(40) { params["title"] = .string(chance(50) ? "Retitled \(counter)" : "a \(counter)") }
            if chance(25) { params["done"] = .bool(chance(50)) }
            if chance(30) { params["due"] = chance(15) ? .null : due() }
            if chance(20) { params["priority"] = .string(["none", "low", "medium", "high"].randomElement(using: &random)!) }
            if chance(15) { params["tags"] = .ids(["t\(counter % 3)"]) }
            if params.members.count == 1 { params["title"] = .string("Retitled \(counter)") }
            return ("items/update", .object(params), false)
        case ..<67:
            let id = all.randomElement(using: &random)!
            let from = lists.first { items[$0]?.contains(id) ?? false }!
            if chance(60) {
                let before: JSON = chance(20) ? .null : (items[from]!.filter { $0 != id }.randomElement(using: &random).map { .string($0) } ?? .null)
                return ("items/move", ["ids": [.string(id)], "before": before], false)
            }
            let to = lists.filter { $0 != from }.randomElement(using: &random)!
            return ("items/move", ["ids": [.string(id)], "before": nil, "list": .string(to)], true)
        case ..<77:
            var ids = [all.randomElement(using: &random)!]
            if chance(25), let second = all.filter({ $0 != ids[0] }).randomElement(using: &random) { ids.append(second) }
            return ("items/delete", ["ids": .ids(ids)], true)
        case ..<84:
            return ("undo", .object([:]), false)
        case ..<87:
            return ("redo", .object([:]), false)
        case ..<91 where lists.count < 5:
            return ("lists/create", ["name": .string("Extra \(counter)")], true)
        case ..<94:
            if let extra = lists.filter({ $0 != inbox && $0 != other }).randomElement(using: &random) {
                return ("lists/delete", ["id": .string(extra)], true)
            }
            fallthrough
        default:
            let ids = Array(Set((0..<3).map { _ in all.randomElement(using: &random)! })).sorted()
            return ("items/update", ["ids": .ids(ids), "priority": .string(["low", "high"].randomElement(using: &random)!), "done": .bool(chance(30))], false)
        }
    }

    /// Follows the answer: creations, deletions and moves it can predict; anything else reads the store again.
    mutating func learn(_ method: String, _ params: JSON, _ answer: JSON, from server: StoreServer) throws {
        guard let result = answer["result"] else { return try reread(server) }
        switch method {
        case "items/create":
            let list = params.string("list")!
            items[list, default: []].append(try #require(result["item"]?.string("id")))
        case "lists/create":
            lists.append(try #require(result["list"]?.string("id")))
        case "items/delete":
            let ids = Set((params.elements("ids") ?? []).compactMap(\.stringValue))
            for list in lists { items[list]?.removeAll { ids.contains($0) } }
        case "items/move":
            guard let to = params.string("list"), let id = params.elements("ids")?.first?.stringValue else { return }
            for list in lists { items[list]?.removeAll { $0 == id } }
            items[to, default: []].append(id)
        case "items/update":
            break
        default:
            try reread(server)
        }
    }

    /// Reads every list and its items from the writer.
    private mutating func reread(_ server: StoreServer) throws {
        let overview = try #require(server.call("lists/list")?["result"])
        lists = (overview.elements("lists") ?? []).compactMap { $0.string("id") }
        items = [:]
        for list in lists {
            let snapshot = try #require(server.call("lists/open", ["list": .string(list), "window": ["start": 0, "end": 1000]])?["result"])
            items[list] = (snapshot.elements("rows") ?? []).compactMap { $0.string("id") }
            _ = server.call("view/close", ["view": snapshot["view"] ?? .null])
        }
    }
}
