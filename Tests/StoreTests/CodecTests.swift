// Codec tests: CRC-32 vectors, every mutation and a random state round-tripped, truncated and corrupted bytes refused.

import Domain
@testable import Store
import Testing
import TestSupport

@Suite struct StoreCodecTests {
    // MARK: CRC-32

    @Test func crcKnownVectors() {
        #expect(CRC32.checksum([UInt8]()) == 0)
        #expect(CRC32.checksum(Array("a".utf8)) == 0xE8B7_BE43)
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum(Array("The quick brown fox jumps over the lazy dog".utf8)) == 0x414F_A339)
        #expect(CRC32.checksum([UInt8](repeating: 0, count: 32)) == 0x190A_55AD)
    }

    @Test func crcContinuesFromASeedAndAgreesAcrossPaths() {
        var random = SplitMix64(seed: 7)
        let bytes = (0..<300).map { _ in UInt8.random(in: 0...255, using: &random) }
        let whole = CRC32.checksum(bytes)
        for split in 0...bytes.count {
            #expect(CRC32.checksum(bytes[split...], seed: CRC32.checksum(bytes[..<split])) == whole)
        }
        #expect(CRC32.checksum(bytes.lazy.map { $0 }) == whole, "byte-at-a-time path")
        #expect(bytes.withUnsafeBytes { CRC32.checksum($0) } == whole, "raw buffer path")
    }

    // MARK: Primitives

    @Test func primitivesRoundTrip() throws {
        let unsigned: [UInt64] = [0, 1, 127, 128, 16_383, 16_384, UInt64(UInt32.max), UInt64.max - 1, UInt64.max]
        let signed: [Int64] = [0, -1, 1, -64, 64, Int64.min, Int64.max, -1_700_000_000_000]
        var writer = ByteWriter()
        for value in unsigned { writer.writeVarint(value) }
        for value in signed { writer.writeSignedVarint(value) }
        writer.writeFixed(UInt32(0xDEAD_BEEF))
        writer.writeFixed(UInt64.max - 5)
        writer.writeString("Zoë 🙂 日本")
        writer.writeBool(true)
        writer.writeOptional(String?.none) { $0.writeString($1) }
        writer.writeOptional("x") { $0.writeString($1) }
        #expect(Array(writer.bytes[0..<4]) == [0, 1, 127, 0x80])
        try ByteReader.reading(writer.bytes) { (reader: inout ByteReader) throws(CodecError) in
            for value in unsigned { #expect(try reader.readVarint() == value) }
            for value in signed { #expect(try reader.readSignedVarint() == value) }
            #expect(try reader.readFixed(UInt32.self) == 0xDEAD_BEEF)
            #expect(try reader.readFixed(UInt64.self) == UInt64.max - 5)
            #expect(try reader.readString() == "Zoë 🙂 日本")
            #expect(try reader.readBool())
            #expect(try reader.readOptional { reader throws(CodecError) in try reader.readString() } == nil)
            #expect(try reader.readOptional { reader throws(CodecError) in try reader.readString() } == "x")
            try reader.expectEnd()
        }
    }

    @Test func primitivesRefuseMalformedBytes() {
        enum Read { case varint, bool, string, title, bytes, fixed, end }
        func problem(_ bytes: [UInt8], _ read: Read) -> CodecError? {
            do throws(CodecError) {
                try ByteReader.reading(bytes) { (reader: inout ByteReader) throws(CodecError) in
                    switch read {
                    case .varint: _ = try reader.readVarint()
                    case .bool: _ = try reader.readBool()
                    case .string: _ = try reader.readString()
                    case .title: _ = try reader.readTitle()
                    case .bytes: _ = try reader.readBytes()
                    case .fixed: _ = try reader.readFixed(UInt32.self)
                    case .end: try reader.expectEnd()
                    }
                }
                return nil
            } catch { return error }
        }
        #expect(problem([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02], .varint) != nil, "past 64 bits")
        #expect(problem([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01], .varint) == nil)
        #expect(problem([0x80], .varint) != nil)
        #expect(problem([2], .bool)?.offset == 0)
        #expect(problem([2, 0xC3, 0x28], .string) != nil, "invalid UTF-8")
        #expect(problem([2, 0xED, 0xA0, 0x80], .string) != nil, "a surrogate")
        #expect(problem([3, 0xF0, 0x9F, 0x99], .string) != nil, "a cut scalar")
        #expect(problem([2, 0x41], .string) != nil, "truncated string")
        // A title is read straight into its block, with the same checks and the same offset as a string.
        #expect(problem([2, 0xC3, 0x28], .title)?.offset == 1, "invalid UTF-8 title")
        #expect(problem([3, 0xF0, 0x9F, 0x99], .title)?.offset == 1, "a cut scalar in a title")
        #expect(problem([2, 0xC3, 0x28], .string)?.offset == 1)
        #expect(problem([2, 0x41], .title) != nil, "truncated title")
        #expect(problem([2, 0xC3, 0xA9], .title) == nil && problem([1, 0x41], .title) == nil)
        #expect(problem([0xFF, 0xFF, 0xFF, 0x7F, 1, 2], .bytes)?.offset == 0, "count past the end")
        #expect(problem([3, 1, 2], .fixed) != nil)
        #expect(problem([], .end) == nil)
        #expect(problem([1, 2], .end)?.offset == 0)
    }

    // MARK: Mutations

    @Test func everyMutationRoundTrips() {
        let group = sampleMutations()
        #expect(decodeGroup(encodeGroup(group)) == .success(group))
        for mutation in group {
            #expect(decodeGroup(encodeGroup([mutation])) == .success([mutation]))
        }
        #expect(decodeGroup(encodeGroup([])) == .success([]))
        var appended: [UInt8] = [9, 9]
        MutationCodec.encode(group, into: &appended)
        #expect(Array(appended[2...]) == encodeGroup(group), "encode appends")
    }

    @Test func everyTruncationOfAGroupIsRefused() {
        let bytes = encodeGroup(sampleMutations())
        for length in 0..<bytes.count {
            guard case .failure = decodeGroup(Array(bytes[..<length])) else {
                Issue.record("a group cut to \(length) of \(bytes.count) bytes decoded")
                continue
            }
        }
        guard case .failure(let error) = decodeGroup(bytes + [0]) else { Issue.record("trailing byte accepted"); return }
        #expect(error.offset == bytes.count)
    }

    @Test func unknownTagsAreRefused() {
        #expect(decodeGroup([1, 0, 0]) == .failure(CodecError(offset: 1, problem: "unknown mutation tag 0")))
        #expect(decodeGroup([1, 14, 0]).isFailure)
        #expect(decodeGroup([1, 0x0E]).isFailure, "a repeating creation cut short")
        #expect(decodeGroup([1, 18, 0]) == .success([.restoreItems(items: [])]), "items with uids and extras, none")
        #expect(decodeGroup([1, 19]).isFailure && decodeGroup([1, 19, 1]).isFailure, "an insert cut short")
        #expect(decodeGroup([1, 20, 0]).isFailure, "a smart list's creation cut short")
        #expect(decodeGroup([1, 25]).isFailure && decodeGroup([1, 28, 0]).isFailure, "a creation with extras cut short")
        #expect(decodeGroup([1, 29, 0]) == .failure(CodecError(offset: 1, problem: "unknown mutation tag 29")), "the tags end at 28")
        #expect(decodeGroup([0xFF, 0xFF, 0xFF, 0x0F]).isFailure, "a huge count")
    }

    /// The tags for uids and extras (18, 19, 28) are written only for what needs them, so a store that uses nothing
    /// of import stays readable by the taskls before it.
    @Test func theNewTagsAreWrittenOnlyWhenNeeded() {
        let time = Timestamp(milliseconds: 1_763_800_000_123)
        func item(parent: ItemID? = nil, alerts: [Alert] = [], uid: String? = nil, extras: [Extra] = []) -> Item {
            Item(id: ItemID(9), list: ListID(4), title: "t", notes: "", done: false, completedAt: nil, due: nil, priority: .none,
                 tags: [], createdAt: time, modifiedAt: time, revision: 2, position: .initial, parent: parent, alerts: alerts,
                 uid: uid, extras: extras)
        }
        func tag(_ mutation: Mutation) -> UInt8 { encodeGroup([mutation])[1] }
        let extras = [Extra(key: "ical:X-A", value: "1")]
        #expect(tag(.restoreItems(items: [item()])) == 10)
        #expect(tag(.restoreItems(items: [item(), item(parent: ItemID(3))])) == 13)
        #expect(tag(.restoreItems(items: [item(parent: ItemID(3)), item(alerts: [.at(time)])])) == 16)
        #expect(tag(.restoreItems(items: [item(alerts: [.at(time)]), item(uid: "u")])) == 18)
        #expect(tag(.restoreItems(items: [item(extras: extras), item()])) == 18)
        #expect(tag(.insertItems(items: [item()])) == 19)
        #expect(tag(.createItem(id: ItemID(9), list: ListID(4), fields: ItemFields(title: "t", alerts: [.at(time)]), before: nil, at: time)) == 14)
        #expect(tag(.createItem(id: ItemID(9), list: ListID(4), fields: ItemFields(title: "t", extras: extras), before: nil, at: time)) == 28)
        for mutation in [Mutation.restoreItems(items: [item(uid: "u", extras: extras)]), .insertItems(items: [item(uid: "ü", extras: extras)])] {
            #expect(decodeGroup(encodeGroup([mutation])) == .success([mutation]))
        }
    }

    @Test func corruptedGroupsAreRefusedWithAnOffsetOrDecodeToWhatTheyEncode() {
        var random = SplitMix64(seed: 11)
        let bytes = encodeGroup(sampleMutations())
        var refused = 0
        var changed = 0
        for round in 0..<20_000 {
            let damaged = corrupt(bytes, &random)
            if damaged != bytes { changed += 1 }
            switch decodeGroup(damaged) {
            case .failure(let error):
                refused += 1
                // The offset points into the bytes (or at their end, for bytes cut short).
                #expect((0...damaged.count).contains(error.offset) && !error.problem.isEmpty, "round \(round): \(error)")
            case .success(let group):
                // Whatever is accepted is a group the codec writes and reads back unchanged (the
                // bytes need not be its canonical encoding: a varint may carry a zero high group).
                #expect(decodeGroup(encodeGroup(group)) == .success(group), "round \(round): \(group) does not round-trip")
            }
        }
        // The corruptions were real, and most of them were refused.
        #expect(changed > 19_000)
        #expect(refused > 10_000, "only \(refused) of 20000 corrupted groups were refused")
    }

    // MARK: Snapshots

    @Test func randomStateRoundTrips() throws {
        let state = try randomState(seed: 3, items: 4000)
        var repeating = 0
        var histories = 0
        state.forEachItem { item in
            if item.repeatRule != nil { repeating += 1 }
            if item.occurrences.used > 0 { histories += 1 }
        }
        #expect(repeating > 100 && histories > 50, "the state has repeating items with histories: \(repeating), \(histories)")
        var uids = 0
        var extras = 0
        state.forEachItem { item in
            if let uid = item.uid, state.item(withUID: uid)?.id == item.id { uids += 1 }
            if !item.extras.isEmpty { extras += 1 }
        }
        #expect(uids > 100 && extras > 100, "the state has imported items with uids and extras: \(uids), \(extras)")
        let bytes = SnapshotCodec.encode(state)
        var reports: [Double] = []
        let decoded = try bytes.withUnsafeBytes { raw throws(CodecError) in
            try SnapshotCodec.decode(raw) { reports.append($0) }
        }
        expectSame(state, decoded)
        #expect(SnapshotCodec.encode(decoded) == bytes)
        #expect(reports.last == 1)
        state.forEachItem { item in
            if let uid = item.uid, decoded.item(withUID: uid)?.id != item.id { Issue.record("uid \(uid) of \(item.id) is not indexed") }
        }
    }

    @Test func emptyStateRoundTrips() throws {
        let bytes = SnapshotCodec.encode(TaskState())
        #expect(bytes == [1, 0, 0, 0, 0, 0, 0])  // next id 1, revision 0, no lists, no items, no chunks, no smart lists, no reminders
        expectSame(TaskState(), try bytes.withUnsafeBytes { raw throws(CodecError) in try SnapshotCodec.decode(raw) })
    }

    /// A snapshot decodes with its checksum computed beside its chunks (one more task, on another thread): the same
    /// state as without, and nil (never the decoding's own error) for any damage the checksum sees, or for another
    /// checksum.
    @Test func theChecksumIsCheckedBesideTheChunks() throws {
        let state = try randomState(seed: 8, items: 9_000)
        let bytes = SnapshotCodec.encode(state)
        let checksum = CRC32.checksum(bytes)
        let decoded = try bytes.withUnsafeBytes { raw throws(CodecError) in try SnapshotCodec.decode(raw, checksum: checksum) }
        guard let decoded else { Issue.record("the snapshot's own checksum was refused"); return }
        expectSame(state, decoded)
        #expect(SnapshotCodec.encode(decoded) == bytes)
        let other = try bytes.withUnsafeBytes { raw throws(CodecError) in try SnapshotCodec.decode(raw, checksum: checksum ^ 1) }
        #expect(other == nil, "another checksum was accepted")

        let small = SnapshotCodec.encode(try randomState(seed: 9, items: 12))
        let smallChecksum = CRC32.checksum(small)
        var random = SplitMix64(seed: 10)
        var damaged = 0
        for _ in 0..<2_000 {
            let bad = corrupt(small, &random)
            guard CRC32.checksum(bad) != smallChecksum else { continue }
            damaged += 1
            let result = bad.withUnsafeBytes { raw in
                Result { () throws(CodecError) in try SnapshotCodec.decode(raw, checksum: smallChecksum) }
            }
            guard case .success(nil) = result else {
                Issue.record("damaged bytes were not refused by their checksum: \(result)")
                return
            }
        }
        #expect(damaged > 1_900, "the corruptions changed the checksum: \(damaged)")
    }

    @Test func everyTruncationOfASnapshotIsRefusedAndCorruptionNeverCrashes() throws {
        let bytes = SnapshotCodec.encode(try randomState(seed: 5, items: 12))
        for length in 0..<bytes.count {
            if case .success = decodeSnapshot(Array(bytes[..<length])) {
                Issue.record("a snapshot cut to \(length) of \(bytes.count) bytes decoded")
            }
        }
        #expect(decodeSnapshot(bytes + [0]).isFailure)
        var random = SplitMix64(seed: 13)
        for _ in 0..<20_000 {
            _ = decodeSnapshot(corrupt(bytes, &random))
        }
    }

    @Test func aStateTheDomainRefusesIsACodecError() throws {
        var state = TaskState()
        _ = try state.apply([.createList(id: ListID(1), fields: ListFields(name: "A"), before: nil)])
        var bytes = SnapshotCodec.encode(state)
        #expect(bytes[0] == 2)
        bytes[0] = 1   // nextIdentifier 1: the list's id is not below it
        guard case .failure(let error) = decodeSnapshot(bytes) else { Issue.record("accepted"); return }
        #expect(error.offset == bytes.count)
        #expect(error.problem.contains("l1"))
    }
}

// MARK: Helpers

private extension Result {
    var isFailure: Bool { if case .failure = self { true } else { false } }
}

private func encodeGroup(_ group: [Mutation]) -> [UInt8] {
    var bytes: [UInt8] = []
    MutationCodec.encode(group, into: &bytes)
    return bytes
}

private func decodeGroup(_ bytes: [UInt8]) -> Result<[Mutation], CodecError> {
    bytes.withUnsafeBytes { raw in Result { () throws(CodecError) in try MutationCodec.decode(raw) } }
}

private func decodeSnapshot(_ bytes: [UInt8]) -> Result<TaskState, CodecError> {
    bytes.withUnsafeBytes { raw in Result { () throws(CodecError) in try SnapshotCodec.decode(raw) } }
}

/// `bytes` with one to four random bytes changed, dropped, inserted, or the tail cut.
private func corrupt(_ bytes: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
    var result = bytes
    for _ in 0..<Int.random(in: 1...4, using: &random) where !result.isEmpty {
        let index = Int.random(in: 0..<result.count, using: &random)
        switch Int.random(in: 0..<4, using: &random) {
        case 0: result[index] = UInt8.random(in: 0...255, using: &random)
        case 1: result.remove(at: index)
        case 2: result.insert(UInt8.random(in: 0...255, using: &random), at: index)
        default: result[index] ^= 1 << UInt8.random(in: 0..<8, using: &random)
        }
    }
    return result
}

/// Every mutation case, with every optional field both absent and present and every `Clearable` choice.
private func sampleMutations() -> [Mutation] {
    let time = Timestamp(milliseconds: 1_763_800_000_123)
    let past = Timestamp(milliseconds: -86_400_001)
    let date = Due.date(CalendarDate(year: 2026, month: 2, day: 28)!)
    let instant = Due.dateTime(Timestamp(milliseconds: 1_763_803_800_000), offsetSeconds: -18 * 3600)
    let list = TaskList(id: ListID(4), name: "Ärende 📋", color: "#FF9500", icon: nil, position: Position(bytes: [128, 3, 7]))
    let bare = TaskList(id: ListID(UInt64.max), name: "b", color: nil, icon: "star", position: Position(bytes: [127, 255]))
    let item = Item(id: ItemID(9), list: ListID(4), title: "Buy 日本 tea", notes: "line\nline", done: true,
                    completedAt: time, due: instant, priority: .high, tags: ["a", "b c"], createdAt: past,
                    modifiedAt: time, revision: 7, position: Position(bytes: [128, 0, 1]))
    let plain = Item(id: ItemID(10), list: ListID(4), title: "x", notes: "", done: false, completedAt: nil, due: nil,
                     priority: .none, tags: [], createdAt: time, modifiedAt: time, revision: 1, position: Position.initial)
    let weekly = try! RepeatRule(rrule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE;UNTIL=20271231", anchor: .dueFuture)
    let monthly = try! RepeatRule(rrule: "FREQ=MONTHLY;BYDAY=-1FR;COUNT=12", anchor: .completion)
    let history = Occurrences(completed: 30, skipped: 2, recent: [
        Occurrence(due: date, outcome: .completed, at: past), Occurrence(due: instant, outcome: .skipped, at: time),
    ])
    let repeating = Item(id: ItemID(16), list: ListID(4), title: "every", notes: "", done: false, completedAt: nil, due: instant,
                         priority: .none, tags: [], createdAt: time, modifiedAt: time, revision: 40, position: Position.initial,
                         repeatRule: weekly, occurrences: history)
    let alerted = Item(id: ItemID(16), list: ListID(4), title: "alerted", notes: "", done: false, completedAt: nil, due: date,
                       priority: .none, tags: [], createdAt: time, modifiedAt: time, revision: 3, position: Position.initial,
                       alerts: [.offset(minutes: 540), .at(time)])
    let subtask = Item(id: ItemID(13), list: ListID(4), title: "under", notes: "", done: false, completedAt: nil, due: nil,
                       priority: .none, tags: [], createdAt: time, modifiedAt: time, revision: 2, position: Position.initial,
                       parent: ItemID(9))
    let extras = [Extra(key: "taskwarrior:uda.estimate", value: "3"), Extra(key: "ical:X-APPLE-SORT-ORDER", value: ";X=1:a\tb\nc"),
                  Extra(key: "todotxt:t", value: "")]
    let imported = Item(id: ItemID(17), list: ListID(4), title: "imported", notes: "", done: true, completedAt: past, due: instant,
                        priority: .low, tags: ["tw"], createdAt: past, modifiedAt: time, revision: 5, position: Position(bytes: [128, 4]),
                        parent: ItemID(9), repeatRule: weekly, occurrences: history, alerts: [.at(time)],
                        uid: "0c3a4e0e-7f1c-4c3e-9a55-2d9a1b1a6f00", extras: extras)
    let uidOnly = Item(id: ItemID(UInt64.max - 1), list: ListID(4), title: "ical", notes: "", done: false, completedAt: nil, due: nil,
                       priority: .none, tags: [], createdAt: time, modifiedAt: time, revision: 1, position: Position.initial,
                       uid: "20261122T093000Z-1@example.com 日本")
    return [
        .createList(id: ListID(1), fields: ListFields(name: "Inbox"), before: nil),
        .createList(id: ListID(2), fields: ListFields(name: "Zoë", color: "red", icon: "🙂"), before: ListID(1)),
        .updateList(id: ListID(2), patch: ListPatch()),
        .updateList(id: ListID(2), patch: ListPatch(name: "N", color: .set("blue"), icon: .clear)),
        .updateList(id: ListID(2), patch: ListPatch(color: .clear, icon: .set("i"))),
        .deleteList(id: ListID(3)),
        .moveLists(ids: [ListID(1), ListID(2)], before: nil),
        .moveLists(ids: [ListID(2)], before: ListID(1)),
        .createItem(id: ItemID(5), list: ListID(1), fields: ItemFields(title: "t"), before: nil, at: time),
        .createItem(id: ItemID(6), list: ListID(1),
                    fields: ItemFields(title: "É", notes: "n", done: true, due: date, priority: .low, tags: ["x"]),
                    before: ItemID(5), at: past),
        .createItem(id: ItemID(7), list: ListID(2), fields: ItemFields(title: "d", due: instant, priority: .medium),
                    before: nil, at: time),
        .updateItems(ids: [ItemID(5)], patch: ItemPatch(), at: time),
        .updateItems(ids: [ItemID(5), ItemID(6)],
                     patch: ItemPatch(title: "u", notes: "", done: false, due: .set(date), priority: .high, tags: []),
                     at: time),
        .updateItems(ids: [ItemID(6)], patch: ItemPatch(done: true, due: .clear, tags: ["p", "q"]), at: past),
        .updateItems(ids: [ItemID(6)], patch: ItemPatch(due: .set(instant)), at: time),
        .deleteItems(ids: [ItemID(5), ItemID(UInt64.max)]),
        .moveItems(ids: [ItemID(6)], toList: nil, before: nil, at: time),
        .moveItems(ids: [ItemID(6), ItemID(7)], toList: ListID(2), before: ItemID(8), at: time),
        .restoreLists(lists: []),
        .restoreLists(lists: [list, bare]),
        .restoreItems(items: []),
        .restoreItems(items: [item, plain]),
        // Subtasks (tags 11 to 13): a creation under a parent or at the top level by name, moves with a parent or to
        // the top level, and items restored with their parents.
        .createItem(id: ItemID(11), list: ListID(1), fields: ItemFields(title: "sub"), before: nil, parent: .set(ItemID(6)), at: time),
        .createItem(id: ItemID(12), list: ListID(1), fields: ItemFields(title: "top"), before: ItemID(6), parent: .clear, at: time),
        .moveItems(ids: [ItemID(7)], toList: nil, before: nil, parent: .set(ItemID(UInt64.max)), at: time),
        .moveItems(ids: [ItemID(7), ItemID(6)], toList: ListID(2), before: ItemID(8), parent: .clear, at: past),
        .restoreItems(items: [subtask, item]),
        // Repeating items (tags 14 to 17): a creation with a rule (at the top level and under a parent), updates that
        // set and clear a rule, items restored with their rules and histories, and advances.
        .createItem(id: ItemID(14), list: ListID(1), fields: ItemFields(title: "r", due: date, repeatRule: weekly), before: nil, at: time),
        .createItem(id: ItemID(15), list: ListID(1), fields: ItemFields(title: "r", due: instant, repeatRule: monthly), before: ItemID(6),
                    parent: .set(ItemID(6)), at: past),
        .updateItems(ids: [ItemID(14)], patch: ItemPatch(title: "again", repeatRule: .set(monthly)), at: time),
        .updateItems(ids: [ItemID(14), ItemID(15)], patch: ItemPatch(due: .clear, repeatRule: .clear), at: time),
        .restoreItems(items: [repeating, plain]),
        .restoreItems(items: [subtask, repeating]),
        .advanceItems(advances: [Advance(id: ItemID(14), next: date, outcome: .completed),
                                 Advance(id: ItemID(15), next: instant, outcome: .skipped)], at: time),
        // Smart lists (tags 20 to 24): every member of a filter, every choice of sources.
        .createSmartList(id: SmartListID(14), fields: SmartListFields(name: "All"), before: nil),
        .createSmartList(id: SmartListID(15), fields: SmartListFields(name: "Ürgent", color: "red", icon: "⚡", rule: fullRule),
                         before: SmartListID(14)),
        .updateSmartList(id: SmartListID(15), patch: SmartListPatch()),
        .updateSmartList(id: SmartListID(15), patch: SmartListPatch(name: "n", color: .clear, icon: .set("i"),
                                                                    filter: Filter(done: .done), lists: .clear)),
        .updateSmartList(id: SmartListID(15), patch: SmartListPatch(lists: .set([]))),
        .updateSmartList(id: SmartListID(15), patch: SmartListPatch(lists: .set([ListID(2), ListID(1)]))),
        .deleteSmartList(id: SmartListID(UInt64.max)),
        .moveSmartLists(ids: [SmartListID(15), SmartListID(14)], before: nil),
        .moveSmartLists(ids: [SmartListID(14)], before: SmartListID(15)),
        .restoreSmartLists(smartLists: []),
        .restoreSmartLists(smartLists: [SmartList(id: SmartListID(15), name: "s", color: nil, icon: "x", rule: fullRule,
                                                  position: Position(bytes: [128, 9]))]),
        // Alerts and reminders (tags 14 to 16, 25 to 27): a creation, an update and a restore that carry alerts, and the
        // reminder records.
        .createItem(id: ItemID(14), list: ListID(1), fields: ItemFields(title: "a", alerts: [.offset(minutes: -60), .at(past)]),
                    before: nil, at: time),
        .createItem(id: ItemID(15), list: ListID(1), fields: ItemFields(title: "b", alerts: [.offset(minutes: Alert.maximumOffsetMinutes)]),
                    before: ItemID(14), parent: .set(ItemID(6)), at: time),
        .updateItems(ids: [ItemID(14)], patch: ItemPatch(title: "c", alerts: [.at(time)]), at: time),
        .updateItems(ids: [ItemID(14)], patch: ItemPatch(alerts: []), at: past),
        .restoreItems(items: [alerted, plain]),
        .fireReminders(reminders: [FiredReminder(key: ReminderKey(item: ItemID(14), fireAt: past), alert: .at(past)),
                                   FiredReminder(key: ReminderKey(item: ItemID(15), fireAt: time), alert: .offset(minutes: -527_040))],
                       at: time),
        .fireReminders(reminders: [], at: past),
        .dismissReminder(ReminderKey(item: ItemID(14), fireAt: past), at: time),
        .snoozeReminder(ReminderKey(item: ItemID(UInt64.max), fireAt: time), until: past, at: time),
        // Import (tags 18, 19 and 28): items restored and inserted with their uids and extras, and a creation carrying
        // extras (a duplicate of an imported item), at the top level and under a parent.
        .restoreItems(items: [imported, plain]),
        .restoreItems(items: [uidOnly]),
        .insertItems(items: []),
        .insertItems(items: [plain, imported, uidOnly, subtask]),
        .createItem(id: ItemID(18), list: ListID(4), fields: ItemFields(title: "copy", extras: extras), before: nil, at: time),
        .createItem(id: ItemID(19), list: ListID(4), fields: ItemFields(title: "copy", due: date, repeatRule: monthly, alerts: [.at(past)],
                                                                       extras: [extras[1]]),
                    before: ItemID(17), parent: .set(ItemID(9)), at: past),
    ]
}

/// A rule with every member of a filter set and two source lists.
private let fullRule = SmartListRule(
    filter: Filter(text: "Café", done: .notDone, tagsAnyOf: ["a", "b"], tagsAllOf: ["c"], priorityAtLeast: .medium,
                   dueBefore: .date(CalendarDate(year: 2026, month: 12, day: 31)!),
                   dueAfter: .dateTime(Timestamp(milliseconds: 1_763_803_800_000), offsetSeconds: 3600)),
    lists: [ListID(1), ListID(4)])

/// A state of `items` items in a dozen lists, built by mutations: unicode titles, every optional field,
/// positions from inserts in the middle, moves between lists, updates and deletes.
private func randomState(seed: UInt64, items count: Int) throws -> TaskState {
    var random = SplitMix64(seed: seed)
    var state = TaskState()
    let words = ["apple", "Éclair", "Zoë", "日本語", "🙂 smile", "e\u{301}cole", "straße", "Ωmega", "tea", "İstanbul"]
    func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &random)] }
    let rules = try ["FREQ=DAILY", "FREQ=WEEKLY;BYDAY=MO,FR", "FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=5"].map { text in
        try RepeatRule(rrule: text, anchor: pick(RepeatRule.Anchor.allCases))
    }
    var lists: [ListID] = []
    for index in 0..<12 {
        let id = ListID(state.nextIdentifier)
        let fields = ListFields(name: pick(words), color: index % 2 == 0 ? "#00FF\(index)" : nil, icon: index % 3 == 0 ? "star" : nil)
        _ = try state.apply([.createList(id: id, fields: fields, before: lists.isEmpty || index % 4 != 0 ? nil : pick(lists))])
        lists.append(id)
    }
    var items: [ItemID] = []
    for index in 0..<count {
        let id = ItemID(state.nextIdentifier)
        let list = pick(lists)
        let due: Due? = switch index % 3 {
        case 0: nil
        case 1: .date(CalendarDate(year: Int.random(in: 1...9999, using: &random), month: pick(Array(1...12)), day: pick(Array(1...28)))!)
        default: .dateTime(Timestamp(milliseconds: Int64.random(in: -10_000_000_000_000...10_000_000_000_000, using: &random)),
                           offsetSeconds: Int.random(in: -64_800...64_800, using: &random))
        }
        let rule = due != nil && index % 7 == 1 ? pick(rules) : nil
        let fields = ItemFields(title: (0..<Int.random(in: 1...5, using: &random)).map { _ in pick(words) }.joined(separator: " "),
                                notes: index % 4 == 0 ? "notes \(pick(words))" : "", done: index % 5 == 0, due: due,
                                priority: pick(Priority.allCases), tags: index % 6 == 0 ? [pick(words), "t\(index % 7)"] : [],
                                repeatRule: rule)
        let before = index % 3 == 0 ? state.items(in: list, ranks: 0..<Int.max).randomElement(using: &random)?.id : nil
        _ = try state.apply([.createItem(id: id, list: list, fields: fields, before: before,
                                         at: Timestamp(milliseconds: Int64(1_700_000_000_000 + index)))])
        items.append(id)
    }
    // Imported items: a uid on some, extras on others, some under a parent.
    let imported = ListID(state.nextIdentifier)
    _ = try state.apply([.createList(id: imported, fields: ListFields(name: "Imported"), before: nil)])
    lists.append(imported)
    var inserted: [Item] = []
    let first = state.nextIdentifier
    let positions = Position.between(nil, nil, count: count / 10)
    for index in 0..<count / 10 {
        let id = first + UInt64(index)
        let parent = index % 4 == 3 ? ItemID(id - 1) : nil
        let extras = index % 3 == 0 ? [] : (0..<index % 5).map { Extra(key: "taskwarrior:uda.k\($0)", value: pick(words)) }
        inserted.append(Item(id: ItemID(id), list: imported, title: pick(words), notes: "", done: index % 5 == 0,
                             completedAt: index % 5 == 0 ? Timestamp(milliseconds: 1_650_000_000_000) : nil, due: nil, priority: .none,
                             tags: [], createdAt: Timestamp(milliseconds: 1_600_000_000_000), modifiedAt: Timestamp(milliseconds: 1_650_000_000_000),
                             revision: UInt64(1 + index % 3), position: parent == nil ? positions[index] : .initial, parent: parent,
                             uid: index % 2 == 0 ? "uuid-\(index)-\(pick(words))" : nil, extras: extras))
    }
    _ = try state.apply([.insertItems(items: inserted)])
    // Subtasks stay out of the random steps (their parent's deletion takes them along).
    items += inserted.filter { $0.parent == nil }.map(\.id)
    for step in 0..<count / 10 {
        let time = Timestamp(milliseconds: Int64(1_800_000_000_000 + step))
        let repeating = items.filter { state.item($0)?.repeatRule != nil }
        if step % 2 == 0, let id = repeating.randomElement(using: &random) {
            // A completion or a skip: the history grows (and the snapshot carries it).
            let next = Due.date(CalendarDate(year: 2030, month: 1, day: 1 + step % 28)!)
            _ = try state.apply([.advanceItems(advances: [Advance(id: id, next: next, outcome: step % 4 == 0 ? .completed : .skipped)], at: time)])
        }
        switch step % 3 {
        case 0: _ = try state.apply([.moveItems(ids: [pick(items)], toList: pick(lists), before: nil, at: time)])
        case 1: _ = try state.apply([.updateItems(ids: [pick(items)], patch: ItemPatch(title: pick(words), done: true), at: time)])
        default:
            let id = items.remove(at: Int.random(in: 0..<items.count, using: &random))
            _ = try state.apply([.deleteItems(ids: [id])])
        }
    }
    // Smart lists, of every list and of some, one of them before another.
    for index in 0..<4 {
        let rule = SmartListRule(filter: Filter(text: index == 1 ? pick(words) : "", done: index == 2 ? .notDone : .any,
                                                tagsAnyOf: index == 3 ? ["t1"] : []),
                                 lists: index % 2 == 0 ? nil : [pick(lists), pick(lists)])
        _ = try state.apply([.createSmartList(id: SmartListID(state.nextIdentifier),
                                              fields: SmartListFields(name: pick(words), icon: index == 0 ? "star" : nil, rule: rule),
                                              before: index == 3 ? state.orderedSmartLists.first?.id : nil)])
    }
    return state
}

/// Expects two states to be equal in everything they show.
private func expectSame(_ expected: TaskState, _ actual: TaskState, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(actual.lists == expected.lists, sourceLocation: sourceLocation)
    #expect(actual.allLists == expected.allLists, sourceLocation: sourceLocation)
    #expect(actual.nextIdentifier == expected.nextIdentifier, sourceLocation: sourceLocation)
    #expect(actual.revision == expected.revision, sourceLocation: sourceLocation)
    #expect(actual.itemCount == expected.itemCount, sourceLocation: sourceLocation)
    #expect(actual.orderedSmartLists == expected.orderedSmartLists, sourceLocation: sourceLocation)
    var expectedItems: [Item] = []
    expected.forEachItem { expectedItems.append($0) }
    var actualItems: [Item] = []
    actual.forEachItem { actualItems.append($0) }
    #expect(actualItems == expectedItems, sourceLocation: sourceLocation)
    for item in expectedItems where actual.item(item.id) != item {
        Issue.record("item \(item.id) differs", sourceLocation: sourceLocation)
    }
    for list in expected.allLists {
        #expect(actual.items(in: list.id, ranks: 0..<Int.max) == expected.items(in: list.id, ranks: 0..<Int.max),
                sourceLocation: sourceLocation)
        #expect(actual.itemCount(in: list.id) == expected.itemCount(in: list.id), sourceLocation: sourceLocation)
        #expect(actual.openItemCount(in: list.id) == expected.openItemCount(in: list.id), sourceLocation: sourceLocation)
    }
}
