// Journal recovery: every cut and every bit flip of the last record is a torn tail dropped on open and truncated
// under the lock; a flip in any byte of an earlier record is corruption that leaves the files as they were.

import Foundation
import Testing
import Domain
@testable import Store
import TestSupport

@Suite struct JournalRecoveryTests {
    /// A journal of five sample records, the state of the first four, and a different fifth group to append.
    struct FiveRecords {
        let bytes: [UInt8]
        let records: [Range<Int>]
        let firstFour: [[Mutation]]
        let replacement: [Mutation]

        init(_ scratch: Scratch) throws {
            let groups = try sampleGroups(5)
            let path = scratch.path("original")
            try makeStore(path, groups: groups)
            bytes = readFile(path + "/journal")!
            records = recordRanges(bytes)
            firstFour = Array(groups.prefix(4))
            replacement = sampleGroup(99, on: try applying(firstFour))
            #expect(records.count == 5 && records.last!.upperBound == bytes.count)
            #expect(replacement != groups[4])
        }

        /// Opens a store whose journal is `journal` (a damaged copy of `bytes`): it must hold the first four
        /// records, the damage untouched until `lockForWriting` truncates it; then a new fifth record is kept.
        func expectTornTail(_ journal: [UInt8], in path: String, _ what: String) throws {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            try writeFile(path + "/journal", journal)
            let expected = try applying(firstFour)
            do {
                let (store, state) = try DurableStore.open(path)
                expectSameState(state, expected, "\(what): open")
                #expect(store.sequence == 4, "\(what)")
                #expect(store.notes.count == 1 && store.notes[0].contains("torn"), "\(what): \(store.notes)")
                #expect(readFile(path + "/journal") == journal, "\(what): open changes nothing")
                #expect(try store.lockForWriting().isEmpty, "\(what)")
                #expect(readFile(path + "/journal") == Array(bytes[..<records[4].lowerBound]), "\(what): truncated under the lock")
                try store.append(replacement)
                try store.commit()
            }
            let (store, state) = try DurableStore.open(path)
            var full = expected
            _ = try full.apply(replacement)
            expectSameState(state, full, "\(what): reopened after a new record")
            #expect(store.sequence == 5 && store.notes.isEmpty, "\(what)")
            let journal = try journalRecords(path + "/journal")
            #expect(journal.records.map(\.sequence) == [1, 2, 3, 4, 5] && journal.how == .clean, "\(what)")
            #expect(journal.records.last?.group == replacement, "\(what)")
        }
    }

    @Test func everyCutInsideTheLastRecordIsATornTail() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let five = try FiveRecords(scratch)
        let last = five.records[4]
        // From one byte of the record's header to all of it but its last payload byte.
        for cut in (last.lowerBound + 1)..<last.upperBound {
            try five.expectTornTail(Array(five.bytes[..<cut]), in: scratch.path("cut-\(cut)"), "cut at \(cut)")
        }
    }

    @Test func everyBitFlipInTheLastRecordIsATornTail() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let five = try FiveRecords(scratch)
        for index in five.records[4] {
            for bit in 0..<8 {
                try five.expectTornTail(flipping(five.bytes, at: index, bit: bit), in: scratch.path("flip-\(index)-\(bit)"),
                                        "bit \(bit) of byte \(index)")
            }
        }
    }

    /// A snapshot through record 3 and a journal of records 4...8, built so that record 7 depends on record 6:
    /// 4, 5, 6 and 8 each create an item, 7 renames the item 6 created.
    struct SnapshotAndFive {
        let snapshot: [UInt8]
        let journal: [UInt8]
        let records: [Range<Int>]
        let compacted: [[Mutation]]
        let logged: [[Mutation]]

        init(_ scratch: Scratch) throws {
            compacted = try sampleGroups(3)
            let state = try applying(compacted)
            let list = state.orderedLists[0].id
            let time = Timestamp(milliseconds: 1_760_000_000_000)
            var next = state.nextIdentifier
            func create(_ title: String) -> [Mutation] {
                defer { next += 1 }
                return [.createItem(id: ItemID(next), list: list, fields: ItemFields(title: title), before: nil, at: time)]
            }
            let a = create("A"), b = create("B"), c = create("C")
            let renameC = [Mutation.updateItems(ids: [ItemID(next - 1)], patch: ItemPatch(title: "C renamed"), at: time)]
            logged = [a, b, c, renameC, create("D")]

            let path = scratch.path("original")
            let store = try makeStore(path, groups: compacted)
            let ticket = store.beginCompaction()
            try ticket.writeSnapshot(of: state)
            #expect(try store.finishCompaction(ticket).isEmpty)
            for group in logged {
                _ = try store.lockForWriting()
                try store.append(group)
                try store.commit()
            }
            snapshot = readFile(path + "/snapshot")!
            journal = readFile(path + "/journal")!
            records = recordRanges(journal)
            #expect(records.count == 5 && records.last!.upperBound == journal.count)
            #expect(try DurableStore.open(path).1.item(ItemID(next - 2))?.title == "C renamed")
        }
    }

    /// Asserts, for one flip of every byte of the second (then the third) journal record (bits cycling 0...7):
    /// - open throws `.corrupt` naming the journal and the damaged record's offset, and the journal and the
    ///   snapshot are byte for byte as they were (the lock file is the only file open adds);
    /// - `check` reports the store damaged, names the damaged range, and salvages the snapshot plus every
    ///   valid record that still applies: with record 5 damaged, records 4, 6, 7, 8; with record 6 damaged,
    ///   records 4, 5 and 8 (record 7 renames the item record 6 created, so it is reported and left out);
    /// - `recover` into a new directory makes a store that opens to exactly that state, healthy, through record 8.
    @Test func aFlipInAnyByteOfAnEarlierRecordIsCorruption() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let store = try SnapshotAndFive(scratch)
        let records = store.records
        let salvaged = [
            1: try applying(store.compacted + [store.logged[0], store.logged[2], store.logged[3], store.logged[4]]),
            2: try applying(store.compacted + [store.logged[0], store.logged[1], store.logged[4]]),
        ]
        for damaged in [1, 2] {
            let range = records[damaged]
            for index in range {
                let what = "record \(damaged + 4), byte \(index)"
                let journal = flipping(store.journal, at: index, bit: index % 8)
                let path = scratch.path("damaged-\(index)")
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
                try writeFile(path + "/snapshot", store.snapshot)
                try writeFile(path + "/journal", journal)

                let failure = storeFailure { () throws(StoreFailure) in try DurableStore.open(path) }
                #expect(failure?.kind == .corrupt, "\(what)")
                #expect(failure?.file == path + "/journal", "\(what)")
                #expect(failure?.offset == range.lowerBound, "\(what)")
                #expect(failure?.retryable == false, "\(what)")
                #expect(failure?.message.contains("damaged at byte \(range.lowerBound)") == true, "\(what): \(failure?.message ?? "")")
                #expect(readFile(path + "/journal") == journal, "\(what): the journal is unchanged")
                #expect(readFile(path + "/snapshot") == store.snapshot, "\(what): the snapshot is unchanged")
                #expect(names(in: path) == ["journal", "lock", "snapshot"], "\(what)")

                let report = StoreInspection.check(path)
                #expect(!report.healthy, "\(what)")
                #expect(report.lines.contains("journal: damaged bytes \(range.lowerBound)..<\(range.upperBound) (\(range.count) bytes); valid records follow at byte \(range.upperBound)"),
                        "\(what): \(report.lines)")
                if damaged == 2 {
                    #expect(report.lines.contains("journal: record 7 at byte \(records[3].lowerBound) is valid but does not apply; left out"),
                            "\(what): \(report.lines)")
                }
                #expect(report.sequence == 8, "\(what)")
                expectSameState(report.state, salvaged[damaged]!, "\(what): salvaged")
                #expect(readFile(path + "/journal") == journal && readFile(path + "/snapshot") == store.snapshot,
                        "\(what): check changes nothing")

                let recovered = path + "-recovered"
                try StoreInspection.recover(report, to: recovered)
                let (reopened, state) = try DurableStore.open(recovered)
                expectSameState(state, salvaged[damaged]!, "\(what): recovered")
                #expect(reopened.sequence == 8, "\(what)")
                #expect(StoreInspection.check(recovered).healthy, "\(what)")
            }
        }
    }

    @Test func aRecoveredStoreTakesNewRecords() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let store = try SnapshotAndFive(scratch)
        let path = scratch.path("damaged")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try writeFile(path + "/snapshot", store.snapshot)
        try writeFile(path + "/journal", flipping(store.journal, at: store.records[1].lowerBound + 20, bit: 3))
        let report = StoreInspection.check(path)
        try StoreInspection.recover(report, to: scratch.path("recovered"))

        var state: TaskState
        do {
            let (recovered, opened) = try DurableStore.open(scratch.path("recovered"))
            state = opened
            try writeTurn(recovered, &state, groups: 2, from: 50)
            #expect(recovered.sequence == 10)
        }
        let (reopened, again) = try DurableStore.open(scratch.path("recovered"))
        expectSameState(again, state)
        #expect(reopened.sequence == 10)
        #expect(try journalRecords(scratch.path("recovered/journal")).records.map(\.sequence) == [9, 10])
        // Recovering into a directory that holds a store is refused.
        let refused = storeFailure { () throws(StoreFailure) in try StoreInspection.recover(report, to: scratch.path("recovered")) }
        #expect(refused?.message.contains("not empty") == true)
    }

    @Test func aRecordRepeatedIsCorruptionNotAppliedTwice() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let five = try FiveRecords(scratch)
        let path = scratch.path("store")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        // Record 5 written twice, then a valid record 6: the copy has a valid checksum but the wrong sequence.
        var journal = five.bytes + five.bytes[five.records[4]]
        journal += StoreFormat.record(sequence: 6, payload: Array(five.bytes[(five.records[4].lowerBound + 16)...]))
        try writeFile(path + "/journal", journal)
        let failure = storeFailure { () throws(StoreFailure) in try DurableStore.open(path) }
        #expect(failure?.kind == .corrupt)
        #expect(failure?.offset == five.bytes.count)
        #expect(failure?.message.contains("record 5 where record 6 was expected") == true, "\(failure?.message ?? "")")
        #expect(readFile(path + "/journal") == journal)
    }

    @Test func aValidRecordThatDoesNotDecodeOrApplyIsCorruption() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let five = try FiveRecords(scratch)
        let cases: [(name: String, payload: [UInt8], problem: String)] = [
            ("undecodable", [1, 200], "record 6"),
            ("unknown list", {
                var payload: [UInt8] = []
                MutationCodec.encode([.createItem(id: ItemID(1_000), list: ListID(999), fields: ItemFields(title: "x"),
                                                  before: nil, at: Timestamp(milliseconds: 0))], into: &payload)
                return payload
            }(), "record 6 does not apply"),
        ]
        for (name, payload, problem) in cases {
            let path = scratch.path(name)
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            let journal = five.bytes + StoreFormat.record(sequence: 6, payload: payload)
            try writeFile(path + "/journal", journal)
            let failure = storeFailure { () throws(StoreFailure) in try DurableStore.open(path) }
            #expect(failure?.kind == .corrupt, "\(name)")
            #expect(failure?.message.contains(problem) == true, "\(name): \(failure?.message ?? "")")
            #expect((failure?.offset ?? 0) >= five.bytes.count, "\(name): the offset is in the record")
            #expect(readFile(path + "/journal") == journal, "\(name)")
        }
    }
}
