// File headers and links: a bad magic, an unknown format version or a damaged header or snapshot stops the open
// with `.corrupt`, the files unchanged and no descriptor left open; a link inside the store is never followed.

import Foundation
import Testing
import Domain
@testable import Store
import TestSupport

@Suite struct FileHeaderTests {
    /// A store with a snapshot through record 4 and records 5 and 6 in the journal.
    struct CompactedStore {
        let snapshot: [UInt8]
        let journal: [UInt8]
        let groups: [[Mutation]]

        init(_ scratch: Scratch) throws {
            groups = try sampleGroups(6)
            let path = scratch.path("original")
            let store = try makeStore(path, groups: Array(groups.prefix(4)))
            let ticket = store.beginCompaction()
            try ticket.writeSnapshot(of: try applying(Array(groups.prefix(4))))
            _ = try store.finishCompaction(ticket)
            for group in groups[4...] {
                _ = try store.lockForWriting()
                try store.append(group)
                try store.commit()
            }
            snapshot = readFile(path + "/snapshot")!
            journal = readFile(path + "/journal")!
        }

        /// Writes the store's files, with `replacing` instead, into a new directory; returns its path.
        func write(to path: String, replacing files: [String: [UInt8]]) throws -> String {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            for (name, bytes) in ["snapshot": snapshot, "journal": journal].merging(files, uniquingKeysWith: { $1 }) {
                try writeFile(path + "/" + name, bytes)
            }
            return path
        }
    }

    /// `header` with the checksum at `at` recomputed over the bytes before it.
    static func resealed(_ header: [UInt8], at: Int) -> [UInt8] {
        var bytes = header
        let checksum = CRC32.checksum(bytes[0..<at])
        withUnsafeBytes(of: checksum.littleEndian) { bytes.replaceSubrange(at..<(at + 4), with: $0) }
        return bytes
    }

    static func replacing(_ bytes: [UInt8], at offset: Int, with part: [UInt8]) -> [UInt8] {
        var copy = bytes
        copy.replaceSubrange(offset..<(offset + part.count), with: part)
        return copy
    }

    /// Opens `path` expecting `.corrupt` in `file` at `offset` with `fragment` in the message; the files stay
    /// as they were and no descriptor stays open on them. `check` reports the store damaged.
    func expectCorrupt(_ path: String, file: String, offset: Int, _ fragment: String,
                       sourceLocation: SourceLocation = #_sourceLocation) {
        let before = names(in: path).filter { $0 != "lock" }.map { readFile(path + "/" + $0) }
        let failure = storeFailure({ () throws(StoreFailure) in try DurableStore.open(path) }, sourceLocation: sourceLocation)
        // A newer format version is not damage: the store is refused as written by a newer taskls.
        let kind: StoreFailure.Kind = fragment.hasPrefix("format version 2")
            || fragment.hasPrefix("format version \(StoreFormat.snapshotVersion + 1)") ? .unsupported : .corrupt
        #expect(failure?.kind == kind, "\(failure?.message ?? "")", sourceLocation: sourceLocation)
        #expect(failure?.file == path + "/" + file, sourceLocation: sourceLocation)
        #expect(failure?.offset == offset, sourceLocation: sourceLocation)
        #expect(failure?.retryable == false, sourceLocation: sourceLocation)
        #expect(failure?.message.contains(fragment) == true, "\(failure?.message ?? "")", sourceLocation: sourceLocation)
        #expect(failure?.message.hasPrefix(path + "/" + file) == true, "names the file", sourceLocation: sourceLocation)
        #expect(names(in: path).filter { $0 != "lock" }.map { readFile(path + "/" + $0) } == before, "files unchanged",
                sourceLocation: sourceLocation)
        #expect(openDescriptors(under: path) == [], "descriptors left open", sourceLocation: sourceLocation)
        let report = StoreInspection.check(path)
        #expect(!report.healthy, "\(report.lines)", sourceLocation: sourceLocation)
    }

    @Test func aDamagedJournalHeaderIsCorruption() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let store = try CompactedStore(scratch)
        let journal = store.journal
        var version2 = journal
        version2.replaceSubrange(8..<12, with: [2, 0, 0, 0])
        var base7 = journal
        base7.replaceSubrange(16..<24, with: [7, 0, 0, 0, 0, 0, 0, 0])
        let cases: [(name: String, bytes: [UInt8], fragment: String)] = [
            ("bad magic", Self.replacing(journal, at: 0, with: Array("TSKLSSNP".utf8)), "not a taskls journal (bad magic)"),
            ("version 2", Self.resealed(version2, at: 24), "format version 2, this taskls reads version 1"),
            ("version 2 unsealed", version2, "the header's checksum does not match"),
            ("a flipped base", flipping(journal, at: 17, bit: 0), "the header's checksum does not match"),
            ("cut short", Array(journal.prefix(20)), "the header is cut short (20 of 32 bytes)"),
            ("empty", [], "the header is cut short (0 of 32 bytes)"),
            ("starts after the snapshot", Self.resealed(Array(base7.prefix(32)), at: 24),
             "the journal starts after record 7 but the snapshot ends at record 4: records are missing"),
        ]
        for (index, item) in cases.enumerated() {
            let path = try store.write(to: scratch.path("journal-\(index)"), replacing: ["journal": item.bytes])
            expectCorrupt(path, file: "journal", offset: 0, item.fragment)
        }
    }

    @Test func aDamagedSnapshotIsCorruption() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let store = try CompactedStore(scratch)
        let snapshot = store.snapshot
        let length = snapshot.count - StoreFormat.snapshotHeaderSize
        var newer = snapshot
        let next = StoreFormat.snapshotVersion + 1
        newer.replaceSubrange(8..<12, with: [UInt8(next), 0, 0, 0])
        // A payload with a matching checksum that does not decode: one byte more than the state.
        let longer = snapshot + [0]
        let undecodable = StoreFormat.snapshotHeader(sequence: 4, payload: Array(longer[40...])) + longer[40...]
        let cases: [(name: String, bytes: [UInt8], offset: Int, fragment: String)] = [
            ("bad magic", Self.replacing(snapshot, at: 0, with: Array("TSKLSJNL".utf8)), 0, "not a taskls snapshot (bad magic)"),
            ("a newer version", Self.resealed(newer, at: 32), 0,
             "format version \(next), this taskls reads versions 1 to \(StoreFormat.snapshotVersion)"),
            ("a flipped sequence", flipping(snapshot, at: 16, bit: 2), 0, "the header's checksum does not match"),
            ("header cut short", Array(snapshot.prefix(30)), 0, "the header is cut short (30 of 40 bytes)"),
            ("payload cut short", Array(snapshot.dropLast(3)), 40 + length - 3, "cut short (\(length - 3) of \(length) bytes)"),
            ("a flipped payload byte", flipping(snapshot, at: 45, bit: 6), 40, "the snapshot's checksum does not match"),
            ("a payload that does not decode", undecodable, 40 + length, "at byte \(40 + length)"),
        ]
        for (index, item) in cases.enumerated() {
            let path = try store.write(to: scratch.path("snapshot-\(index)"), replacing: ["snapshot": item.bytes])
            expectCorrupt(path, file: "snapshot", offset: item.offset, item.fragment)
        }
    }

    /// A link named like a store file (to a valid file elsewhere, or to nothing) is refused, not followed:
    /// its target is neither read, changed nor created.
    @Test func aLinkInsideTheStoreIsNeverFollowed() throws {
        let scratch = Scratch()
        defer { scratch.remove() }
        let store = try CompactedStore(scratch)
        let elsewhere = scratch.path("elsewhere")
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        for name in ["journal", "snapshot", "lock"] {
            for dangling in [false, true] {
                let what = "\(name)\(dangling ? " (dangling)" : "")"
                let path = try store.write(to: scratch.path("\(name)-\(dangling)"), replacing: [:])
                let target = elsewhere + "/\(name)-\(dangling)"
                if let bytes = readFile(path + "/" + name) {
                    if !dangling { try writeFile(target, bytes) }
                    #expect(unlink(path + "/" + name) == 0)
                } else if !dangling {
                    try writeFile(target, [])
                }
                #expect(symlink(target, path + "/" + name) == 0)
                let targetBefore = readFile(target)

                let failure = storeFailure { () throws(StoreFailure) in try DurableStore.open(path) }
                #expect(failure?.kind == .io, "\(what)")
                #expect(failure?.message.contains("is a symbolic link; taskls never follows links") == true, "\(what): \(failure?.message ?? "")")
                #expect(failure?.file == path + "/" + name, "\(what)")
                #expect(readFile(target) == targetBefore, "\(what): the target is untouched (or still absent)")
                #expect(openDescriptors(under: scratch.path) == [], "\(what)")
                let report = StoreInspection.check(path)
                if name != "lock" {
                    #expect(!report.healthy && report.lines.contains { $0.contains("symbolic link") }, "\(what): \(report.lines)")
                }
                #expect(readFile(target) == targetBefore, "\(what): check leaves the target alone")
            }
        }
    }
}
