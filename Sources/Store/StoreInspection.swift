// StoreInspection: `taskls store check` and `taskls store recover`, which read a store without changing it.

#if canImport(Glibc)
import Glibc
#endif
import Domain

/// What `check` found in a store, line by line, and whether it opens cleanly.
public struct StoreReport: Sendable {
    /// Lines for a person, in the order found.
    public var lines: [String] = []
    /// Whether taskls opens the store with nothing lost (a torn tail is dropped as it was never acknowledged).
    public var healthy = true
    /// The state salvaged: the snapshot (when readable) plus every valid record that applies.
    public var state = TaskState()
    /// The last record salvaged.
    public var sequence: UInt64 = 0
}

public enum StoreInspection {
    /// Reads the store at `path` without creating, locking or changing anything, and reports what it finds:
    /// the snapshot, the journal's records, a torn tail, and every damaged range with the valid records after it.
    public static func check(_ path: String) -> StoreReport {
        var report = StoreReport()
        let directory: StoreDirectory
        do {
            directory = try StoreDirectory.openExisting(path)
        } catch {
            report.healthy = false
            report.lines.append("error: \(error.message)")
            return report
        }
        defer { directory.file.close() }
        readSnapshot(directory, into: &report)
        readJournal(directory, into: &report)
        report.lines.append(report.healthy
            ? "ok: \(report.state.lists.count) lists, \(report.state.itemCount) items, through record \(report.sequence)"
            : "damaged: taskls will not open this store; `taskls store recover \(path) --to NEWDIR` salvages \(report.state.itemCount) items through record \(report.sequence)")
        return report
    }

    private static func readSnapshot(_ directory: StoreDirectory, into report: inout StoreReport) {
        do {
            guard let file = try directory.open(StoreFormat.snapshotName, writable: false) else {
                report.lines.append("snapshot: none (the state is the journal's records)")
                return
            }
            defer { file.close() }
            let bytes = try file.read(at: 0, count: try file.size())
            switch StoreFormat.parseSnapshotHeader(Array(bytes.prefix(StoreFormat.snapshotHeaderSize))) {
            case .failure(let problem):
                report.healthy = false
                report.lines.append("snapshot: damaged at byte 0: \(problem)")
            case .success(let header):
                let payload = Array(bytes.dropFirst(StoreFormat.snapshotHeaderSize))
                guard payload.count == header.length, CRC32.checksum(payload) == header.checksum else {
                    report.healthy = false
                    report.lines.append("snapshot: damaged at byte \(StoreFormat.snapshotHeaderSize): \(payload.count == header.length ? "checksum mismatch" : "cut short (\(payload.count) of \(header.length) bytes)")")
                    return
                }
                do {
                    report.state = try decoding(payload) { raw throws(CodecError) in try SnapshotCodec.decode(raw, version: header.version) }
                    report.sequence = header.sequence
                    report.lines.append("snapshot: through record \(header.sequence), \(bytes.count) bytes, \(report.state.lists.count) lists, \(report.state.itemCount) items")
                } catch {
                    report.healthy = false
                    report.lines.append("snapshot: damaged at byte \(StoreFormat.snapshotHeaderSize + error.offset): \(error.problem)")
                }
            }
        } catch {
            report.healthy = false
            report.lines.append("snapshot: \(error.message)")
        }
    }

    private static func readJournal(_ directory: StoreDirectory, into report: inout StoreReport) {
        let bytes: [UInt8]
        do {
            guard let file = try directory.open(StoreFormat.journalName, writable: false) else {
                report.lines.append("journal: none")
                return
            }
            defer { file.close() }
            bytes = try file.read(at: 0, count: try file.size())
        } catch {
            report.healthy = false
            report.lines.append("journal: \(error.message)")
            return
        }
        var offset = StoreFormat.journalHeaderSize
        switch StoreFormat.journalBase(Array(bytes.prefix(StoreFormat.journalHeaderSize))) {
        case .failure(let problem):
            report.healthy = false
            report.lines.append("journal: damaged at byte 0: \(problem); looking for records after it")
        case .success(let base):
            if base > report.sequence {
                report.healthy = false
                report.lines.append("journal: starts after record \(base), but the snapshot ends at record \(report.sequence): records \(report.sequence + 1)...\(base) are missing")
            }
        }
        var applied = 0, skipped = 0, refused = 0
        while offset < bytes.count {
            if case .success(let (sequence, _, payload)) = validRecord(in: bytes, at: offset) {
                if sequence <= report.sequence {
                    skipped += 1
                } else if let mutations = try? decoding(bytes, payload, { raw throws(CodecError) in try MutationCodec.decode(raw) }),
                          (try? report.state.apply(mutations)) != nil {
                    if sequence != report.sequence + 1 {
                        report.healthy = false
                        report.lines.append("journal: record \(sequence) at byte \(offset) follows record \(report.sequence): records are missing")
                    }
                    report.sequence = sequence
                    applied += 1
                } else {
                    report.healthy = false
                    refused += 1
                    report.lines.append("journal: record \(sequence) at byte \(offset) is valid but does not apply; left out")
                }
                offset = payload.upperBound
                continue
            }
            // Damage: find the valid records after it, if any.
            let following = validRecords(in: bytes, after: offset)
            let expected = report.sequence + 1
            guard let next = following.first?.offset, following.contains(where: { $0.durable >= expected }) else {
                report.lines.append(following.isEmpty
                    ? "journal: torn last record at byte \(offset) (\(bytes.count - offset) bytes); it was never acknowledged and is dropped on open"
                    : "journal: torn tail at byte \(offset): a damaged record and \(following.count) after it, all written before any sync (never acknowledged); dropped on open")
                break
            }
            report.healthy = false
            report.lines.append("journal: damaged bytes \(offset)..<\(next) (\(next - offset) bytes); valid records follow at byte \(next)")
            offset = next
        }
        report.lines.append("journal: \(bytes.count) bytes, \(applied) records applied, \(skipped) already in the snapshot\(refused > 0 ? ", \(refused) refused" : "")")
    }

    /// Writes `report`'s salvaged state as a new store at `destination` (which must not hold a store yet).
    public static func recover(_ report: StoreReport, to destination: String) throws(StoreFailure) {
        let directory = try StoreDirectory.open(destination)
        defer { directory.file.close() }
        let existing = directory.names().filter { $0 != StoreFormat.lockName }
        guard existing.isEmpty else {
            throw StoreFailure(.io, "\(destination) is not empty; recover writes into a new or empty directory", file: destination, retryable: false)
        }
        let payload = SnapshotCodec.encode(report.state)
        try directory.replace(StoreFormat.snapshotName, with: StoreFormat.snapshotHeader(sequence: report.sequence, payload: payload) + payload,
                              step: "recover.snapshot")
        try directory.replace(StoreFormat.journalName, with: StoreFormat.journalHeader(base: report.sequence), step: "recover.journal")
    }
}

extension StoreDirectory {
    /// Opens an existing directory without creating anything.
    static func openExisting(_ path: String) throws(StoreFailure) -> StoreDirectory {
        var info = stat()
        guard stat(path, &info) == 0 else { throw .system("open", path, errno: errno) }
        return try open(path)
    }
}
