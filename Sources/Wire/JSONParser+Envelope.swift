// JSONParser+Envelope: a JSON-RPC message read in place, without building its object.

extension JSONParser {
    /// Parses one JSON document that is most likely a JSON-RPC message and decodes it (`Message.decode`): when it is
    /// an object, only the members JSON-RPC names are kept (`Envelope`; the last of each name counts), the others are
    /// parsed, checked and dropped, and no object is built for it; any other value is parsed whole. Accepts and
    /// refuses exactly what `parse` does, with the same errors; the message is decoded only once the whole document
    /// is known to be valid. The envelope is decoded where it was parsed (it is not moved out through a return value).
    /// - Complexity: O(n) in the input's length; the message object itself allocates nothing.
    static func parseMessage(
        _ bytes: UnsafeRawBufferPointer, maxDepth: Int = 256
    ) throws(JSONError) -> Result<Message, MessageDecodingFailure> {
        guard let address = bytes.baseAddress, !bytes.isEmpty else {
            throw JSONError(offset: 0, message: "invalid JSON at byte 0: expected a JSON value, found end of input")
        }
        var parser = JSONParser(base: address.assumingMemoryBound(to: UInt8.self), count: bytes.count, maxDepth: maxDepth)
        parser.skipWhitespace()
        if parser.hasByteOrderMark() {
            throw parser.invalid("a byte order mark (U+FEFF) is not allowed", at: parser.position)
        }
        if parser.byte(at: parser.position) == UInt8(ascii: "{") {
            let envelope = try parser.parseEnvelopeObject()
            try parser.expectEnd()
            return Message.decode(envelope)
        }
        let value = try parser.parseValue()
        try parser.expectEnd()
        return Message.decode(value)
    }

    /// Refuses anything but whitespace after the document's value.
    private mutating func expectEnd() throws(JSONError) {
        skipWhitespace()
        guard position == count else {
            throw invalid("unexpected \(describe(at: position)) after the JSON value", at: position)
        }
    }

    /// `parseObject` for the message object: the same grammar and errors, each member's key recognized from its bytes
    /// (a key with escapes or non-ASCII bytes is decoded first, then compared).
    private mutating func parseEnvelopeObject() throws(JSONError) -> Envelope {
        try enterContainer()
        position += 1
        skipWhitespace()
        var envelope = Envelope()
        var isFirst = true
        if byte(at: position) != UInt8(ascii: "}") {
            while true {
                guard byte(at: position) == UInt8(ascii: "\"") else {
                    throw unexpected(isFirst ? "a string key or '}'" : "a string key after ','", at: position)
                }
                isFirst = false
                let name = try parseEnvelopeKey()
                skipWhitespace()
                guard byte(at: position) == UInt8(ascii: ":") else {
                    throw unexpected("':' after an object key", at: position)
                }
                position += 1
                skipWhitespace()
                let value = name == .jsonrpc && skipVersion() ? .string("2.0") : try parseValue()
                switch name {
                case .jsonrpc: envelope.jsonrpc = value
                case .id: envelope.id = value
                case .method: envelope.method = value
                case .params: envelope.params = value
                case .result: envelope.result = value
                case .error: envelope.error = value
                case nil: break
                }
                skipWhitespace()
                guard byte(at: position) == UInt8(ascii: ",") else { break }
                position += 1
                skipWhitespace()
            }
            guard byte(at: position) == UInt8(ascii: "}") else {
                throw unexpected("',' or '}' after an object member", at: position)
            }
        }
        position += 1
        depth -= 1
        return envelope
    }

    /// Steps over `"2.0"` (every message's `jsonrpc`, read without making a string) when it is at `position`.
    private mutating func skipVersion() -> Bool {
        guard count - position >= 5, base[position] == UInt8(ascii: "\""), base[position + 1] == UInt8(ascii: "2"),
            base[position + 2] == UInt8(ascii: "."), base[position + 3] == UInt8(ascii: "0"),
            base[position + 4] == UInt8(ascii: "\"")
        else { return false }
        position += 5
        return true
    }

    /// Parses the key whose opening quote is at `position` and says which JSON-RPC member it names, if any. A key of
    /// plain ASCII is compared in place (no string is made).
    private mutating func parseEnvelopeKey() throws(JSONError) -> Envelope.Name? {
        let first = position + 1
        let end = ByteScan.endOfPlainASCII(base, from: first, count: count)
        guard end < count && base[end] == UInt8(ascii: "\"") else {
            var key = try parseString()
            return key.withUTF8 { Envelope.Name($0.baseAddress, count: $0.count) }
        }
        position = end + 1
        return Envelope.Name(base + first, count: end - first)
    }
}
