/// A thread-safe way to wake a connection's blocked `receive`: a self-pipe the loop polls.

#if canImport(Glibc)
import Glibc
#endif

/// Wakes a message loop blocked in `poll(2)` from any thread.
public final class Waker: Sendable {
    /// The read end of the pipe; readable while a wake is pending.
    public let fileDescriptor: Int32
    private let writeDescriptor: Int32

    /// A waker with its own pipe.
    public init() {
        var descriptors: [Int32] = [-1, -1]
        let result = pipe(&descriptors)
        precondition(result == 0, "pipe failed: errno \(errno)")
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            _ = fcntl(descriptor, F_SETFL, O_NONBLOCK)
        }
        fileDescriptor = descriptors[0]
        writeDescriptor = descriptors[1]
    }

    deinit {
        close(fileDescriptor)
        close(writeDescriptor)
    }

    /// Makes the next (or current) wait return. A full pipe already means "wake".
    public func wake() {
        var byte: UInt8 = 1
        _ = write(writeDescriptor, &byte, 1)
    }

    /// Clears pending wakes.
    public func reset() {
        var buffer = [UInt8](repeating: 0, count: 256)
        while buffer.withUnsafeMutableBytes({ read(fileDescriptor, $0.baseAddress, $0.count) }) == 256 {}
    }

    /// Waits until the waker fires or `timeout` milliseconds pass (`-1`: no limit), then resets it.
    /// Returns whether it fired.
    @discardableResult
    public func wait(timeout: Int32) -> Bool {
        var descriptor = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, timeout)
        if ready > 0 { reset() }
        return ready > 0
    }
}
