/// LSP base-protocol framing, outgoing side: `Content-Length: N\r\n\r\n` then the JSON body.

/// Appends framed messages to an output buffer, so a batch of replies leaves in one `write(2)`.
public struct FrameEncoder: Sendable {
    private var body: [UInt8] = []

    /// An encoder with an empty scratch buffer.
    public init() {}

    /// Appends `message`, framed, to `output`.
    /// - Complexity: O(size of the message).
    public mutating func append(_ message: Message, to output: inout [UInt8]) {
        body.removeAll(keepingCapacity: true)
        JSONSerializer.write(message.json, into: &body)
        output.append(contentsOf: "Content-Length: ".utf8)
        output.append(contentsOf: String(body.count).utf8)
        output.append(contentsOf: [0x0D, 0x0A, 0x0D, 0x0A])
        output.append(contentsOf: body)
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
