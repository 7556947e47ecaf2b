// StoreFormat: the byte layout of the journal and the snapshot (documented in ARCHITECTURE.md, "The store's files").

/// Constants and headers of the store's two files. All integers are little-endian.
///
/// `journal` — a 32-byte header, then records:
/// ```
/// header: "TSKLSJNL" | version u32 (1) | 0 u32 | base sequence u64 | CRC32 of bytes 0..<24 u32 | 0 u32
/// record: payload length u32 | CRC32 of (length, sequence, durable, payload) u32 | sequence u64 | durable u64 | payload
/// ```
/// The first record's sequence is base + 1 and each next one is one more. A payload is one group of
/// mutations (`MutationCodec`), applied atomically. `durable` is the last sequence its writer had
/// applied before the turn that wrote it: every record up to it was on disk (or is, once this one is).
/// So a damaged record `k` followed only by records whose `durable` is below `k` was written in one
/// unsynced group with them: none of them was acknowledged, and they are a torn tail even if the disk
/// kept a later page of the group and lost an earlier one.
///
/// `snapshot` — the state after record `sequence`:
/// ```
/// "TSKLSSNP" | version u32 (4; 3, 2 and 1 are read too: items without uids or extras; items without repeat rules or alerts, no smart lists and no reminders; and items without parents either) | 0 u32 | sequence u64 | payload length u64 | CRC32 of bytes 0..<32 u32 | CRC32 of payload u32 | payload
/// ```
/// The payload is `SnapshotCodec`'s encoding of the state.
enum StoreFormat {
    static let journalName = "journal"
    static let snapshotName = "snapshot"
    static let lockName = "lock"
    static let journalMagic = Array("TSKLSJNL".utf8)
    static let snapshotMagic = Array("TSKLSSNP".utf8)
    /// The journal's format version.
    static let version: UInt32 = 1
    /// The snapshot's format version: 4 stores each item's uid and extras (what an import keeps); 3 (before them)
    /// each item's repeat rule, history and alerts, the smart lists and the fired reminders; 2 (before those) none
    /// of these; 1 (before subtasks) stored no parents either.
    static let snapshotVersion: UInt32 = 4
    static let journalHeaderSize = 32
    static let recordHeaderSize = 24
    static let snapshotHeaderSize = 40
    /// The largest record payload a journal may hold (a larger length field is damage).
    static let maximumPayload = 256 << 20

    static func journalHeader(base: UInt64) -> [UInt8] {
        var bytes = journalMagic
        append(version, to: &bytes)
        append(UInt32(0), to: &bytes)
        append(base, to: &bytes)
        append(CRC32.checksum(bytes), to: &bytes)
        append(UInt32(0), to: &bytes)
        return bytes
    }

    /// The base sequence of a journal header, or what is wrong with it.
    static func journalBase(_ header: [UInt8]) -> Result<UInt64, RecordDamage> {
        guard header.count >= journalHeaderSize else { return .failure(RecordDamage("the header is cut short (\(header.count) of 32 bytes)")) }
        guard Array(header[0..<8]) == journalMagic else { return .failure(RecordDamage("not a taskls journal (bad magic)")) }
        guard read(UInt32.self, header, 24) == CRC32.checksum(header[0..<24]) else { return .failure(RecordDamage("the header's checksum does not match")) }
        let version = read(UInt32.self, header, 8)
        guard version == StoreFormat.version else { return .failure(RecordDamage("format version \(version), this taskls reads version \(StoreFormat.version)", isNewerVersion: version > StoreFormat.version)) }
        return .success(read(UInt64.self, header, 16))
    }

    /// One record's bytes.
    static func record(sequence: UInt64, durable: UInt64? = nil, payload: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(recordHeaderSize + payload.count)
        append(UInt32(payload.count), to: &bytes)
        append(UInt32(0), to: &bytes)
        append(sequence, to: &bytes)
        append(durable ?? sequence - 1, to: &bytes)
        bytes += payload
        let checksum = CRC32.checksum(bytes[8...], seed: CRC32.checksum(bytes[0..<4]))
        withUnsafeBytes(of: checksum.littleEndian) { bytes.replaceSubrange(4..<8, with: $0) }
        return bytes
    }

    static func snapshotHeader(sequence: UInt64, payload: [UInt8], version: UInt32 = snapshotVersion) -> [UInt8] {
        var bytes = snapshotMagic
        append(version, to: &bytes)
        append(UInt32(0), to: &bytes)
        append(sequence, to: &bytes)
        append(UInt64(payload.count), to: &bytes)
        append(CRC32.checksum(bytes), to: &bytes)
        append(CRC32.checksum(payload), to: &bytes)
        return bytes
    }

    /// A snapshot header's sequence and payload length, or what is wrong with it.
    static func parseSnapshotHeader(_ header: [UInt8]) -> Result<SnapshotHeader, RecordDamage> {
        guard header.count >= snapshotHeaderSize else { return .failure(RecordDamage("the header is cut short (\(header.count) of 40 bytes)")) }
        guard Array(header[0..<8]) == snapshotMagic else { return .failure(RecordDamage("not a taskls snapshot (bad magic)")) }
        guard read(UInt32.self, header, 32) == CRC32.checksum(header[0..<32]) else { return .failure(RecordDamage("the header's checksum does not match")) }
        let version = read(UInt32.self, header, 8)
        guard (1...snapshotVersion).contains(version) else { return .failure(RecordDamage("format version \(version), this taskls reads versions 1 to \(snapshotVersion)", isNewerVersion: version > snapshotVersion)) }
        let length = read(UInt64.self, header, 24)
        guard length <= UInt64(Int.max) else { return .failure(RecordDamage("the payload length \(length) is impossible")) }
        return .success(SnapshotHeader(sequence: read(UInt64.self, header, 16), length: Int(length),
                                       checksum: read(UInt32.self, header, 36), version: version))
    }

    static func append<Value: FixedWidthInteger>(_ value: Value, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    static func read<Value: FixedWidthInteger>(_: Value.Type, _ bytes: [UInt8], _ offset: Int) -> Value {
        var value = Value.zero
        for index in 0..<MemoryLayout<Value>.size {
            value |= Value(bytes[offset + index]) << (8 * index)
        }
        return value
    }
}

/// A snapshot's header, read.
struct SnapshotHeader {
    /// The last record the snapshot includes.
    var sequence: UInt64
    /// The payload's length in bytes.
    var length: Int
    /// The payload's CRC32.
    var checksum: UInt32
    /// Its format version (`StoreFormat.snapshotVersion`, or 1).
    var version: UInt32
}

/// Runs `body` on `bytes[range]` (all of them when nil) as raw memory, keeping the codec's typed error.
func decoding<Value>(_ bytes: [UInt8], _ range: Range<Int>? = nil,
                     _ body: (UnsafeRawBufferPointer) throws(CodecError) -> Value) throws(CodecError) -> Value {
    let result: Result<Value, CodecError> = bytes.withUnsafeBytes { raw in
        let part = range.map { UnsafeRawBufferPointer(rebasing: raw[$0]) } ?? raw
        do throws(CodecError) {
            return .success(try body(part))
        } catch {
            return .failure(error)
        }
    }
    return try result.get()
}
