/// Methods about the server itself: `server/ping`.

import Wire

enum ServerMethods {
    static func register(in table: inout MethodTable) {
        // A liveness check for health checks and the wire benchmark: answers `{}` at once.
        table.request("server/ping", NoParams.self) { _, _ in .object([:]) }
    }
}
