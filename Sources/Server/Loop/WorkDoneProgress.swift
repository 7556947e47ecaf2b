/// `$/progress` for work that takes time, reported on the token the client gave in its request.

import TasklsProtocol
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
        send(token, .begin(title: title, message: message))
    }

    func report(_ token: ProgressToken, fraction: Double, message: String? = nil) {
        send(token, .report(percentage: Int(max(0, min(100, (fraction * 100).rounded(.down)))), message: message))
    }

    func end(_ token: ProgressToken, message: String? = nil) {
        send(token, .end(message: message))
    }

    private func send(_ token: ProgressToken, _ value: ProgressValue) {
        outbox.send(Progress(token: token, value: value).message)
    }
}
