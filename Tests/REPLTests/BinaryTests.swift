/// The REPL through the real binary: a script on piped stdin, its exit codes, and a real terminal (tmux).

#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TestSupport
import Transcript

/// Runs `taskls repl ARGUMENTS` with `script` on stdin; returns its stdout, stderr and exit code.
func runScript(_ script: String, _ arguments: [String]) throws -> (output: String, errors: String, status: Int32?) {
    let run = try ServerProcess.run(BuildPaths.taskls, ["repl"] + arguments, environment: ["TZ": "UTC", "NO_COLOR": "1", "COLUMNS": "80"],
                                    input: Array(script.utf8), timeout: 20_000)
    return (run.output, run.error, run.status)
}

@Test func pipedScriptRunsWithoutPrompt() throws {
    let store = makeTemporaryDirectory(prefix: "taskls-repl-binary")
    defer { removeTree(store) }
    let first = try runScript("mklist Inbox\nopen Inbox\nadd Buy milk due:tomorrow !high\n", ["--store", store, "--clock", "2026-11-22T10:00:00Z"])
    #expect(first.status == 0, "\(first.errors)")
    #expect(first.output.contains("+ \"Buy milk\" at 1"))
    #expect(!first.output.contains("taskls> ") && !first.output.contains("Inbox> "), "no prompt in a script: \(first.output)")
    // The store is durable: a second script sees what the first one added.
    let second = try runScript("open Inbox\n", ["--store", store, "--clock", "2026-11-22T10:00:00Z"])
    #expect(second.status == 0)
    #expect(second.output.contains("1 [ ] Buy milk"), "\(second.output)")
    #expect(second.output.contains("tomorrow"))
}

@Test func failedCommandStopsScriptWithExitOne() throws {
    let store = makeTemporaryDirectory(prefix: "taskls-repl-binary")
    defer { removeTree(store) }
    let stopped = try runScript("open Nowhere\nmklist Never\n", ["--store", store])
    #expect(stopped.status == 1)
    #expect(stopped.errors == "error: no list named 'Nowhere'; ls shows the lists\n")
    #expect(!stopped.output.contains("Never"))
    let kept = try runScript("open Nowhere\nmklist Kept\n", ["--store", store, "--keep-going"])
    #expect(kept.status == 1)
    #expect(kept.output.contains("created list \"Kept\""))
    let usage = try runScript("", ["--no-such-flag"])
    #expect(usage.status == 2)
    #expect(usage.errors.hasPrefix("taskls repl: unknown option '--no-such-flag'"))
}

/// Runs a program to its end (at most ten seconds); returns its exit status and stdout.
///
/// Stdout goes to a file, not a pipe: `tmux new-session` starts a daemon that would keep a pipe
/// open after the command itself has ended.
@discardableResult
func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let run = try ServerProcess.run(executable, arguments, timeout: 10_000)
    guard let status = run.status else {
        throw ProcessError("\(executable) \(arguments.joined(separator: " ")) did not finish within ten seconds")
    }
    return (status, run.output)
}

/// The path of `tmux`, if it is installed.
func tmuxPath() -> String? {
    let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
    return (directories.map { $0 + "/tmux" } + ["/usr/bin/tmux"]).first { access($0, X_OK) == 0 }
}

/// Whether tmux is there; when it is not, the test is skipped (and counted as skipped) with
/// `repl-tmux: skipped (REASON)` on stderr. `.ci/run` requires `repl-tmux: ran`.
private func tmuxPresent() -> Bool {
    guard tmuxPath() == nil else { return true }
    FileHandle.standardError.write(Data("repl-tmux: skipped (tmux is not installed)\n".utf8))
    return false
}

@Test(.enabled("needs tmux (the reason is on stderr: repl-tmux: skipped)") { tmuxPresent() })
func replInRealTerminal() throws {
    let tmux = try #require(tmuxPath())
    let store = makeTemporaryDirectory(prefix: "taskls-repl-tmux")
    defer { removeTree(store) }
    let socket = "taskls-repl-test-\(getpid())"
    let command = "env TZ=UTC COLUMNS= NO_COLOR= TERM=xterm-256color '\(BuildPaths.taskls)' repl --store '\(store)' --clock 2026-11-22T10:00:00Z"
    try run(tmux, ["-L", socket, "-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "40", "-s", "repl", command])
    defer { _ = try? run(tmux, ["-L", socket, "kill-server"]) }
    /// The screen once it shows `text`, or the last screen when it does not within ten seconds.
    func screen(showing text: String) throws -> String {
        let deadline = Date().addingTimeInterval(10)
        var last = ""
        while Date() < deadline {
            last = try run(tmux, ["-L", socket, "capture-pane", "-p", "-t", "repl"]).output
            // Each look runs tmux once, which paces the loop.
            if last.contains(text) { return last }
        }
        return last
    }
    func type(_ line: String) throws {
        try run(tmux, ["-L", socket, "send-keys", "-t", "repl", "-l", line])
        try run(tmux, ["-L", socket, "send-keys", "-t", "repl", "Enter"])
    }

    let greeting = try screen(showing: "taskls>")
    #expect(greeting.contains("type help for commands"), "\(greeting)")
    try type("mklist Inbox")
    #expect(try screen(showing: "created list \"Inbox\"").contains("created list"))
    try type("open Inbox")
    #expect(try screen(showing: "Inbox>").contains("No tasks — add one with: add <title>"))
    try type("add Buy milk due:tomorrow !high #home")
    let table = try screen(showing: "☐ Buy milk")
    #expect(table.contains("☐ Buy milk"), "\(table)")
    #expect(table.contains("tomorrow"))
    #expect(table.contains("#home"))
    try type("done 1")
    #expect(try screen(showing: "☑ Buy milk").contains("☑ Buy milk"))
    try type("quit")
    FileHandle.standardError.write(Data("repl-tmux: ran\n".utf8))
}
