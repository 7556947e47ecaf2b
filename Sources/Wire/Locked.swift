/// A value guarded by a POSIX mutex, for state that threads share.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value only reached under a lock.
///
/// It does what `Synchronization.Mutex` does, on a `pthread_mutex_t`: ThreadSanitizer intercepts
/// the pthread calls and so sees the ordering the lock gives, whereas on Linux it does not see
/// `Mutex`'s futex-based lock and reports every access `Mutex` guards as a race
/// (`.ci/sanitizers` runs the concurrency tests under ThreadSanitizer).
public final class Locked<Value: Sendable>: @unchecked Sendable {
    // The mutex lives at a stable address of its own: a `pthread_mutex_t` must not move.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var value: Value

    /// Guards `value`.
    public init(_ value: Value) {
        self.value = value
        mutex.initialize(to: pthread_mutex_t())
        precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, holding the lock; `body` must not call back into this lock.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
