/// `taskls serve`'s command line read into the server's options: used by `main.swift`, and by the tests that run
/// the server on a thread exactly as the binary would run it.

import Domain
import Server
import Wire

/// What `taskls serve ARGUMENTS` runs: the server's options and the largest message body its connection reads.
struct ServeCommand {
    /// The server's options (its logger writes to stderr).
    var options: ServerOptions
    /// Bodies over this many bytes are answered with an error and skipped (`--max-message-bytes`).
    var maximumContentLength: Int

    /// Reads `arguments`, the words after `serve`; `environment` gives `TASKLS_STORE` and the directories the
    /// store's default place is taken from (`StoreLocation.resolve`).
    /// - Throws: `UsageError` saying what is wrong with the command line.
    init(arguments: [String], environment: (String) -> String? = StoreLocation.processEnvironment) throws(UsageError) {
        var arguments = ArraySlice(arguments)
        var logger = Logger()
        var maximumContentLength = 64 << 20
        var manualClock: ManualClock?
        var storeFlag: String?
        var compactionThreshold = 8 << 20
        var loadGate: LoadGate?
        var compactOnLoop = false
        var syncInterval = 300
        while let argument = arguments.popFirst() {
            switch argument {
            case "--store":
                storeFlag = try nextValue(after: argument, in: &arguments)
                if storeFlag!.isEmpty { throw UsageError("--store: needs a directory path") }
            case "--hold-load":
                loadGate = LoadGate()
            case "--compact-on-loop":
                compactOnLoop = true
            case "--compact-after":
                let text = try nextValue(after: argument, in: &arguments)
                guard let bytes = Int(text), bytes >= 0 else { throw UsageError("--compact-after: '\(text)' is not a byte count") }
                compactionThreshold = bytes
            case "--clock":
                let text = try nextValue(after: argument, in: &arguments)
                guard case .dateTime(let instant, _)? = try? Due(parsing: text, field: "clock") else {
                    throw UsageError("--clock: '\(text)' is not an instant such as 2026-11-22T23:59:00Z")
                }
                manualClock = ManualClock(instant)
            case "--log-level":
                let name = try nextValue(after: argument, in: &arguments)
                guard let level = LogLevel(name: name) else {
                    throw UsageError("--log-level: unknown level '\(name)'; expected error, warning, info or debug")
                }
                logger.level = level
            case "--sync-every":
                let text = try nextValue(after: argument, in: &arguments)
                guard let seconds = Int(text), seconds >= 0 else { throw UsageError("--sync-every: '\(text)' is not a number of seconds") }
                syncInterval = seconds
            case "--max-message-bytes":
                let text = try nextValue(after: argument, in: &arguments)
                guard let bytes = Int(text), bytes > 0 else { throw UsageError("--max-message-bytes: '\(text)' is not a positive number") }
                maximumContentLength = bytes
            default:
                throw UsageError("unknown option '\(argument)'")
            }
        }
        options = ServerOptions(logger: logger, manualClock: manualClock, store: StoreLocation.resolve(flag: storeFlag, environment: environment),
                                compactionThreshold: compactionThreshold, loadGate: loadGate, compactOnLoop: compactOnLoop,
                                syncInterval: syncInterval)
        self.maximumContentLength = maximumContentLength
    }
}

/// A command line `taskls` cannot run: `taskls: MESSAGE` is printed, with a pointer to `--help`, and it exits with 2.
struct UsageError: Error, CustomStringConvertible {
    /// What is wrong, naming the option.
    let message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}

/// Takes the value after `flag` from `arguments`.
/// - Throws: `UsageError` when there is none.
func nextValue(after flag: String, in arguments: inout ArraySlice<String>) throws(UsageError) -> String {
    guard let value = arguments.popFirst() else { throw UsageError("\(flag) needs a value") }
    return value
}
