/// Table-driven tests of `JSONSerializer`, and the round trip: parsing what it writes gives back the value.

import Testing
import TestSupport
import Wire

private let serializedValues: [SerializedValue] = [
    .init(.null, "null"),
    .init(true, "true"),
    .init(false, "false"),
    .init(0, "0"),
    .init(7, "7"),
    .init(-1, "-1"),
    .init(1_234_567_890, "1234567890"),
    .init(.integer(.max), "9223372036854775807"),
    .init(.integer(.min), "-9223372036854775808"),
    .init(.double(1.5), "1.5"),
    .init(.double(1), "1.0"),
    .init(.double(-0.0), "-0.0"),
    .init(.double(0.1), "0.1"),
    .init(.double(1e300), "1e+300"),
    .init(.double(1e-5), "1e-05"),
    .init(.double(.leastNonzeroMagnitude), "5e-324"),
    .init(.double(.greatestFiniteMagnitude), "1.7976931348623157e+308"),
    .init(.double(.infinity), "null"),
    .init(.double(-.infinity), "null"),
    .init(.double(.nan), "null"),
    .init("", #""""#),
    .init("plain", #""plain""#),
    .init("say \"hi\" \\ a/b", #""say \"hi\" \\ a/b""#),
    .init("\u{8}\u{C}\n\r\t", #""\b\f\n\r\t""#),
    .init("\u{0}\u{1}\u{1F} \u{7F}", "\"\\u0000\\u0001\\u001f \u{7F}\""),
    .init("é€😀\u{2028}", "\"é€😀\u{2028}\""),
    .init([], "[]"),
    .init(.object(JSONObject()), "{}"),
    .init([1, "two", nil, [false]], #"[1,"two",null,[false]]"#),
    .init(.object(JSONObject([(key: "b", value: 1), (key: "a\n", value: [:]), (key: "b", value: 2)])),
          #"{"b":1,"a\n":{},"b":2}"#),
]

private let roundTripValues: [JSON] = [
    ["jsonrpc": "2.0", "id": 1, "method": "initialize", "params": ["rootUri": nil, "capabilities": [:]]],
    ["jsonrpc": "2.0", "id": "abc", "result": [["label": "a\tb", "done": true], ["label": "ü", "done": false]]],
    [.integer(.min), .integer(.max), .integer(9_007_199_254_740_993), .double(9_007_199_254_740_992)],
    [.double(0.1), .double(-0.0), .double(1e-7), .double(123456789.125), .double(.leastNormalMagnitude)],
    ["\u{0}\u{1F}\"\\/", "\u{FFFF}\u{10000}\u{10FFFF}\u{D7FF}\u{E000}", "🇫🇷 e\u{301}"],
    .object(JSONObject([(key: "", value: ""), (key: "dup", value: 1), (key: "dup", value: 2)])),
]

@Suite struct JSONSerializerTests {
    @Test(arguments: serializedValues)
    fileprivate func writesCompactText(_ serialized: SerializedValue) {
        #expect(serialized.value.text == serialized.text)
        #expect(serialized.value.bytes == Array(serialized.text.utf8))
    }

    @Test func writeAppendsToWhatIsInTheBuffer() {
        var buffer = Array("Content-Length: 7\r\n\r\n".utf8)
        JSONSerializer.write(["id": 1], into: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self) == "Content-Length: 7\r\n\r\n{\"id\":1}")
    }

    @Test func everyControlCharacterIsEscapedAndComesBack() throws {
        let all = String(String.UnicodeScalarView((0..<0x80).compactMap(Unicode.Scalar.init)))
        let written = JSON.string(all).bytes
        #expect(!written.dropFirst().dropLast().contains { $0 < 0x20 })
        #expect(try JSONParser.parse(written) == .string(all))
    }

    @Test(arguments: roundTripValues)
    func roundTripsFixedValues(_ value: JSON) throws {
        let reparsed = try JSONParser.parse(value.bytes)
        #expect(reparsed == value)
        #expect(reparsed.bytes == value.bytes)
    }

    @Test func roundTripKeepsEveryDoubleBitForBit() throws {
        var generator = SplitMix64(seed: 0xD0B1E)
        for _ in 0..<2_000 {
            let double = Double(bitPattern: generator.next())
            guard double.isFinite else { continue }
            guard case .double(let reparsed) = try JSONParser.parse(JSON.double(double).bytes) else {
                Issue.record("\(double) did not come back as a double")
                return
            }
            #expect(reparsed.bitPattern == double.bitPattern, "\(double)")
        }
    }

    @Test func roundTripsRandomValues() throws {
        var generator = SplitMix64(seed: 42)
        for _ in 0..<500 {
            let value = randomJSON(depth: 4, using: &generator)
            let written = value.bytes
            let reparsed = try JSONParser.parse(written)
            #expect(reparsed == value, "\(value.text)")
            #expect(reparsed.bytes == written)
        }
    }
}

/// One value and its exact compact encoding.
private struct SerializedValue: Sendable, CustomTestStringConvertible {
    let value: JSON
    let text: String
    init(_ value: JSON, _ text: String) {
        self.value = value
        self.text = text
    }
    var testDescription: String { text }
}

/// A random value at most `depth` levels deep, with strings drawn from the awkward corners of Unicode.
private func randomJSON(depth: Int, using generator: inout SplitMix64) -> JSON {
    switch Int.random(in: 0..<(depth > 0 ? 8 : 6), using: &generator) {
    case 0: return .null
    case 1: return .bool(Bool.random(using: &generator))
    case 2: return .integer(Int64(bitPattern: generator.next()) >> Int64.random(in: 0..<64, using: &generator))
    case 3:
        let double = Double(bitPattern: generator.next())
        return .double(double.isFinite ? double : Double.random(in: -1e6...1e6, using: &generator))
    case 4, 5: return .string(randomString(using: &generator))
    case 6:
        return .array((0..<Int.random(in: 0..<5, using: &generator)).map { _ in
            randomJSON(depth: depth - 1, using: &generator)
        })
    default:
        return .object(JSONObject((0..<Int.random(in: 0..<5, using: &generator)).map { _ in
            (key: randomString(using: &generator), value: randomJSON(depth: depth - 1, using: &generator))
        }))
    }
}

private func randomString(using generator: inout SplitMix64) -> String {
    let pool: [Unicode.Scalar] = ["a", "Z", "0", " ", "\"", "\\", "/", "\u{0}", "\u{8}", "\u{1F}", "\u{7F}", "é",
                                  "\u{7FF}", "\u{800}", "€", "\u{FFFF}", "\u{10000}", "😀", "\u{10FFFF}"]
    var scalars = String.UnicodeScalarView()
    for _ in 0..<Int.random(in: 0..<12, using: &generator) {
        scalars.append(pool[Int.random(in: 0..<pool.count, using: &generator)])
    }
    return String(scalars)
}
