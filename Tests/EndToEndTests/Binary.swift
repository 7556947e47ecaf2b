/// Finds the `taskls` executable that `swift test` built next to the test bundle.

#if canImport(Glibc)
import Glibc
#endif
import Transcript

enum Binary {
    /// The path of the built `taskls` executable.
    static let path: String = {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let executable = String(decoding: buffer[0..<max(0, count)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var directory = executable
        // The test runner is `.build/<config>/tasklsPackageTests.xctest`; `taskls` sits beside it.
        while let slash = directory.lastIndex(of: "/") {
            directory = String(directory[..<slash])
            let candidate = directory + "/taskls"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return "taskls"
    }()

    /// The repository root (for transcripts and fixtures).
    static let repositoryRoot: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path
    }()

    /// Starts a fresh server with a fresh temporary store.
    static func start(_ arguments: [String] = []) throws -> ServerProcess {
        try ServerProcess(executable: path, arguments: ["serve"] + arguments, environment: ["TASKLS_STORE": temporaryStore()])
    }

    /// A new empty directory to use as a store.
    static func temporaryStore() -> String { makeTemporaryDirectory(prefix: "taskls-test-store") }
}
