// FileSystem: the few system calls the store makes, each a crash-hook step, each failure a StoreFailure.

#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// An open file descriptor and the path it was opened by (for messages). Closed explicitly.
struct OpenFile {
    let descriptor: Int32
    let path: String

    func close() { _ = Glibc.close(descriptor) }

    /// The file's size.
    func size() throws(StoreFailure) -> Int {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .system("stat", path, errno: errno) }
        return Int(info.st_size)
    }

    /// The file's inode, to tell whether a path still names this file.
    func inode() throws(StoreFailure) -> UInt64 {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .system("stat", path, errno: errno) }
        return UInt64(info.st_ino)
    }

    /// Reads `count` bytes at `offset` (fewer at the end of the file).
    func read(at offset: Int, count: Int) throws(StoreFailure) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, count - done, off_t(offset + done)) }
            if got < 0 {
                if errno == EINTR { continue }
                throw .system("read", path, errno: errno)
            }
            if got == 0 { break }
            done += got
        }
        bytes.removeLast(count - done)
        return bytes
    }

    /// The whole file mapped read-only (a snapshot: never changed in place, only replaced by a rename, so the
    /// mapping cannot shrink under its reader). Nil for an empty file.
    func mapped() throws(StoreFailure) -> MappedFile? {
        let count = try size()
        guard count > 0 else { return nil }
        let address = mmap(nil, count, PROT_READ, MAP_PRIVATE | MAP_POPULATE, descriptor, 0)
        guard let address, address != MAP_FAILED else { throw .system("map", path, errno: errno) }
        return MappedFile(bytes: UnsafeRawBufferPointer(start: address, count: count))
    }

    /// Writes all of `bytes` at `offset`; a crash-hook step (which may write only part of them and die).
    /// - Parameter reached: raised to the end of every byte the kernel accepted, also when a later part fails
    ///   (so a caller knows exactly which bytes a failed write may have left in the file).
    func write(_ bytes: [UInt8], at offset: Int, step: String, reached: inout Int) throws(StoreFailure) {
        let limit = CrashHook.write(step, count: bytes.count)
        var done = 0
        let total = limit ?? bytes.count
        while done < total {
            if Fault.fails(.write, descriptor) { throw .system("write", path, errno: EIO) }
            let wrote = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress! + done, total - done, off_t(offset + done)) }
            if wrote < 0 {
                if errno == EINTR { continue }
                throw .system("write", path, errno: errno)
            }
            done += wrote
            reached = max(reached, offset + done)
        }
        if limit != nil { CrashHook.die() }
    }

    /// Writes all of `bytes` at `offset` (a file nobody else reads until it is renamed into place).
    func write(_ bytes: [UInt8], at offset: Int, step: String) throws(StoreFailure) {
        var reached = offset
        try write(bytes, at: offset, step: step, reached: &reached)
    }

    /// `fdatasync`: the file's data (and the size needed to read it) is on disk.
    func syncData(step: String) throws(StoreFailure) {
        CrashHook.step(step)
        let injected = Fault.fails(.sync, descriptor)
        if injected || fdatasync(descriptor) != 0 {
            let code = injected ? EIO : errno
            throw StoreFailure(.syncFailed, "sync \(path): \(String(cString: strerror(code))); taskls refuses writes until the store is reopened (retry)",
                               file: path, retryable: true)
        }
    }

    /// `fsync` of a file or directory (a directory's entries after a rename).
    func syncAll(step: String) throws(StoreFailure) {
        CrashHook.step(step)
        let injected = Fault.fails(.sync, descriptor)
        if injected || fsync(descriptor) != 0 {
            let code = injected ? EIO : errno
            throw StoreFailure(.syncFailed, "sync \(path): \(String(cString: strerror(code)))", file: path, retryable: true)
        }
    }

    /// Cuts the file to `length` bytes.
    func truncate(to length: Int, step: String) throws(StoreFailure) {
        CrashHook.step(step)
        if Fault.fails(.truncate, descriptor) { throw .system("truncate", path, errno: EIO) }
        guard ftruncate(descriptor, off_t(length)) == 0 else { throw .system("truncate", path, errno: errno) }
    }
}

/// A test aid that fails the store's system calls with EIO, as a dying disk would. (The LD_PRELOAD tests fail
/// the real calls; this also works where no C compiler is available.) Three switches:
/// - `TASKLS_FAIL_SYNC_AFTER=N`: every sync after the first N fails.
/// - `TASKLS_FAULTS=PATH`: while the file PATH exists, each of the words `write`, `sync`, `truncate` it holds
///   makes that call fail (read at every call, so a test turns faults on and off while the server runs).
/// - `Fault.inject(_:on:)`: faults on one descriptor, for the in-process tests (which run in parallel).
enum Fault {
    /// A system call that can be failed.
    enum Call: String, CaseIterable, Sendable {
        /// `pwrite`.
        case write
        /// `fdatasync` and `fsync`.
        case sync
        /// `ftruncate`.
        case truncate
    }

    private static let syncs = Atomic<Int>(0)
    private static let syncsAllowed: Int? = getenv("TASKLS_FAIL_SYNC_AFTER").flatMap { Int(String(cString: $0)) }
    private static let controlFile: String? = getenv("TASKLS_FAULTS").map { String(cString: $0) }
    private static let injected = Mutex<[Int32: Set<Call>]>([:])
    private static let anyInjected = Atomic<Bool>(false)

    /// Whether `call` on `descriptor` must fail now (a sync also counts towards `TASKLS_FAIL_SYNC_AFTER`).
    static func fails(_ call: Call, _ descriptor: Int32) -> Bool {
        if call == .sync, let syncsAllowed, syncs.wrappingAdd(1, ordering: .relaxed).newValue > syncsAllowed { return true }
        if let controlFile, controlledCalls(controlFile).contains(call) { return true }
        guard anyInjected.load(ordering: .relaxed) else { return false }
        return injected.withLock { $0[descriptor]?.contains(call) ?? false }
    }

    /// From now on, `calls` on `descriptor` fail (an empty set clears them). For in-process tests only.
    static func inject(_ calls: Set<Call>, on descriptor: Int32) {
        injected.withLock { $0[descriptor] = calls.isEmpty ? nil : calls }
        anyInjected.store(true, ordering: .relaxed)
    }

    /// The calls the control file names now (none when it does not exist).
    private static func controlledCalls(_ path: String) -> Set<Call> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return [] }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, 64) }
        guard count > 0 else { return [] }
        let words = String(decoding: bytes.prefix(count), as: UTF8.self).split { $0 == " " || $0 == "\n" || $0 == "," }
        return Set(words.compactMap { Call(rawValue: String($0)) })
    }
}

/// The store's directory, held open so every file is opened relative to it (no path races).
struct StoreDirectory {
    let file: OpenFile
    var path: String { file.path }

    /// Opens `path`, creating it (and missing parents) with mode 0700. The path is taken lexically
    /// (`lexicallyNormal`): `a/../b` is `b`, and no `a` is created.
    static func open(_ given: String) throws(StoreFailure) -> StoreDirectory {
        let path = lexicallyNormal(given)
        var info = stat()
        if lstat(path, &info) != 0 {
            guard errno == ENOENT else { throw .system("open", path, errno: errno) }
            try createDirectories(path)
        }
        let descriptor = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOTDIR {
                throw StoreFailure(.io, "open \(path): not a directory; --store must name a directory (it is created if missing)",
                                   file: path, retryable: false)
            }
            throw .system("open", path, errno: errno)
        }
        return StoreDirectory(file: OpenFile(descriptor: descriptor, path: path))
    }

    /// `path` without empty and `.` components, and with each `..` removing the component before it (at the root,
    /// `..` is the root); "." when nothing is left of a relative path. Only the text is looked at.
    /// - Complexity: O(path length).
    static func lexicallyNormal(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var components: [Substring] = []
        for component in path.split(separator: "/") {
            switch component {
            case ".": continue
            case "..":
                if let last = components.last, last != ".." {
                    components.removeLast()
                } else if !absolute {
                    components.append(component)
                }
            default: components.append(component)
            }
        }
        let joined = components.joined(separator: "/")
        if absolute { return "/" + joined }
        return joined.isEmpty ? "." : joined
    }

    private static func createDirectories(_ path: String) throws(StoreFailure) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST { throw .system("create directory", prefix, errno: errno) }
        }
    }

    func path(of name: String) -> String { path.hasSuffix("/") ? path + name : path + "/" + name }

    /// Opens `name` in the directory, never following a symbolic link; creates it (0600) when `create`.
    /// Only a regular file is opened: anything else (a FIFO, a socket, a device, a directory) is refused with a
    /// failure naming it, without blocking and without reading it (opened with `O_NONBLOCK`, then `fstat`).
    func open(_ name: String, writable: Bool, create: Bool = false, exclusive: Bool = false) throws(StoreFailure) -> OpenFile? {
        var flags = (writable ? O_RDWR : O_RDONLY) | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK
        if create { flags |= O_CREAT }
        if exclusive { flags |= O_EXCL }
        let descriptor = openat(file.descriptor, name, flags, 0o600)
        guard descriptor >= 0 else {
            if errno == ENOENT && !create { return nil }
            if errno == ELOOP {
                throw StoreFailure(.io, "open \(path(of: name)): is a symbolic link; taskls never follows links inside its store",
                                   file: path(of: name), retryable: false)
            }
            if errno == EISDIR || errno == ENXIO {
                // A directory opened for writing, a socket: say what it is.
                var info = stat()
                let mode = fstatat(file.descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 ? info.st_mode : 0
                throw StoreDirectory.notRegular(path(of: name), kind: StoreDirectory.kind(of: mode))
            }
            throw .system("open", path(of: name), errno: errno)
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            Glibc.close(descriptor)
            throw .system("stat", path(of: name), errno: code)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            Glibc.close(descriptor)
            throw StoreDirectory.notRegular(path(of: name), kind: StoreDirectory.kind(of: info.st_mode))
        }
        return OpenFile(descriptor: descriptor, path: path(of: name))
    }

    /// The failure for a store file that is not a regular file.
    private static func notRegular(_ path: String, kind: String) -> StoreFailure {
        StoreFailure(.io, "open \(path): is \(kind), not a regular file; taskls neither reads nor changes it (move it out of the store)",
                     file: path, retryable: false)
    }

    /// What a file of `mode` is, for a person.
    private static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFDIR: "a directory"
        default: "a special file"
        }
    }

    /// The inode `name` names now (nil when it does not exist).
    func inode(of name: String) throws(StoreFailure) -> UInt64? {
        var info = stat()
        guard fstatat(file.descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
            if errno == ENOENT { return nil }
            throw .system("stat", path(of: name), errno: errno)
        }
        return UInt64(info.st_ino)
    }

    /// Renames `from` to `to` within the directory, atomically replacing `to`.
    func rename(_ from: String, to: String, step: String) throws(StoreFailure) {
        CrashHook.step(step)
        guard renameat(file.descriptor, from, file.descriptor, to) == 0 else { throw .system("rename", path(of: from), errno: errno) }
    }

    /// Removes `name` (a stale temporary file).
    func remove(_ name: String) { _ = unlinkat(file.descriptor, name, 0) }

    /// The names in the directory.
    func names() -> [String] {
        let copy = dup(file.descriptor)
        guard copy >= 0, let stream = fdopendir(copy) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Writes `bytes` to a new temporary file, syncs it, renames it to `name` and syncs the directory:
    /// after this returns, `name` holds `bytes` whatever happens; before, it holds what it held.
    func replace(_ name: String, with bytes: [UInt8], step: String) throws(StoreFailure) {
        let temporary = "\(name).tmp-\(getpid())"
        remove(temporary)
        guard let file = try open(temporary, writable: true, create: true, exclusive: true) else { return }
        defer { file.close() }
        do {
            try file.write(bytes, at: 0, step: "\(step).write")
            try file.syncAll(step: "\(step).sync")
            try rename(temporary, to: name, step: "\(step).rename")
        } catch {
            remove(temporary)
            throw error
        }
        try self.file.syncAll(step: "\(step).sync-directory")
    }
}

/// A file mapped into memory, unmapped when released.
final class MappedFile {
    let bytes: UnsafeRawBufferPointer

    init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    deinit { munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count) }
}
