// CrashHook: a test hook that kills the process at a chosen I/O step, so tests can crash it everywhere.

#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Counts the store's I/O steps and, when `TASKLS_CRASH_AT=N` is set, kills the process with SIGKILL at step N.
///
/// Read only here, and only meant for tests: every write, sync, rename, truncate and lock of the store is a
/// step. At a write step the process first writes a part of the bytes (a torn write), as a power cut could.
/// `TASKLS_CRASH_LOG=PATH` appends one line per step (`N name`) so a test can list every step of a run.
enum CrashHook {
    private static let counter = Atomic<Int>(0)
    private static let target: Int? = environment("TASKLS_CRASH_AT").flatMap { Int($0) }
    private static let log: Int32? = environment("TASKLS_CRASH_LOG").map {
        open($0, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
    }

    private static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Whether any hook is active (so the hot path costs one load when none is).
    static let active = target != nil || log != nil

    /// Marks one step; dies here if it is the chosen one.
    static func step(_ name: String) {
        guard active else { return }
        if reached(name) { die() }
    }

    /// Marks a write step of `count` bytes: returns how many bytes to write before dying (half of them),
    /// or nil to write them all.
    static func write(_ name: String, count: Int) -> Int? {
        guard active else { return nil }
        return reached(name) ? count / 2 : nil
    }

    private static func reached(_ name: String) -> Bool {
        let step = counter.wrappingAdd(1, ordering: .relaxed).newValue
        if let log {
            let line = Array("\(step) \(name)\n".utf8)
            _ = line.withUnsafeBytes { Glibc.write(log, $0.baseAddress, $0.count) }
        }
        return step == target
    }

    static func die() -> Never {
        kill(getpid(), SIGKILL)
        _exit(137)
    }
}
