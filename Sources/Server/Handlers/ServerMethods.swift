/// Methods about the server itself: `server/ping`, the store's state, and `debug/*` for tests.

import Domain
import Wire

enum ServerMethods {
    static func register(in table: inout MethodTable) {
        // A liveness check for health checks and the wire benchmark: answers `{}` at once, even mid-turn.
        table.state("server/ping", NoParams.self, store: .none) { _, _ in .object([:]) }
        // The store: where it is, and whether it is loading, ready or failed (and why).
        table.state("store/status", NoParams.self) { context, _ in context.storeStatus() }
        // Reopens a store that failed to open or to write: waiting views go back to `loading`.
        table.state("store/retry", NoParams.self) { context, _ in
            var status = context.storeStatus()
            let retried = context.retryStore()
            if retried { status = context.storeStatus() }
            guard case .object(var object) = status else { return status }
            object["retried"] = .bool(retried)
            return .object(object)
        }
        // Lets a store load held by `--hold-load` go on (for tests of the loading state).
        table.state("debug/continueLoading", NoParams.self) { context, _ throws(ResponseError) in
            guard let gate = context.options.loadGate else {
                throw .requestFailed(reason: "loadNotHeld", "debug/continueLoading: the server was not started with --hold-load")
            }
            gate.open()
            return .object([:])
        }
        // Moves a manual clock (`taskls serve --clock`) and re-evaluates dates at once.
        table.state("debug/setClock", Fields.self) { context, fields throws(ResponseError) in
            try fields.rejectUnknown(["now"])
            guard let manual = context.options.manualClock else {
                throw .requestFailed(reason: "clockNotManual", "debug/setClock: the server runs on the real clock; start it with --clock to drive time by hand")
            }
            let text: String = try fields.required("now")
            guard case .dateTime(let instant, _)? = try? Due(parsing: text, field: "now") else {
                throw .invalidParams("params.now: expected an instant such as 2026-11-22T23:59:00Z, got '\(text)'")
            }
            manual.set(instant)
            context.advanceTime()
            return ["now": .string(instant.iso8601)]
        }
    }
}
