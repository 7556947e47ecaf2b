/// The store's files as bytes, for tests that damage them, copy them and compare them.

#if canImport(Glibc)
import Glibc
#endif
import Transcript

enum StoreFiles {
    /// The whole file, or nil when it cannot be read.
    static func read(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { return nil }
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
        }
    }

    /// Replaces the file's content with `bytes` (creating it 0600); whether all of them were written.
    @discardableResult
    static func write(_ path: String, _ bytes: [UInt8]) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + done, $0.count - done) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return false }
            done += count
        }
        return true
    }

    /// The names in a directory, sorted.
    static func names(in directory: String) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// Every file of a (flat) store directory with its bytes.
    static func contents(of directory: String) -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        for name in names(in: directory) { files[name] = read(directory + "/" + name) }
        return files
    }

    /// A new directory holding a copy of every file of `directory`.
    static func copy(_ directory: String) -> String {
        let copy = makeStoreTestDirectory()
        for (name, bytes) in contents(of: directory) { write(copy + "/" + name, bytes) }
        return copy
    }

    /// The size of a file, or nil when it does not exist.
    static func size(_ path: String) -> Int? {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : nil
    }
}

/// A fresh empty directory for a store.
func makeStoreTestDirectory() -> String {
    makeTemporaryDirectory(prefix: "taskls-store-e2e")
}
