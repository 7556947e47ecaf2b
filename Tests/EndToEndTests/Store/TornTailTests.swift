/// Damage made to a real journal with the binary's own tools watching: a torn last record is dropped (the
/// store is healthy and opens with the records before it); damage followed by valid records is corruption
/// (`store check` exits 1, views show `error` naming the journal and the offset, the files stay as they were).

#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
import Transcript
import Wire

@Suite struct TornTailTests {
    /// A store of five records, one per turn, and the observable states before and after the last one.
    struct Fixture {
        var directory: String
        var journal: [UInt8]
        var records: [Range<Int>]
        var beforeLast: ObservedState
        var complete: ObservedState
    }

    /// Record boundaries come from the journal's size after each acknowledged mutation (one record per turn),
    /// so nothing here depends on the record layout beyond its first 16 bytes (length, checksum, sequence).
    static func makeFixture() throws -> Fixture {
        let directory = makeStoreTestDirectory()
        let journalPath = directory + "/journal"
        let server = try StoreServer(directory: directory)
        try #require(server.initialize())
        var ends = [try #require(StoreFiles.size(journalPath))]
        func apply(_ method: String, _ params: JSON) throws {
            try #require(server.call(method, params)?["result"] != nil, "\(method)")
            ends.append(try #require(StoreFiles.size(journalPath)))
        }
        try apply("lists/create", ["name": "Inbox"])
        try apply("items/create", ["list": "l1", "title": "one"])
        try apply("items/create", ["list": "l1", "title": "two", "tags": ["a"]])
        try apply("items/update", ["id": "i2", "done": true])
        let beforeLast = try #require(server.observe())
        try apply("items/create", ["list": "l1", "title": "three", "notes": .string(String(repeating: "the last record ", count: 8))])
        let complete = try #require(server.observe())
        #expect(server.finish() == 1)
        let journal = try #require(readFile(journalPath))
        let records = zip(ends, ends.dropFirst()).map { $0..<$1 }
        try #require(records.allSatisfy { $0.count > 16 } && ends.last == journal.count, "records \(records) in \(journal.count) bytes")
        return Fixture(directory: directory, journal: journal, records: records, beforeLast: beforeLast, complete: complete)
    }

    /// How the last record is damaged: cut at an offset from its start, or one bit flipped at an offset.
    enum Damage: CustomStringConvertible, Sendable {
        case cut(Int)
        case flip(Int)

        func apply(to journal: [UInt8], record: Range<Int>) -> [UInt8] {
            switch self {
            case .cut(let offset): return Array(journal[..<(record.lowerBound + min(offset, record.count - 1))])
            case .flip(let offset):
                var bytes = journal
                bytes[record.lowerBound + min(offset, record.count - 1)] ^= 0x10
                return bytes
            }
        }

        var description: String {
            switch self {
            case .cut(let offset): "cut at byte \(offset) of the last record"
            case .flip(let offset): "a bit flipped at byte \(offset) of the last record"
            }
        }
    }

    @Test func aTornLastRecordIsDroppedAndTheStoreStaysWritable() throws {
        let fixture = try Self.makeFixture()
        defer { removeTree(fixture.directory) }
        let last = fixture.records[4]
        let intact = try StoreServer(directory: StoreFiles.copy(fixture.directory))
        defer { removeTree(intact.directory) }
        try #require(intact.initialize())
        #expect(intact.observe() == fixture.complete, "the undamaged store must open with all five records")
        intact.finish()
        // Cut: in the length, in the checksum, after the sequence, in the middle, one byte short.
        // Flipped: the length, the checksum, the sequence, a byte in the middle, the last byte.
        let damages: [Damage] = [.cut(1), .cut(6), .cut(16), .cut(last.count / 2), .cut(last.count - 1),
                                 .flip(0), .flip(5), .flip(9), .flip(last.count / 2), .flip(last.count - 1)]
        for damage in damages {
            let directory = StoreFiles.copy(fixture.directory)
            defer { removeTree(directory) }
            try writeFile(directory + "/journal", damage.apply(to: fixture.journal, record: last))

            let check = try storeCheck(directory)
            #expect(check.status == 0, "\(damage): \(check.report)")
            #expect(check.report.contains("torn last record at byte \(last.lowerBound)"), "\(damage): \(check.report)")

            let server = try StoreServer(directory: directory)
            try #require(server.initialize(), "\(damage)")
            #expect(server.observe() == fixture.beforeLast, "\(damage): the server must open with the four records before it")
            let probe = server.call("items/create", ["list": "l1", "title": "after the torn record"])
            #expect(probe?["result"]?["item"]?["id"] == "i4", "\(damage): \(probe?.text ?? "no answer")")
            server.finish()
            let after = try storeCheck(directory)
            #expect(after.status == 0 && after.report.contains("ok: 1 lists, 3 items"), "\(damage): \(after.report)")
        }
    }

    @Test func damageBeforeTheLastRecordIsCorruptionAndTouchesNothing() throws {
        let fixture = try Self.makeFixture()
        defer { removeTree(fixture.directory) }
        // The second record's payload, the third record's checksum, the fourth record's length.
        for (index, offset) in [(1, fixture.records[1].count - 2), (2, 4), (3, 0)] {
            let record = fixture.records[index]
            let directory = StoreFiles.copy(fixture.directory)
            defer { removeTree(directory) }
            let journalPath = directory + "/journal"
            var damaged = fixture.journal
            damaged[record.lowerBound + offset] ^= 0x01
            try writeFile(journalPath, damaged)
            let files = StoreFiles.contents(of: directory)
            let place = "record \(index + 1), byte \(offset)"

            let check = try storeCheck(directory)
            #expect(check.status == 1, "\(place): \(check.report)")
            #expect(check.report.contains("damaged bytes \(record.lowerBound)..<"), "\(place): \(check.report)")

            let server = try StoreServer(directory: directory)
            try #require(server.initialize(), "\(place)")
            let view = try #require(server.call("lists/open", ["list": "l1"])?["result"], "\(place)")
            #expect(view["state"] == "error", "\(place): \(view.text)")
            let message = view["error"]?.string("message") ?? ""
            #expect(message.contains(journalPath) && message.contains("byte \(record.lowerBound)"),
                    "\(place): the message must name the journal and the offset: \(message)")
            #expect(view["error"]?["retryable"] == false, "\(place): \(view.text)")
            let write = server.call("items/create", ["list": "l1", "title": "refused"])
            #expect(write?.errorReason == "storeCorrupt", "\(place): \(write?.text ?? "no answer")")
            let retry = server.call("store/retry")
            #expect(retry?["result"]?["state"] == "error", "\(place): \(retry?.text ?? "no answer")")
            #expect(server.call("server/ping")?["result"] == [:], "\(place): the server must keep serving")
            server.finish()
            #expect(StoreFiles.contents(of: directory) == files, "\(place): the damaged store's files were changed")
        }
    }

    @Test func damageInsideTheLastTurnsRecordsIsATornTail() throws {
        // The last turn journals three records with one sync: damage to its first record, with the two after
        // it intact, is still a torn write of that turn (none of the three was acknowledged before its sync).
        let directory = makeStoreTestDirectory()
        defer { removeTree(directory) }
        let journalPath = directory + "/journal"
        let server = try StoreServer(directory: directory)
        try #require(server.initialize())
        try #require(server.call("lists/create", ["name": "Inbox"])?["result"] != nil)
        try #require(server.call("items/create", ["list": "l1", "title": "one"])?["result"] != nil)
        let beforeTurn = try #require(server.observe())
        let turnStart = try #require(StoreFiles.size(journalPath))
        let group = server.callTogether((1...3).map { server.makeRequest("items/create", ["list": "l1", "title": .string("grouped \($0)")]) })
        try #require(group.allSatisfy { $0?["result"] != nil }, "\(group.map { $0?.text ?? "no answer" })")
        server.finish()

        var journal = try #require(readFile(journalPath))
        journal[turnStart + 5] ^= 0x01
        try writeFile(journalPath, journal)
        let check = try storeCheck(directory)
        #expect(check.status == 0, "\(check.report)")
        let reopened = try StoreServer(directory: directory)
        try #require(reopened.initialize())
        #expect(reopened.observe() == beforeTurn, "the store must open with the records before the damaged turn")
        reopened.finish()
    }
}
