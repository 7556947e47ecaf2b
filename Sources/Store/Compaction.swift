// Compaction: a new snapshot written off the message loop, then installed and the journal restarted under the lock.

#if canImport(Glibc)
import Glibc
#endif
import Domain

/// A compaction under way: the state at `sequence` is being written to a temporary snapshot.
public struct CompactionTicket: Sendable {
    /// The last record the snapshot includes.
    public let sequence: UInt64
    /// Where record `sequence + 1` starts (or will) in the journal the ticket was taken on.
    let journalOffset: Int
    let journalInode: UInt64
    /// The store's directory, through a descriptor of the ticket's own (closed when the last copy of the ticket
    /// goes), so the snapshot is written off the loop without sharing the store itself.
    let directory: DirectoryDescriptor
    var temporaryName: String { "\(StoreFormat.snapshotName).tmp-\(getpid())" }

    /// Whether `other` is this very ticket (the same compaction of the same open store), not merely one at the
    /// same sequence.
    public func isSame(as other: CompactionTicket) -> Bool {
        directory === other.directory
    }

    /// Encodes `state` and writes it to the temporary snapshot, synced. Runs on any thread; the message loop
    /// keeps serving meanwhile. Nothing visible changes until `DurableStore.finishCompaction`.
    public func writeSnapshot(of state: TaskState) throws(StoreFailure) {
        try writeSnapshot(of: state.stored)
    }

    /// As `writeSnapshot(of:)` for a state shared with the loop's (`TaskState.stored`): nothing is copied.
    public func writeSnapshot(of state: StoredState) throws(StoreFailure) {
        let payload = SnapshotCodec.encode(state)
        let header = StoreFormat.snapshotHeader(sequence: sequence, payload: payload)
        let store = StoreDirectory(file: directory.file)
        store.remove(temporaryName)
        guard let file = try store.open(temporaryName, writable: true, create: true, exclusive: true) else { return }
        defer { file.close() }
        do {
            try file.write(header + payload, at: 0, step: "snapshot.write")
            try file.syncAll(step: "snapshot.sync")
        } catch {
            store.remove(temporaryName)
            throw error
        }
    }
}

extension DurableStore {
    /// Whether the journal has grown enough (past `threshold` bytes and past the snapshot's size) to compact.
    public func wantsCompaction(threshold: Int) -> Bool {
        failure == nil && !hasUnsyncedRecords && journalBytes > max(threshold, snapshotBytes)
    }

    /// Starts a compaction of the state as it is now (every record up to `sequence` applied, none unsynced).
    public func beginCompaction() -> CompactionTicket {
        // The inode of the journal `journalEnd` is an offset in: when another process has replaced it since this
        // one last read, `finishCompaction` sees a different inode and drops the ticket.
        CompactionTicket(sequence: sequence, journalOffset: journalEnd, journalInode: journalInode,
                         directory: DirectoryDescriptor(duplicating: directory.file))
    }

    private func journalInodeNow() throws(StoreFailure) -> UInt64 {
        try directory.inode(of: StoreFormat.journalName) ?? 0
    }

    /// Installs the snapshot `ticket` wrote and restarts the journal after it, under the lock: the records
    /// since the ticket are copied into the new journal. Returns the records others appended meanwhile (apply
    /// them). When another process compacted first, this one's snapshot is dropped.
    ///
    /// A crash at any step leaves a store that opens with nothing lost: before the snapshot's rename the old
    /// files are intact; after it, records the snapshot already holds are skipped by sequence. When it throws,
    /// the records it read are returned by the next `lockForWriting`.
    public func finishCompaction(_ ticket: CompactionTicket) throws(StoreFailure) -> [Group] {
        let groups = try lockForWriting()
        defer { unlock() }
        do {
            guard try journalInodeNow() == ticket.journalInode, ticket.journalOffset <= journalEnd else {
                directory.remove(ticket.temporaryName)
                return groups
            }
            let tail = try currentJournal.read(at: ticket.journalOffset, count: journalEnd - ticket.journalOffset)
            try directory.rename(ticket.temporaryName, to: StoreFormat.snapshotName, step: "compaction.rename-snapshot")
            try directory.file.syncAll(step: "compaction.sync-directory")
            try directory.replace(StoreFormat.journalName, with: StoreFormat.journalHeader(base: ticket.sequence) + tail,
                                  step: "compaction.journal")
            try reopenJournal(snapshotSequence: ticket.sequence,
                              snapshotBytes: try directory.open(StoreFormat.snapshotName, writable: false).map { file throws(StoreFailure) in
                                  defer { file.close() }
                                  return try file.size() - StoreFormat.snapshotHeaderSize
                              } ?? 0)
            return groups
        } catch {
            // The records others appended were read: the next `lockForWriting` hands them over.
            unreturned = groups + unreturned
            throw error
        }
    }

    /// Drops a compaction whose snapshot could not be written.
    public func abandonCompaction(_ ticket: CompactionTicket) {
        directory.remove(ticket.temporaryName)
    }
}

/// A duplicate of a directory's descriptor, closed when the last reference goes. Sendable: the descriptor never
/// changes, and the calls made through it (`openat`, `unlinkat`) are safe from any thread.
final class DirectoryDescriptor: Sendable {
    let file: OpenFile

    /// Duplicates `file`'s descriptor (when that fails, every call through it fails with `EBADF`, and the
    /// compaction is skipped with that error).
    init(duplicating file: OpenFile) {
        self.file = OpenFile(descriptor: fcntl(file.descriptor, F_DUPFD_CLOEXEC, 0), path: file.path)
    }

    deinit {
        if file.descriptor >= 0 { file.close() }
    }
}
