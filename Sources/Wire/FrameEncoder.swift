/// LSP base-protocol framing, outgoing side: `Content-Length: N\r\n\r\n` then the JSON body.

#if canImport(Glibc)
import Glibc
#endif

/// Appends framed messages to an output buffer, so a batch of replies leaves in one `write(2)` (per
/// `StdioConnection.flushThreshold` bytes).
public struct FrameEncoder: Sendable {
    /// An encoder.
    public init() {}

    /// Appends `message`, framed, to `output`.
    /// - Complexity: O(size of the message).
    public mutating func append(_ message: Message, to output: inout [UInt8]) {
        var sink = ByteSink(capacity: 256)
        Self.append(message, to: &sink)
        output.append(contentsOf: sink.bytes)
    }

    /// The room left before a body for its header: `Content-Length: ` (16 bytes), up to 19 digits, then `\r\n\r\n`.
    private static let headerRoom = 16 + 19 + 4

    /// Appends `message`, framed, to `sink`: the body is serialized once, after room left for its header; the
    /// header is written once the body's length is known, and the body moved up against it.
    /// - Complexity: O(size of the message).
    static func append(_ message: Message, to sink: inout ByteSink) {
        let headerStart = sink.count
        sink.reserve(headerRoom)
        sink.skip(headerRoom)
        JSONSerializer.write(message, into: &sink)
        let bodyLength = sink.count - headerStart - headerRoom
        var digits = 1
        var power = 10
        while bodyLength >= power {
            digits += 1
            power &*= 10
        }
        let headerLength = 16 + digits + 4
        let header = sink.base + headerStart
        memmove(header + headerLength, header + headerRoom, bodyLength)
        let prefix: StaticString = "Content-Length: "
        header.update(from: prefix.utf8Start, count: 16)
        var value = bodyLength
        for offset in stride(from: 16 + digits - 1, through: 16, by: -1) {
            header[offset] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value % 10)
            value /= 10
        }
        header[16 + digits] = 0x0D
        header[16 + digits + 1] = 0x0A
        header[16 + digits + 2] = 0x0D
        header[16 + digits + 3] = 0x0A
        sink.removeLast(headerRoom - headerLength)
    }

    /// Appends `body`, a message's JSON written already, framed, to `sink`.
    /// - Complexity: O(size of the body).
    static func append(body: UnsafeBufferPointer<UInt8>, to sink: inout ByteSink) {
        var digits = 1
        var power = 10
        while body.count >= power {
            digits += 1
            power &*= 10
        }
        sink.reserve(16 + digits + 4 + body.count)
        sink.append("Content-Length: ")
        sink.putDecimal(UInt64(body.count), digits: digits)
        sink.append("\r\n\r\n")
        sink.append(body)
    }

    /// A body framed with its `Content-Length` header, as a new byte array.
    public static func frame(body: [UInt8]) -> [UInt8] {
        Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
    }

    /// `message` framed, as a new byte array.
    public static func frame(_ message: Message) -> [UInt8] {
        var encoder = FrameEncoder()
        var output: [UInt8] = []
        encoder.append(message, to: &output)
        return output
    }
}
