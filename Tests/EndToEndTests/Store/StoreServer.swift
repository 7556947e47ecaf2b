/// The store's end-to-end tests drive `taskls serve --store DIR` through this: requests, pipelined batches,
/// the notifications that come with them, and the state a client can observe.

#if canImport(Glibc)
import Glibc
#endif
import TestSupport
import Transcript
import Wire

/// How long to wait for one message or for a process to exit; only a failing test waits this long.
let storePatience: Int32 = 20_000

/// The instant every store test's server runs at, so `created` and `modified` are the same in every run.
let storeTestClock = "2026-11-22T09:00:00Z"

/// A `taskls serve` on one store directory, on a stopped clock, driven request by request.
final class StoreServer {
    let process: ServerProcess
    let directory: String
    /// Every notification received so far, in order.
    private(set) var notifications: [JSON] = []
    /// Every message received so far (notifications and responses), in the order they arrived.
    private(set) var received: [JSON] = []
    /// Responses that arrived while waiting for others, by request id.
    private var pending: [JSON: JSON] = [:]
    /// Set once stdout ended (or stayed silent for `storePatience`): the process is gone or stuck.
    private(set) var silent = false
    private var counter = 0

    init(directory: String, arguments: [String] = [], environment: [String: String] = [:]) throws {
        self.directory = directory
        process = try ServerProcess(executable: BuildPaths.taskls,
                                    arguments: ["serve", "--store", directory, "--clock", storeTestClock] + arguments,
                                    environment: environment)
    }

    /// A request message with a fresh string id (`h1`, `h2`, …: never a workload's integer id).
    func makeRequest(_ method: String, _ params: JSON? = nil) -> JSON {
        counter += 1
        var members: JSONObject = ["jsonrpc": "2.0", "id": .string("h\(counter)"), "method": .string(method)]
        if let params { members["params"] = params }
        return .object(members)
    }

    /// Writes `requests` in one `write(2)`, so the server reads them together (one turn, one sync).
    @discardableResult
    func send(_ requests: [JSON]) -> Bool {
        var bytes: [UInt8] = []
        for request in requests { bytes += FrameEncoder.frame(body: request.bytes) }
        return process.write(bytes)
    }

    /// Reads until the responses to every request in `requests` have arrived; returns them by id.
    /// Stops early (with what arrived) when the output ends: the process died.
    func responses(to requests: [JSON]) -> [JSON: JSON] {
        var found: [JSON: JSON] = [:]
        for request in requests {
            guard let id = request["id"] else { continue }
            if let response = pending.removeValue(forKey: id) {
                found[id] = response
                continue
            }
            while !silent {
                guard let message = process.receive(timeout: storePatience) else {
                    silent = true
                    break
                }
                received.append(message)
                if message["method"] != nil {
                    notifications.append(message)
                } else if let answered = message["id"] {
                    if answered == id {
                        found[id] = message
                        break
                    }
                    pending[answered] = message
                }
            }
        }
        return found
    }

    /// Reads until a notification that satisfies `predicate` arrives (it is kept in `notifications`, with
    /// any others); whether one did before the output ended.
    func awaitNotification(_ predicate: (JSON) -> Bool) -> Bool {
        if notifications.contains(where: predicate) { return true }
        while !silent {
            guard let message = process.receive(timeout: storePatience) else {
                silent = true
                break
            }
            received.append(message)
            if message["method"] != nil {
                notifications.append(message)
                if predicate(message) { return true }
            } else if let id = message["id"] {
                pending[id] = message
            }
        }
        return false
    }

    /// Sends one request and waits for its response (nil when the process ended first).
    func call(_ method: String, _ params: JSON? = nil) -> JSON? {
        let request = makeRequest(method, params)
        guard send([request]) else { return nil }
        return responses(to: [request])[request["id"]!]
    }

    /// Sends `requests` together and waits for every response, in the order of `requests`.
    func callTogether(_ requests: [JSON]) -> [JSON?] {
        guard send(requests) else { return requests.map { _ in nil } }
        let found = responses(to: requests)
        return requests.map { found[$0["id"]!] }
    }

    /// `initialize`; whether it was answered with a result.
    @discardableResult
    func initialize() -> Bool {
        let answer = call("initialize", ["processId": nil])
        send([["jsonrpc": "2.0", "method": "initialized", "params": [:]]])
        return answer?["result"] != nil
    }

    /// Removes and returns the notifications received so far.
    func takeNotifications() -> [JSON] {
        defer { notifications = [] }
        return notifications
    }

    /// Closes stdin and waits for the process to exit; its exit code, or nil when it did not exit in time
    /// (it is then killed).
    @discardableResult
    func finish() -> Int32? {
        process.closeInput()
        if let status = process.waitForExit(timeout: storePatience) { return status }
        process.terminate()
        return nil
    }

    /// What a client can observe of the store: the overview, every list's rows, and every item in full.
    func observe() -> ObservedState? {
        guard let overview = call("lists/list")?["result"], case .array(let lists)? = overview["lists"] else { return nil }
        let opens = lists.map { list in
            makeRequest("lists/open", ["list": list["id"] ?? .null, "window": ["start": 0, "end": 1000]])
        }
        var listStates: [JSON] = []
        var itemIDs: [JSON] = []
        var views: [JSON] = []
        for (list, answer) in zip(lists, callTogether(opens)) {
            guard let snapshot = answer?["result"], case .array(let rows)? = snapshot["rows"] else { return nil }
            views.append(snapshot["view"] ?? .null)
            listStates.append(["id": list["id"] ?? .null, "count": snapshot["count"] ?? .null, "rows": .array(rows)])
            itemIDs += rows.compactMap { $0["kind"] == "item" ? $0["id"] : nil }
        }
        let gets = itemIDs.map { makeRequest("items/get", ["id": $0]) }
        let closes = views.map { makeRequest("view/close", ["view": $0]) }
        let answers = callTogether(gets + closes)
        var items: [JSON] = []
        for answer in answers.prefix(gets.count) {
            guard let item = answer?["result"] else { return nil }
            items.append(item)
        }
        var total = 0
        for list in lists {
            if case .integer(let count)? = list["total"] { total += Int(count) }
        }
        let state: JSON = ["overview": overview, "lists": .array(listStates), "items": .array(items)]
        return ObservedState(text: state.text, lists: lists.count, items: total)
    }
}

/// The store as a client sees it, as one canonical JSON text (equal texts: equal states).
struct ObservedState: Sendable, Equatable, CustomStringConvertible {
    var text: String
    /// How many lists and items it holds (what `taskls store check` reports).
    var lists: Int
    var items: Int

    var description: String { text }
}

extension JSON {
    /// `error.data.reason` of an error response.
    var errorReason: String? {
        if case .string(let reason)? = self["error"]?["data"]?["reason"] { return reason }
        return nil
    }

    /// A string member's value.
    func string(_ key: String) -> String? {
        if case .string(let value)? = self[key] { return value }
        return nil
    }
}

/// `taskls store check DIR`: its exit code and report.
func storeCheck(_ directory: String) throws -> (status: Int32, report: String) {
    let run = try runProgram(BuildPaths.taskls, ["store", "check", directory])
    return (run.status, run.output)
}

/// Runs a program to its end with no input; its exit code (-1 when it hung and was killed), stdout and stderr.
func runProgram(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws
    -> (status: Int32, output: String, error: String)
{
    let run = try ServerProcess.run(executable, arguments, environment: environment, timeout: storePatience)
    return (run.status ?? -1, run.output, run.error)
}
