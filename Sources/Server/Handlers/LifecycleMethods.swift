/// `initialize`, `initialized`, `shutdown`, `exit`, `$/cancelRequest` and `$/setTrace`, as LSP 3.17 has them.

import Foundation
import TasklsProtocol
import Wire

/// The taskls version, reported by `--version` and in `initialize`'s `serverInfo`.
public let tasklsVersion = "0.1.0"

/// The version of the taskls protocol (`protocol.md`), advertised in `initialize`.
public let protocolVersion = ProtocolCatalog.protocolVersion

enum LifecycleMethods {
    static func register(in table: inout MethodTable) {
        table.lifecycle(Initialize.self) { context, params throws(ResponseError) in
            guard context.lifecycle == .waitingForInitialize else {
                throw ResponseError(.invalidRequest, "initialize: the server is already initialized")
            }
            if let timeZone = try params.clientTimeZone() { context.setTimeZone(ClientCalendar(timeZone: timeZone)) }
            context.configureClient(workDoneProgress: params.workDoneProgress ?? false, trace: params.trace ?? .off)
            context.lifecycle = .running
            context.advanceTime()
            switch context.options.store {
            case .memory: break
            case .directory(let path): context.startLoading(path)
            case .clientChoice(let fallback): context.startLoading(params.store ?? fallback)
            }
            return initializeResult(methods: context.methods)
        }
        table.notification(Initialized.self) { _, _ in }
        table.lifecycle(Shutdown.self) { context, _ in
            context.lifecycle = .shutDown
            return NullResult()
        }
        table.notification(Exit.self) { context, _ in
            context.exit(context.lifecycle == .shutDown ? 0 : 1)
        }
        table.notification(SetTrace.self) { context, params in
            context.setTrace(params.value)
        }
        table.notification(CancelRequest.self) { context, params in
            // Requests are answered in the order they arrive, so by the time a cancellation is read on its own,
            // its request has been answered, unless its work runs off the loop (an import, an export).
            if !context.cancelPendingWork(params.id) {
                context.logger.log(.debug, "$/cancelRequest for \(params.id): no such pending request")
            }
        }
    }

    /// The capabilities, under `taskls` (where existing clients read them) and `experimental.taskls` (where typed
    /// LSP clients, which drop unknown members of `ServerCapabilities`, keep them).
    static func initializeResult(methods: MethodTable) -> InitializeResult {
        InitializeResult(
            capabilities: ServerCapabilities(taskls: TasklsCapabilities(
                protocolVersion: protocolVersion, requests: methods.advertisedRequests,
                notifications: ProtocolCatalog.serverNotifications.map { $0.method }.sorted())),
            serverInfo: ServerInfo(name: "taskls", version: tasklsVersion))
    }
}
