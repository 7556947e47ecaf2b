// SideFiles: small files kept beside a store's snapshot and journal by other parts of taskls (sync's accounts, its
// status and its state), each read whole and replaced whole, atomically.

#if canImport(Glibc)
import Glibc
#endif

/// The side files of a store directory. A file is replaced by writing a temporary file, syncing it, renaming it over
/// the old one and syncing the directory: a reader (or a process after a crash) sees the old bytes or the new,
/// never a mix. Writers of one file serialize among themselves (sync holds its own lock); the journal's lock is not
/// taken.
public struct StoreSideFiles {
    private let directory: StoreDirectory

    /// Opens the store directory `path` (created 0700 when missing, as for the store).
    public init(path: String) throws(StoreFailure) {
        directory = try StoreDirectory.open(path)
    }

    /// The directory's path.
    public var path: String { directory.path }

    /// Closes the directory.
    public func close() { directory.file.close() }

    /// The whole of `name`, or nil when there is no such file.
    public func read(_ name: String) throws(StoreFailure) -> [UInt8]? {
        guard let file = try directory.open(name, writable: false) else { return nil }
        defer { file.close() }
        return try file.read(at: 0, count: file.size())
    }

    /// Replaces `name` with `bytes`, atomically and durably (see the type).
    public func write(_ name: String, _ bytes: [UInt8]) throws(StoreFailure) {
        try directory.replace(name, with: bytes, step: "side.\(name)")
    }

    /// Removes `name` (nothing when there is none).
    public func remove(_ name: String) {
        directory.remove(name)
    }

    /// The lock file a sync holds from start to end (one syncing process per store).
    public static let syncLock = "sync-lock"

    /// Runs `body` holding the lock file `name` (`flock`) when no process holds it, and releases it after; false (and
    /// `body` not run) when another process holds it.
    public func whileUnlocked(_ name: String, _ body: () throws(StoreFailure) -> Void) throws(StoreFailure) -> Bool {
        guard let file = try directory.open(name, writable: true, create: true) else {
            throw StoreFailure(.io, "open \(directory.path(of: name)) failed", retryable: true)
        }
        defer { file.close() }
        guard flock(file.descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let error = errno
            guard error == EWOULDBLOCK || error == EINTR else { throw .system("flock", directory.path(of: name), errno: error) }
            return false
        }
        defer { flock(file.descriptor, LOCK_UN) }
        try body()
        return true
    }

    /// Takes `name` as a lock file, exclusively across processes (`flock`), waiting at most `patience` milliseconds
    /// for another process to release it: true when this process now holds it, false when another still does.
    /// Held until the process ends.
    public func lock(_ name: String, patience: Int) throws(StoreFailure) -> Bool {
        guard let file = try directory.open(name, writable: true, create: true) else {
            throw StoreFailure(.io, "open \(directory.path(of: name)) failed", retryable: true)
        }
        var waited = 0
        while true {
            if flock(file.descriptor, LOCK_EX | LOCK_NB) == 0 { return true }
            let error = errno
            guard error == EWOULDBLOCK || error == EINTR else {
                file.close()
                throw .system("flock", directory.path(of: name), errno: error)
            }
            guard waited < patience else {
                file.close()
                return false
            }
            // Another process's sync holds it: look again shortly (flock cannot wait with a deadline).
            var pause = timespec(tv_sec: 0, tv_nsec: 50_000_000)
            nanosleep(&pause, nil)
            waited += 50
        }
    }
}
