/// Random and extreme params sent to every method: each request is answered (a result or a
/// JSON-RPC error), the server never stops, and views stay readable afterwards.

import Domain
import Server
import Testing
import TestSupport
import Wire

/// The members each method reads, so random params reach past the params checks.
private let members: [String: [String]] = [
    "items/create": ["list", "title", "notes", "done", "due", "priority", "tags", "before"],
    "items/update": ["id", "ids", "title", "notes", "done", "due", "priority", "tags"],
    "items/get": ["id"], "items/delete": ["ids"], "items/duplicate": ["ids"],
    "items/move": ["ids", "before", "list", "view", "version", "from", "count", "to"],
    "lists/create": ["name", "color", "icon", "before"], "lists/update": ["id", "name", "color", "icon"],
    "lists/delete": ["id"], "lists/move": ["ids", "before"], "lists/list": ["watch"],
    "lists/open": ["list", "group", "sort", "filter", "sections", "window"],
    "view/setWindow": ["view", "window"], "view/sort": ["view", "sort"], "view/filter": ["view", "filter"],
    "view/sections": ["view", "sections"], "view/snapshot": ["view"], "view/close": ["view"],
    "debug/setClock": ["now"],
]

/// Live ids of each kind the test has seen in answers.
private struct Known {
    var lists: [JSON] = []
    var items: [JSON] = []
    var views: [JSON] = []
}

private func number(_ generator: inout SplitMix64) -> JSON {
    .integer(generator.pick([0, 1, 2, 3, 5, 8, 20, 99, -1, Int64.max, Int64.min, 1 << 53]))
}

/// A plausible (often valid, sometimes hostile) value for the member `name`.
private func value(for name: String, _ generator: inout SplitMix64, _ known: Known) -> JSON {
    if generator.below(8) == 0 { return randomValue(&generator, depth: 1) }
    func some(_ ids: [JSON]) -> JSON { ids.isEmpty ? "i999" : generator.pick(ids) }
    switch name {
    case "id": return some(known.items + known.lists)
    case "ids": return .array((0..<(1 + generator.below(4))).map { _ in some(generator.below(5) == 0 ? known.lists : known.items) })
    case "list": return some(known.lists)
    case "before": return generator.below(3) == 0 ? .null : some(known.items + known.lists)
    case "view": return some(known.views)
    case "group": return .string(generator.pick(["today", "scheduled", "overdue", "all", "completed", "later"]))
    case "title", "name", "notes", "text":
        return .string(generator.pick(["Buy milk", "éclair", "", "  ", String(repeating: "x", count: 1_001), "Call Ann", "a"]))
    case "done", "watch": return .bool(generator.below(2) == 0)
    case "due", "dueBefore", "dueAfter", "now":
        return generator.pick(["2026-11-22", "2026-11-23T09:00:00Z", "2026-11-21T23:59:59-05:00", "2026-02-30", .null, "2027-01-01"])
    case "priority", "priorityAtLeast": return .string(generator.pick(["none", "low", "medium", "high", "urgent"]))
    case "tags", "tagsAnyOf", "tagsAllOf": return .array((0..<generator.below(4)).map { _ in .string(generator.pick(["home", "work", "", "x"])) })
    case "color", "icon": return generator.pick(["blue", .null, "🛒", ""])
    case "version", "from", "count", "to", "start", "end": return number(&generator)
    case "window": return ["start": number(&generator), "end": number(&generator)]
    case "sort":
        return ["by": .string(generator.pick(["manual", "title", "due", "priority", "created", "modified"])),
                "direction": .string(generator.pick(["ascending", "descending"]))]
    case "sections": return .string(generator.pick(["none", "dueBucket", "priority", "list", "done"]))
    case "filter":
        var filter = JSONObject()
        for member in ["text", "done", "tagsAnyOf", "priorityAtLeast", "dueBefore"] where generator.below(3) == 0 {
            filter[member] = member == "done" ? .string(generator.pick(["any", "done", "notDone"])) : value(for: member, &generator, known)
        }
        return .object(filter)
    default: return randomValue(&generator, depth: 1)
    }
}

/// A random value of any JSON type, biased towards edge cases.
private func randomValue(_ generator: inout SplitMix64, depth: Int) -> JSON {
    switch generator.below(depth > 2 ? 5 : 7) {
    case 0: return .null
    case 1: return .bool(generator.below(2) == 0)
    case 2: return .integer(generator.pick([0, -1, Int64.max, Int64.min]))
    case 3: return .double(generator.pick([0.5, -0.0, 1e300]))
    case 4: return .string(generator.pick(["", "l1", "v1", "i0", "s:due:today"]))
    case 5: return .array((0..<generator.below(3)).map { _ in randomValue(&generator, depth: depth + 1) })
    default: return ["x": randomValue(&generator, depth: depth + 1)]
    }
}

@Test(arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
func randomParamsToEveryMethodAreAnsweredAndNothingBreaks(seed: UInt64) throws {
    let client = try TestClient(options: ServerOptions(logger: .silent, manualClock: ManualClock(Timestamp(milliseconds: 1_795_000_000_000))))
    var generator = SplitMix64(seed: seed)
    let capabilities = try TestClient(initialize: false).request("initialize", [:]).get()
    guard case .array(let names)? = capabilities["capabilities"]?["taskls"]?["requests"] else {
        Issue.record("no request list")
        return
    }
    // A little real content for the random requests to hit.
    var known = Known()
    known.lists.append(try client.request("lists/create", ["name": "Inbox"]).get()["list"]?["id"] ?? .null)
    var answered = 0
    var succeeded = 0
    for step in 0..<4_000 {
        guard case .string(let method) = generator.pick(names), method != "undo" || generator.below(2) == 0 else { continue }
        var params = JSONObject()
        for member in members[method] ?? [] where generator.below(3) > 0 {
            params[member] = value(for: member, &generator, known)
        }
        let answer = try client.request(method, .object(params))
        answered += 1
        switch answer {
        case .success(let result):
            succeeded += 1
            if let id = result["list"]?["id"] { known.lists.append(id) }
            if let id = result["item"]?["id"] { known.items.append(id) }
            if let id = result["view"], case .string = id { known.views.append(id) }
        case .failure(let error):
            #expect(
                [-32602, -32803, -32801].contains(error.code.rawValue),
                "seed \(seed) step \(step): \(method) \(JSON.object(params).text) -> \(error)")
        }
    }
    // Still serving; and the random params were not all refused at the door.
    #expect(try client.request("server/ping") == .success([:]))
    #expect(answered >= 3_000)
    #expect(succeeded >= 400, "seed \(seed): only \(succeeded) of \(answered) random requests succeeded")
}
