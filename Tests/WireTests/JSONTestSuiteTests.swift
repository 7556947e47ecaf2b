/// JSONTestSuite conformance: every y_ file parses, every n_ file is rejected, every i_ file returns.

import Foundation
import Testing
import Wire

/// The suite's parsing cases: `<repository root>/../shared/data/JSONTestSuite/test_parsing/`.
/// `#filePath` is `<root>/Tests/WireTests/JSONTestSuiteTests.swift`, resolved through symlinks.
private let suiteDirectory = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("../shared/data/JSONTestSuite/test_parsing").standardized

@Suite struct JSONTestSuiteTests {
    @Test func acceptsEveryMustAcceptCase() {
        let rejected = suiteFiles(prefix: "y_").compactMap { file -> String? in
            do throws(JSONError) {
                _ = try JSONParser.parse(file.bytes)
                return nil
            } catch {
                return "\(file.name) (\(error))"
            }
        }
        #expect(rejected.isEmpty, "y_ files rejected: \(rejected.joined(separator: "; "))")
    }

    @Test func rejectsEveryMustRejectCase() {
        let accepted = suiteFiles(prefix: "n_").compactMap { file -> String? in
            do throws(JSONError) {
                _ = try JSONParser.parse(file.bytes)
                return file.name
            } catch {
                #expect((0...file.bytes.count).contains(error.offset), "\(file.name): \(error)")
                return nil
            }
        }
        #expect(accepted.isEmpty, "n_ files accepted: \(accepted.joined(separator: ", "))")
    }

    @Test func returnsOnEveryImplementationDefinedCase() {
        // Either answer is fine: returning at all, and with an offset inside the input, is the test.
        for file in suiteFiles(prefix: "i_") {
            do throws(JSONError) {
                _ = try JSONParser.parse(file.bytes)
            } catch {
                #expect((0...file.bytes.count).contains(error.offset), "\(file.name): \(error)")
            }
        }
    }
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
