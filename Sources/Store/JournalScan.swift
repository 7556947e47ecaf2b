// JournalScan: finds the valid records in journal bytes, and tells a torn tail from corruption.

/// A valid record found by a scan.
struct ScannedRecord {
    /// The record's sequence number.
    var sequence: UInt64
    /// The payload's byte range in the scanned bytes.
    var payload: Range<Int>
}

/// How a scan ended.
enum ScanEnd: Equatable {
    /// At the end of the bytes, after a whole record.
    case clean
    /// A damaged record with nothing valid after it: the last append was cut short (never acknowledged).
    case torn(offset: Int, problem: String)
    /// A damaged record followed by a valid one: real corruption.
    case corrupt(offset: Int, problem: String)
}

/// Scans records in `bytes`, which start at file offset `origin`, expecting `next` as the first sequence.
///
/// A record is valid when its length fits, its checksum matches and its sequence is the expected one.
/// At the first invalid record (which should have been record `k`) the scan looks for checksum-valid
/// records further on: one whose `durable` is `k` or more means record `k` had been synced, so this is
/// corruption; none, or only records written in the same unsynced group, means a torn tail.
/// - Complexity: O(bytes); after damage, O(remaining bytes × record size) in the worst case.
func scanJournal(_ bytes: [UInt8], origin: Int, next: UInt64) -> (records: [ScannedRecord], end: Int, how: ScanEnd) {
    var records: [ScannedRecord] = []
    var offset = 0
    var expected = next
    while offset < bytes.count {
        switch validRecord(in: bytes, at: offset) {
        case .success(let (sequence, _, payload)) where sequence == expected:
            records.append(ScannedRecord(sequence: sequence, payload: payload))
            offset = payload.upperBound
            expected += 1
        case .success(let (sequence, _, _)):
            return (records, origin + offset,
                    .corrupt(offset: origin + offset, problem: "record \(sequence) where record \(expected) was expected"))
        case .failure(let damage):
            let problem = damage.description
            let following = validRecords(in: bytes, after: offset)
            if let acknowledged = following.first(where: { $0.durable >= expected }) {
                return (records, origin + offset,
                        .corrupt(offset: origin + offset, problem: "\(problem), and record \(acknowledged.sequence) after it was written once it was on disk"))
            }
            if !following.isEmpty {
                return (records, origin + offset,
                        .torn(offset: origin + offset, problem: "\(problem); the \(following.count) records after it were written with it before any sync, so none was acknowledged"))
            }
            return (records, origin + offset, .torn(offset: origin + offset, problem: problem))
        }
    }
    return (records, origin + offset, .clean)
}

/// The record at `offset` if its length fits and its checksum matches.
func validRecord(in bytes: [UInt8], at offset: Int) -> Result<(UInt64, UInt64, Range<Int>), RecordDamage> {
    guard bytes.count - offset >= StoreFormat.recordHeaderSize else {
        return .failure(RecordDamage("a record header cut short (\(bytes.count - offset) of 16 bytes)"))
    }
    let length = Int(StoreFormat.read(UInt32.self, bytes, offset))
    guard length <= StoreFormat.maximumPayload, offset + StoreFormat.recordHeaderSize + length <= bytes.count else {
        return .failure(RecordDamage("a record of \(length) bytes that runs past the end of the file"))
    }
    let end = offset + StoreFormat.recordHeaderSize + length
    let stored = StoreFormat.read(UInt32.self, bytes, offset + 4)
    let computed = CRC32.checksum(bytes[(offset + 8)..<end], seed: CRC32.checksum(bytes[offset..<(offset + 4)]))
    guard stored == computed else { return .failure(RecordDamage("a record whose checksum does not match")) }
    return .success((StoreFormat.read(UInt64.self, bytes, offset + 8), StoreFormat.read(UInt64.self, bytes, offset + 16),
                     (offset + StoreFormat.recordHeaderSize)..<end))
}

/// Every checksum-valid record after the damaged byte `offset`: probed byte by byte until one is found,
/// then record by record (probing again after further damage).
/// - Complexity: O(remaining bytes × record size) in the worst case.
func validRecords(in bytes: [UInt8], after offset: Int) -> [(sequence: UInt64, durable: UInt64, offset: Int)] {
    var found: [(sequence: UInt64, durable: UInt64, offset: Int)] = []
    var probe = offset + 1
    while probe + StoreFormat.recordHeaderSize <= bytes.count {
        if case .success(let (sequence, durable, payload)) = validRecord(in: bytes, at: probe) {
            found.append((sequence, durable, probe))
            probe = payload.upperBound
        } else {
            probe += 1
        }
    }
    return found
}

struct RecordDamage: Error, CustomStringConvertible {
    let description: String
    /// The bytes are intact but in a format version this taskls does not read.
    var isNewerVersion = false
    init(_ description: String, isNewerVersion: Bool = false) {
        self.description = description
        self.isNewerVersion = isNewerVersion
    }

    /// The failure of a store whose `file` header (at offset 0) has this damage.
    func failure(file: String) -> StoreFailure {
        isNewerVersion
            ? StoreFailure(.unsupported, "\(file): \(description); upgrade taskls to open this store", file: file, offset: 0, retryable: false)
            : StoreFailure(.corrupt, "\(file): \(description)", file: file, offset: 0, retryable: false)
    }
}

