/// JSONTestSuite conformance: every y_ file parses, every n_ file is rejected, every i_ file returns.

import Foundation
import Testing
import Wire

/// The suite's parsing cases: `<repository root>/../shared/data/JSONTestSuite/test_parsing/`.
/// `#filePath` is `<root>/Tests/WireTests/JSONTestSuiteTests.swift`, resolved through symlinks.
private let suiteDirectory = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("../shared/data/JSONTestSuite/test_parsing").standardized

/// Whether the suite's files are there. A plain clone of the repository has no `../shared/`: then
/// the test is skipped (and counted as skipped) with `json-test-suite: skipped (REASON)` on stderr;
/// when it runs it prints `json-test-suite: ran`, which `.ci/run` requires.
private func suitePresent() -> Bool {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: suiteDirectory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
        FileHandle.standardError.write(Data("json-test-suite: skipped (no JSONTestSuite at \(suiteDirectory.path))\n".utf8))
        return false
    }
    return true
}

@Test(.enabled("needs ../shared/data/JSONTestSuite (the reason is on stderr: json-test-suite: skipped)") { suitePresent() })
func conformsToJSONTestSuite() {
    // y_: must be accepted.
    let mustAccept = suiteFiles(prefix: "y_")
    let rejected = mustAccept.compactMap { file -> String? in
        do throws(JSONError) {
            _ = try JSONParser.parse(file.bytes)
            return nil
        } catch {
            return "\(file.name) (\(error))"
        }
    }
    #expect(rejected.isEmpty, "y_ files rejected: \(rejected.joined(separator: "; "))")

    // n_: must be refused, with an offset inside the input.
    let mustReject = suiteFiles(prefix: "n_")
    let accepted = mustReject.compactMap { file -> String? in
        do throws(JSONError) {
            _ = try JSONParser.parse(file.bytes)
            return file.name
        } catch {
            #expect((0...file.bytes.count).contains(error.offset), "\(file.name): \(error)")
            return nil
        }
    }
    #expect(accepted.isEmpty, "n_ files accepted: \(accepted.joined(separator: ", "))")

    // i_: either answer is fine; returning at all, and with an offset inside the input, is the test.
    let either = suiteFiles(prefix: "i_")
    for file in either {
        do throws(JSONError) {
            _ = try JSONParser.parse(file.bytes)
        } catch {
            #expect((0...file.bytes.count).contains(error.offset), "\(file.name): \(error)")
        }
    }
    FileHandle.standardError.write(Data(
        "json-test-suite: ran (\(mustAccept.count) y_, \(mustReject.count) n_, \(either.count) i_ files)\n".utf8))
}

/// The suite's files whose names start with `prefix`, sorted, with their bytes; records an
/// issue (failing the test) when the directory is missing or holds no such file.
private func suiteFiles(
    prefix: String, sourceLocation: SourceLocation = #_sourceLocation
) -> [(name: String, bytes: [UInt8])] {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: suiteDirectory.path) else {
        Issue.record(
            "JSONTestSuite not found at \(suiteDirectory.path); it must be in the shared directory next to the repository",
            sourceLocation: sourceLocation)
        return []
    }
    let files = names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }.sorted().compactMap { name in
        let path = suiteDirectory.appendingPathComponent(name).path
        return FileManager.default.contents(atPath: path).map { (name: name, bytes: [UInt8]($0)) }
    }
    if files.isEmpty {
        Issue.record("no \(prefix)*.json files in \(suiteDirectory.path)", sourceLocation: sourceLocation)
    }
    return files
}
