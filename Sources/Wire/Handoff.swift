/// A queue that hands values from one thread to another, with ownership the compiler checks.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Values passed from the threads that make them to the one that takes them, under a pthread mutex
/// (ThreadSanitizer sees its ordering; see `Locked`).
///
/// The elements need not be `Sendable`: `push` takes each one `sending` (the compiler refuses a push of a value
/// the pusher still refers to) and `takeAll` returns them `sending`, so a value is reachable from exactly one
/// thread at a time. This type is the one unchecked place; its API is what makes its users checked.
public final class Handoff<Element>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var elements: [Element] = []

    public init() {
        mutex.initialize(to: pthread_mutex_t())
        precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Appends `element`, handed over by its maker.
    public func push(_ element: sending Element) {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        elements.append(element)
    }

    /// Takes every element pushed so far, in order.
    public func takeAll() -> sending [Element] {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        let taken = elements
        elements = []
        return taken
    }
}
