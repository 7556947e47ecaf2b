// todo.txt against the format's own tool, todo.sh (Debian's `todotxt-cli`, installed as `todo-txt`): what it writes
// taskls reads, a task it completes keeps its identity, and what taskls writes it lists, prioritizes and completes
// as its own. Without the tool the test prints `todotxt-cli: skipped (REASON)` on stderr and passes.

import Domain
import Foundation
import Interchange
import Testing
import TestSupport

/// todo.sh, run on a todo.txt of its own in a temporary directory.
private struct TodoScript {
    let executable: String
    let directory: String

    /// The installed todo.sh (`todo-txt` on Debian, `todo.sh` elsewhere), or nil.
    static func find() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let directories = path.split(separator: ":").map(String.init) + ["/usr/bin"]
        for name in ["todo-txt", "todo.sh"] {
            if let found = directories.map({ $0 + "/" + name }).first(where: { access($0, X_OK) == 0 }) { return found }
        }
        return nil
    }

    init(executable: String) throws {
        self.executable = executable
        directory = makeTemporaryDirectory(prefix: "taskls-todotxt")
        try writeTextFile(directory + "/config", """
            export TODO_DIR=\(directory)
            export TODO_FILE="$TODO_DIR/todo.txt"
            export DONE_FILE="$TODO_DIR/done.txt"
            export REPORT_FILE="$TODO_DIR/report.txt"

            """)
        try writeTextFile(directory + "/todo.txt", "")
    }

    /// Runs `todo.sh ARGUMENTS` (plain, forced, no archiving, the date on each task added); returns its output.
    @discardableResult
    func callAsFunction(_ arguments: String...) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["-d", directory + "/config", "-p", "-f", "-a", "-t"] + arguments
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": directory, "TZ": "UTC"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        #expect(process.terminationStatus == 0, "todo.sh \(arguments): \(text)")
        return text
    }

    var text: String { readTextFile(directory + "/todo.txt") ?? "" }

    func replace(with text: String) throws { try writeTextFile(directory + "/todo.txt", text) }
}

@Test func todoShAndTasklsReadEachOthersFiles() throws {
    guard let executable = TodoScript.find() else {
        FileHandle.standardError.write(Data("todotxt-cli: skipped (todo.sh is not installed: apt-get install todotxt-cli)\n".utf8))
        return
    }
    let todo = try TodoScript(executable: executable)
    defer { removeTree(todo.directory) }
    try todo("add", "Call Mom +Family @phone due:2026-01-03")
    try todo("add", "Pay rent +Home rec:+1m due:2026-02-01")
    try todo("add", "Water plants @home rec:3d due:2026-01-05 t:2026-01-01")
    try todo("add", "Read the manual +Books_To_Read")
    try todo("pri", "1", "A")
    try todo("pri", "4", "D")

    // What todo.sh wrote, taskls reads.
    let first = try TodoTxtFormat.read(todo.text, options: todoTxtReadOptions()).document
    #expect(first.tasks.map(\.title) == ["Call Mom", "Pay rent", "Water plants", "Read the manual"])
    #expect(first.tasks.map(\.priority) == [.high, .none, .none, .low])
    #expect(first.tasks.map(\.list) == ["Family", "Home", nil, "Books To Read"])
    #expect(first.tasks.map(\.tags) == [["phone"], [], ["home"], []])
    #expect(first.tasks.allSatisfy { $0.createdAt != nil && !$0.done })
    #expect(first.tasks[1].repeatRule == (try RepeatRule(rrule: "FREQ=MONTHLY", anchor: .due)))
    #expect(first.tasks[2].repeatRule == (try RepeatRule(rrule: "FREQ=DAILY;INTERVAL=3", anchor: .completion)))
    #expect(first.tasks[2].extras == [Extra(key: "todotxt:t", value: "2026-01-01")])
    #expect(first.tasks[3].extras == [Extra(key: "todotxt:pri", value: "D")])

    // todo.sh completes a task (and drops its priority): it is the same task to taskls.
    try todo("do", "1")
    let second = try TodoTxtFormat.read(todo.text, options: todoTxtReadOptions()).document
    #expect(second.tasks.map(\.uid) == first.tasks.map(\.uid))
    #expect(second.tasks[0].done && second.tasks[0].completedAt != nil && second.tasks[0].priority == .none)

    // What taskls writes, todo.sh reads as its own: projects, contexts, priorities, and its own edits.
    let written = TodoTxtFormat.write(second, options: todoTxtWriteOptions)
    #expect(written.losses.isEmpty)
    try todo.replace(with: written.text)
    #expect(try todo("lsprj") == "+Books_To_Read\n+Family\n+Home\n")
    #expect(try todo("lsc") == "@home\n@phone\n")
    #expect(try todo("lsp").hasPrefix("4 (D) "))
    try todo("pri", "2", "B")
    try todo("do", "3")
    try todo("append", "4", "@library")
    let third = try TodoTxtFormat.read(todo.text, options: todoTxtReadOptions()).document
    #expect(third.tasks.map(\.uid) == first.tasks.map(\.uid))
    #expect(third.tasks[1].priority == .medium)
    #expect(third.tasks[2].done && third.tasks[2].repeatRule == first.tasks[2].repeatRule)
    #expect(third.tasks[3].tags == ["library"] && third.tasks[3].title == "Read the manual")
    FileHandle.standardError.write(Data("todotxt-cli: ran\n".utf8))
}
