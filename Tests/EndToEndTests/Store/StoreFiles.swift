/// The store's files as bytes, for tests that damage them, copy them and compare them.

#if canImport(Glibc)
import Glibc
#endif
import TestSupport
import Transcript

enum StoreFiles {
    /// Every file of a (flat) store directory with its bytes.
    static func contents(of directory: String) -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        for name in names(in: directory) { files[name] = readFile(directory + "/" + name) }
        return files
    }

    /// A new directory holding a copy of every file of `directory`.
    static func copy(_ directory: String) -> String {
        let copy = makeStoreTestDirectory()
        for (name, bytes) in contents(of: directory) { try? writeFile(copy + "/" + name, bytes) }
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
