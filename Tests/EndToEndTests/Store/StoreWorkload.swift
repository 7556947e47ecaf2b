/// A fixed script of mutations in pipelined batches, with the ids the server will give: the crash-point test
/// runs it to every I/O step.

import Wire

/// Mutations numbered 1…count (each request's id is its number), sent batch by batch: every batch in one
/// write, so the server reads it in one turn and journals its records with one sync.
struct StoreWorkload: Sendable {
    private(set) var batches: [[JSON]] = [[]]
    /// The identifier the server gives to the next list or item it creates (lists and items share it).
    private var nextIdentifier = 1

    /// How many mutations there are.
    var count: Int { batches.reduce(0) { $0 + $1.count } }

    /// The mutations one by one, in order.
    var mutations: [JSON] { batches.flatMap { $0 } }

    private mutating func add(_ method: String, _ params: JSON) {
        batches[batches.count - 1].append(["jsonrpc": "2.0", "id": .integer(Int64(count + 1)), "method": .string(method), "params": params])
    }

    /// Ends the current batch: what follows is sent in the next write, once every answer to this one arrived.
    mutating func endBatch() {
        if !(batches.last?.isEmpty ?? true) { batches.append([]) }
    }

    @discardableResult
    mutating func createList(_ name: String, _ extra: JSONObject = [:]) -> JSON {
        var params: JSONObject = ["name": .string(name)]
        params.members += extra.members
        add("lists/create", .object(params))
        defer { nextIdentifier += 1 }
        return .string("l\(nextIdentifier)")
    }

    @discardableResult
    mutating func createItem(_ list: JSON, _ title: String, _ extra: JSONObject = [:]) -> JSON {
        var params: JSONObject = ["list": list, "title": .string(title)]
        params.members += extra.members
        add("items/create", .object(params))
        defer { nextIdentifier += 1 }
        return .string("i\(nextIdentifier)")
    }

    mutating func call(_ method: String, _ params: JSON) { add(method, params) }

    /// 43 mutations in 17 batches of one to four: every kind of mutation, notes long enough for
    /// the journal to pass 2,000 bytes (so `--compact-after 2000` compacts), lists and items deleted.
    static let standard: StoreWorkload = {
        var work = StoreWorkload()
        let notes = String(repeating: "Notes that make the journal grow. ", count: 10)
        let inbox = work.createList("Inbox", ["color": "blue"])
        let office = work.createList("Work")
        let home = work.createList("Home", ["icon": "house"])
        work.endBatch()
        let milk = work.createItem(inbox, "Buy milk", ["notes": "2 litres", "due": "2026-11-23", "priority": "high", "tags": ["home"]])
        let ann = work.createItem(inbox, "Call Ann")
        let rent = work.createItem(inbox, "Pay rent", ["due": "2026-11-22"])
        let flight = work.createItem(inbox, "Book flight", ["notes": .string(notes)])
        work.endBatch()
        let report = work.createItem(office, "Draft report", ["priority": "medium"])
        let review = work.createItem(office, "Review PR", ["before": report])
        let sprint = work.createItem(office, "Plan sprint", ["tags": ["work", "q4"]])
        work.endBatch()
        work.call("items/update", ["id": milk, "done": true])
        work.call("items/update", ["ids": [ann, rent], "priority": "low"])
        work.call("lists/update", ["id": office, "name": "Office", "color": "green"])
        work.endBatch()
        work.call("items/move", ["ids": [flight], "before": milk])
        work.call("items/move", ["ids": [report, review], "before": nil, "list": home])
        work.endBatch()
        work.call("items/delete", ["ids": [rent]])
        let sink = work.createItem(home, "Fix sink", ["notes": .string(notes)])
        work.call("items/update", ["id": sprint, "title": "Plan sprint 12"])
        work.endBatch()
        let errands = work.createList("Errands", ["before": inbox])
        work.endBatch()
        let post = work.createItem(errands, "Post office")
        let pharmacy = work.createItem(errands, "Pharmacy", ["due": "2026-11-24T10:30:00+01:00"])
        work.endBatch()
        work.call("lists/move", ["ids": [home], "before": office])
        work.call("items/update", ["ids": [post, pharmacy], "done": true])
        work.call("items/update", ["id": ann, "due": "2026-11-25T10:30:00+01:00"])
        work.endBatch()
        work.call("items/move", ["ids": [ann], "before": nil, "list": errands])
        work.call("items/delete", ["ids": [post]])
        work.call("items/update", ["id": sink, "notes": ""])
        work.endBatch()
        work.call("lists/delete", ["id": office])
        work.endBatch()
        work.createItem(inbox, "After the delete")
        work.call("lists/update", ["id": inbox, "icon": "tray"])
        let long = work.createItem(home, "Long notes", ["notes": .string(notes + notes)])
        work.call("items/update", ["id": milk, "done": false])
        work.endBatch()
        let first = work.createItem(inbox, "First")
        let second = work.createItem(inbox, "Second")
        let third = work.createItem(inbox, "Third")
        work.endBatch()
        work.call("items/move", ["ids": [third, first], "before": second])
        work.endBatch()
        work.call("items/delete", ["ids": [first, second]])
        let someday = work.createList("Someday")
        let piano = work.createItem(someday, "Learn piano", ["notes": .string(notes), "tags": ["later", "music"]])
        work.endBatch()
        work.call("items/update", ["ids": [third, piano, long], "priority": "medium", "tags": ["later"]])
        work.call("lists/move", ["ids": [someday, inbox], "before": nil])
        work.endBatch()
        work.call("items/update", ["id": pharmacy, "done": false, "title": "Pharmacy again"])
        work.call("lists/update", ["id": errands, "color": nil])
        work.endBatch()
        return work
    }()
}
