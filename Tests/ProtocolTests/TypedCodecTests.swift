/// The typed codec of views' rows: what the writers write is byte for byte what the `JSON` path writes, and the pull
/// decoder of `view/changed` agrees with the reference decoder on valid bodies and on bodies mutated at random.

@testable import TasklsProtocol
import TestSupport
import Testing
import Wire

@Test func writtenRowsAndViewsAreTheBytesTheJSONPathWrites() {
    var random = Randomness(seed: 21)
    var rowsWritten = 0
    for _ in 0..<2_000 {
        let change = ViewChanged.arbitrary(&random)
        var writer = JSONWriter()
        change.write(messageTo: &writer)
        var expected: [UInt8] = []
        JSONSerializer.write(change.message, into: &expected)
        #expect(writer.bytes == expected)
        let snapshot = ViewSnapshotResult.arbitrary(&random)
        var snapshotWriter = JSONWriter()
        JSONSerializer.writeResponse(id: .integer(7), result: snapshot, into: &snapshotWriter)
        var expectedSnapshot: [UInt8] = []
        JSONSerializer.write(Message.response(id: .integer(7), result: snapshot.json), into: &expectedSnapshot)
        #expect(snapshotWriter.bytes == expectedSnapshot)
        #expect(writtenAnswer(snapshot, to: .integer(7)) == expectedSnapshot)
        rowsWritten += snapshot.rows.count
    }
    #expect(rowsWritten > 1_000)
}

/// A type that does not write itself is answered through its `json`: it writes no answer of its own; one that
/// does writes it, called as the server calls it (through a generic `ProtocolValue`).
@Test func onlyAValueThatWritesItselfHasAWrittenAnswer() {
    #expect(writtenAnswer(Window(start: 0, end: 5), to: .string("a")) == nil)
    let row = ItemRow(id: ItemID(1), list: ListID(1), title: "t", revision: 1)
    var expected: [UInt8] = []
    JSONSerializer.write(Message.response(id: .string("a"), result: row.json), into: &expected)
    #expect(writtenAnswer(row, to: .string("a")) == expected)
}

/// `value.writtenAnswer(to:)` as the server's generic code calls it, so the witness chosen for the type is tested.
private func writtenAnswer(_ value: some ProtocolValue, to id: RequestID) -> [UInt8]? {
    value.writtenAnswer(to: id)
}

@Test func largeIdentifiersAndCountersAreWrittenAsTheJSONPathWritesThem() {
    let row = ItemRow(id: ItemID(UInt64.max), list: ListID(10_000_000_000_000_000_000), parent: ItemID(9_999_999_999_999_999_999),
                      depth: 15, title: "t", revision: UInt64.max)
    var writer = JSONWriter()
    row.write(to: &writer)
    #expect(writer.bytes == row.json.bytes)
}

/// Bodies of `view/changed` as the server writes them, then mutated: a byte changed, removed, inserted or the body cut;
/// a member's value replaced by one of another type or spelling; a member repeated or dropped.
@Test func thePullDecoderAgreesWithTheReferenceOnValidAndMutatedBodies() throws {
    var random = Randomness(seed: 2121)
    var takenValid = 0
    var takenMutated = 0
    var refusedMutated = 0
    let replacements: [(String, String)] = [
        (#""depth":"#, #""depth":-"#), (#""depth":"#, #""depth":1.0,"x":"#), (#""children":"#, #""children":null,"c":"#),
        (#""done":"#, #""done":"true","d":"#), (#""kind":"item""#, #""kind":"header""#), (#""op":"#, #""op":"x","o":"#),
        (#""title":"#, #""title":"a","title":"#), (#""tags":["#, #""tags":[1,"#), (#""revision":"#, #""revision":-"#),
        (#""id":"i"#, #""id":"i0"#), (#""id":"i"#, #""id":"l"#), (#""list":"l"#, #""list":"i"#), (#""parent":"#, #""parent":1,"p":"#),
        (#""due":"#, #""due":0,"u":"#), (#""hasAlerts":"#, #""hasAlerts":null,"h":"#), (#""priority":""#, #""priority":"x"#),
        (#""dueLocal":"#, #""dueLocal":null,"l":"#), (#""index":"#, #""index":1e2,"i":"#), (#""row":{"#, #""row":null,"r":{"#),
        (#""ops":["#, #""ops":[{"op":"remove","index":1,"row":null},"#), (#""version":"#, #""version":-"#),
        (#""method":"view/changed""#, #""method":"view/closed""#), (#""jsonrpc":"2.0""#, #""jsonrpc":"1.0""#),
        (#""params":{"#, #""id":1,"params":{"#), (#""kind":"#, #""ki\u006ed":"#), (#"{"kind":"#, #"{"depth":0,"kind":"#),
        (#""state":"#, #""state":"ready","progress":0.5,"s":"#), (#""window":{"#, #""window":{"start":-1,"#),
        (#""kind":"item""#, #""kind":"items""#), (#""priority":"none""#, #""priority":"nonex""#),
        (#""priority":"low""#, #""priority":"lo""#), (#""id":"i"#, #""id":"i18446744073709551616"#),
        (#""id":"i"#, #""id":"i99999999999999999999"#), (#""list":"l"#, #""list":"l0"#),
        (#""title":""#, #""title":"\ud800"#), (#""title":""#, #""title":"\u00e9\n"#), (":", " : "), (",", " ,\n"),
    ]
    for _ in 0..<1_500 {
        let change = ViewChanged.arbitrary(&random)
        var writer = JSONWriter()
        change.write(messageTo: &writer)
        let body = writer.bytes
        let taken = body.withUnsafeBytes { ServerNotification.pullViewChanged(body: $0) }
        #expect(taken == change)
        if taken != nil { takenValid += 1 }
        for _ in 0..<8 {
            var mutated = body
            switch random.int(0...4) {
            case 0: mutated[random.int(0...mutated.count - 1)] = UInt8(truncatingIfNeeded: random.next())
            case 1: mutated.remove(at: random.int(0...mutated.count - 1))
            case 2: mutated.insert(random.pick(Array(#"{}[],:"\ 0-1en.tfu"#.utf8)), at: random.int(0...mutated.count))
            case 3: mutated.removeLast(random.int(1...mutated.count))
            default:
                let (from, to) = random.pick(replacements)
                guard let start = firstIndex(of: Array(from.utf8), in: mutated) else { continue }
                mutated.replaceSubrange(start..<start + from.utf8.count, with: Array(to.utf8))
            }
            let (fast, decoded, reference) = mutated.withUnsafeBytes { bytes in
                (ServerNotification.pullViewChanged(body: bytes),
                 Result { () throws(ResponseError) in try ServerNotification.decode(body: bytes) },
                 Result { () throws(ResponseError) in try ServerNotification.decodeByReference(body: bytes) })
            }
            #expect(decoded == reference, "\(String(decoding: mutated, as: UTF8.self))")
            if let fast {
                takenMutated += 1
                #expect(reference == .success(.viewChanged(fast)), "\(String(decoding: mutated, as: UTF8.self))")
            }
            if case .failure = reference { refusedMutated += 1 }
        }
    }
    // Every body the server writes is taken by the fast path; mutations are both taken and refused.
    #expect(takenValid == 1_500)
    #expect(takenMutated > 500)
    #expect(refusedMutated > 3_000)
}

/// The fuzzer's seed corpus (bodies that are not JSON, not messages, or nearly so) is decoded by both the same way.
@Test func thePullDecoderAgreesWithTheReferenceOnTheFuzzCorpus() throws {
    let directory = BuildPaths.repositoryRoot + "/Fuzz/corpus"
    var compared = 0
    for name in names(in: directory) {
        let body = try #require(readFile(directory + "/" + name))
        let (decoded, reference) = body.withUnsafeBytes { bytes in
            (Result { () throws(ResponseError) in try ServerNotification.decode(body: bytes) },
             Result { () throws(ResponseError) in try ServerNotification.decodeByReference(body: bytes) })
        }
        #expect(decoded == reference, "\(name)")
        compared += 1
    }
    #expect(compared >= 10)
}

/// The index where `needle` first occurs in `bytes`.
private func firstIndex(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
    guard bytes.count >= needle.count else { return nil }
    return (0...bytes.count - needle.count).first { bytes[$0..<$0 + needle.count].elementsEqual(needle) }
}
