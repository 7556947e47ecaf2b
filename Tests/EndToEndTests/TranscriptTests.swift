/// Replays every transcript under Tests/Transcripts through the real binary.

#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
import Transcript

/// Every `.tx` file below `Tests/Transcripts`, relative to that directory.
func transcriptFiles() -> [String] {
    let root = BuildPaths.repositoryRoot + "/Tests/Transcripts"
    var found: [String] = []
    func walk(_ relative: String) {
        let path = relative.isEmpty ? root : root + "/" + relative
        guard let directory = opendir(path) else { return }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix(".") { continue }
            let child = relative.isEmpty ? name : relative + "/" + name
            if name.hasSuffix(".tx") { found.append(child) } else { walk(child) }
        }
    }
    walk("")
    return found.sorted()
}

@Test func transcriptsExist() {
    #expect(transcriptFiles().count >= 15, "expected the transcripts under Tests/Transcripts")
}

@Test(arguments: transcriptFiles())
func transcript(_ file: String) {
    let outcome = Replayer(executable: BuildPaths.taskls).run(path: BuildPaths.repositoryRoot + "/Tests/Transcripts/" + file)
    #expect(outcome.passed, "\(outcome.report)")
}
