/// `null` sent for every member of every method's params, one at a time: refused with `-32602`
/// naming the member (and nothing changes), except where `protocol.md` gives `null` a meaning,
/// where it is accepted with exactly that meaning.
///
/// The members are not listed by hand: each method's members come from the server itself (the
/// unknown-field refusal lists what a method accepts), the methods from `initialize`'s
/// advertisement, so a member or method added later is covered, or fails this test until it is.

import Domain
import Server
import Testing
import Wire

/// The ids a fixture's requests refer to, by placeholder (`"$listA"` in a base request).
private struct Fixture {
    let client: TestClient
    var ids: [String: JSON] = [:]

    /// A server with lists A and B, items one (due) and two in A, a view on A, and smart lists A and B.
    init(initialize: Bool = true) throws {
        client = try TestClient(
            initialize: initialize,
            options: ServerOptions(logger: .silent, manualClock: ManualClock(Timestamp(milliseconds: 1_795_000_000_000))))
        guard initialize else { return }
        ids["$listA"] = try client.request("lists/create", ["name": "A"]).get()["list"]?["id"]
        ids["$listB"] = try client.request("lists/create", ["name": "B"]).get()["list"]?["id"]
        let list = ids["$listA"] ?? .null
        ids["$item1"] = try client.request("items/create", ["list": list, "title": "one", "due": "2026-11-22"]).get()["item"]?["id"]
        ids["$item2"] = try client.request("items/create", ["list": list, "title": "two"]).get()["item"]?["id"]
        ids["$view"] = try client.request("lists/open", ["list": list]).get()["view"]
        ids["$smartA"] = try client.request("smartLists/create", ["name": "A"]).get()["smartList"]?["id"]
        ids["$smartB"] = try client.request("smartLists/create", ["name": "B"]).get()["smartList"]?["id"]
    }

    /// `json` with every placeholder replaced by its id.
    func resolve(_ json: JSON) -> JSON {
        switch json {
        case .string(let text) where text.hasPrefix("$"): return ids[text] ?? json
        case .array(let elements): return .array(elements.map(resolve))
        case .object(let object): return .object(JSONObject(object.members.map { ($0.key, resolve($0.value)) }))
        default: return json
        }
    }

    /// The store's revision.
    func revision() throws -> JSON? { try client.request("lists/list").get()["revision"] }

    /// The ids of the lists, in order.
    func listOrder() throws -> [JSON] {
        guard case .array(let lists)? = try client.request("lists/list").get()["lists"] else { return [] }
        return lists.compactMap { $0["id"] }
    }

    /// The ids of the smart lists, in order.
    func smartListOrder() throws -> [JSON] {
        guard case .array(let smartLists)? = try client.request("lists/list").get()["smartLists"] else { return [] }
        return smartLists.compactMap { $0["id"] }
    }

    /// The ids of list A's items, in manual order.
    func itemOrder() throws -> [JSON] {
        let snapshot = try client.request("lists/open", ["list": ids["$listA"] ?? .null]).get()
        guard case .array(let rows)? = snapshot["rows"] else { return [] }
        return rows.compactMap { $0["id"] }
    }
}

/// A valid request of each shape each method takes; `null` replaces one member at a time. Values
/// that are objects (sort, filter, window) and non-empty arrays have their members and first
/// element replaced too.
private let bases: [(method: String, params: JSON)] = [
    ("lists/list", ["watch": true]),
    ("lists/create", ["name": "N", "color": "blue", "icon": "star", "before": "$listA"]),
    ("lists/update", ["id": "$listA", "name": "N", "color": "red", "icon": "x"]),
    ("lists/delete", ["id": "$listB"]),
    ("lists/move", ["ids": ["$listA"], "before": "$listB"]),
    ("lists/open", ["list": "$listA", "sort": ["by": "title", "direction": "descending"], "filter": fullFilter,
                    "sections": "priority", "window": ["start": 0, "end": 10]]),
    ("lists/open", ["group": "all"]),
    ("lists/open", ["smartList": "$smartA"]),
    ("smartLists/create", ["name": "N", "color": "blue", "icon": "star", "filter": fullFilter, "lists": ["$listA"],
                           "before": "$smartA"]),
    ("smartLists/update", ["id": "$smartA", "name": "N", "color": "red", "icon": "x", "filter": fullFilter, "lists": ["$listA"]]),
    ("smartLists/delete", ["id": "$smartB"]),
    ("smartLists/move", ["ids": ["$smartA"], "before": "$smartB"]),
    ("items/create", ["list": "$listA", "title": "t", "notes": "n", "done": false, "due": "2026-11-23",
                      "priority": "high", "tags": ["home"], "before": "$item1"]),
    ("items/get", ["id": "$item1"]),
    ("items/update", ["id": "$item1", "title": "t", "notes": "n", "done": true, "due": "2026-11-23",
                      "priority": "low", "tags": ["work"]]),
    ("items/update", ["ids": ["$item1"], "title": "t"]),
    ("items/delete", ["ids": ["$item1"]]),
    ("items/duplicate", ["ids": ["$item1"]]),
    ("items/skip", ["ids": ["$item1"]]),
    ("items/move", ["ids": ["$item1"], "before": "$item2", "list": "$listA"]),
    ("items/move", ["view": "$view", "version": 1, "from": 0, "count": 1, "to": 1]),
    ("items/create", ["list": "$listA", "title": "t", "parent": "$item2"]),
    ("items/move", ["ids": ["$item1"], "before": .null, "parent": "$item2"]),
    ("items/move", ["view": "$view", "version": 1, "from": 0, "count": 1, "to": 1, "depth": 0]),
    ("items/indent", ["ids": ["$item2"]]),
    ("items/outdent", ["ids": ["$item1"]]),
    ("view/collapse", ["view": "$view", "ids": ["$item1"]]),
    ("view/collapse", ["view": "$view", "all": true]),
    ("view/expand", ["view": "$view", "ids": ["$item1"]]),
    ("view/expand", ["view": "$view", "all": true]),
    ("view/setWindow", ["view": "$view", "window": ["start": 0, "end": 5]]),
    ("view/sort", ["view": "$view", "sort": ["by": "due", "direction": "ascending"]]),
    ("view/filter", ["view": "$view", "filter": fullFilter]),
    ("view/sections", ["view": "$view", "sections": "done"]),
    ("view/snapshot", ["view": "$view"]),
    ("view/locate", ["view": "$view", "id": "$item1"]),
    ("view/close", ["view": "$view"]),
    ("debug/setClock", ["now": "2026-11-23T08:00:00Z"]),
    ("text/parseItem", ["text": "Buy milk ^fri !high #home", "list": "$listA"]),
    ("text/parseFilter", ["text": "#home !high+ due<fri open"]),
    // Methods that take no params: nothing to replace, but they are covered (and probed) too.
    ("server/ping", [:]), ("store/status", [:]), ("store/retry", [:]), ("debug/continueLoading", [:]),
    ("undo", [:]), ("redo", [:]),
    // Alerts and reminders.
    ("items/create", ["list": "$listA", "title": "t", "alerts": [["offset": -60], ["at": "2026-11-23T08:00:00Z"]]]),
    ("items/update", ["id": "$item1", "alerts": [["at": "2026-11-23T08:00:00Z"]]]),
    ("reminders/watch", ["watch": true]),
    ("reminders/list", [:]),
    ("reminders/dismiss", ["item": "$item1", "fireAt": "2026-11-23T08:00:00Z"]),
    ("reminders/snooze", ["item": "$item1", "fireAt": "2026-11-23T08:00:00Z", "minutes": 10]),
    ("store/import", ["format": "todotxt", "text": "Buy milk", "name": "todo.txt", "into": "$listA", "dryRun": true, "skipInvalid": true]),
    ("store/import", ["format": "todotxt", "path": "/nonexistent/todo.txt"]),
    ("store/export", ["format": "todotxt", "lists": ["$listA"]]),
    ("sync/now", ["lists": ["$listA"], "confirm": true]),
    ("reminders/snooze", ["item": "$item1", "fireAt": "2026-11-23T08:00:00Z", "until": "2026-11-23T09:00:00Z"]),
]

private let fullFilter: JSON = [
    "text": "o", "done": "notDone", "tagsAnyOf": ["home"], "tagsAllOf": ["home"], "priorityAtLeast": "low",
    "dueBefore": "2027-01-01", "dueAfter": "2020-01-01",
]

/// Where protocol.md gives `null` a meaning ("method path"), and a check that the meaning was
/// honoured, given the fixture and the result.
private let meanings: [String: @Sendable (Fixture, JSON) throws -> Bool] = [
    // `lists/create`: `color`/`icon` null is no color/icon; `before: null` is "last".
    "lists/create params.color": { _, result in result["list"]?["color"] == .null },
    "lists/create params.icon": { _, result in result["list"]?["icon"] == .null },
    "lists/create params.before": { fixture, result in try fixture.listOrder().last == result["list"]?["id"] },
    // `lists/update`: null clears `color` and `icon`.
    "lists/update params.color": { _, result in result["list"]?["color"] == .null },
    "lists/update params.icon": { _, result in result["list"]?["icon"] == .null },
    // `lists/move`, `items/create`, `items/move` by id: `before: null` is "at the end".
    "lists/move params.before": { fixture, _ in try fixture.listOrder().last == fixture.ids["$listA"] },
    "items/create params.before": { fixture, result in try fixture.itemOrder().last == result["item"]?["id"] },
    "items/move params.before": { fixture, _ in try fixture.itemOrder().last == fixture.ids["$item1"] },
    // `parent: null`: the top level.
    "items/create params.parent": { _, result in result["item"]?["parent"] == .null },
    "items/move params.parent": { fixture, _ in
        try fixture.client.request("items/get", ["id": fixture.ids["$item1"] ?? .null]).get()["parent"] == .null
    },
    // `due: null`: a new item without a due; on update, clears it.
    "items/create params.due": { _, result in result["item"]?["due"] == .null },
    "items/update params.due": { _, result in
        guard case .array(let items)? = result["items"] else { return false }
        return items.count == 1 && items[0]["due"] == .null
    },
    // `repeat: null`: a new item that does not repeat; on update, it stops repeating. (A base with a repeat object
    // cannot be probed member by member here: `due: null` beside it is refused with repeatWithoutDue; BadParamsTests
    // refuses `null` for `rule` and `from`.)
    "items/create params.repeat": { _, result in result["item"]?["repeat"] == .null },
    "items/update params.repeat": { _, result in
        guard case .array(let items)? = result["items"] else { return false }
        return items.count == 1 && items[0]["repeat"] == .null
    },
    // Smart lists: `color`/`icon` null is none (on update: clears it), `lists: null` every list, `before: null` last.
    "smartLists/create params.color": { _, result in result["smartList"]?["color"] == .null },
    "smartLists/create params.icon": { _, result in result["smartList"]?["icon"] == .null },
    "smartLists/create params.lists": { _, result in result["smartList"]?["lists"] == .null },
    "smartLists/create params.before": { fixture, result in try fixture.smartListOrder().last == result["smartList"]?["id"] },
    "smartLists/update params.color": { _, result in result["smartList"]?["color"] == .null },
    "smartLists/update params.icon": { _, result in result["smartList"]?["icon"] == .null },
    "smartLists/update params.lists": { _, result in result["smartList"]?["lists"] == .null },
    "smartLists/move params.before": { fixture, _ in try fixture.smartListOrder().last == fixture.ids["$smartA"] },
    // `view/filter` with `filter: null`: everything.
    "view/filter params.filter": { fixture, _ in
        try fixture.client.request("view/snapshot", ["view": fixture.ids["$view"] ?? .null]).get()["filter"] == [:]
    },
]

/// The members a request of this shape accepts, as the server's unknown-field refusal lists them.
private func acceptedMembers(_ method: String, _ params: JSON, at path: String = "params") throws -> [String] {
    let fixture = try Fixture()
    let probe = inserting("zzz", 1, into: fixture.resolve(params), at: path)
    guard case .failure(let error) = try fixture.client.request(method, probe) else {
        Issue.record("\(method): an unknown member at \(path) was accepted")
        return []
    }
    if error.message.hasSuffix("this method takes no params") { return [] }
    guard error.message.hasPrefix("\(path).zzz: unknown field"), let range = error.message.range(of: "expected one of ") else {
        Issue.record("\(method): unexpected refusal of an unknown member at \(path): \(error.message)")
        return []
    }
    return error.message[range.upperBound...].split(separator: ", ").map(String.init)
}

/// `json` with the member at `path` (`params.sort.direction`, `params.ids[0]`) set to `value`.
private func inserting(_ key: String, _ value: JSON, into json: JSON, at path: String) -> JSON {
    replacing(path + "." + key, in: json, with: value)
}

private func replacing(_ path: String, in json: JSON, with value: JSON) -> JSON {
    var steps = path.split(separator: ".").dropFirst().map(String.init)   // drop "params"
    guard !steps.isEmpty else { return value }
    let first = steps.removeFirst()
    let rest = (["params"] + steps).joined(separator: ".")
    if let open = first.firstIndex(of: "["), let index = Int(first[first.index(after: open)...].dropLast()) {
        let key = String(first[..<open])
        guard case .array(var elements)? = json[key] else { return json }
        elements[index] = steps.isEmpty ? value : replacing(rest, in: elements[index], with: value)
        return setting(key, .array(elements), in: json)
    }
    return setting(first, steps.isEmpty ? value : replacing(rest, in: json[first] ?? [:], with: value), in: json)
}

private func setting(_ key: String, _ value: JSON, in json: JSON) -> JSON {
    guard case .object(var object) = json else { return json }
    object[key] = value
    return .object(object)
}

/// Every path to replace with `null` in a request of this shape: each accepted member, each
/// member of an object value, the first element of an array value.
private func nullablePaths(_ method: String, _ params: JSON) throws -> [String] {
    var paths: [String] = []
    for member in try acceptedMembers(method, params) {
        let path = "params." + member
        paths.append(path)
        switch params[member] {
        case .object?: paths += try acceptedMembers(method, params, at: path).map { path + "." + $0 }
        case .array(let elements)? where !elements.isEmpty: paths.append(path + "[0]")
        default: break
        }
    }
    return paths
}

@Test func nullIsRefusedForEveryMemberOfEveryMethodExceptWhereTheProtocolGivesItAMeaning() throws {
    // Every advertised method has a base request here.
    let advertised = try TestClient(initialize: false).request("initialize", [:]).get()
    guard case .array(let names)? = advertised["capabilities"]?["taskls"]?["requests"] else {
        Issue.record("no request list")
        return
    }
    #expect(Set(names.compactMap { if case .string(let name) = $0 { name } else { nil } }) == Set(bases.map(\.method)))

    var honoured: Set<String> = []
    var refused = 0
    for (method, params) in bases {
        for path in try nullablePaths(method, params) {
            let fixture = try Fixture()
            let before = try fixture.revision()
            let request = replacing(path, in: fixture.resolve(params), with: .null)
            let answer = try fixture.client.request(method, request)
            let label = "\(method) \(path)"
            if let meaning = meanings[label] {
                guard case .success(let result) = answer else {
                    Issue.record("\(label): null has a meaning here, but was refused: \(answer)")
                    continue
                }
                #expect(try meaning(fixture, result), "\(label): null was accepted without its meaning: \(result.text)")
                honoured.insert(label)
            } else {
                guard case .failure(let error) = answer else {
                    Issue.record("\(label): null was accepted: \(request.text)")
                    continue
                }
                #expect(error.code == .invalidParams, "\(label): \(error)")
                #expect(error.message.hasPrefix("\(path): ") && error.message.contains("null"), "\(label): \(error.message)")
                #expect(try fixture.revision() == before, "\(label): a refused request changed the store")
                refused += 1
            }
        }
    }
    // Every meaning protocol.md gives null was reached, and the refusals were many.
    #expect(honoured == Set(meanings.keys))
    #expect(refused >= 60, "only \(refused) members were tried")
}

/// `initialize` tolerates LSP's whole `InitializeParams` (unknown members are ignored, so they
/// cannot be probed): the members taskls reads are listed here. LSP's `processId` is
/// `integer | null` and `initializationOptions` any value, so their `null` means "none";
/// taskls's own options refuse it.
@Test(arguments: [
    ("params.processId", true), ("params.initializationOptions", true),
    ("params.initializationOptions.timeZone", false), ("params.initializationOptions.store", false),
])
func nullInInitialize(path: String, accepted: Bool) throws {
    let fixture = try Fixture(initialize: false)
    let params: JSON = ["processId": 7, "capabilities": [:], "initializationOptions": ["timeZone": "UTC", "store": "/tmp/unused"]]
    let answer = try fixture.client.request("initialize", replacing(path, in: params, with: .null))
    if accepted {
        #expect(answer.errorCode == nil, "\(path): \(answer)")
    } else if case .failure(let error) = answer {
        #expect(error.code == .invalidParams && error.message.hasPrefix("\(path): expected a string, got null"), "\(error)")
        // Refused for its params: the server is still waiting for a correct `initialize`.
        #expect(try fixture.client.request("initialize", [:]).errorCode == nil)
    } else {
        Issue.record("\(path): null was accepted")
    }
}
