/// `initialize`, `initialized`, `shutdown`, `exit` and `$/cancelRequest`, exactly as LSP 3.17.

import Foundation
import Wire

/// The taskls version, reported by `--version` and in `initialize`'s `serverInfo`.
public let tasklsVersion = "0.1.0"

/// The version of the taskls protocol (`protocol.md`), advertised in `initialize`.
public let protocolVersion = 1

enum LifecycleMethods {
    static func register(in table: inout MethodTable) {
        table.lifecycle("initialize", InitializeParams.self) { context, params throws(ResponseError) in
            guard context.lifecycle == .waitingForInitialize else {
                throw ResponseError(.invalidRequest, "initialize: the server is already initialized")
            }
            if let timeZone = params.timeZone { context.setTimeZone(ClientCalendar(timeZone: timeZone)) }
            context.configureClient(workDoneProgress: params.workDoneProgress, trace: params.trace)
            context.lifecycle = .running
            context.advanceTime()
            switch context.options.store {
            case .memory: break
            case .directory(let path): context.startLoading(path)
            case .clientChoice(let fallback): context.startLoading(params.store ?? fallback)
            }
            return initializeResult(methods: context.methods)
        }
        table.notification("initialized", AnyParams.self) { _, _ in }
        table.lifecycle("shutdown", AnyParams.self) { context, _ in
            context.lifecycle = .shutDown
            return .null
        }
        table.notification("exit", AnyParams.self) { context, _ in
            context.exit(context.lifecycle == .shutDown ? 0 : 1)
        }
        table.notification("$/setTrace", SetTraceParams.self) { context, params in
            context.setTrace(params.value)
        }
        table.notification("$/cancelRequest", CancelParams.self) { context, params in
            // Requests are answered in the order they arrive, so by the time a cancellation is
            // read on its own, its request has been answered: nothing is pending to cancel.
            context.logger.log(.debug, "$/cancelRequest for \(params.id): no such pending request")
        }
    }

    /// The capabilities: taskls's own, under `taskls` (where existing clients read them) and under
    /// `experimental.taskls` (where typed LSP clients, which drop unknown members of `ServerCapabilities`, keep them).
    static func initializeResult(methods: MethodTable) -> JSON {
        let taskls: JSON = [
            "protocolVersion": .integer(Int64(protocolVersion)),
            "requests": .array(methods.advertisedRequests.map(JSON.string)),
            "notifications": .array(serverNotifications.map(JSON.string)),
        ]
        return [
            "capabilities": ["taskls": taskls, "experimental": ["taskls": taskls]],
            "serverInfo": ["name": "taskls", "version": .string(tasklsVersion)],
        ]
    }

    /// Notifications the server sends to the client (besides LSP's `$/progress`, `window/logMessage` and
    /// `window/showMessage`).
    static let serverNotifications = ["lists/changed", "view/changed", "view/closed"]
}

/// `initialize` params: the full LSP `InitializeParams` are tolerated; taskls reads only the
/// fields it uses and checks their types.
struct InitializeParams: JSONDecodable {
    /// `initializationOptions.timeZone`: the client's IANA time zone ("Europe/Paris"), which
    /// decides what "today" is; the server's local zone when absent.
    var timeZone: TimeZone?
    /// `initializationOptions.store`: the store directory the client asks for (used unless `--store` or
    /// `TASKLS_STORE` chose one).
    var store: String?
    /// `capabilities.window.workDoneProgress`: the client shows `$/progress` on the tokens it gives.
    var workDoneProgress = false
    /// `trace`: how much of the server's log the client wants (`off` when absent).
    var trace = Trace.off

    init(json: JSON, path: String) throws(ResponseError) {
        let fields = try Fields(json: json, path: path)
        _ = try fields.nullable("processId", as: Int.self)
        if let name: String = try fields.nullable("trace") { trace = try Trace(name, path: fields.path("trace")) }
        if case .object(let capabilities)? = fields.object["capabilities"], case .object(let window)? = capabilities["window"],
           case .bool(let value)? = window["workDoneProgress"] {
            workDoneProgress = value
        }
        guard let optionsValue: JSON = try fields.nullable("initializationOptions") else { return }
        // An empty array is an empty object to clients whose JSON cannot tell them apart (Lua's `{}`).
        if case .array(let elements) = optionsValue, elements.isEmpty { return }
        let options = try Fields(json: optionsValue, path: fields.path("initializationOptions"))
        if let name: String = try options.optional("timeZone") {
            guard let zone = TimeZone(identifier: name) else {
                throw .invalidParams("\(options.path("timeZone")): unknown time zone '\(name)'; expected an IANA name such as Europe/Paris")
            }
            timeZone = zone
        }
        if let store: String = try options.optional("store") {
            guard !store.isEmpty, !store.utf8.contains(0) else {
                throw .invalidParams("\(options.path("store")): expected a directory path, got '\(store)'")
            }
            self.store = store
        }
    }
}

/// `$/cancelRequest` params.
struct CancelParams: JSONDecodable {
    var id: RequestID

    init(json: JSON, path: String) throws(ResponseError) {
        let fields = try Fields(json: json, path: path)
        let value: JSON = try fields.required("id")
        guard let id = RequestID(value) else {
            throw .invalidParams("\(path).id: expected an integer or a string, got \(value.typeDescription)")
        }
        self.id = id
    }
}

/// `$/setTrace` params.
struct SetTraceParams: JSONDecodable {
    var value: Trace

    init(json: JSON, path: String) throws(ResponseError) {
        let fields = try Fields(json: json, path: path)
        value = try Trace(try fields.required("value"), path: fields.path("value"))
    }
}

extension Trace {
    /// The trace value `name`, or `-32602` naming the three.
    init(_ name: String, path: String) throws(ResponseError) {
        guard let trace = Trace(rawValue: name) else {
            throw .invalidParams("\(path): unknown trace value '\(name)'; expected off, messages or verbose")
        }
        self = trace
    }
}
