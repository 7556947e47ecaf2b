/// Every state change of a view is a notification, also when the store fails: with views of every kind open
/// (lists the failing turn touches and one it does not, smart groups the refused items are in and one they are
/// not in, a sorted and sectioned view), a turn whose write or sync fails and that also reads (`view/snapshot`,
/// `view/setWindow`, `view/sort`, `lists/open`, `items/get`, `lists/list` after the failing writes, in the same
/// write) must show each client one unbroken story: every view's versions go up by one with no gap and no repeat,
/// every answer that carries a version shows the version and state the last notification announced, each view gets
/// exactly one `error` notification when the store fails and one `loading` then one `ready` when `store/retry`
/// brings it back, and nothing of the refused turn is ever shown.

#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
import Transcript
import Wire

@Suite struct ViewErrorTransitionTests {
    @Test(arguments: ["sync", "write", "write sync truncate"])
    func everyViewSwitchesToErrorAndBackByNotifications(faults: String) throws {
        let directory = makeStoreTestDirectory()
        let control = directory + ".faults"
        defer {
            removeTree(directory)
            unlink(control)
        }
        let server = try StoreServer(directory: directory, environment: ["TASKLS_FAULTS": control])
        try #require(server.initialize())
        var methods: [JSON: String] = [:]
        func request(_ method: String, _ params: JSON? = nil) -> JSON {
            let message = server.makeRequest(method, params)
            methods[message["id"]!] = method
            return message
        }
        func call(_ method: String, _ params: JSON? = nil) -> JSON? {
            server.callTogether([request(method, params)])[0]
        }
        try #require(call("lists/create", ["name": "A"])?["result"] != nil)
        try #require(call("lists/create", ["name": "B"])?["result"] != nil)
        try #require(call("items/create", ["list": "l1", "title": "kept"])?["result"] != nil)
        let specs: [JSON] = [
            ["list": "l1"], ["list": "l2"], ["group": "all"], ["group": "today"],
            ["list": "l1", "sort": ["by": "title", "direction": "descending"], "sections": "priority"],
        ]
        var views: [JSON] = []
        for spec in specs { views.append(try #require(call("lists/open", spec)?["result"]?["view"])) }

        // One write: refused writes, and requests that read or reconfigure views after them.
        try writeFile(control, Array(faults.utf8))
        let turn = [
            request("items/create", ["list": "l1", "title": "refused one"]),
            request("view/snapshot", ["view": views[0]]),
            request("view/sort", ["view": views[1], "sort": ["by": "title"]]),
            request("view/setWindow", ["view": views[2], "window": ["start": 0, "end": 10]]),
            request("lists/open", ["list": "l1"]),
            request("items/create", ["list": "l2", "title": "refused two"]),
            request("view/snapshot", ["view": views[3]]),
            request("items/get", ["id": "i3"]),
            request("lists/list"),
            request("view/filter", ["view": views[4], "filter": ["text": "e"]]),
        ]
        let answers = server.callTogether(turn)
        for (sent, answer) in zip(turn, answers) where sent["method"] == "items/create" {
            #expect(answer?.errorReason == "storeFailed", "\(faults): \(answer?.text ?? "no answer")")
        }
        for view in views {
            #expect(server.awaitNotification { $0["params"]?["view"] == view && $0["params"]?["state"] == "error" },
                    "\(faults): view \(view.text) must be told it is in error")
        }
        let failed = server.received.count
        // A view opened after the failing write shows the failed store from its first version.
        let opened = try #require(answers[4]?["result"], "\(faults): \(answers[4]?.text ?? "no answer")")
        #expect(opened["state"] == "error" && opened.integer("version") == 1, "\(faults): \(opened.text)")
        #expect(ViewStory.states(of: opened["view"]!, in: server.received).isEmpty, "\(faults)")

        unlink(control)
        #expect(call("store/retry")?["result"]?["retried"] == true, "\(faults)")
        views.append(opened["view"]!)
        for view in views {
            #expect(server.awaitNotification { $0["params"]?["view"] == view && $0["params"]?["state"] == "ready" },
                    "\(faults): view \(view.text) must be told it is ready again")
        }
        let snapshots = views.map { request("view/snapshot", ["view": $0]) }
        let final = server.callTogether(snapshots)
        #expect(final[0]?["result"]?["count"] == 1, "\(faults): \(final[0]?.text ?? "no answer")")

        let story = ViewStory(methods: methods)
        for message in server.received { story.read(message) }
        #expect(story.contradictions.isEmpty, "\(faults): \(story.contradictions.joined(separator: "\n"))")
        for view in views where view != opened["view"] {
            let before = ViewStory.states(of: view, in: server.received.prefix(failed))
            let after = ViewStory.states(of: view, in: server.received.dropFirst(failed))
            // One switch to `error` (a later `view/sort` of the waiting view is a new generation, still in `error`).
            let switches = zip([""] + before, before).filter { $0.1 == "error" && $0.0 != "error" }.count
            #expect(switches == 1 && before.last == "error", "\(faults): view \(view.text) before the retry: \(before)")
            #expect(after == ["loading", "ready"], "\(faults): view \(view.text) after the retry: \(after)")
        }
        let reopened = ViewStory.states(of: opened["view"]!, in: server.received.dropFirst(failed))
        #expect(reopened == ["loading", "ready"], "\(faults): the view opened in the failing turn: \(reopened)")
        let shown = server.received.filter { $0.text.contains("refused") }
        #expect(shown.isEmpty, "\(faults): the refused turn was shown: \(shown.map(\.text))")
        server.finish()
    }
}

/// What a client learns of each view, message by message; every contradiction (a version that is not the last
/// one plus one, an answer whose version or state no notification announced) is noted.
final class ViewStory {
    private let methods: [JSON: String]
    private var versions: [JSON: Int64] = [:]
    private var states: [JSON: JSON] = [:]
    private(set) var contradictions: [String] = []

    /// `methods`: the method of each request, by id.
    init(methods: [JSON: String]) {
        self.methods = methods
    }

    func read(_ message: JSON) {
        if message["method"] == "view/closed", let view = message["params"]?["view"] {
            versions[view] = nil
            return
        }
        if message["method"] == "view/changed", let params = message["params"], let view = params["view"] {
            guard let last = versions[view] else {
                contradictions.append("a change of a view the client does not know: \(message.text)")
                return
            }
            if params.integer("version") != last + 1 { contradictions.append("after version \(last): \(message.text)") }
            versions[view] = params.integer("version")
            states[view] = params["state"]
            return
        }
        guard let id = message["id"], let method = methods[id], let result = message["result"], let view = result["view"],
            let version = result.integer("version")
        else { return }
        switch method {
        case "lists/open":
            versions[view] = version
            states[view] = result["state"]
        case "view/snapshot", "view/setWindow":
            if version != versions[view] || result["state"] != states[view] {
                contradictions.append("\(method) shows version \(version) \(result["state"]?.text ?? "") where the client was told "
                                      + "\(versions[view].map(String.init) ?? "none") \(states[view]?.text ?? ""): \(message.text)")
            }
        default:
            if version != versions[view] {
                contradictions.append("\(method) answers version \(version) where the last notification was "
                                      + "\(versions[view].map(String.init) ?? "none"): \(message.text)")
            }
        }
    }

    /// The states the notifications of `view` among `messages` announce, in order.
    static func states(of view: JSON, in messages: some Sequence<JSON>) -> [String] {
        messages.compactMap { message in
            guard message["method"] == "view/changed", message["params"]?["view"] == view else { return nil }
            return message["params"]?.string("state")
        }
    }
}
