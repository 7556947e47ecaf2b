/// Every refusal says what the problem is: a white-space-only title is not "empty", an integer
/// past 2^63 is "out of range", not "a number".

import Domain
import Server
import TasklsProtocol
import Testing
import Wire

@Test(arguments: [
    // Text that is there but only white space is not called empty.
    ("items/create", ["title": " \t\n"], "params.title: must not be only white space"),
    ("items/create", ["title": ""], "params.title: must not be empty"),
    ("lists/create", ["name": "\u{3000}"], "params.name: must not be only white space"),
    ("lists/create", ["name": "L", "color": " "], "params.color: must not be only white space"),
    ("items/create", ["title": "t", "tags": ["a", "  "]], "params.tags: must not contain a tag that is only white space"),
    ("items/create", ["title": "t", "tags": [""]], "params.tags: must not contain an empty tag"),
    // Integers past Int64 are out of range; numbers with a fraction are numbers with a fraction.
    ("lists/open", ["window": ["start": .double(9_223_372_036_854_775_808), "end": 0]],
     "params.window.start: out of range; integers must lie within -2^63 ..< 2^63"),
    ("lists/open", ["window": ["start": .double(18_446_744_073_709_551_616), "end": 0]],
     "params.window.start: out of range; integers must lie within -2^63 ..< 2^63"),
    ("lists/open", ["window": ["start": 0.5, "end": 1]],
     "params.window.start: expected an integer, got a number with a fraction or exponent"),
    ("lists/open", ["window": ["start": 1e17, "end": 1]],
     "params.window.start: 1e+17 is not exact; write integers from 2^53 on without a fraction or exponent"),
    ("items/get", ["id": .double(9_223_372_036_854_775_808)], "params.id: expected a string, got an integer out of range (beyond ±2^63)"),
    ("items/get", ["id": "i18446744073709551616"], "params.id: 'i18446744073709551616' is out of range; item ids number from 1 to 2^64 - 1"),
] as [(String, JSON, String)])
func refusalsSayWhatTheProblemIs(method: String, params: JSON, message: String) throws {
    let client = try TestClient()
    let list = try client.send(ListsCreate(name: "Inbox")).list.id
    guard case .object(var object) = params else { return }
    // The params are the point here (what no protocol type would write): sent as JSON.
    if method == "items/create" || method == "lists/open" { object["list"] = list.json }
    let answer = try client.request(method, .object(object))
    guard case .failure(let error) = answer else {
        Issue.record("\(method) \(params.text) was accepted")
        return
    }
    #expect(error.code == .invalidParams)
    #expect(error.message == message)
}
