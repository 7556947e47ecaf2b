/// Golden sessions: each file under `Golden/` is a script (`> ` lines) with the output the REPL
/// must print for it. `REPL_GOLDEN_UPDATE=1 swift test --filter REPLTests` rewrites them.

import Foundation
@testable import REPL
import Testing
import TestSupport
import Transcript

/// The golden files, by name.
func goldenFiles() -> [String] {
    let directory = BuildPaths.repositoryRoot + "/Tests/REPLTests/Golden"
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return names.filter { $0.hasSuffix(".session") }.sorted()
}

/// Runs the commands of a golden file and writes the transcript of what the REPL printed, in the
/// golden file's form: its leading comment lines, then each command and its output, then the exit code.
///
/// The first comment line may be `# args: ...`, the REPL's options for the session.
func runGolden(_ text: String) throws -> String {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let header = lines.prefix { !$0.hasPrefix("> ") && $0.hasPrefix("#") }
    let commands = lines.filter { $0.hasPrefix("> ") }.map { String($0.dropFirst(2)) }
    var arguments: [String] = []
    if let first = header.first, first.hasPrefix("# args:") {
        arguments = first.dropFirst(7).split(separator: " ").map(String.init)
    }
    let output = CapturedOutput()
    let (repl, store) = try startREPL(arguments, output: output)
    defer { if !arguments.contains("--store") { removeTree(store) } }
    var result = header.joined(separator: "\n") + "\n"
    result += output.take()
    var stopped = false
    for command in commands {
        result += "> " + command + "\n"
        if stopped || repl.finished { continue }
        let succeeded = repl.execute(command)
        result += output.take()
        if !succeeded && !repl.options.keepGoing {
            stopped = true
            result += "[stopped: the command failed]\n"
        }
    }
    let code = repl.finish()
    result += output.take()
    result += "[exit \(code)]\n"
    return result
}

@Test func goldenFilesExist() {
    #expect(goldenFiles().count >= 8)
}

@Test(arguments: goldenFiles())
func golden(_ name: String) throws {
    let path = BuildPaths.repositoryRoot + "/Tests/REPLTests/Golden/" + name
    let expected = try String(contentsOfFile: path, encoding: .utf8)
    let actual = try runGolden(expected)
    if ProcessInfo.processInfo.environment["REPL_GOLDEN_UPDATE"] == "1" {
        try actual.write(toFile: path, atomically: true, encoding: .utf8)
        return
    }
    if actual != expected {
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let first = zip(expectedLines, actualLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(expectedLines.count, actualLines.count)
        let expectedLine = first < expectedLines.count ? String(expectedLines[first]) : "<end>"
        let actualLine = first < actualLines.count ? String(actualLines[first]) : "<end>"
        Issue.record("\(name):\(first + 1): expected \(expectedLine.debugDescription)\n  got \(actualLine.debugDescription)\n--- whole output:\n\(actual)")
    }
}
