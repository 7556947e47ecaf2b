/// What the server tells the client's log and the user (`window/logMessage`, `window/showMessage`), besides stderr.

import TasklsProtocol
import Wire

extension Trace {
    /// The most detailed level sent as `window/logMessage` at this setting: warnings and errors always, what
    /// the store did (opened, compacted, read again) from `messages` on, details at `verbose`.
    var logMessageLevel: LogLevel {
        switch self {
        case .off: .warning
        case .messages: .info
        case .verbose: .debug
        }
    }
}

/// Logs to stderr (at the level `--log-level` chose) and, once the client is initialized, to the client:
/// `window/logMessage` for what a user may want to see in the editor's log (at the level its `trace` asks for),
/// and `window/showMessage` for what needs attention (the store failed or is damaged).
///
/// Not `Sendable`: the message loop's thread owns it.
final class ClientLog {
    let logger: Logger
    private let outbox: Outbox
    /// The client's trace setting.
    var trace = Trace.off
    /// Whether messages may go to the client (after `initialize`: LSP forbids them before).
    var reachesClient = false

    init(logger: Logger, outbox: Outbox) {
        self.logger = logger
        self.outbox = outbox
    }

    /// Writes `message` to stderr only (what only someone debugging the server wants).
    func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
        logger.log(level, message())
    }

    /// Writes `message` to stderr and to the client's log; with `attention`, also shows it to the user.
    func tell(_ level: LogLevel, _ message: String, attention: Bool = false) {
        logger.log(level, message)
        guard reachesClient else { return }
        if level <= trace.logMessageLevel {
            outbox.send(LogMessage(type: level.messageType, message: message).message)
        }
        if attention {
            outbox.send(ShowMessage(type: level.messageType, message: "taskls: " + message).message)
        }
    }
}

extension LogLevel {
    /// LSP's `MessageType` for a line at this level.
    var messageType: MessageType {
        switch self {
        case .error: .error
        case .warning: .warning
        case .info: .info
        case .debug: .log
        }
    }
}
