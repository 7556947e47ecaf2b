/// Where the server keeps its lists (`StoreLocation`), the phase the store is in as the loop sees it, and what clients are told of its failures.

#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Domain
import Store
import Wire

/// Where the server's lists live.
public enum StoreLocation: Sendable, Equatable {
    /// In memory only: nothing survives the process (in-process tests and benchmarks).
    case memory
    /// This directory, chosen by `--store` or `TASKLS_STORE`: the client's choice is ignored.
    case directory(String)
    /// The directory the client names in `initializationOptions.store`, else `fallback`.
    case clientChoice(fallback: String)

    /// The setting for the command line: `--store DIR`, else `TASKLS_STORE`, else the client's choice
    /// with `$XDG_DATA_HOME/taskls` (or `~/.local/share/taskls`) as the fallback.
    /// - Parameter environment: reads a variable (the process's environment by default).
    public static func resolve(flag: String?, environment: (String) -> String? = processEnvironment) -> StoreLocation {
        if let flag { return .directory(flag) }
        if let value = environment("TASKLS_STORE"), !value.isEmpty { return .directory(value) }
        if let data = environment("XDG_DATA_HOME"), data.hasPrefix("/") { return .clientChoice(fallback: data + "/taskls") }
        return .clientChoice(fallback: (environment("HOME") ?? ".") + "/.local/share/taskls")
    }

    /// A variable of this process's environment.
    public static func processEnvironment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}

/// The phase the store is in, as the message loop sees it: none (memory only), loading, ready or failed.
enum StorePhase {
    /// No store: lists live in memory only.
    case memory
    /// Being read off the loop; `progress` from 0 to 1.
    case loading(progress: Double)
    /// Open: every mutation is journaled before it is acknowledged.
    case ready(DurableStore)
    /// Could not be opened, or a write failed: data requests are refused and views show `error`. `unvoided` is
    /// the store whose refused records are still in the journal (it keeps the lock until `store/retry` voids them).
    case failed(StoreFailure, unvoided: DurableStore? = nil)

    /// The state every view that cannot show rows is in; nil when rows can be shown.
    var viewState: ViewState? {
        switch self {
        case .memory, .ready: nil
        case .loading(let progress): .loading(progress: progress)
        case .failed(let failure, _): .error(message: failure.message, retryable: failure.retryable)
        }
    }

    var isUsable: Bool {
        switch self {
        case .memory, .ready: true
        case .loading, .failed: false
        }
    }

    var store: DurableStore? {
        if case .ready(let store) = self { return store }
        return nil
    }
}

extension StoreFailure {
    /// The JSON-RPC error for a request refused because of the store.
    var responseError: ResponseError {
        var data: JSONObject = ["reason": .string(reason), "retryable": .bool(retryable)]
        if let file { data["file"] = .string(file) }
        if let offset { data["offset"] = .integer(Int64(offset)) }
        return ResponseError(.requestFailed, message, data: .object(data))
    }

    /// The refusal reason clients see.
    var reason: String {
        switch kind {
        case .full: "storeFull"
        case .corrupt: "storeCorrupt"
        case .unsupported: "storeUnsupported"
        case .syncFailed, .io, .overtaken: "storeFailed"
        case .busy: "storeBusy"
        }
    }
}

extension ResponseError {
    /// Whether this error is the store refusing (loading, failed, full) rather than the request being impossible.
    var isStoreRefusal: Bool {
        guard case .object(let data)? = data, case .string(let reason)? = data["reason"] else { return false }
        return reason.hasPrefix("store")
    }
}

/// A gate the store's loader waits at until a test opens it (`taskls serve --hold-load`, `debug/continueLoading`).
public final class LoadGate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)

    public init() {}

    func wait() { semaphore.wait() }

    func open() { semaphore.signal() }
}
