/// `$/progress` for work that takes time, reported on the token the client gave in its request.

import Wire

/// Reports work done (LSP 3.17 work done progress: `begin`, `report`, `end`) on tokens clients pass as
/// `workDoneToken` in a request's params, when the client advertised `window.workDoneProgress`. The work may
/// outlast the request's answer (a store load after `initialize`, an index build after `lists/open`); `end` always
/// follows `begin`, when the work is done, has failed, or is no longer wanted.
///
/// Not `Sendable`: the message loop's thread owns it.
final class WorkDoneProgress {
    private let outbox: Outbox
    /// Whether the client advertised `capabilities.window.workDoneProgress` (tokens are ignored otherwise).
    var clientSupportsIt = false

    init(outbox: Outbox) {
        self.outbox = outbox
    }

    /// The token to report on for a request's `workDoneToken`, or nil when the client does not want progress.
    func token(_ requested: ProgressToken?) -> ProgressToken? {
        clientSupportsIt ? requested : nil
    }

    func begin(_ token: ProgressToken, title: String, message: String? = nil) {
        var value: JSONObject = ["kind": "begin", "title": .string(title), "cancellable": false, "percentage": 0]
        if let message { value["message"] = .string(message) }
        send(token, value)
    }

    func report(_ token: ProgressToken, fraction: Double, message: String? = nil) {
        var value: JSONObject = ["kind": "report", "percentage": .integer(Int64(max(0, min(100, (fraction * 100).rounded(.down)))))]
        if let message { value["message"] = .string(message) }
        send(token, value)
    }

    func end(_ token: ProgressToken, message: String? = nil) {
        var value: JSONObject = ["kind": "end"]
        if let message { value["message"] = .string(message) }
        send(token, value)
    }

    private func send(_ token: ProgressToken, _ value: JSONObject) {
        outbox.send(.notification(method: "$/progress", params: ["token": token.json, "value": .object(value)]))
    }
}

/// A progress token: an integer or a string (LSP's `ProgressToken`).
struct ProgressToken: Hashable, JSONDecodable {
    let json: JSON

    init(json: JSON, path: String) throws(ResponseError) {
        switch json {
        case .integer, .string: self.json = json
        default: throw .invalidParams("\(path): expected an integer or a string, got \(json.typeDescription)")
        }
    }
}
