// DurableStore's writing half: the lock, appending a turn's records, committing them with one sync, and
// refusing a turn whose write or sync failed so that no process ever reads its records.

#if canImport(Glibc)
import Glibc
#endif
import Domain

extension DurableStore {
    /// Takes the lock and returns every record others appended since this process last looked, in order:
    /// the caller applies them before its own mutations. A torn record a dead writer left is truncated.
    /// Throws `.busy` (nothing changed) when another process held the lock for all of `lockPatience`.
    public func lockForWriting() throws(StoreFailure) -> [Group] {
        if let failure { throw failure }
        guard !isLocked else { return [] }
        try DurableStore.lock(lockFile, patience: DurableStore.lockPatience)
        isLocked = true
        do {
            if try directory.inode(of: StoreFormat.journalName) != journalInode {
                // Another process compacted: finish the old journal, then continue in the new one.
                unreturned += try newGroups(mayTruncate: false)
                try switchToCurrentJournal()
            }
            unreturned += try newGroups(mayTruncate: true)
            if lastReadSequence != sequence {
                // The journal ends before the snapshot does (only after damage was salvaged): start a new
                // journal at the snapshot, so the next record follows on.
                try directory.replace(StoreFormat.journalName, with: StoreFormat.journalHeader(base: sequence), step: "journal.restart")
                try switchToCurrentJournal()
            }
            let groups = unreturned
            unreturned = []
            turnStart = sequence
            return groups
        } catch {
            unlock()
            throw error
        }
    }

    /// Appends one group as the next record (not yet synced). When the disk is full, the record is cut back off
    /// and the error thrown: nothing of the group is in the store and the store stays writable. Any other failed
    /// write refuses the whole turn (`refuseTurn`): the store is poisoned until it is reopened.
    /// - Precondition: the lock is held (`lockForWriting`).
    public func append(_ group: [Mutation]) throws(StoreFailure) {
        if let failure { throw failure }
        precondition(isLocked, "append without the lock")
        var payload: [UInt8] = []
        MutationCodec.encode(group, into: &payload)
        let record = StoreFormat.record(sequence: sequence + 1, durable: turnStart, payload: payload)
        do {
            try journal.write(record, at: journalEnd, step: "journal.append", reached: &writtenEnd)
        } catch {
            if error.kind == .full && cutBack(to: journalEnd) { throw error }
            throw refuseTurn(error)
        }
        journalEnd += record.count
        sequence += 1
        lastReadSequence = sequence
    }

    /// Cuts off the bytes a failed append left after `offset` (a record refused alone: the disk is full);
    /// false (noted) when they could not be cut.
    private func cutBack(to offset: Int) -> Bool {
        guard writtenEnd > offset else { return true }
        do {
            try journal.truncate(to: offset, step: "journal.truncate-failed")
        } catch {
            notes.append("\(journal.path): could not cut a record refused for lack of space (bytes \(offset)..<\(writtenEnd)): \(error.message)")
            return false
        }
        writtenEnd = offset
        return true
    }

    /// Whether records were appended since the last sync.
    public var hasUnsyncedRecords: Bool { journalEnd != syncedEnd }

    /// Makes every appended record durable with one `fdatasync`, then releases the lock. A failed sync refuses
    /// the turn (`refuseTurn`); so does an earlier failed write of the turn (then nothing is synced): the caller
    /// must not acknowledge any record it appended since `lockForWriting`.
    public func commit() throws(StoreFailure) {
        if let failure {
            // The turn was refused by `append`, which voided it (or keeps the lock until it can).
            if !mustVoid { unlock() }
            throw failure
        }
        guard journalEnd != syncedEnd else {
            unlock()
            return
        }
        do {
            try journal.syncData(step: "journal.sync")
        } catch {
            throw refuseTurn(error)
        }
        syncedEnd = journalEnd
        writtenEnd = journalEnd
        unlock()
    }

    /// Refuses every record of this turn: poisons the store (every later call throws until it is reopened) and
    /// voids what the turn wrote, so that no process ever reads a refused record (`voidRefused`).
    /// Returns the failure to throw.
    private func refuseTurn(_ error: StoreFailure) -> StoreFailure {
        // A record refused for lack of space that could not be cut off refuses its turn: no longer "full".
        let kind: StoreFailure.Kind = error.kind == .full ? .io : error.kind
        failure = StoreFailure(kind, error.message, file: error.file, offset: error.offset, retryable: true)
        if !voidRefused() {
            failure = StoreFailure(kind, error.message + "; the refused records could not be cut from the journal, so this process keeps the store locked (other processes' requests on it are refused as busy) until store/retry cuts them; if this process ends first, the next one to open the store will read them",
                                   file: error.file, offset: error.offset, retryable: true)
        }
        return failure!
    }

    /// Makes the bytes the refused turn wrote (`syncedEnd ..< writtenEnd`) unreadable by every reader, then
    /// releases the lock: the journal is cut back to `syncedEnd`; when `ftruncate` fails, the first refused
    /// record's header is overwritten with zeros (every reader then takes the refused records for a torn
    /// tail: the records after it say they were written before any sync, and the next writer cuts them).
    /// When both fail, the lock is kept (`mustVoid`): no other process can read the journal meanwhile, and
    /// `retryVoiding` (at `store/retry`, and as the process exits or the store is released) tries again; if the
    /// process ends with them still there, the kernel drops the lock and the refused records are readable (a
    /// residual risk, stated in ARCHITECTURE.md: nothing can mark them when no write reaches the file).
    /// Returns whether the refused bytes are void. Every step that fails is noted (`takeNotes`).
    private func voidRefused() -> Bool {
        guard writtenEnd > syncedEnd else {
            mustVoid = false
            unlock()
            return true
        }
        let range = "bytes \(syncedEnd)..<\(writtenEnd)"
        do {
            try journal.truncate(to: syncedEnd, step: "journal.truncate-refused")
            notes.append("\(journal.path): cut the refused records (\(range)) from the journal")
            do {
                try journal.syncData(step: "journal.sync-refused")
            } catch {
                notes.append("\(journal.path): the cut could not be synced (\(error.message)); a power cut may bring the refused bytes back, and with them the records they hold")
            }
        } catch {
            notes.append("\(journal.path): could not cut the refused records (\(range)) from the journal: \(error.message)")
            let zeros = [UInt8](repeating: 0, count: min(StoreFormat.recordHeaderSize, writtenEnd - syncedEnd))
            var reached = syncedEnd
            do {
                try journal.write(zeros, at: syncedEnd, step: "journal.void-refused", reached: &reached)
                notes.append("\(journal.path): voided the refused records instead by zeroing the header of the first one at byte \(syncedEnd)")
            } catch {
                notes.append("\(journal.path): could not void the refused records either (\(error.message)); keeping the store locked until they are cut")
                mustVoid = true
                return false
            }
        }
        writtenEnd = syncedEnd
        journalEnd = syncedEnd
        mustVoid = false
        unlock()
        return true
    }

    /// Tries again to void the records of a refused turn (see `voidRefused`); true when nothing refused is left
    /// readable and the lock is released. Call before reopening the store.
    public func retryVoiding() -> Bool {
        guard mustVoid else { return true }
        return voidRefused()
    }


    /// What was noted since the last call (a torn tail dropped, refused records cut), for the log.
    public func takeNotes() -> [String] {
        defer { notes = [] }
        return notes
    }

    /// Releases the lock (after `commit`, or when nothing was appended).
    public func unlock() {
        guard isLocked, !mustVoid else { return }
        DurableStore.unlock(lockFile)
        isLocked = false
    }

    /// How long the message loop waits for another process's lock before refusing with `.busy`, in
    /// milliseconds: a normal turn holds it for one append and one `fdatasync` (milliseconds), a compaction's
    /// installation for a few syncs; only a process that keeps it (a refused turn it cannot void, or one
    /// stopped by a debugger or SIGSTOP) holds it longer.
    public static let lockPatience = 2_000

    /// Takes `file`'s `flock` (exclusive, or `shared`), without ever blocking in the kernel: while another
    /// process holds it, tries again after short pauses (1 ms, doubling up to 20 ms), and throws `.busy` once
    /// `patience` milliseconds have passed (nil: tries as long as it takes).
    static func lock(_ file: OpenFile, shared: Bool = false, patience: Int?) throws(StoreFailure) {
        if !shared { CrashHook.step("lock") }
        let start = monotonicMilliseconds()
        var pause: Int64 = 1
        while flock(file.descriptor, (shared ? LOCK_SH : LOCK_EX) | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            guard errno == EWOULDBLOCK else { throw .system("lock", file.path, errno: errno) }
            if let patience, monotonicMilliseconds() - start >= Int64(patience) {
                throw StoreFailure(.busy, "another taskls process holds the store's lock (\(file.path)) and has for \(patience) ms; try again",
                                   file: file.path, retryable: true)
            }
            var pauseTime = timespec(tv_sec: 0, tv_nsec: Int(pause) * 1_000_000)
            _ = nanosleep(&pauseTime, nil)
            pause = min(pause * 2, 20)
        }
    }

    /// A clock that only goes forward, in milliseconds.
    private static func monotonicMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000 + Int64(now.tv_nsec) / 1_000_000
    }

    static func unlock(_ file: OpenFile) {
        _ = flock(file.descriptor, LOCK_UN)
    }
}
