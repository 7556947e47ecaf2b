// StoreFailure: why the store could not open, read or write, said so a person can act on it.

#if canImport(Glibc)
import Glibc
#endif

/// A failure of the durable store: what went wrong, where, and whether trying again can help.
public struct StoreFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure, for clients and tests.
    public enum Kind: String, Hashable, Sendable {
        /// A file could not be opened, read or written (permissions, not a directory, I/O error).
        case io
        /// The disk or quota is full; nothing was written.
        case full
        /// A record or snapshot is damaged in a way that is not a torn tail; the files were left as they are.
        case corrupt
        /// An `fdatasync` failed: what the page cache holds can no longer be trusted, so the store refuses
        /// writes until it is reopened.
        case syncFailed
        /// The files were written by a newer taskls (an unknown format version).
        case unsupported
        /// Other processes compacted the store twice since this one last read it: the records in between
        /// are only in the new snapshot, so this process must read the store again (nothing is lost).
        case overtaken
        /// Another process held the store's lock longer than this one waits for it (`DurableStore.lockPatience`):
        /// nothing was read or written; trying again may succeed.
        case busy
    }

    public var kind: Kind
    /// One line for a person: what happened, to which file, and what to do.
    public var message: String
    /// The file concerned, when there is one.
    public var file: String?
    /// The byte offset in `file` where the damage starts (corruption only).
    public var offset: Int?
    /// Whether trying again (`store/retry`) can help without a person doing something first.
    public var retryable: Bool

    public init(_ kind: Kind, _ message: String, file: String? = nil, offset: Int? = nil, retryable: Bool) {
        self.kind = kind
        self.message = message
        self.file = file
        self.offset = offset
        self.retryable = retryable
    }

    /// A failed system call on `path`, from `errno`.
    static func system(_ operation: String, _ path: String, errno code: Int32) -> StoreFailure {
        let reason = String(cString: strerror(code))
        switch code {
        case ENOSPC, EDQUOT:
            return StoreFailure(.full, "\(operation) \(path): \(reason); free some space and try again", file: path, retryable: true)
        case EACCES, EPERM, EROFS:
            return StoreFailure(.io, "\(operation) \(path): \(reason); check the store's permissions", file: path, retryable: true)
        case ENOTDIR, EISDIR, ELOOP:
            return StoreFailure(.io, "\(operation) \(path): \(reason); the store must be a directory of taskls files", file: path, retryable: true)
        default:
            return StoreFailure(.io, "\(operation) \(path): \(reason)", file: path, retryable: true)
        }
    }

    public var description: String { message }
}
