/// Where the repository is and what `swift build` / `swift test` built, for tests that run the binary.

#if canImport(Glibc)
import Glibc
#endif

/// Paths of the repository and of the executables built beside the running test bundle or benchmark.
public enum BuildPaths {
    /// The repository's root directory (for transcripts and fixtures).
    public static let repositoryRoot: String = {
        // This file is Sources/TestSupport/BuildPaths.swift.
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path
    }()

    /// The built `taskls` executable.
    public static let taskls = executable(named: "taskls")

    /// The executable `name` in the nearest directory above this process's own executable that holds one
    /// (the test runner is `.build/<config>/tasklsPackageTests.xctest`, the products sit beside it);
    /// `name` alone, for a search of `PATH`, when there is none.
    public static func executable(named name: String) -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        var directory = String(decoding: buffer[0..<max(0, count)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        while let slash = directory.lastIndex(of: "/") {
            directory = String(directory[..<slash])
            let candidate = directory + "/" + name
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return name
    }
}
