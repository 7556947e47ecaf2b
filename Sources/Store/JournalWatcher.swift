// JournalWatcher: tells the message loop when another process may have appended to the journal.

#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Synchronization

/// Watches a store directory with inotify and calls `changed` (on its own thread) after anything in it is
/// written, created or renamed — the journal appended to, or replaced by a compaction. Where inotify is not
/// available, `isWatching` is false and the caller polls instead.
///
/// The process's own writes are reported too; reading a journal with nothing new costs one `fstat`.
public final class JournalWatcher: Sendable {
    private let descriptor: Int32
    private let stopped = StopFlag()
    /// Whether inotify watches the directory (else the caller must poll).
    public let isWatching: Bool

    /// Starts watching `directory`.
    public init(directory: String, changed: @escaping @Sendable () -> Void) {
        let descriptor = inotify_init1(Int32(IN_CLOEXEC))
        self.descriptor = descriptor
        guard descriptor >= 0,
              inotify_add_watch(descriptor, directory, UInt32(IN_MODIFY | IN_MOVED_TO | IN_CREATE)) >= 0 else {
            if descriptor >= 0 { close(descriptor) }
            isWatching = false
            return
        }
        isWatching = true
        let stopped = self.stopped
        DispatchQueue(label: "taskls.journal-watcher").async {
            var buffer = [UInt8](repeating: 0, count: 4096)
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            while !stopped.value.load(ordering: .acquiring) {
                // A bounded wait, so that `stop` is noticed within a second.
                let ready = poll(&entry, 1, 1000)
                guard ready > 0 else { continue }
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count <= 0 { continue }
                if !stopped.value.load(ordering: .acquiring) { changed() }
            }
            close(descriptor)
        }
    }

    /// Stops watching (within a second); `changed` is not called after this returns, except once at most
    /// for an event already being handled.
    public func stop() {
        stopped.value.store(true, ordering: .releasing)
    }

    deinit { stop() }
}

/// A flag the watcher's thread reads and `stop` sets.
private final class StopFlag: Sendable {
    let value = Atomic<Bool>(false)
}
