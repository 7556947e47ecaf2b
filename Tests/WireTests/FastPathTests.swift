/// The wire's fast paths against plain byte-by-byte references: word-at-a-time string scans at every length and
/// position, digit-pair integers at every width, the message writer, the plain-header framing path.

#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
@testable import Wire

/// What JSON's grammar makes of `scalars` as string contents, escaped byte by byte the obvious way.
private func referenceEscaped(_ string: String) -> String {
    var text = "\""
    for scalar in string.unicodeScalars {
        switch scalar {
        case "\"": text += "\\\""
        case "\\": text += "\\\\"
        case "\u{8}": text += "\\b"
        case "\u{C}": text += "\\f"
        case "\n": text += "\\n"
        case "\r": text += "\\r"
        case "\t": text += "\\t"
        case _ where scalar.value < 0x20:
            let digits = String(scalar.value, radix: 16)
            text += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
        default: text.unicodeScalars.append(scalar)
        }
    }
    return text + "\""
}

/// Strings of every length from 0 to 40 made of `a`, with `special` put at every position in turn: each crosses
/// the eight-byte words of the scans at a different place.
private func stringsWithOne(_ special: Unicode.Scalar) -> [String] {
    var strings: [String] = []
    for length in 1...40 {
        for position in 0..<length {
            var scalars = String.UnicodeScalarView(repeatElement("a", count: length))
            let index = scalars.index(scalars.startIndex, offsetBy: position)
            scalars.replaceSubrange(index...index, with: [special])
            strings.append(String(scalars))
        }
    }
    return strings
}

private let specials: [Unicode.Scalar] = ["\"", "\\", "\u{0}", "\u{8}", "\n", "\u{1F}", " ", "\u{7F}", "é", "€", "😀", "/"]

@Suite struct FastPathTests {
    @Test(arguments: specials)
    func stringsRoundTripWithASpecialCharacterAnywhere(_ special: Unicode.Scalar) throws {
        let strings = stringsWithOne(special) + (0...40).map { String(repeating: "a", count: $0) }
        #expect(strings.count == 861)
        for string in strings {
            let written = JSON.string(string).bytes
            #expect(String(decoding: written, as: UTF8.self) == referenceEscaped(string), "\(string.debugDescription)")
            #expect(try JSONParser.parse(written) == .string(string), "\(string.debugDescription)")
            // The same string as a key, inside an object and an array, so the scan ends at other bytes.
            let nested: JSON = [.object(JSONObject([(key: string, value: .string(string))])), .string(string)]
            #expect(try JSONParser.parse(nested.bytes) == nested, "\(string.debugDescription)")
        }
    }

    @Test func escapedStringsParseAtEveryPosition() throws {
        let escapes: [(text: String, value: Unicode.Scalar)] = [
            (#"\""#, "\""), (#"\\"#, "\\"), (#"\/"#, "/"), (#"\n"#, "\n"), (#"\u0000"#, "\u{0}"),
            (#"\u00e9"#, "é"), (#"\u20AC"#, "€"),
        ]
        var checked = 0
        for escape in escapes {
            for length in 0...20 {
                for position in 0...length {
                    let prefix = String(repeating: "b", count: position)
                    let suffix = String(repeating: "c", count: length - position)
                    let text = "\"" + prefix + escape.text + suffix + "\""
                    let expected = prefix + String(Character(escape.value)) + suffix
                    #expect(try JSONParser.parse(text) == .string(expected), "\(text)")
                    checked += 1
                }
            }
        }
        #expect(checked == 7 * 231)
        #expect(try JSONParser.parse(#""abcdefgh\uD83D\uDE00ijklmnop""#) == .string("abcdefgh😀ijklmnop"))
    }

    @Test func badBytesAreFoundAtEveryPosition() {
        for length in 1...24 {
            for position in 0..<length {
                for bad: [UInt8] in [[0x0A], [0x1F], [0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xC0, 0xAF]] {
                    var bytes = Array(repeating: UInt8(ascii: "a"), count: length)
                    bytes.replaceSubrange(position...position, with: bad)
                    let document = [UInt8(ascii: "\"")] + bytes + [UInt8(ascii: "\"")]
                    #expect(throws: JSONError.self, "\(document)") { try JSONParser.parse(document) }
                }
            }
        }
        // Cut before the closing quote, at every length.
        for length in 0...20 {
            let document = Array(("\"" + String(repeating: "a", count: length)).utf8)
            #expect(throws: JSONError(offset: length + 1, message: "invalid JSON at byte \(length + 1): unexpected end of input in the string started at byte 0")) {
                try JSONParser.parse(document)
            }
        }
    }

    @Test func integersOfEveryWidthRoundTrip() throws {
        var values: [Int64] = [0, -1, 1, .max, .min, .max - 1, .min + 1]
        var power: Int64 = 1
        for _ in 0..<18 {
            power *= 10
            values += [power - 1, power, power + 1, -(power - 1), -power, -(power + 1)]
        }
        for value in values {
            let written = JSON.integer(value).text
            #expect(written == String(value))
            #expect(try JSONParser.parse(written) == .integer(value))
        }
        var generator = SplitMix64(seed: 21)
        for _ in 0..<2_000 {
            let value = Int64(bitPattern: generator.next()) >> Int64.random(in: 0..<64, using: &generator)
            #expect(JSON.integer(value).text == String(value))
        }
        #expect(try JSONParser.parse("-0") == .integer(0))
        #expect(try JSONParser.parse("[-0.0,1e2,-1E-2,0.5e+1]") == [.double(-0.0), .double(100), .double(-0.01), .double(5)])
    }

    @Test func deepNestingUsesTheSharedStacks() throws {
        var text = ""
        for depth in 0..<160 { text += depth % 2 == 0 ? #"{"k":["# : "[" }
        text += "1"
        for depth in (0..<160).reversed() { text += depth % 2 == 0 ? "]}" : "]" }
        var value = try JSONParser.parse(text)
        var levels = 0
        while true {
            if case .object(let object) = value, let inner = object["k"] {
                value = inner
            } else if case .array(let elements) = value, elements.count == 1 {
                value = elements[0]
            } else {
                break
            }
            levels += 1
        }
        #expect(levels == 240)
        #expect(value == 1)
        // An error deep inside leaves values on the stacks; they are destroyed with the parser.
        #expect(throws: JSONError.self) { try JSONParser.parse(String(text.dropLast(5))) }
        #expect(throws: JSONError.self) { try JSONParser.parse(#"[{"a":"x","b":[1,2,{"c":"title that is long enough"}],"d":tru]"#) }
    }

    @Test func largeContainersKeepTheirOrder() throws {
        let array = JSON.array((0..<1_000).map { .integer(Int64($0)) })
        let object = JSON.object(JSONObject((0..<300).map { (key: "k\($0 % 7)", value: .string("v\($0)")) }))
        let both: JSON = [array, object, [array]]
        #expect(try JSONParser.parse(both.bytes) == both)
    }

    @Test func messagesAreWrittenAsTheirJSON() {
        let messages: [Message] = [
            .request(id: .integer(7), method: "items/update", params: ["id": "i1", "patch": ["title": "a\"b"]]),
            .request(id: .string("uuid-\"1\""), method: "server/ping", params: nil),
            .notification(method: "view/changed", params: [1, "two"]),
            .notification(method: "exit", params: nil),
            .response(id: .integer(-3), result: .object(JSONObject())),
            .response(id: .string(""), result: nil),
            .error(id: .integer(.max), ResponseError(.invalidParams, "params.window.start: must not be negative")),
            .error(id: nil, ResponseError(.parseError, "bad\nline", data: ["at": 3])),
        ]
        for message in messages {
            var buffer = Array("prefix".utf8)
            JSONSerializer.write(message, into: &buffer)
            #expect(buffer == Array("prefix".utf8) + message.json.bytes, "\(message)")
            let body = message.json.bytes
            #expect(FrameEncoder.frame(message) == Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body)
        }
    }

    @Test func framesOfEveryLengthWidth() {
        var encoder = FrameEncoder()
        var output: [UInt8] = []
        var expected: [UInt8] = []
        for length in [0, 1, 8, 9, 10, 99, 100, 999, 1_000, 12_345, 100_000] {
            let message = Message.response(id: .integer(1), result: .string(String(repeating: "x", count: length)))
            encoder.append(message, to: &output)
            let body = message.json.bytes
            expected += Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
        }
        #expect(output == expected)
    }

    @Test func plainAndOtherHeadersDecodeAlike() {
        let body = #"{"jsonrpc":"2.0","id":1,"method":"server/ping"}"#
        let headers = [
            "Content-Length: 47\r\n\r\n", "content-length: 47\r\n\r\n", "Content-Length:47\r\n\r\n",
            "Content-Length: 47\n\n", "Content-Length: 0047\r\n\r\n", "Content-Length: 47 \r\n\r\n",
            "Content-Length: 47\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n",
        ]
        for header in headers {
            let stream = Array((header + body + header + body).utf8)
            for cut in 0...stream.count {
                var decoder = FrameDecoder()
                var incoming: [Incoming] = []
                for chunk in [stream[..<cut], stream[cut...]] {
                    decoder.append(Array(chunk))
                    while let next = decoder.nextIncoming() { incoming.append(next) }
                }
                let ping = Incoming.message(.request(id: .integer(1), method: "server/ping", params: nil))
                #expect(incoming == [ping, ping], "\(header.debugDescription) cut at \(cut)")
            }
        }
    }

    @Test func plainHeadersWithBadLengthsGoThroughTheGeneralParser() {
        var decoder = FrameDecoder(maximumContentLength: 10)
        decoder.append(Array("Content-Length: 11\r\n\r\n{\"a\":12345}Content-Length: 0\r\n\r\nContent-Length: 1234567890123456789012\r\n\r\n".utf8))
        var failures: [String] = []
        while let next = decoder.nextIncoming() {
            guard case .malformed(let failure) = next else {
                Issue.record("decoded \(next)")
                continue
            }
            failures.append(failure.error.message)
        }
        #expect(failures == [
            "Content-Length 11 exceeds the limit of 10 bytes; message skipped",
            "empty message body",
            "Content-Length '1234567890123456789012' does not fit in 64 bits; message skipped",
        ])
    }

    @Test func theLastOfARepeatedEnvelopeMemberCounts() throws {
        let text = #"{"jsonrpc":"1.0","id":1,"method":"a","params":[1],"jsonrpc":"2.0","method":"b","params":null,"other":3}"#
        let message = try Array(text.utf8).withUnsafeBytes { Message.decode($0) }.get()
        #expect(message == .request(id: .integer(1), method: "b", params: nil))
    }

    @Test func theConnectionWritesWhatItFramesInPlace() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let connection = StdioConnection(input: -1, output: ends[1])
        var expected: [UInt8] = []
        var received: [UInt8] = []
        // Each flush stays under the pipe's 64 KB buffer, so it is read back after the flush returns.
        for length in [0, 9, 10, 99, 100, 5_000] {
            var sent: [UInt8] = []
            for index in 0..<3 {
                let message = Message.response(id: .integer(Int64(index)), result: .string(String(repeating: "é", count: length)))
                connection.send(message)
                sent += FrameEncoder.frame(message)
            }
            connection.flush()
            expected += sent
            read(from: ends[0], into: &received, until: expected.count)
        }
        close(ends[1])
        #expect(received == expected)
        #expect(!connection.outputFailed)
    }

    /// Once `flushThreshold` bytes wait, `send` writes them itself (before any `flush`), in order; less waits for `flush`.
    @Test func theConnectionWritesOnceTheThresholdIsReached() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        try #require(fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK) == 0)
        let connection = StdioConnection(input: -1, output: ends[1])
        var sent: [UInt8] = []
        var index: Int64 = 0
        // Just under the threshold: nothing is written yet.
        let ping = Message.response(id: .integer(0), result: .object([:]))
        let frameLength = FrameEncoder.frame(ping).count
        while sent.count + frameLength < StdioConnection.flushThreshold {
            let message = Message.response(id: .integer(0), result: .object([:]))
            connection.send(message)
            sent += FrameEncoder.frame(message)
            index += 1
        }
        var received: [UInt8] = []
        readAvailable(from: ends[0], into: &received)
        #expect(received.isEmpty, "\(received.count) bytes written before the threshold")
        // The message that reaches it is written with everything before it.
        let last = Message.response(id: .integer(index), result: .string("the last one"))
        connection.send(last)
        sent += FrameEncoder.frame(last)
        readAvailable(from: ends[0], into: &received)
        #expect(received == sent)
        #expect(received.count >= StdioConnection.flushThreshold)
        close(ends[1])
    }
}

/// Appends to `bytes` whatever the non-blocking `descriptor` holds now.
private func readAvailable(from descriptor: Int32, into bytes: inout [UInt8]) {
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let got = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        if got <= 0 { return }
        bytes += chunk[0..<got]
    }
}

/// Reads from `descriptor`, appending to `bytes`, until it holds `count` bytes or the pipe ends.
private func read(from descriptor: Int32, into bytes: inout [UInt8], until count: Int) {
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while bytes.count < count {
        let got = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        if got <= 0 { return }
        bytes += chunk[0..<got]
    }
}
