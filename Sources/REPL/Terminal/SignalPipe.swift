/// Signals as bytes on a pipe (the self-pipe trick): a handler only writes the signal's number, and the loop
/// `poll`s the pipe together with the terminal and the server's waker, then acts on the signals in order.

#if canImport(Glibc)
import Glibc
#endif

/// The pipe's writing end, for the handlers (set once, before any handler is installed).
nonisolated(unsafe) private var signalPipeInput: Int32 = -1

/// The signals caught: SIGINT, SIGTERM and SIGHUP (and SIGWINCH for the line editor) become readable bytes.
struct SignalPipe {
    /// The reading end, to `poll` (non-blocking).
    let descriptor: Int32

    /// Makes the pipe and installs a handler for each of `signals`; nil when the pipe cannot be made (the signals
    /// then keep their default actions).
    init?(catching signals: [Int32]) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        descriptor = ends[0]
        signalPipeInput = ends[1]
        // A parent may have left these signals blocked (a blocked mask is inherited): unblock them, or they
        // would never arrive.
        var blocked = sigset_t()
        sigemptyset(&blocked)
        for signal in signals { sigaddset(&blocked, signal) }
        pthread_sigmask(SIG_UNBLOCK, &blocked, nil)
        for signal in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                let saved = errno
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(signalPipeInput, &byte, 1)
                errno = saved
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = Int32(SA_RESTART)
            sigaction(signal, &action, nil)
        }
    }

    /// The signals that arrived since the last call, in order.
    func take() -> [Int32] {
        var signals: [Int32] = []
        var chunk = [UInt8](repeating: 0, count: 64)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return signals }
            signals += chunk[..<count].map { Int32($0) }
        }
    }
}
