/// Temporary directories and whole files, for the tests, the transcripts and the benchmarks.

#if canImport(Glibc)
import Glibc
#endif

/// A fresh empty directory in the temporary directory (`$TMPDIR`, else /tmp), named `prefix-XXXXXX`.
public func makeTemporaryDirectory(prefix: String) -> String {
    var template = Array("\(temporaryDirectory())/\(prefix)-XXXXXX".utf8CString)
    guard mkdtemp(&template) != nil else { return "\(temporaryDirectory())/\(prefix)-\(getpid())" }
    return string(fromNullTerminated: template)
}

/// A fresh path in the temporary directory that nothing else will pick (an empty file is made there).
public func makeTemporaryPath(prefix: String) -> String {
    var template = Array("\(temporaryDirectory())/\(prefix)-XXXXXX".utf8CString)
    let descriptor = mkstemp(&template)
    if descriptor >= 0 { close(descriptor) }
    return string(fromNullTerminated: template)
}

/// Removes a directory tree (or a file), never following links; errors are ignored.
public func removeTree(_ path: String) {
    guard let directory = opendir(path) else {
        unlink(path)
        return
    }
    for name in entries(of: directory) {
        let child = path + "/" + name
        var info = stat()
        if lstat(child, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
            removeTree(child)
        } else {
            unlink(child)
        }
    }
    closedir(directory)
    rmdir(path)
}

/// The names in directory `path` (without `.` and `..`), sorted; none when it cannot be read.
public func names(in path: String) -> [String] {
    guard let directory = opendir(path) else { return [] }
    defer { closedir(directory) }
    return entries(of: directory).sorted()
}

/// The whole file at `path`, or nil when it cannot be read.
public func readFile(_ path: String) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        if count < 0 { return nil }
        if count == 0 { return bytes }
        bytes += chunk[0..<count]
    }
}

/// The whole file at `path` as UTF-8 text (invalid bytes replaced), or nil when it cannot be read.
public func readTextFile(_ path: String) -> String? {
    readFile(path).map { String(decoding: $0, as: UTF8.self) }
}

/// Replaces the content of the file at `path` with `bytes`, creating it (mode 0600); no sync: a test's files
/// need not survive a power cut.
/// - Throws: `FileError` naming the path and the `errno` of the call that failed.
public func writeFile(_ path: String, _ bytes: [UInt8]) throws(FileError) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw FileError("open \(path): errno \(errno)") }
    defer { close(descriptor) }
    var done = 0
    while done < bytes.count {
        let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + done, $0.count - done) }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { throw FileError("write \(path): \(done) of \(bytes.count) bytes written, errno \(errno)") }
        done += count
    }
}

/// Replaces the content of the file at `path` with `text` in UTF-8 (see `writeFile(_:_:)`).
public func writeTextFile(_ path: String, _ text: String) throws(FileError) {
    try writeFile(path, Array(text.utf8))
}

/// A file could not be read or written.
public struct FileError: Error, CustomStringConvertible {
    /// The call that failed, the path and the error number.
    public let description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}

private func temporaryDirectory() -> String {
    getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
}

/// The names a directory stream gives, without `.` and `..`.
private func entries(of directory: OpaquePointer) -> [String] {
    var names: [String] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name != "." && name != ".." { names.append(name) }
    }
    return names
}

private func string(fromNullTerminated characters: [CChar]) -> String {
    String(decoding: characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
