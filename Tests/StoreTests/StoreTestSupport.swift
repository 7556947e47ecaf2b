// Store test support: scratch directories, journal bytes, deterministic groups of mutations, and state comparison.

import Foundation
import Testing
import Domain
@testable import Store
import TestSupport

// MARK: Scratch directories and files

/// A directory made for one test; `remove()` it in a `defer`.
struct Scratch {
    let path: String

    init() { path = makeTemporaryDirectory(prefix: "taskls-storetests") }

    /// A path inside the scratch directory (not created).
    func path(_ name: String) -> String { path + "/" + name }

    func remove() { removeTree(path) }
}

/// The permission bits of `path` (not following a link), or nil when there is nothing there.
func permissions(_ path: String) -> mode_t? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return info.st_mode & 0o7777
}

/// The targets of this process's open descriptors that lie under `path` (a leak check).
func openDescriptors(under path: String) -> [String] {
    names(in: "/proc/self/fd").compactMap { name in
        var target = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/fd/" + name, &target, target.count - 1)
        guard count > 0 else { return nil }
        let text = String(decoding: target[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.hasPrefix(path) ? text : nil
    }
}

/// Whether the store's lock is free now (tried without waiting, on a descriptor of its own).
func lockIsFree(_ path: String) -> Bool {
    let descriptor = open(path + "/lock", O_RDWR | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return false }
    _ = flock(descriptor, LOCK_UN)
    return true
}

/// Copies every regular file of directory `from` into `to` (created), byte for byte.
func copyStore(_ from: String, to: String) throws {
    try FileManager.default.createDirectory(atPath: to, withIntermediateDirectories: true)
    for name in names(in: from) {
        guard let bytes = readFile(from + "/" + name) else { continue }
        try writeFile(to + "/" + name, bytes)
    }
}

// MARK: Journal bytes

/// The byte ranges of a journal's records (each header and payload), read by their length fields.
func recordRanges(_ journal: [UInt8]) -> [Range<Int>] {
    var ranges: [Range<Int>] = []
    var offset = StoreFormat.journalHeaderSize
    while offset + StoreFormat.recordHeaderSize <= journal.count {
        let end = offset + StoreFormat.recordHeaderSize + Int(StoreFormat.read(UInt32.self, journal, offset))
        guard end <= journal.count else { break }
        ranges.append(offset..<end)
        offset = end
    }
    return ranges
}

/// The records of the journal file at `path`, decoded, as the scan finds them.
func journalRecords(_ path: String) throws -> (base: UInt64, records: [(sequence: UInt64, group: [Mutation])], how: ScanEnd) {
    let bytes = readFile(path) ?? []
    let base = try StoreFormat.journalBase(Array(bytes.prefix(StoreFormat.journalHeaderSize))).get()
    let body = Array(bytes.dropFirst(StoreFormat.journalHeaderSize))
    let scan = scanJournal(body, origin: StoreFormat.journalHeaderSize, next: base + 1)
    // A scanned record's payload range is relative to the scanned bytes (the journal past its header).
    let records = try scan.records.map { record in
        (record.sequence, try decoding(body, record.payload) { raw throws(CodecError) in try MutationCodec.decode(raw) })
    }
    return (base, records, scan.how)
}

/// The sequence a snapshot file's header names.
func snapshotSequence(_ path: String) throws -> UInt64 {
    try StoreFormat.parseSnapshotHeader(Array((readFile(path) ?? []).prefix(StoreFormat.snapshotHeaderSize))).get().sequence
}

/// `bytes` with bit `bit` of byte `index` flipped.
func flipping(_ bytes: [UInt8], at index: Int, bit: Int) -> [UInt8] {
    var copy = bytes
    copy[index] ^= UInt8(1) << UInt8(bit)
    return copy
}

// MARK: Groups of mutations

/// Group number `index` of a deterministic run, valid on `state`: lists and items created (some before
/// others), updated, moved between lists, deleted, and several mutations in one group.
func sampleGroup(_ index: Int, on state: TaskState) -> [Mutation] {
    let time = Timestamp(milliseconds: 1_750_000_000_000 + Int64(index) * 1_000)
    var next = state.nextIdentifier
    func fresh() -> UInt64 {
        defer { next += 1 }
        return next
    }
    let lists = state.orderedLists.map(\.id)
    guard !lists.isEmpty else {
        return [.createList(id: ListID(fresh()), fields: ListFields(name: "Inbox \(index)"), before: nil)]
    }
    let items = lists.flatMap { state.items(in: $0, ranks: 0..<Int.max).map(\.id) }
    let list = lists[index % lists.count]
    func create(_ title: String) -> Mutation {
        .createItem(id: ItemID(fresh()), list: list,
                    fields: ItemFields(title: title, notes: index % 3 == 0 ? "notes \(index)" : "",
                                       priority: Priority.allCases[index % 4], tags: index % 2 == 0 ? ["t\(index % 5)"] : []),
                    before: nil, at: time)
    }
    switch index % 8 {
    case 0:
        return [.createList(id: ListID(fresh()), fields: ListFields(name: "List \(index)", color: "#00FF00"), before: lists.first)]
    case 1 where !items.isEmpty:
        // A subtask (the journal's createItem with a parent), as deep as the tree allows.
        let parent = items[index % items.count]
        guard state.depth(of: parent) < Limits.maxDepth else { return [create("Item \(index) é")] }
        return [.createItem(id: ItemID(fresh()), list: state.item(parent)!.list, fields: ItemFields(title: "Sub \(index)"),
                            before: nil, parent: .set(parent), at: time)]
    case 2 where items.count >= 2:
        // Indenting (a move with a parent) when the item has a previous sibling, else outdenting it, else a move to
        // the top level (`parent: .clear`).
        let item = items[index % items.count]
        if let indent = try? state.indentMutation([item], at: time), applies(indent, on: state) { return [indent] }
        if let outdent = try? state.outdentMutation([item], at: time) { return [outdent] }
        return [.moveItems(ids: [item], toList: nil, before: nil, parent: .clear, at: time)]
    case 3 where !items.isEmpty:
        let before = items[index % items.count]
        return [.createItem(id: ItemID(fresh()), list: state.item(before)!.list, fields: ItemFields(title: "Before \(index) Zoë"),
                            before: before, at: time)]
    case 4 where items.count >= 2:
        return [.updateItems(ids: [items.first!, items.last!],
                             patch: ItemPatch(title: "Updated \(index)", done: index % 16 == 4, priority: .high), at: time)]
    case 5 where items.count >= 2 && lists.count >= 2:
        let item = items[index % items.count]
        let other = lists.first { $0 != state.item(item)!.list }!
        return [.moveItems(ids: [item], toList: other, before: nil, at: time)]
    case 6 where items.count > 3:
        return [.deleteItems(ids: [items[index % items.count]])]
    case 7:
        let created = next
        return [create("Group \(index) 日本"),
                .updateItems(ids: [ItemID(created)], patch: ItemPatch(notes: "in one group", done: true), at: time),
                .createList(id: ListID(fresh()), fields: ListFields(name: "Also \(index)", icon: "star"), before: nil)]
    default:
        return [create("Item \(index) é")]
    }
}

/// Whether `mutation` applies to `state` (a copy of it: the state is not changed).
private func applies(_ mutation: Mutation, on state: TaskState) -> Bool {
    var copy = state
    return (try? copy.apply([mutation])) != nil
}

/// The state `groups` make when applied in order to an empty state.
func applying(_ groups: [[Mutation]]) throws -> TaskState {
    var state = TaskState()
    for group in groups { _ = try state.apply(group) }
    return state
}

/// `count` sample groups numbered from `first`, each made on the state the ones before it leave.
func sampleGroups(_ count: Int, from first: Int = 0, on start: TaskState = TaskState()) throws -> [[Mutation]] {
    var state = start
    var groups: [[Mutation]] = []
    for index in first..<(first + count) {
        let group = sampleGroup(index, on: state)
        _ = try state.apply(group)
        groups.append(group)
    }
    return groups
}

// MARK: Writing through a store

/// What one server turn does: takes the lock, applies to `state` what other handles appended, then makes,
/// applies and appends `count` sample groups numbered from `first`, and commits (one sync).
/// - Returns: the groups others appended (in order) and the ones this turn appended.
@discardableResult
func writeTurn(_ store: DurableStore, _ state: inout TaskState, groups count: Int = 1, from first: Int) throws
    -> (others: [DurableStore.Group], mine: [[Mutation]]) {
    let others = try store.lockForWriting()
    for group in others { _ = try state.apply(group.mutations) }
    var mine: [[Mutation]] = []
    for index in first..<(first + count) {
        let group = sampleGroup(index, on: state)
        _ = try state.apply(group)
        try store.append(group)
        mine.append(group)
    }
    try store.commit()
    return (others, mine)
}

/// A store at `path` holding `groups` (appended `perTurn` at a time, one commit each); returns the handle.
@discardableResult
func makeStore(_ path: String, groups: [[Mutation]], perTurn: Int = 1) throws -> DurableStore {
    let (store, _) = try DurableStore.open(path)
    var index = 0
    while index < groups.count {
        _ = try store.lockForWriting()
        for group in groups[index..<min(index + perTurn, groups.count)] { try store.append(group) }
        try store.commit()
        index += perTurn
    }
    return store
}

/// Runs `body`, expecting it to throw a `StoreFailure`, and returns it (nil, with an issue, when it did not).
func storeFailure<T>(_ body: () throws(StoreFailure) -> T, sourceLocation: SourceLocation = #_sourceLocation) -> StoreFailure? {
    do {
        _ = try body()
        Issue.record("expected a StoreFailure, nothing was thrown", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

// MARK: Comparing states

/// Expects two states to be equal in everything they hold: lists (and their order), items (every field,
/// position and revision, list by list in manual order), counts, the next identifier and the revision.
func expectSameState(_ actual: TaskState, _ expected: TaskState, _ comment: Comment? = nil,
                     sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(describe(actual) == describe(expected), comment, sourceLocation: sourceLocation)
}

/// Everything a state holds, as text (one comparison, and a readable difference when it fails).
func describe(_ state: TaskState) -> String {
    var lines = ["next \(state.nextIdentifier) revision \(state.revision) items \(state.itemCount)"]
    for list in state.allLists {
        lines.append("\(list) items \(state.itemCount(in: list.id)) open \(state.openItemCount(in: list.id))")
        for item in state.items(in: list.id, ranks: 0..<Int.max) { lines.append("  \(item)") }
    }
    var all: [String] = []
    state.forEachItem { all.append("\($0.id)") }
    lines.append("order \(all.joined(separator: " "))")
    return lines.joined(separator: "\n")
}
