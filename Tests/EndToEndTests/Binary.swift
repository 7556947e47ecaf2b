/// Starts the `taskls` executable that `swift test` built next to the test bundle.

import TestSupport
import Transcript

enum Binary {
    /// Starts a fresh server with a fresh temporary store.
    static func start(_ arguments: [String] = []) throws -> ServerProcess {
        try ServerProcess(executable: BuildPaths.taskls, arguments: ["serve"] + arguments, environment: ["TASKLS_STORE": temporaryStore()])
    }

    /// A new empty directory to use as a store.
    static func temporaryStore() -> String { makeTemporaryDirectory(prefix: "taskls-test-store") }
}
