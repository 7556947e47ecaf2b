/// Decoding JSON-RPC envelopes: every shape of request, notification and response, and every refusal.

import Testing
import Wire

private func decode(_ text: String) -> Result<Message, MessageDecodingFailure> {
    Array(text.utf8).withUnsafeBytes { Message.decode($0) }
}

@Test(arguments: [
    ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\"}", Message.request(id: .integer(1), method: "m", params: nil)),
    ("{\"jsonrpc\":\"2.0\",\"id\":\"a-b\",\"method\":\"m\",\"params\":[1]}", .request(id: .string("a-b"), method: "m", params: [1])),
    ("{\"method\":\"m\",\"params\":{},\"jsonrpc\":\"2.0\"}", .notification(method: "m", params: [:])),
    ("{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":null}", .response(id: .integer(7), result: nil)),
    ("{\"jsonrpc\":\"2.0\",\"id\":7,\"error\":{\"code\":-32601,\"message\":\"no\"}}", .error(id: .integer(7), ResponseError(.methodNotFound, "no"))),
])
func decodesValidMessages(_ text: String, _ expected: Message) throws {
    #expect(try decode(text).get() == expected)
}

@Test(arguments: [
    ("", -32700, "empty message body", false),
    ("{", -32700, "parse error", false),
    ("[]", -32600, "batch arrays are not supported", false),
    ("42", -32600, "must be a JSON object, got an integer", false),
    ("{\"id\":1,\"method\":\"m\"}", -32600, "jsonrpc: missing", true),
    ("{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"m\"}", -32600, "jsonrpc: must be \"2.0\", got \"1.0\"", true),
    ("{\"jsonrpc\":2.0,\"id\":1,\"method\":\"m\"}", -32600, "jsonrpc: must be \"2.0\", got 2.0", true),
    ("{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"m\"}", -32600, "id must be an integer or a string, got an object", false),
    ("{\"jsonrpc\":\"2.0\",\"id\":[1],\"method\":\"m\"}", -32600, "id must be an integer or a string, got an array", false),
    ("{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"m\"}", -32600, "id must be an integer or a string, got a number", false),
    ("{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"m\"}", -32600, "id must be an integer or a string, got a boolean", false),
    // Integers from 2^63 to 2^64 - 1 (and beyond) are out of range, not "a number".
    ("{\"jsonrpc\":\"2.0\",\"id\":9223372036854775808,\"method\":\"m\"}", -32600,
     "id must be an integer or a string, got an integer out of range (beyond ±2^63)", false),
    ("{\"jsonrpc\":\"2.0\",\"id\":18446744073709551615,\"method\":\"m\"}", -32600,
     "id must be an integer or a string, got an integer out of range (beyond ±2^63)", false),
    ("{\"jsonrpc\":\"2.0\",\"id\":-9223372036854775809,\"method\":\"m\"}", -32600,
     "id must be an integer or a string, got an integer out of range (beyond ±2^63)", false),
    ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":5}", -32600, "method: must be a string, got an integer", true),
    ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"params\":\"x\"}", -32600, "params: must be an object or an array, got a string", true),
    ("{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"m\"}", -32600, "id: must be an integer or a string, got null", false),
    ("{\"jsonrpc\":\"2.0\",\"id\":1}", -32600, "needs a method, a result or an error", true),
    ("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":1,\"error\":{\"code\":1,\"message\":\"x\"}}", -32600, "both result and error", true),
])
func refusesInvalidMessages(_ text: String, _ code: Int, _ words: String, _ keepsID: Bool) {
    guard case .failure(let failure) = decode(text) else {
        Issue.record("\(text) decoded")
        return
    }
    #expect(failure.error.code.rawValue == code, "\(text)")
    #expect(failure.error.message.contains(words), "\(failure.error.message)")
    #expect((failure.id != nil) == keepsID, "\(text)")
}

@Test func encodesMembersInAFixedOrder() {
    let message = Message.error(id: nil, ResponseError(.parseError, "bad", data: ["at": 3]))
    #expect(message.json.text == "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"bad\",\"data\":{\"at\":3}}}")
}

/// The bytes of a message are read in place (`JSONParser.parseMessage`, no object built); the answer must be what
/// parsing the value and decoding it gives, for keys spelled with escapes, repeated keys (the last counts), members
/// JSON-RPC does not name, values of every shape, and broken documents (the same error, at the same byte).
@Test(arguments: [
    #"{"jsonrpc":"2.0","id":1,"method":"server/ping"}"#,
    #"{"\u0069d":3,"jsonrpc":"2.0","\u006Dethod":"m","params":{"a":[1,{"b":null}]}}"#,
    #"{"jsonrpc":"2.0","id":1,"id":"two","method":"a","method":"b"}"#,
    #"{"jsonrpc":"2.0","id":1,"method":"m","extra":{"deep":[[[]]]},"idx":5,"i":1,"résult":2}"#,
    #" { "jsonrpc" : "2.0" , "id" : -4 , "result" : [ true , false ] } "#,
    #"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no"},"params":7}"#,
    #"{}"#, #"[1]"#, #""text""#, #"null"#,
    #"{"jsonrpc":"2.0","id":1,"method":"m",}"#,
    #"{"jsonrpc":"2.0" "id":1}"#,
    #"{"jsonrpc":"2.0","id":1,"method":"m"} x"#,
    #"{"jsonrpc":"2.0","id":1,"method":"m"#,
    #"{"jsonrpc":"2.0","id"1}"#,
    #"{1:2}"#, #"{,}"#, "{\"id\u{1}\":1}", #"{"jsonrpc":"2.0","id":01}"#,
])
func decodesInPlaceAsFromTheValue(_ text: String) {
    let direct = decode(text)
    do {
        let value = try JSONParser.parse(text)
        #expect(direct == Message.decode(value), "\(text)")
    } catch {
        guard case .failure(let failure) = direct else {
            Issue.record("\(text) decoded in place but does not parse")
            return
        }
        #expect(failure.error == ResponseError(.parseError, "parse error: \(error)") && failure.id == nil && !failure.isResponse, "\(text)")
    }
}

@Test func keysWithEscapesAndRepeatedKeysAreReadInPlace() throws {
    #expect(try decode(#"{"jsonrpc":"2.0","\u0069d":1,"id":2,"method":"m","meth\u006Fd":"n"}"#).get()
        == .request(id: .integer(2), method: "n", params: nil))
}

@Test func nestingIsCountedFromTheMessageObject() {
    let nested = String(repeating: "[", count: 255) + String(repeating: "]", count: 255)
    #expect((try? decode(#"{"jsonrpc":"2.0","method":"m","params":"# + nested + "}").get()) != nil)
    let tooDeep = String(repeating: "[", count: 256) + String(repeating: "]", count: 256)
    guard case .failure(let failure) = decode(#"{"jsonrpc":"2.0","method":"m","params":"# + tooDeep + "}") else {
        Issue.record("nesting past the limit decoded")
        return
    }
    #expect(failure.error.message.contains("nesting deeper than 256"))
}
