// DurableStore: the snapshot and journal of one store directory, read at open and appended under a lock.

#if canImport(Glibc)
import Glibc
#endif
import Domain

/// One process's handle on a store directory: the files, the sequence of the last record it applied, and
/// whether it may still write.
///
/// Several processes may share a directory. Each appends only while holding an exclusive `flock` on the
/// `lock` file, after reading (and having the caller apply) every record the others appended since it last
/// looked, so all of them apply the same records in the same order.
///
/// Not `Sendable`: it belongs to one thread at a time (the loader that opens it hands it to the message loop with
/// `sending`, which the compiler checks).
public final class DurableStore {
    let directory: StoreDirectory
    let lockFile: OpenFile
    var journal: OpenFile
    /// The inode of the journal open now (the directory's `journal` may name a newer one another process installed).
    var journalInode: UInt64
    /// The end of the last record applied (read or written).
    var journalEnd: Int
    /// The end of the last record known to be on disk.
    var syncedEnd: Int
    /// The end of the last byte this process wrote into the journal: past `syncedEnd` while a turn appends
    /// (and after a failed write, possibly past `journalEnd`).
    var writtenEnd: Int
    /// The sequence of the last record applied.
    public internal(set) var sequence: UInt64
    /// The sequence the snapshot ends at.
    public private(set) var snapshotSequence: UInt64
    /// The size of the snapshot's payload, to decide when the journal has grown enough to compact.
    private(set) var snapshotBytes: Int
    /// The sequence when the lock was taken: what every record this turn appends says is durable.
    var turnStart: UInt64 = 0
    /// Whether this process holds the lock.
    public internal(set) var isLocked = false
    /// Set when a sync failed: the store then refuses every write until it is reopened.
    public internal(set) var failure: StoreFailure?
    /// What the last open or catch-up noticed and fixed (a torn tail), for the log.
    public internal(set) var notes: [String] = []
    /// Whether a refused turn's records are still in the journal, so the lock is kept until `retryVoiding`.
    public internal(set) var mustVoid = false
    /// Records read (so `sequence` is past them) but not yet returned, because a later step of the call that read
    /// them failed: the next `lockForWriting` returns them first, so the caller never misses one.
    var unreturned: [Group] = []

    /// The directory's path.
    public var path: String { directory.path }
    /// The journal's size past its header: what compaction would reclaim.
    public var journalBytes: Int { journalEnd - StoreFormat.journalHeaderSize }

    private init(directory: StoreDirectory, lockFile: OpenFile, journal: OpenFile, journalInode: UInt64, journalEnd: Int,
                 sequence: UInt64, snapshotSequence: UInt64, snapshotBytes: Int) {
        self.directory = directory
        self.lockFile = lockFile
        self.journal = journal
        self.journalInode = journalInode
        self.journalEnd = journalEnd
        self.syncedEnd = journalEnd
        self.writtenEnd = journalEnd
        self.sequence = sequence
        self.snapshotSequence = snapshotSequence
        self.snapshotBytes = snapshotBytes
    }

    deinit {
        // Last chance to void a refused turn's records before the kernel drops the lock with the descriptor.
        _ = retryVoiding()
        journal.close()
        lockFile.close()
        directory.file.close()
    }

    /// Opens the store at `path` (creating an empty one when there is none) and reads its state: the snapshot,
    /// then every journal record after it. A torn last record is left out (and noted); anything else damaged
    /// throws `.corrupt` and leaves the files byte for byte as they were.
    /// - Parameter progress: called with the fraction of bytes read so far, from 0 to 1.
    /// - Parameter lockPatience: how long to wait for another process's lock, in milliseconds, before throwing
    ///   `.busy`; nil waits as long as it takes (off the message loop only).
    public static func open(_ path: String, lockPatience: Int? = nil, progress: (Double) -> Void = { _ in }) throws(StoreFailure) -> (DurableStore, TaskState) {
        try open(path, lockPatience: lockPatience, progress: progress, afterUnlocking: {})
    }

    /// `open`, calling `afterUnlocking` (a test hook) once the lock it read the files under is released.
    static func open(_ path: String, lockPatience: Int? = nil, progress: (Double) -> Void,
                     afterUnlocking: () -> Void) throws(StoreFailure) -> (DurableStore, TaskState) {
        let directory = try StoreDirectory.open(path)
        // Every descriptor opened here is closed on the way out, except those the store takes once it exists.
        var toClose = [directory.file]
        defer { for file in toClose { file.close() } }
        guard let lockFile = try directory.open(StoreFormat.lockName, writable: true, create: true) else {
            throw StoreFailure(.io, "open \(directory.path(of: StoreFormat.lockName)) failed", retryable: true)
        }
        toClose.append(lockFile)
        // Under the lock, so no compaction swaps the files between opening the snapshot and the journal, and
        // the journal's records are read while no writer is in the middle of a turn: a record read later,
        // without the lock, could belong to a turn whose sync is about to fail (and which is then voided).
        try lock(lockFile, patience: lockPatience)
        let files: (snapshot: OpenFile?, journal: OpenFile)
        let journalBody: [UInt8]
        do {
            removeStaleTemporaries(in: directory)
            let snapshot = try directory.open(StoreFormat.snapshotName, writable: false)
            if let snapshot { toClose.append(snapshot) }
            var journal = try directory.open(StoreFormat.journalName, writable: true)
            if journal == nil {
                let base = try snapshot.map { file throws(StoreFailure) in try readSnapshotHeader(file).sequence } ?? 0
                try directory.replace(StoreFormat.journalName, with: StoreFormat.journalHeader(base: base), step: "journal.create")
                journal = try directory.open(StoreFormat.journalName, writable: true)
            }
            files = (snapshot, journal!)
            toClose.append(files.journal)
            let size = try files.journal.size()
            journalBody = size > StoreFormat.journalHeaderSize
                ? try files.journal.read(at: StoreFormat.journalHeaderSize, count: size - StoreFormat.journalHeaderSize) : []
        } catch {
            unlock(lockFile)
            throw error
        }
        unlock(lockFile)
        afterUnlocking()

        let snapshotSize = try files.snapshot?.size() ?? 0
        let journalSize = StoreFormat.journalHeaderSize + journalBody.count
        let total = Double(max(1, snapshotSize + journalSize))
        var state = TaskState()
        var snapshotSequence: UInt64 = 0
        var snapshotBytes = 0
        if let snapshot = files.snapshot {
            let header = try readSnapshotHeader(snapshot)
            snapshotSequence = header.sequence
            snapshotBytes = header.length
            guard let file = try snapshot.mapped(), file.bytes.count - StoreFormat.snapshotHeaderSize >= header.length else {
                let have = max(0, snapshotSize - StoreFormat.snapshotHeaderSize)
                throw StoreFailure(.corrupt, "\(snapshot.path): the snapshot is cut short (\(have) of \(header.length) bytes)",
                                   file: snapshot.path, offset: StoreFormat.snapshotHeaderSize + have, retryable: false)
            }
            let payload = UnsafeRawBufferPointer(rebasing: file.bytes[StoreFormat.snapshotHeaderSize..<(StoreFormat.snapshotHeaderSize + header.length)])
            // The checksum is computed beside the decoding; a mismatch is reported before anything the decoding found.
            let decoded: TaskState?
            do {
                decoded = try withExtendedLifetime(file) { () throws(CodecError) in
                    try SnapshotCodec.decode(payload, version: header.version, checksum: header.checksum) {
                        progress($0 * Double(snapshotSize) / total)
                    }
                }
            } catch {
                throw StoreFailure(.corrupt, "\(snapshot.path): \(error.problem) at byte \(StoreFormat.snapshotHeaderSize + error.offset)",
                                   file: snapshot.path, offset: StoreFormat.snapshotHeaderSize + error.offset, retryable: false)
            }
            guard let decoded else {
                throw StoreFailure(.corrupt, "\(snapshot.path): the snapshot's checksum does not match; the files were left as they are (see taskls store check)",
                                   file: snapshot.path, offset: StoreFormat.snapshotHeaderSize, retryable: false)
            }
            state = decoded
        }
        let journalInode = try files.journal.inode()
        let store = DurableStore(directory: directory, lockFile: lockFile, journal: files.journal,
                                 journalInode: journalInode, journalEnd: StoreFormat.journalHeaderSize,
                                 sequence: snapshotSequence, snapshotSequence: snapshotSequence, snapshotBytes: snapshotBytes)
        // The store closes the directory, the lock file and the journal (its deinit); only the snapshot is left.
        toClose = files.snapshot.map { [$0] } ?? []
        let header = try files.journal.read(at: 0, count: StoreFormat.journalHeaderSize)
        let base: UInt64
        switch StoreFormat.journalBase(header) {
        case .success(let value): base = value
        case .failure(let problem):
            throw problem.failure(file: files.journal.path)
        }
        guard base <= snapshotSequence else {
            throw StoreFailure(.corrupt, "\(files.journal.path): the journal starts after record \(base) but the snapshot ends at record \(snapshotSequence): records are missing",
                               file: files.journal.path, offset: 0, retryable: false)
        }
        try store.readRecords(into: &state, read: journalBody) { progress(Double(snapshotSize + $0) / total) }
        progress(1)
        return (store, state)
    }

    /// The bytes `open` would read at `path` (snapshot and journal), 0 when there is no store yet.
    public static func bytesToRead(at path: String) -> Int {
        var total = 0
        for name in [StoreFormat.snapshotName, StoreFormat.journalName] {
            var info = stat()
            if lstat(path + "/" + name, &info) == 0 { total += Int(info.st_size) }
        }
        return total
    }

    private static func readSnapshotHeader(_ file: OpenFile) throws(StoreFailure) -> SnapshotHeader {
        switch StoreFormat.parseSnapshotHeader(try file.read(at: 0, count: StoreFormat.snapshotHeaderSize)) {
        case .success(let header): return header
        case .failure(let problem):
            throw problem.failure(file: file.path)
        }
    }

    /// Applies to `state` the records past `sequence` in `bytes`, the journal past `journalEnd` as it was read
    /// under the lock. A torn tail is left in place (noted): it may be an append in progress.
    private func readRecords(into state: inout TaskState, read bytes: [UInt8], progress: (Int) -> Void = { _ in }) throws(StoreFailure) {
        // Each record is applied as soon as it is decoded: the tail is never held decoded all at once.
        try forEachNewGroup(mayTruncate: false, read: bytes, progress: progress) { group throws(StoreFailure) in
            do {
                try state.replay(group.mutations)
            } catch {
                throw StoreFailure(.corrupt, "\(journal.path): record \(group.sequence) does not apply: \(error)",
                                   file: journal.path, offset: group.offset, retryable: false)
            }
        }
    }

    /// A decoded record.
    public struct Group: Sendable {
        public var sequence: UInt64
        public var mutations: [Mutation]
        var offset: Int
    }

    /// Reads and decodes the records after `journalEnd`, advancing past them (records up to `sequence` are skipped).
    /// - Parameter read: the journal's bytes from `journalEnd` on, when the caller read them (under the lock);
    ///   nil to read them here (the caller holds the lock).
    func newGroups(mayTruncate: Bool, read: [UInt8]? = nil, progress: (Int) -> Void = { _ in }) throws(StoreFailure) -> [Group] {
        var groups: [Group] = []
        try forEachNewGroup(mayTruncate: mayTruncate, read: read, progress: progress) { groups.append($0) }
        return groups
    }

    /// `newGroups`, handing each decoded record to `body` in order as soon as it is decoded (a record `body` refuses
    /// stops the reading: nothing after it is decoded, and the position in the journal does not advance).
    private func forEachNewGroup(mayTruncate: Bool, read: [UInt8]?, progress: (Int) -> Void,
                                 _ body: (Group) throws(StoreFailure) -> Void) throws(StoreFailure) {
        // First, so that an empty journal still sets what it starts after (`lastReadSequence`).
        let next = try nextExpected()
        let bytes: [UInt8]
        if let read {
            bytes = read
        } else {
            let size = try journal.size()
            bytes = size > journalEnd ? try journal.read(at: journalEnd, count: size - journalEnd) : []
        }
        guard !bytes.isEmpty else { return }
        let first = journalEnd
        let scan = scanJournal(bytes, origin: journalEnd, next: next)
        for (index, record) in scan.records.enumerated() {
            if record.sequence > sequence {
                let mutations: [Mutation]
                do {
                    mutations = try decoding(bytes, record.payload) { raw throws(CodecError) in try MutationCodec.decode(raw) }
                } catch {
                    let offset = first + record.payload.lowerBound + error.offset
                    throw StoreFailure(.corrupt, "\(journal.path): record \(record.sequence): \(error.problem) at byte \(offset)",
                                       file: journal.path, offset: offset, retryable: false)
                }
                try body(Group(sequence: record.sequence, mutations: mutations, offset: first + record.payload.lowerBound - StoreFormat.recordHeaderSize))
            }
            if index % 4096 == 0 { progress(record.payload.upperBound) }
        }
        switch scan.how {
        case .clean: break
        case .corrupt(let offset, let problem):
            throw StoreFailure(.corrupt, "\(journal.path): damaged at byte \(offset): \(problem); the files were left as they are (taskls store check / recover)",
                               file: journal.path, offset: offset, retryable: false)
        case .torn(let offset, let problem):
            if mayTruncate {
                try journal.truncate(to: offset, step: "journal.truncate-torn")
                try journal.syncData(step: "journal.sync-truncate")
                notes.append("\(journal.path): dropped a torn last record at byte \(offset) (\(problem)); it was never acknowledged")
            } else {
                let note = "\(journal.path): ignoring a torn last record at byte \(offset) (\(problem))"
                if notes.last != note { notes.append(note) }
            }
        }
        if let last = scan.records.last {
            lastReadSequence = last.sequence
            sequence = max(sequence, last.sequence)
        }
        journalEnd = scan.end
        syncedEnd = journalEnd
        writtenEnd = journalEnd
    }

    /// The sequence the next record of the journal must have: one past the last one read, or the base + 1.
    private func nextExpected() throws(StoreFailure) -> UInt64 {
        if journalEnd > StoreFormat.journalHeaderSize { return lastReadSequence + 1 }
        let header = try journal.read(at: 0, count: StoreFormat.journalHeaderSize)
        switch StoreFormat.journalBase(header) {
        case .success(let base):
            lastReadSequence = base
            return base + 1
        case .failure(let problem):
            throw problem.failure(file: journal.path)
        }
    }
    var lastReadSequence: UInt64 = 0

    /// The journal file open now.
    var currentJournal: OpenFile { journal }

    /// After compaction replaced the journal: opens the new one, whose records this process has all applied.
    func reopenJournal(snapshotSequence: UInt64, snapshotBytes: Int) throws(StoreFailure) {
        try switchToCurrentJournal()
        journalEnd = try journal.size()
        syncedEnd = journalEnd
        writtenEnd = journalEnd
        lastReadSequence = sequence
        self.snapshotSequence = snapshotSequence
        self.snapshotBytes = snapshotBytes
    }

    func switchToCurrentJournal() throws(StoreFailure) {
        guard let current = try directory.open(StoreFormat.journalName, writable: true) else {
            throw StoreFailure(.io, "\(directory.path(of: StoreFormat.journalName)) disappeared", retryable: true)
        }
        let header = try current.read(at: 0, count: StoreFormat.journalHeaderSize)
        guard case .success(let base) = StoreFormat.journalBase(header), base <= sequence else {
            current.close()
            throw StoreFailure(.overtaken, "the store was compacted by other processes past what this one had read; reading it again",
                               retryable: true)
        }
        journal.close()
        journal = current
        journalInode = try current.inode()
        journalEnd = StoreFormat.journalHeaderSize
        syncedEnd = journalEnd
        writtenEnd = journalEnd
        lastReadSequence = base
        // Records up to `sequence` are skipped by `newGroups`; the scan itself starts at base + 1.
    }

    // MARK: Reading what others wrote

    /// The records other processes appended since this one last looked, read under a shared lock: a writer
    /// holds the lock exclusively from its first append to its sync, so what is read here is on disk (never a
    /// change that a failed sync could still take back). When another process compacted meanwhile, the old
    /// journal is read to its end and the new one followed.
    /// - Parameter waiting: whether to wait for a writer to finish its turn (at most `lockPatience`, then
    ///   `.busy` is thrown); when false and one is writing, returns nil (look again shortly).
    /// - Complexity: O(new bytes).
    public func readNewRecords(waiting: Bool) throws(StoreFailure) -> [Group]? {
        if let failure { throw failure }
        guard !isLocked else { return [] }
        if waiting {
            try DurableStore.lock(lockFile, shared: true, patience: DurableStore.lockPatience)
        } else {
            while flock(lockFile.descriptor, LOCK_SH | LOCK_NB) != 0 {
                if errno == EWOULDBLOCK { return nil }
                guard errno == EINTR else { throw .system("lock", lockFile.path, errno: errno) }
            }
        }
        defer { DurableStore.unlock(lockFile) }
        // Collected in `unreturned` first, so that a failure half-way loses none of them.
        if try directory.inode(of: StoreFormat.journalName) != journalInode {
            unreturned += try newGroups(mayTruncate: false)
            try switchToCurrentJournal()
        }
        unreturned += try newGroups(mayTruncate: false)
        let groups = unreturned
        unreturned = []
        return groups
    }

    /// Removes temporary files left by processes that died before renaming them.
    private static func removeStaleTemporaries(in directory: StoreDirectory) {
        for name in directory.names() {
            let parts = name.split(separator: "-")
            guard name.contains(".tmp-"), let last = parts.last, let pid = Int32(last) else { continue }
            if pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH { directory.remove(name) }
        }
    }
}
