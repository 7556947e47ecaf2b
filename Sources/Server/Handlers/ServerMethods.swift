/// Methods about the server itself: `server/ping`, the store's state, and `debug/*` for tests.

import Domain
import TasklsProtocol
import Wire

enum ServerMethods {
    static func register(in table: inout MethodTable) {
        // A liveness check for health checks and the wire benchmark: answers `{}` at once, even mid-turn.
        table.state(ServerPing.self, store: .none) { _, _ in EmptyResult() }
        // The store: where it is, and whether it is loading, ready or failed (and why).
        table.state(StoreStatus.self) { context, _ in context.storeStatus() }
        // Reopens a store that failed to open or to write: waiting views go back to `loading`.
        table.state(StoreRetry.self) { context, _ in
            let before = context.storeStatus()
            let retried = context.retryStore()
            return StoreRetryResult(status: retried ? context.storeStatus() : before, retried: retried)
        }
        // Lets a store load held by `--hold-load` go on (for tests of the loading state).
        table.state(DebugContinueLoading.self) { context, _ throws(ResponseError) in
            guard let gate = context.options.loadGate else {
                throw .requestFailed(reason: "loadNotHeld", "debug/continueLoading: the server was not started with --hold-load")
            }
            gate.open()
            return EmptyResult()
        }
        // Moves a manual clock (`taskls serve --clock`), re-evaluates dates and fires the reminders due, at once.
        table.state(DebugSetClock.self) { context, params throws(ResponseError) in
            guard let manual = context.options.manualClock else {
                throw .requestFailed(reason: "clockNotManual", "debug/setClock: the server runs on the real clock; start it with --clock to drive time by hand")
            }
            let instant = try params.instant()
            manual.set(instant)
            context.advanceTime()
            context.fireDueReminders()
            return DebugSetClockResult(now: instant.iso8601)
        }
    }
}
