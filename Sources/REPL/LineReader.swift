/// Reads command lines from a file descriptor (a script, or a terminal that is not the output), and wakes for the
/// server's messages and for signals meanwhile.

#if canImport(Glibc)
import Glibc
#endif

/// Lines from a descriptor (stdin), split on `\n`; `poll`s it together with other descriptors.
struct LineReader {
    let descriptor: Int32
    private var buffer: [UInt8] = []
    private var ended = false

    init(descriptor: Int32) { self.descriptor = descriptor }

    /// What waiting produced.
    enum Event {
        case line(String)
        /// One of the other descriptors became readable (the first that did).
        case wake(Int32)
        case end
    }

    /// The next line, or `.wake` when one of `others` became readable first, or `.end` at the end of input.
    mutating func next(orWake others: [Int32]) -> Event {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                var line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                return .line(String(decoding: line, as: UTF8.self))
            }
            if ended {
                if buffer.isEmpty { return .end }
                defer { buffer.removeAll() }
                return .line(String(decoding: buffer, as: UTF8.self))
            }
            var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
            descriptors += others.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&descriptors, nfds_t(descriptors.count), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                ended = true
                continue
            }
            if descriptors[0].revents != 0 {
                var chunk = [UInt8](repeating: 0, count: 4096)
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    buffer += chunk[..<count]
                } else if count == 0 || errno != EINTR && errno != EAGAIN {
                    ended = true
                }
                continue
            }
            if let woken = descriptors.dropFirst().first(where: { $0.revents != 0 }) { return .wake(woken.fd) }
        }
    }
}
