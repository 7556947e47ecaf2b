/// The bad-input catalog: each malformed (or merely unusual) input, the exact bytes, and exactly what taskls answers.
///
/// Every case runs through the real binary (`MalformedInputTests.swift`): a fresh server is
/// initialized, the bytes are written, the replies must come back in order, and then a valid
/// `server/ping` must still be answered. Bad input never crashes the process and never stops it
/// serving; the only inputs that end it are the ones that end the stream itself.

import Wire

/// One input a client can send, and what taskls must do with it.
struct MalformedInput: Sendable, CustomStringConvertible {
    /// A whole-word name; the test runner reports the case by it.
    let name: String
    /// Extra command-line arguments for `taskls serve`.
    var arguments: [String] = []
    /// Whether `initialize` and `initialized` are sent before the input.
    var initializesFirst = true
    /// What is written to the server's stdin, in order.
    let writes: [Write]
    /// The messages the server must write, in order, before anything else.
    let replies: [Reply]
    /// Text that must be on stderr once the server has exited.
    var standardError: [String] = []
    /// How the case ends.
    var ending: Ending = .stillServing
    /// The most resident memory the server may ever have used, checked after it exits.
    var peakMemoryLimit: Int?

    var description: String { name }
}

extension MalformedInput {
    /// Bytes written to the server's stdin.
    enum Write: Sendable {
        /// One `write(2)` of these bytes.
        case bytes([UInt8])
        /// These bytes in writes of `size` bytes each.
        case trickle([UInt8], size: Int)
        /// `count` copies of `byte`, written `chunk` bytes at a time from one reused buffer, so the
        /// test never holds the whole stream either.
        case repeated(UInt8, count: Int, chunk: Int)
    }

    /// One message the server must write: a `Matcher` pattern, and for errors the words that
    /// `error.message` must contain (the words that name what was wrong).
    struct Reply: Sendable {
        let pattern: JSON
        var messageWords: [String] = []

        /// A successful answer to request `id`.
        static func result(_ id: JSON, _ result: JSON) -> Reply {
            Reply(pattern: ["jsonrpc": "2.0", "id": id, "result": result, "error": "$absent"])
        }

        /// An error answer with `code` to request `id` (`null` when the id could not be read),
        /// whose message contains every one of `words`.
        static func error(_ code: Int64, id: JSON = nil, naming words: String...) -> Reply {
            Reply(
                pattern: ["jsonrpc": "2.0", "id": id, "result": "$absent", "error": ["code": .integer(code), "message": "$any"]],
                messageWords: words)
        }
    }

    /// What happens after the case's own replies.
    enum Ending: Sendable {
        /// A valid `server/ping` is answered `{}`; `shutdown` then `exit` end the process with 0.
        /// A case that did not initialize first sends `initialize` before the ping.
        case stillServing
        /// The case shut the server down: a ping is still answered, with `-32600`, and `exit`
        /// ends the process with 0.
        case shutDown
        /// The input is closed right after the writes: the process must exit promptly with 1.
        case endOfInput
    }
}

// MARK: Building inputs

/// `body` framed with a `Content-Length` header, CRLF line ends.
private func framed(_ body: String) -> [UInt8] {
    framed(Array(body.utf8))
}

/// `body` framed with a `Content-Length` header, CRLF line ends.
private func framed(_ body: [UInt8]) -> [UInt8] {
    Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
}

/// `header` (the whole header block, blank line included) followed by `body`.
private func framed(_ body: String, header: String) -> [UInt8] {
    Array(header.utf8) + Array(body.utf8)
}

/// A `server/ping` request body with the id `id`, which must be a JSON literal.
private func ping(_ id: String) -> String {
    #"{"jsonrpc":"2.0","id":\#(id),"method":"server/ping"}"#
}

/// A `server/ping` request body with the string id `id`, padded with a `params` member to
/// exactly `size` bytes.
private func paddedPing(_ id: String, size: Int) -> String {
    // JSON white space pads the body to the exact size: server/ping takes no params.
    let head = #"{"jsonrpc":"2.0","id":"\#(id)","method":"server/ping""#
    let tail = "}"
    let padding = String(repeating: " ", count: size - head.utf8.count - tail.utf8.count)
    return head + padding + tail
}

/// A header block of exactly `size` bytes, terminator included, declaring `length`.
private func paddedHeader(length: Int, size: Int) -> String {
    let head = "Content-Length: \(length)\r\nX-Padding: "
    let tail = "\r\n\r\n"
    return head + String(repeating: "p", count: size - head.utf8.count - tail.utf8.count) + tail
}

/// A valid ping, answered `{}` with id 7: the probe that a case's input was read as valid.
private let validPing = ping("7")
private let validPingAnswered = MalformedInput.Reply.result(7, [:])

/// A ping whose frame is broken: it must never be answered (its id is `"lost"`).
private let lostPing = ping(#""lost""#)

/// The default body cap, 64 MiB.
private let defaultMessageCap = 64 << 20

// MARK: The catalog

/// Every case, in the order the report lists them.
let malformedInputs: [MalformedInput] = framingCases + jsonCases + envelopeCases + lifecycleCases

/// Framing: the `Content-Length` header block and the body's extent.
private let framingCases: [MalformedInput] = [
    MalformedInput(
        name: "truncatedBodyThenEndOfInput",
        writes: [.bytes(framed(#"{"jsonrpc""#, header: "Content-Length: 50\r\n\r\n"))],
        replies: [],
        standardError: ["input ended inside a message body: 10 of 50 bytes received"],
        ending: .endOfInput),
    MalformedInput(
        name: "truncatedHeaderThenEndOfInput",
        writes: [.bytes(Array("Content-Length: 50\r\n".utf8))],
        replies: [],
        standardError: ["input ended inside a message header"],
        ending: .endOfInput),
    MalformedInput(
        name: "oversizedBodyCutShortThenEndOfInput",
        arguments: ["--max-message-bytes", "1000"],
        writes: [.bytes(Array("Content-Length: 5000\r\n\r\nabc".utf8))],
        replies: [.error(-32700, naming: "Content-Length 5000 exceeds the limit of 1000 bytes")],
        standardError: ["input ended while skipping an oversized body; 4997 bytes never arrived"],
        ending: .endOfInput),
    MalformedInput(
        name: "missingContentLength",
        writes: [.bytes(framed(lostPing, header: "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n"))],
        replies: [.error(-32700, naming: "Content-Length header is missing")]),
    MalformedInput(
        name: "nonNumericContentLength",
        writes: [.bytes(framed(lostPing, header: "Content-Length: abc\r\n\r\n"))],
        replies: [.error(-32700, naming: "Content-Length 'abc'", "integer")]),
    MalformedInput(
        name: "negativeContentLength",
        writes: [.bytes(framed(lostPing, header: "Content-Length: -5\r\n\r\n"))],
        replies: [.error(-32700, naming: "Content-Length '-5'", "non-negative")]),
    MalformedInput(
        name: "emptyContentLength",
        writes: [.bytes(framed(lostPing, header: "Content-Length:\r\n\r\n"))],
        replies: [.error(-32700, naming: "Content-Length ''", "integer")]),
    MalformedInput(
        name: "contentLengthWithSpaceInside",
        writes: [.bytes(framed(lostPing, header: "Content-Length: 5 2\r\n\r\n"))],
        replies: [.error(-32700, naming: "Content-Length '5 2'", "integer")]),
    MalformedInput(
        name: "contentLengthWithPlusSign",
        writes: [.bytes(framed(lostPing, header: "Content-Length: +52\r\n\r\n"))],
        replies: [.error(-32700, naming: "Content-Length '+52'", "integer")]),
    MalformedInput(
        name: "hexadecimalContentLength",
        writes: [.bytes(framed(lostPing, header: "Content-Length: 0x34\r\n\r\n"))],
        replies: [.error(-32700, naming: "Content-Length '0x34'", "integer")]),
    MalformedInput(
        name: "contentLengthBeyondSixtyFourBits",
        writes: [.bytes(framed(lostPing, header: "Content-Length: 99999999999999999999999\r\n\r\n"))],
        replies: [.error(-32700, naming: "Content-Length '99999999999999999999999' does not fit in 64 bits")]),
    MalformedInput(
        name: "duplicatedContentLength",
        writes: [.bytes(framed(lostPing, header: "Content-Length: 52\r\nContent-Length: 53\r\n\r\n"))],
        replies: [.error(-32700, naming: "Content-Length appears 2 times")]),
    MalformedInput(
        name: "duplicatedEqualContentLength",
        writes: [.bytes(framed(lostPing, header: "Content-Length: 52\r\nContent-Length: 52\r\n\r\n"))],
        replies: [.error(-32700, naming: "Content-Length appears 2 times")]),
    MalformedInput(
        name: "headerLineWithoutColon",
        writes: [.bytes(framed(lostPing, header: "Content-Length 52\r\n\r\n"))],
        replies: [.error(-32700, naming: "malformed header line 'Content-Length 52'", "Name: value")]),
    MalformedInput(
        name: "garbageLineBeforeHeader",
        writes: [.bytes(Array("hello there\r\n".utf8) + framed(lostPing))],
        replies: [.error(-32700, naming: "malformed header line 'hello there'")]),
    MalformedInput(
        name: "headerBlockOverEightKilobytes",
        writes: [.bytes(framed(lostPing, header: paddedHeader(length: lostPing.utf8.count, size: 9000)))],
        replies: [.error(-32700, naming: "header block exceeds 8192 bytes")]),
    MalformedInput(
        name: "headerBlockOneByteOverLimit",
        writes: [.bytes(framed(lostPing, header: paddedHeader(length: lostPing.utf8.count, size: 8193)))],
        replies: [.error(-32700, naming: "header block exceeds 8192 bytes")]),
    MalformedInput(
        name: "headerBlockExactlyAtLimit",
        writes: [.bytes(framed(validPing, header: paddedHeader(length: validPing.utf8.count, size: 8192)))],
        replies: [validPingAnswered]),
    MalformedInput(
        name: "endlessHeaderLine",
        writes: [
            .bytes(Array("X-Padding: ".utf8)),
            .repeated(UInt8(ascii: "p"), count: 100_000, chunk: 4096),
            .bytes(Array("\r\n\r\n".utf8)),
        ],
        replies: [.error(-32700, naming: "header block exceeds 8192 bytes")]),
    MalformedInput(
        name: "bodyOverDefaultCapStreamed",
        writes: [
            .bytes(Array("Content-Length: \(100 << 20)\r\n\r\n".utf8)),
            .repeated(UInt8(ascii: " "), count: 100 << 20, chunk: 1 << 20),
        ],
        replies: [.error(-32700, naming: "Content-Length \(100 << 20) exceeds the limit of \(defaultMessageCap) bytes")],
        peakMemoryLimit: 64_000_000),
    MalformedInput(
        name: "bodyExactlyAtCap",
        arguments: ["--max-message-bytes", "1000"],
        writes: [.bytes(framed(paddedPing("cap", size: 1000)))],
        replies: [.result("cap", [:])]),
    MalformedInput(
        name: "bodyOneByteOverCap",
        arguments: ["--max-message-bytes", "1000"],
        writes: [.bytes(framed(paddedPing("over", size: 1001)))],
        replies: [.error(-32700, naming: "Content-Length 1001 exceeds the limit of 1000 bytes")]),
    MalformedInput(
        name: "emptyBody",
        writes: [.bytes(Array("Content-Length: 0\r\n\r\n".utf8))],
        replies: [.error(-32700, naming: "empty message body")]),
    MalformedInput(
        name: "contentTypeLatin1",
        writes: [.bytes(framed(lostPing, header: "Content-Length: 52\r\nContent-Type: application/vscode-jsonrpc; charset=latin1\r\n\r\n"))],
        replies: [.error(-32700, naming: "charset latin1 is not supported")]),
    // Unusual but valid framing: each must be read as the message it frames.
    MalformedInput(
        name: "bareLineFeedFraming",
        writes: [.bytes(framed(validPing, header: "Content-Length: 47\n\n"))],
        replies: [validPingAnswered]),
    MalformedInput(
        name: "mixedCaseHeaderNames",
        writes: [.bytes(framed(validPing, header: "cOnTeNt-LeNgTh: 47\r\ncontent-TYPE: application/vscode-jsonrpc\r\n\r\n"))],
        replies: [validPingAnswered]),
    MalformedInput(
        name: "contentLengthWithSurroundingSpaces",
        writes: [.bytes(framed(validPing, header: "Content-Length: \t 47  \r\n\r\n"))],
        replies: [validPingAnswered]),
    MalformedInput(
        name: "contentTypeUTF8",
        writes: [.bytes(framed(validPing, header: "Content-Length: 47\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n"))],
        replies: [validPingAnswered]),
    MalformedInput(
        name: "contentTypeQuotedUppercaseUTF8",
        writes: [.bytes(framed(validPing, header: "Content-Type: application/vscode-jsonrpc; charset=\"UTF-8\"\r\nContent-Length: 47\r\n\r\n"))],
        replies: [validPingAnswered]),
    MalformedInput(
        name: "unknownHeaderIgnored",
        writes: [.bytes(framed(validPing, header: "X-Editor: vim\r\nContent-Length: 47\r\n\r\n"))],
        replies: [validPingAnswered]),
    MalformedInput(
        name: "messageInOneByteWrites",
        writes: [.trickle(framed(validPing), size: 1)],
        replies: [validPingAnswered]),
    MalformedInput(
        name: "twoMessagesInOneWrite",
        writes: [.bytes(framed(ping("1")) + framed(ping("2")))],
        replies: [.result(1, [:]), .result(2, [:])]),
]

/// The body: bytes that are not one RFC 8259 JSON value.
private let jsonCases: [MalformedInput] = [
    MalformedInput(
        name: "unparsableJSON",
        writes: [.bytes(framed("{nope}"))],
        replies: [.error(-32700, naming: "parse error", "invalid JSON at byte 1")]),
    MalformedInput(
        name: "invalidUTF8",
        writes: [.bytes(framed(Array(#"{"jsonrpc":"2.0","id":7,"method":"server/p"#.utf8) + [0xFF] + Array(#"ng"}"#.utf8)))],
        replies: [.error(-32700, naming: "invalid UTF-8 at byte 42")]),
    MalformedInput(
        name: "overlongUTF8",
        writes: [.bytes(framed(Array(#"{"jsonrpc":"2.0","id":7,"method":""#.utf8) + [0xC0, 0xAF] + Array(#""}"#.utf8)))],
        replies: [.error(-32700, naming: "invalid UTF-8 at byte 34")]),
    MalformedInput(
        name: "surrogateEncodedAsUTF8",
        writes: [.bytes(framed(Array(#"{"jsonrpc":"2.0","id":7,"method":""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}"#.utf8)))],
        replies: [.error(-32700, naming: "invalid UTF-8 at byte 34")]),
    MalformedInput(
        name: "loneHighSurrogateEscape",
        writes: [.bytes(framed(#"{"jsonrpc":"2.0","id":7,"method":"\ud800"}"#))],
        replies: [.error(-32700, naming: "lone surrogate", "D800")]),
    MalformedInput(
        name: "loneLowSurrogateEscape",
        writes: [.bytes(framed(#"{"jsonrpc":"2.0","id":7,"method":"\udc00x"}"#))],
        replies: [.error(-32700, naming: "lone surrogate", "DC00")]),
    MalformedInput(
        name: "arraysNestedHundredThousandDeep",
        writes: [.bytes(framed(String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)))],
        replies: [.error(-32700, naming: "nesting deeper than")]),
    MalformedInput(
        name: "objectsNestedHundredThousandDeep",
        writes: [.bytes(framed(String(repeating: #"{"a":"#, count: 100_000) + "1" + String(repeating: "}", count: 100_000)))],
        replies: [.error(-32700, naming: "nesting deeper than")]),
    MalformedInput(
        name: "controlCharacterInString",
        writes: [.bytes(framed("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"server/\u{01}ping\"}"))],
        replies: [.error(-32700, naming: "control character 0x01")]),
    MalformedInput(
        name: "trailingComma",
        writes: [.bytes(framed(#"{"jsonrpc":"2.0","id":7,"method":"server/ping",}"#))],
        replies: [.error(-32700, naming: "invalid JSON at byte 47", "after ','")]),
    MalformedInput(
        name: "numberWithLeadingZero",
        writes: [.bytes(framed(#"{"jsonrpc":"2.0","id":07,"method":"server/ping"}"#))],
        replies: [.error(-32700, naming: "leading zeros")]),
    MalformedInput(
        name: "byteOrderMark",
        writes: [.bytes(framed([0xEF, 0xBB, 0xBF] + Array(validPing.utf8)))],
        replies: [.error(-32700, naming: "byte order mark")]),
    MalformedInput(
        name: "twoValuesInOneBody",
        writes: [.bytes(framed(validPing + validPing))],
        replies: [.error(-32700, naming: "after the JSON value")]),
    MalformedInput(
        name: "nulByteAfterValue",
        writes: [.bytes(framed(Array(validPing.utf8) + [0]))],
        replies: [.error(-32700, naming: "byte 0x00 after the JSON value")]),
    MalformedInput(
        name: "contentLengthShorterThanBody",
        writes: [.bytes(framed(lostPing, header: "Content-Length: 10\r\n\r\n"))],
        replies: [
            .error(-32700, naming: "invalid JSON at byte 10", "end of input"),
            .error(-32700, naming: "Content-Length header is missing"),
        ]),
    // A classic client bug: the length counts characters, not UTF-8 bytes, so the body's last
    // byte is left in front of the next header. Only the broken message may be lost.
    MalformedInput(
        name: "contentLengthCountingCharacters",
        writes: [.bytes(framed(#"{"jsonrpc":"2.0","id":"lost","method":"café"}"#, header: "Content-Length: 45\r\n\r\n"))],
        replies: [
            .error(-32700, naming: "invalid JSON at byte 45", "end of input"),
            .error(-32700, naming: "Content-Length header is missing"),
        ]),
]

/// The JSON-RPC envelope: a JSON value that is not a JSON-RPC 2.0 message as LSP uses them.
private let envelopeCases: [MalformedInput] = [
    MalformedInput(
        name: "bodyIsString",
        writes: [.bytes(framed(#""server/ping""#))],
        replies: [.error(-32600, naming: "must be a JSON object, got a string")]),
    MalformedInput(
        name: "bodyIsNumber",
        writes: [.bytes(framed("42"))],
        replies: [.error(-32600, naming: "must be a JSON object, got an integer")]),
    MalformedInput(
        name: "bodyIsNull",
        writes: [.bytes(framed("null"))],
        replies: [.error(-32600, naming: "must be a JSON object, got null")]),
    MalformedInput(
        name: "batchArray",
        writes: [.bytes(framed("[" + validPing + "]"))],
        replies: [.error(-32600, naming: "batch")]),
    MalformedInput(
        name: "emptyBatchArray",
        writes: [.bytes(framed("[]"))],
        replies: [.error(-32600, naming: "batch")]),
    MalformedInput(
        name: "jsonrpcMissing",
        writes: [.bytes(framed(#"{"id":7,"method":"server/ping"}"#))],
        replies: [.error(-32600, id: 7, naming: "jsonrpc: missing", #""2.0""#)]),
    MalformedInput(
        name: "jsonrpcVersionOne",
        writes: [.bytes(framed(#"{"jsonrpc":"1.0","id":7,"method":"server/ping"}"#))],
        replies: [.error(-32600, id: 7, naming: "jsonrpc: must be \"2.0\"", #"got "1.0""#)]),
    MalformedInput(
        name: "jsonrpcNumber",
        writes: [.bytes(framed(#"{"jsonrpc":2.0,"id":7,"method":"server/ping"}"#))],
        replies: [.error(-32600, id: 7, naming: "jsonrpc: must be \"2.0\"", "got 2.0")]),
    MalformedInput(
        name: "idObject",
        writes: [.bytes(framed(#"{"jsonrpc":"2.0","id":{"n":7},"method":"server/ping"}"#))],
        replies: [.error(-32600, naming: "id must be an integer or a string, got an object")]),
    MalformedInput(
        name: "idArray",
        writes: [.bytes(framed(#"{"jsonrpc":"2.0","id":[7],"method":"server/ping"}"#))],
        replies: [.error(-32600, naming: "id must be an integer or a string, got an array")]),
    MalformedInput(
        name: "idFloat",
        writes: [.bytes(framed(#"{"jsonrpc":"2.0","id":7.5,"method":"server/ping"}"#))],
        replies: [.error(-32600, naming: "id must be an integer or a string, got a number")]),
    MalformedInput(
        name: "idBool",
        writes: [.bytes(framed(#"{"jsonrpc":"2.0","id":true,"method":"server/ping"}"#))],
        replies: [.error(-32600, naming: "id must be an integer or a string, got a boolean")]),
    MalformedInput(
        name: "idNullInRequest",
        writes: [.bytes(framed(#"{"jsonrpc":"2.0","id":null,"method":"server/ping"}"#))],
        replies: [.error(-32600, naming: "id: must be an integer or a string, got null")]),
    MalformedInput(
        name: "idBeyondSixtyFourBits",
        writes: [.bytes(framed(#"{"jsonrpc":"2.0","id":99999999999999999999,"method":"server/ping"}"#))],
        replies: [.error(-32600, naming: "id must be an integer or a string, got an integer out of range")]),
    MalformedInput(
        name: "methodNumber",
        writes: [.bytes(framed(#"{"jsonrpc":"2.0","id":7,"method":42}"#))],
        replies: [.error(-32600, id: 7, naming: "method: must be a string, got an integer")]),
    MalformedInput(
        name: "methodNull",
        writes: [.bytes(framed(#"{"jsonrpc":"2.0","id":7,"method":null}"#))],
        replies: [.error(-32600, id: 7, naming: "method: must be a string, got null")]),
    MalformedInput(
        name: "paramsString",
        writes: [.bytes(framed(#"{"jsonrpc":"2.0","id":7,"method":"server/ping","params":"x"}"#))],
        replies: [.error(-32600, id: 7, naming: "params: must be an object or an array, got a string")]),
    MalformedInput(
        name: "paramsNumber",
        writes: [.bytes(framed(#"{"jsonrpc":"2.0","id":7,"method":"server/ping","params":1}"#))],
        replies: [.error(-32600, id: 7, naming: "params: must be an object or an array, got an integer")]),
    // Not strictly JSON-RPC, but several clients send it for "no params": read as absent.
    MalformedInput(
        name: "paramsNull",
        writes: [.bytes(framed(#"{"jsonrpc":"2.0","id":7,"method":"server/ping","params":null}"#))],
        replies: [.result(7, [:])]),
    MalformedInput(
        name: "paramsArrayWhereObjectExpected",
        writes: [.bytes(framed(#"{"jsonrpc":"2.0","id":7,"method":"server/ping","params":[]}"#))],
        replies: [.error(-32602, id: 7, naming: "params: expected an object, got an array")]),
    // JSON-RPC 2.0 §5: an invalid message whose id cannot be known is answered with id null,
    // even without an id member (the spec's own example is `{"jsonrpc":"2.0","method":1,"params":"bar"}`).
    MalformedInput(
        name: "notificationParamsString",
        writes: [.bytes(framed(#"{"jsonrpc":"2.0","method":"initialized","params":"x"}"#))],
        replies: [.error(-32600, naming: "params: must be an object or an array, got a string")]),
    // Lifecycle notifications are honoured whatever their params: no reply, nothing refused.
    MalformedInput(
        name: "notificationParamsWrongShape",
        writes: [.bytes(framed(#"{"jsonrpc":"2.0","method":"initialized","params":[1]}"#))],
        replies: []),
    // A notification with bad params is never answered (it has no id to answer); it is logged.
    MalformedInput(
        name: "cancelWithArrayParams",
        writes: [.bytes(framed(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":[1]}"#))],
        replies: [],
        standardError: ["$/cancelRequest: -32602: params: expected an object, got an array"]),
    MalformedInput(
        name: "neitherMethodNorResult",
        writes: [.bytes(framed(#"{"jsonrpc":"2.0","id":7}"#))],
        replies: [.error(-32600, id: 7, naming: "needs a method, a result or an error")]),
    MalformedInput(
        name: "methodWithResult",
        writes: [.bytes(framed(#"{"jsonrpc":"2.0","id":7,"method":"server/ping","result":{}}"#))],
        replies: [.error(-32600, id: 7, naming: "both method and result")]),
    // Responses from the client are never answered, only logged.
    MalformedInput(
        name: "responseToUnknownID",
        writes: [.bytes(framed(#"{"jsonrpc":"2.0","id":99,"result":{}}"#))],
        replies: [],
        standardError: ["ignored a response to request 99, which the server never sent"]),
    MalformedInput(
        name: "errorResponseToUnknownID",
        writes: [.bytes(framed(#"{"jsonrpc":"2.0","id":"x9","error":{"code":-32603,"message":"boom"}}"#))],
        replies: [],
        standardError: [#"ignored a response to request "x9", which the server never sent"#]),
    MalformedInput(
        name: "responseWithResultAndError",
        writes: [.bytes(framed(#"{"jsonrpc":"2.0","id":99,"result":{},"error":{"code":1,"message":"boom"}}"#))],
        replies: [],
        standardError: ["ignored a malformed response: a response cannot have both result and error"]),
    MalformedInput(
        name: "responseWithoutID",
        writes: [.bytes(framed(#"{"jsonrpc":"2.0","result":{}}"#))],
        replies: [],
        standardError: ["ignored a malformed response: a response needs an id"]),
    MalformedInput(
        name: "errorResponseWithoutID",
        writes: [.bytes(framed(#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"boom"}}"#))],
        replies: [],
        standardError: ["ignored an error from the client with no id: boom"]),
]

/// The LSP lifecycle and cancellation: well-formed messages at the wrong time or for nothing.
private let lifecycleCases: [MalformedInput] = [
    MalformedInput(
        name: "unknownMethod",
        writes: [.bytes(framed(#"{"jsonrpc":"2.0","id":7,"method":"no/such"}"#))],
        replies: [.error(-32601, id: 7, naming: "unknown method 'no/such'")]),
    MalformedInput(
        name: "unknownNotification",
        writes: [.bytes(framed(#"{"jsonrpc":"2.0","method":"no/such"}"#))],
        replies: []),
    MalformedInput(
        name: "requestBeforeInitialize",
        initializesFirst: false,
        writes: [.bytes(framed(validPing))],
        replies: [.error(-32002, id: 7, naming: "server/ping", "not initialized")]),
    MalformedInput(
        name: "secondInitialize",
        writes: [.bytes(framed(#"{"jsonrpc":"2.0","id":7,"method":"initialize","params":{}}"#))],
        replies: [.error(-32600, id: 7, naming: "already initialized")]),
    MalformedInput(
        name: "requestAfterShutdown",
        writes: [.bytes(framed(#"{"jsonrpc":"2.0","id":"down","method":"shutdown"}"#)), .bytes(framed(validPing))],
        replies: [.result("down", nil), .error(-32600, id: 7, naming: "server/ping", "shut down")],
        ending: .shutDown),
    MalformedInput(
        name: "cancelForUnknownID",
        writes: [.bytes(framed(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":12345}}"#))],
        replies: []),
    MalformedInput(
        name: "cancelWithObjectID",
        writes: [.bytes(framed(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":{}}}"#))],
        replies: [],
        standardError: ["$/cancelRequest: -32602: params.id: expected an integer or a string, got an object"]),
    MalformedInput(
        name: "requestCancelledInSameWrite",
        writes: [.bytes(framed(validPing) + framed(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":7}}"#))],
        replies: [.error(-32800, id: 7, naming: "server/ping", "cancelled")]),
]
