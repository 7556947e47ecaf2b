/// Methods about the server itself: `server/ping`, and `debug/setClock` for tests.

import Domain
import Wire

enum ServerMethods {
    static func register(in table: inout MethodTable) {
        // A liveness check for health checks and the wire benchmark: answers `{}` at once.
        table.request("server/ping", NoParams.self) { _, _ in .object([:]) }
        // Moves a manual clock (`taskls serve --clock`) and re-evaluates dates at once.
        table.request("debug/setClock", Fields.self) { server, fields throws(ResponseError) in
            try fields.rejectUnknown(["now"])
            guard let manual = server.options.manualClock else {
                throw .requestFailed(reason: "clockNotManual", "debug/setClock: the server runs on the real clock; start it with --clock to drive time by hand")
            }
            let text: String = try fields.required("now")
            guard case .dateTime(let instant, _)? = try? Due(parsing: text, field: "now") else {
                throw .invalidParams("params.now: expected an instant such as 2026-11-22T23:59:00Z, got '\(text)'")
            }
            manual.set(instant)
            server.advanceTime()
            return ["now": .string(instant.iso8601)]
        }
    }
}
