/// The history: what is kept, and the file (mode 0600, bounded, a warning and no failure when it cannot be written).

#if canImport(Glibc)
import Glibc
#endif
@testable import REPL
import Foundation
import Testing
import TestSupport

@Test func historyKeepsWhatItShould() {
    var history = History(limit: 3)
    let added1 = history.add("add one")
    #expect(added1)
    let added2 = history.add("add one")
    #expect(!added2, "a repeat of the line before is not added")
    let added3 = history.add(" secret")
    #expect(!added3, "a line starting with a space is not added")
    let added4 = history.add("   ")
    #expect(!added4)
    let added5 = history.add("")
    #expect(!added5)
    let added6 = history.add("add two")
    #expect(added6)
    let added7 = history.add("add one")
    #expect(added7, "a repeat of an older line is added")
    let added8 = history.add("add three")
    #expect(added8)
    #expect(history.entries == ["add two", "add one", "add three"], "only the last three are kept")
    #expect(History(entries: ["a", "b", "c", "d"], limit: 2).entries == ["c", "d"])
}

@Test func historyLocationFollowsXDG() {
    #expect(HistoryFile.location(environment: { ["XDG_STATE_HOME": "/s", "HOME": "/h"][$0] }) == "/s/taskls/history")
    #expect(HistoryFile.location(environment: { ["XDG_STATE_HOME": "relative", "HOME": "/h"][$0] }) == "/h/.local/state/taskls/history")
    #expect(HistoryFile.location(environment: { ["HOME": "/h"][$0] }) == "/h/.local/state/taskls/history")
    #expect(HistoryFile.location(environment: { _ in nil }) == nil)
}

@Test func historyFileIsPrivateAppendedAndReadBack() throws {
    let state = makeTemporaryDirectory(prefix: "taskls-history")
    defer { removeTree(state) }
    let path = state + "/taskls/history"
    var warnings: [String] = []
    let file = HistoryFile(path: path) { warnings.append($0) }
    #expect(file.history.entries.isEmpty)
    file.add("add Buy milk")
    file.add("add Buy milk")
    file.add(" hidden")
    file.add("open Work")
    var info = stat()
    #expect(stat(path, &info) == 0)
    #expect(info.st_mode & 0o777 == 0o600)
    #expect(stat(state + "/taskls", &info) == 0)
    #expect(info.st_mode & 0o777 == 0o700)
    #expect(readTextFile(path) == "add Buy milk\nopen Work\n")
    let again = HistoryFile(path: path) { warnings.append($0) }
    #expect(again.history.entries == ["add Buy milk", "open Work"])
    #expect(warnings.isEmpty)
}

@Test func historyFileStaysBounded() throws {
    let state = makeTemporaryDirectory(prefix: "taskls-history")
    defer { removeTree(state) }
    let path = state + "/history"
    var warnings: [String] = []
    let file = HistoryFile(path: path, limit: 8) { warnings.append($0) }
    for index in 1...30 { file.add("line \(index)") }
    let lines = (readTextFile(path) ?? "").split(separator: "\n")
    #expect(lines.count <= 10, "at most a quarter beyond the limit: \(lines.count)")
    #expect(lines.last == "line 30")
    #expect(file.history.entries == (23...30).map { "line \($0)" })
    // A file grown beyond the limit (by another session) is cut back when read.
    let long = (1...50).map { "old \($0)\n" }.joined()
    try writeTextFile(path, long)
    let reread = HistoryFile(path: path, limit: 8) { warnings.append($0) }
    #expect(reread.history.entries == (43...50).map { "old \($0)" })
    #expect((readTextFile(path) ?? "").split(separator: "\n").count == 8)
    #expect(warnings.isEmpty)
}

@Test func unwritableHistoryIsOneWarning() throws {
    let state = makeTemporaryDirectory(prefix: "taskls-history")
    defer { removeTree(state) }
    // A file where the directory should be: nothing can be made under it (even by root).
    try writeTextFile(state + "/taskls", "not a directory")
    var warnings: [String] = []
    let file = HistoryFile(path: state + "/taskls/history") { warnings.append($0) }
    file.add("add one")
    file.add("add two")
    #expect(warnings.count == 1, "\(warnings)")
    #expect(warnings.first?.hasPrefix("taskls repl: history not saved: cannot write \(state)/taskls/history") == true, "\(warnings)")
    #expect(file.history.entries == ["add one", "add two"], "the history still works in memory")
}

/// Two sessions on one file: when one cuts the file back, the lines the other appended meanwhile stay, in the
/// order they were typed; the file is replaced whole (no temporary file is left beside it).
@Test func historyRewriteKeepsAnotherSessionsLines() throws {
    let state = makeTemporaryDirectory(prefix: "taskls-history")
    defer { removeTree(state) }
    let path = state + "/history"
    var warnings: [String] = []
    let first = HistoryFile(path: path, limit: 8) { warnings.append($0) }
    let second = HistoryFile(path: path, limit: 8) { warnings.append($0) }
    var typed: [String] = []
    for index in 1...12 {
        first.add("first \(index)")
        typed.append("first \(index)")
        if index % 3 == 0 {
            second.add("second \(index)")
            typed.append("second \(index)")
        }
    }
    let lines = (readTextFile(path) ?? "").split(separator: "\n").map(String.init)
    #expect(lines.contains("second 9") && lines.contains("second 12"), "\(lines)")
    #expect(lines == Array(typed.suffix(lines.count)), "the file is the last lines typed, in order: \(lines)")
    #expect(lines.count < typed.count, "the file was cut back: \(lines.count) lines")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: state)) ?? []
    #expect(names == ["history"], "\(names)")
    #expect(warnings.isEmpty)
}
