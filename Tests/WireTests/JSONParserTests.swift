/// Table-driven tests of `JSONParser`: what it accepts and builds, what it rejects, and what it says.

import Testing
import Wire

private let acceptedDocuments: [AcceptedDocument] = [
    .init(text: "null", value: .null),
    .init(text: "true", value: .bool(true)),
    .init(text: "false", value: .bool(false)),
    .init(text: " \t\r\n[ 1 , 2 ]\n ", value: [1, 2]),
    .init(text: "[]", value: []),
    .init(text: "{}", value: .object(JSONObject())),
    .init(text: "[[], {}, [[null]]]", value: [[], .object(JSONObject()), [[nil]]]),
    .init(text: #"{"b":1,"a":[true,"x"],"b":2}"#,
          value: .object(JSONObject([(key: "b", value: 1), (key: "a", value: [true, "x"]), (key: "b", value: 2)]))),
    // Numbers: integers stay exact, everything else is the correctly rounded double.
    .init(text: "0", value: .integer(0)),
    .init(text: "-0", value: .integer(0)),
    .init(text: "42", value: .integer(42)),
    .init(text: "-17", value: .integer(-17)),
    .init(text: "9007199254740993", value: .integer(9_007_199_254_740_993)),
    .init(text: "9223372036854775807", value: .integer(.max)),
    .init(text: "-9223372036854775808", value: .integer(.min)),
    .init(text: "9223372036854775808", value: .double(9_223_372_036_854_775_808)),
    .init(text: "-9223372036854775809", value: .double(-9_223_372_036_854_775_808)),
    .init(text: "123456789012345678901234567890", value: .double(1.2345678901234568e29)),
    .init(text: "1.5e3", value: .double(1500)),
    .init(text: "1E2", value: .double(100)),
    .init(text: "1e+2", value: .double(100)),
    .init(text: "25e-1", value: .double(2.5)),
    .init(text: "1.0", value: .double(1)),
    .init(text: "0.1", value: .double(0.1)),
    .init(text: "-0.0", value: .double(-0.0)),
    .init(text: "1e-400", value: .double(0)),
    .init(text: "2.2250738585072014e-308", value: .double(.leastNormalMagnitude)),
    .init(text: "1.7976931348623157e308", value: .double(.greatestFiniteMagnitude)),
    .init(text: "4.9e-324", value: .double(.leastNonzeroMagnitude)),
    // Strings: escapes, surrogate pairs, raw UTF-8.
    .init(text: #""""#, value: ""),
    .init(text: #""plain text""#, value: "plain text"),
    .init(text: #""\"\\\/\b\f\n\r\t""#, value: "\"\\/\u{8}\u{C}\n\r\t"),
    .init(text: #""a\u0041b""#, value: "aAb"),
    .init(text: #""\u00e9\u00E9""#, value: "éé"),
    .init(text: #""\u0000""#, value: "\u{0}"),
    .init(text: #""\u001f\u007f""#, value: "\u{1F}\u{7F}"),
    .init(text: #""\u20AC""#, value: "€"),
    .init(text: #""\uFFFF""#, value: "\u{FFFF}"),
    .init(text: #""\uD83D\uDE00""#, value: "😀"),
    .init(text: #""\ud83d\ude00x""#, value: "😀x"),
    .init(text: #""\uD800\uDC00""#, value: "\u{10000}"),
    .init(text: #""\uDBFF\uDFFF""#, value: "\u{10FFFF}"),
    .init(text: #""héllo 😀 \n""#, value: "héllo 😀 \n"),
    .init(text: #""/*not a comment*/""#, value: "/*not a comment*/"),
]

private let syntaxErrors: [RejectedDocument] = [
    .init("", 0, "invalid JSON at byte 0: expected a JSON value, found end of input"),
    .init("   ", 3, "invalid JSON at byte 3: expected a JSON value, found end of input"),
    .init(#"{"a" 1}"#, 5, "invalid JSON at byte 5: expected ':' after an object key, found '1'"),
    .init(#"{"a":1,}"#, 7, "invalid JSON at byte 7: expected a string key after ',', found '}'"),
    .init(#"{"a":1 "b":2}"#, 7, "invalid JSON at byte 7: expected ',' or '}' after an object member, found '\"'"),
    .init("{a:1}", 1, "invalid JSON at byte 1: expected a string key or '}', found 'a'"),
    .init("{'a':1}", 1, "invalid JSON at byte 1: expected a string key or '}', found \"'\""),
    .init("[1,]", 3, "invalid JSON at byte 3: expected a JSON value, found ']'"),
    .init("[1 2]", 3, "invalid JSON at byte 3: expected ',' or ']' after an array element, found '2'"),
    .init("[1,", 3, "invalid JSON at byte 3: expected a JSON value, found end of input"),
    .init("[", 1, "invalid JSON at byte 1: expected a JSON value, found end of input"),
    .init("]", 0, "invalid JSON at byte 0: expected a JSON value, found ']'"),
    .init("1 2", 2, "invalid JSON at byte 2: unexpected '2' after the JSON value"),
    .init("{} x", 3, "invalid JSON at byte 3: unexpected 'x' after the JSON value"),
    .init("[]\u{C}", 2, "invalid JSON at byte 2: unexpected byte 0x0C after the JSON value"),
    .init("[1]/*c*/", 3, "invalid JSON at byte 3: unexpected '/' after the JSON value"),
    .init("tru", 0, "invalid JSON at byte 0: expected 'true'"),
    .init("[nul]", 1, "invalid JSON at byte 1: expected 'null'"),
    .init("True", 0, "invalid JSON at byte 0: expected a JSON value, found 'T'"),
    .init("\u{FEFF}{}", 0, "invalid JSON at byte 0: a byte order mark (U+FEFF) is not allowed"),
    // Numbers outside the RFC grammar or range.
    .init("01", 0, "invalid JSON at byte 0: a number may not have leading zeros"),
    .init("-012", 0, "invalid JSON at byte 0: a number may not have leading zeros"),
    .init("+1", 0, "invalid JSON at byte 0: expected a JSON value, found '+'"),
    .init(".5", 0, "invalid JSON at byte 0: expected a JSON value, found '.'"),
    .init("1.", 2, "invalid JSON at byte 2: expected a digit after '.', found end of input"),
    .init("1.e3", 2, "invalid JSON at byte 2: expected a digit after '.', found 'e'"),
    .init("1e", 2, "invalid JSON at byte 2: expected a digit in the exponent, found end of input"),
    .init("1e+", 3, "invalid JSON at byte 3: expected a digit in the exponent, found end of input"),
    .init("-", 1, "invalid JSON at byte 1: expected a digit after '-', found end of input"),
    .init("--1", 1, "invalid JSON at byte 1: expected a digit after '-', found '-'"),
    .init("-a", 1, "invalid JSON at byte 1: expected a digit after '-', found 'a'"),
    .init("0x10", 1, "invalid JSON at byte 1: unexpected 'x' after the JSON value"),
    .init("NaN", 0, "invalid JSON at byte 0: expected a JSON value, found 'N'"),
    .init("-Infinity", 1, "invalid JSON at byte 1: expected a digit after '-', found 'I'"),
    .init("1e400", 0, "invalid JSON at byte 0: number 1e400 is too large for a 64-bit float"),
    .init("[-1e400]", 1, "invalid JSON at byte 1: number -1e400 is too large for a 64-bit float"),
    .init("1" + String(repeating: "0", count: 400), 0,
          "invalid JSON at byte 0: number 1000000000000000000000000000000000000... is too large for a 64-bit float"),
    // Strings.
    .init(#""abc"#, 4, "invalid JSON at byte 4: unexpected end of input in the string started at byte 0"),
    .init(#"["a\"#, 4, "invalid JSON at byte 4: unexpected end of input in the string started at byte 1"),
    .init(#""a\x""#, 2, #"invalid JSON at byte 2: invalid escape '\x' in a string"#),
    .init(#""\'""#, 1, #"invalid JSON at byte 1: invalid escape '\'' in a string"#),
    .init("\"\\\u{1}\"", 1, #"invalid JSON at byte 1: invalid escape: '\' followed by byte 0x01"#),
    .init(#""\u12""#, 1, #"invalid JSON at byte 1: expected 4 hex digits after '\u'"#),
    .init(#""\u12G4""#, 1, #"invalid JSON at byte 1: expected 4 hex digits after '\u'"#),
    .init(#""\U0041""#, 1, #"invalid JSON at byte 1: invalid escape '\U' in a string"#),
    .init("\"a\nb\"", 2, "invalid JSON at byte 2: control character 0x0A in a string must be escaped"),
    .init("\"\t\"", 1, "invalid JSON at byte 1: control character 0x09 in a string must be escaped"),
    .init("\"\u{0}\"", 1, "invalid JSON at byte 1: control character 0x00 in a string must be escaped"),
    .init(#""x\n\u001f\"y"#, 13, "invalid JSON at byte 13: unexpected end of input in the string started at byte 0"),
    // Lone and mismatched surrogate escapes.
    .init(#""\uD800""#, 1, #"lone surrogate \uD800 at byte 1"#),
    .init(#"["ab\udc00"]"#, 4, #"lone surrogate \uDC00 at byte 4"#),
    .init(#""\uD800\u0041""#, 1, #"lone surrogate \uD800 at byte 1"#),
    .init(#""\uD800\uD800""#, 1, #"lone surrogate \uD800 at byte 1"#),
    .init(#""\uDBFFx""#, 1, #"lone surrogate \uDBFF at byte 1"#),
    .init(#""\uD800\n""#, 1, #"lone surrogate \uD800 at byte 1"#),
    .init(#""\uDE00\uD83D""#, 1, #"lone surrogate \uDE00 at byte 1"#),
]

private let invalidUTF8: [RejectedDocument] = [
    .init(bytes: [0x22, 0x80, 0x22], 1, "invalid UTF-8 at byte 1"),  // lone continuation byte
    .init(bytes: [0x22, 0x61, 0xBF, 0x22], 2, "invalid UTF-8 at byte 2"),  // lone continuation byte after ASCII
    .init(bytes: [0x22, 0xC0, 0xAF, 0x22], 1, "invalid UTF-8 at byte 1"),  // overlong 2-byte '/'
    .init(bytes: [0x22, 0xC1, 0xBF, 0x22], 1, "invalid UTF-8 at byte 1"),  // overlong 2-byte U+007F
    .init(bytes: [0x22, 0xE0, 0x80, 0xAF, 0x22], 1, "invalid UTF-8 at byte 1"),  // overlong 3-byte '/'
    .init(bytes: [0x22, 0xE0, 0x9F, 0xBF, 0x22], 1, "invalid UTF-8 at byte 1"),  // overlong 3-byte U+07FF
    .init(bytes: [0x22, 0xF0, 0x80, 0x80, 0xAF, 0x22], 1, "invalid UTF-8 at byte 1"),  // overlong 4-byte '/'
    .init(bytes: [0x22, 0xF0, 0x8F, 0xBF, 0xBF, 0x22], 1, "invalid UTF-8 at byte 1"),  // overlong 4-byte U+FFFF
    .init(bytes: [0x22, 0xED, 0xA0, 0x80, 0x22], 1, "invalid UTF-8 at byte 1"),  // encoded surrogate U+D800
    .init(bytes: [0x22, 0xED, 0xBF, 0xBF, 0x22], 1, "invalid UTF-8 at byte 1"),  // encoded surrogate U+DFFF
    .init(bytes: [0x22, 0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80, 0x22], 1, "invalid UTF-8 at byte 1"),  // CESU-8 surrogate pair
    .init(bytes: [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 1, "invalid UTF-8 at byte 1"),  // U+110000
    .init(bytes: [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], 1, "invalid UTF-8 at byte 1"),  // lead byte 0xF5
    .init(bytes: [0x22, 0xF8, 0x88, 0x80, 0x80, 0x80, 0x22], 1, "invalid UTF-8 at byte 1"),  // 5-byte form
    .init(bytes: [0x22, 0xFE, 0x22], 1, "invalid UTF-8 at byte 1"),  // byte 0xFE
    .init(bytes: [0x22, 0xFF, 0x22], 1, "invalid UTF-8 at byte 1"),  // byte 0xFF
    .init(bytes: [0x22, 0xE2, 0x82, 0x22], 1, "invalid UTF-8 at byte 1"),  // truncated 3-byte sequence before the quote
    .init(bytes: [0x22, 0xF0, 0x9F, 0x98, 0x22], 1, "invalid UTF-8 at byte 1"),  // truncated 4-byte sequence before the quote
    .init(bytes: [0x22, 0xC3], 1, "invalid UTF-8 at byte 1"),  // truncated 2-byte sequence at the end
    .init(bytes: [0x22, 0xE2, 0x82], 1, "invalid UTF-8 at byte 1"),  // truncated 3-byte sequence at the end
    .init(bytes: [0x22, 0xC3, 0x41, 0x22], 1, "invalid UTF-8 at byte 1"),  // lead byte followed by ASCII
    // In a key, after escapes.
    .init(bytes: Array(#"{"k\n\u00e9"#.utf8) + [0xC3, 0x28, 0x22, 0x3A, 0x31, 0x7D], 11, "invalid UTF-8 at byte 11"),
]

@Suite struct JSONParserTests {
    @Test(arguments: acceptedDocuments)
    fileprivate func parsesValidDocument(_ document: AcceptedDocument) throws {
        #expect(try JSONParser.parse(document.text) == document.value)
    }

    @Test func negativeZeroKeepsItsSignAsADouble() throws {
        guard case .double(let value) = try JSONParser.parse("-0.0") else {
            Issue.record("-0.0 should parse as a double")
            return
        }
        #expect(value.sign == .minus)
    }

    @Test(arguments: syntaxErrors)
    fileprivate func rejectsWithOffsetAndMessage(_ document: RejectedDocument) {
        expectRejection(document.offset, document.message) { () throws(JSONError) in try JSONParser.parse(document.bytes) }
    }

    @Test(arguments: invalidUTF8)
    fileprivate func rejectsInvalidUTF8InStrings(_ document: RejectedDocument) {
        expectRejection(document.offset, document.message) { () throws(JSONError) in try JSONParser.parse(document.bytes) }
    }

    @Test func rejectsNonASCIIBytesOutsideStrings() {
        expectRejection(1, "invalid JSON at byte 1: expected a JSON value, found byte 0xC3") { () throws(JSONError) in
            try JSONParser.parse([0x5B, 0xC3, 0xA9, 0x5D])
        }
    }

    @Test(arguments: [
        "\u{80}", "\u{7FF}", "\u{800}", "\u{D7FF}", "\u{E000}", "\u{FFFD}", "\u{FFFF}", "\u{10000}", "\u{10FFFF}",
    ])
    func acceptsBoundaryScalarsInUTF8(_ scalar: String) throws {
        #expect(try JSONParser.parse("\"<\(scalar)>\"") == .string("<\(scalar)>"))
        #expect(try JSONParser.parse("\"\\n\(scalar)\"") == .string("\n\(scalar)"))
    }

    @Test func depthLimitAllowsExactlyMaxDepthLevels() throws {
        let deepest = String(repeating: "[", count: 256) + String(repeating: "]", count: 256)
        #expect(try JSONParser.parse(deepest) != .null)
        let tooDeep = String(repeating: "[", count: 257) + String(repeating: "]", count: 257)
        expectRejection(256, "nesting deeper than 256 at byte 256") { () throws(JSONError) in try JSONParser.parse(tooDeep) }
    }

    @Test func depthLimitCountsObjectsAndArraysAlike() throws {
        #expect(try JSONParser.parse(#"{"a":[{}]}"#, maxDepth: 3) != .null)
        expectRejection(11, "nesting deeper than 3 at byte 11") { () throws(JSONError) in
            try JSONParser.parse(#"{"a":[{"b":[]}]}"#, maxDepth: 3)
        }
        #expect(try JSONParser.parse("17", maxDepth: 0) == 17)
        expectRejection(0, "nesting deeper than 0 at byte 0") { () throws(JSONError) in try JSONParser.parse("[]", maxDepth: 0) }
    }

    @Test(arguments: ["[", #"{"a":"#, #"[{"":"#])
    func hugeNestingFailsFastWithoutRecursing(_ opener: String) {
        let input = Array(String(repeating: opener, count: 100_000).utf8)
        let started = ContinuousClock.now
        #expect(throws: JSONError.self) { try JSONParser.parse(input) }
        #expect(ContinuousClock.now - started < .seconds(1))
    }

    @Test func overloadsAgreeAndCountOffsetsFromTheirFirstByte() throws {
        let text = #"{"id":1,"method":"x"}"#
        let bytes = Array(text.utf8)
        let expected: JSON = ["id": 1, "method": "x"]
        #expect(try JSONParser.parse(text) == expected)
        #expect(try JSONParser.parse(bytes) == expected)
        #expect(try bytes.withUnsafeBytes { buffer in try JSONParser.parse(buffer) } == expected)
        let framed = Array("Content-Length: 21\r\n\r\n".utf8) + bytes
        #expect(try JSONParser.parse(framed[(framed.count - bytes.count)...]) == expected)
        let broken = Array("xx[1,}".utf8)
        expectRejection(3, "invalid JSON at byte 3: expected a JSON value, found '}'") { () throws(JSONError) in
            try JSONParser.parse(broken[2...])
        }
    }

    @Test func errorDescriptionIsTheMessage() {
        let error = #expect(throws: JSONError.self) { try JSONParser.parse(#"{"a" 1}"#) }
        #expect(error?.description == error?.message)
        #expect(error.map { "\($0)" } == "invalid JSON at byte 5: expected ':' after an object key, found '1'")
    }

    @Test func parsesATypicalRequest() throws {
        let request = #"""
            {"jsonrpc":"2.0","id":7,"method":"textDocument/didChange","params":{"textDocument":\#
            {"uri":"file:///tmp/a.tasks","version":3},"contentChanges":[{"text":"- [ ] buy milk\n"}]}}
            """#
        let value = try JSONParser.parse(request)
        #expect(value["id"] == 7)
        #expect(value["method"] == "textDocument/didChange")
        #expect(value["params"]?["textDocument"]?["version"] == 3)
        #expect(value["params"]?["contentChanges"] == [["text": "- [ ] buy milk\n"]])
    }
}

/// One document and the value it must parse to.
private struct AcceptedDocument: Sendable, CustomTestStringConvertible {
    let text: String
    let value: JSON
    var testDescription: String { text.debugDescription }
}

/// One document and the error it must be rejected with.
private struct RejectedDocument: Sendable, CustomTestStringConvertible {
    let bytes: [UInt8]
    let offset: Int
    let message: String
    init(_ text: String, _ offset: Int, _ message: String) {
        self.init(bytes: Array(text.utf8), offset, message)
    }
    init(bytes: [UInt8], _ offset: Int, _ message: String) {
        self.bytes = bytes
        self.offset = offset
        self.message = message
    }
    var testDescription: String { String(decoding: bytes, as: UTF8.self).debugDescription }
}

/// Expects `parse` to throw exactly `offset` and `message`.
private func expectRejection(
    _ offset: Int, _ message: String, sourceLocation: SourceLocation = #_sourceLocation,
    _ parse: () throws(JSONError) -> JSON
) {
    let error = #expect(throws: JSONError.self, sourceLocation: sourceLocation) { try parse() }
    #expect(error?.offset == offset, sourceLocation: sourceLocation)
    #expect(error?.message == message, sourceLocation: sourceLocation)
}
