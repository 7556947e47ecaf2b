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

/// A REPL in a detached tmux session of its own server (`-L`), for tests that look at a real terminal.
struct TmuxSession {
    let tmux: String
    let socket: String
    /// The tmux server's process and the REPL's (in its pane), ended by `kill` whatever tmux does.
    let processes: [pid_t]

    /// Starts `taskls repl ARGUMENTS` in a `width` × 40 terminal.
    init(arguments: String, width: Int = 100) throws {
        tmux = try #require(tmuxPath())
        socket = "taskls-repl-test-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        let command = "env TZ=UTC COLUMNS= NO_COLOR= TERM=xterm-256color '\(BuildPaths.taskls)' repl \(arguments)"
        try run(tmux, ["-L", socket, "-f", "/dev/null", "new-session", "-d", "-x", String(width), "-y", "40", "-s", "repl", command])
        let pids = try run(tmux, ["-L", socket, "display-message", "-p", "-t", "repl", "#{pid} #{pane_pid}"]).output
        processes = pids.split(whereSeparator: \.isWhitespace).compactMap { pid_t($0) }
    }

    /// Runs a tmux command on this session's server; returns its output.
    @discardableResult
    func tmux(_ arguments: [String]) throws -> String { try run(tmux, ["-L", socket] + arguments).output }

    /// The screen once it shows `text`, or the last screen when it does not within a minute (a bound for a
    /// failing test, not a pause: `--demo` loads 100,000 tasks, which a debug build on a loaded machine takes
    /// seconds to do).
    func screen(showing text: String) throws -> String {
        let deadline = Date().addingTimeInterval(60)
        var last = ""
        while Date() < deadline {
            last = try tmux(["capture-pane", "-p", "-t", "repl"])
            // Each look runs tmux once, which paces the loop.
            if last.contains(text) { return last }
        }
        return last
    }

    /// Types `line` and Enter.
    func type(_ line: String) throws {
        try tmux(["send-keys", "-t", "repl", "-l", line])
        try tmux(["send-keys", "-t", "repl", "Enter"])
    }

    /// Ends the tmux server and the REPL. `kill-server` alone has been seen to leave both running (a test run on a
    /// loaded machine, in copy mode): they are killed too.
    func kill() {
        _ = try? tmux(["kill-server"])
        for process in processes { Glibc.kill(process, SIGKILL) }
    }
}

@Test(.enabled("needs tmux (the reason is on stderr: repl-tmux: skipped)") { tmuxPresent() })
func replInRealTerminal() throws {
    let store = makeTemporaryDirectory(prefix: "taskls-repl-tmux")
    defer { removeTree(store) }
    let session = try TmuxSession(arguments: "--store '\(store)' --clock 2026-11-22T10:00:00Z")
    defer { session.kill() }
    let greeting = try session.screen(showing: "taskls>")
    #expect(greeting.contains("type help for commands"), "\(greeting)")
    try session.type("mklist Inbox")
    #expect(try session.screen(showing: "created list \"Inbox\"").contains("created list"))
    try session.type("open Inbox")
    #expect(try session.screen(showing: "Inbox>").contains("No tasks — add one with: add <title>"))
    try session.type("add Buy milk ^tomorrow !high #home")
    let table = try session.screen(showing: "☐ Buy milk")
    #expect(table.contains("☐ Buy milk"), "\(table)")
    #expect(table.contains("tomorrow"))
    #expect(table.contains("#home"))
    try session.type("done 1")
    #expect(try session.screen(showing: "☑ Buy milk").contains("☑ Buy milk"))
    try session.type("quit")
    FileHandle.standardError.write(Data("repl-tmux: ran\n".utf8))
}

/// CJK, emoji and accented titles in a real terminal: tmux's own cursor, moved onto each row's due by a search
/// in copy mode, stands at the same screen column on every row.
@Test(.enabled("needs tmux (the reason is on stderr: repl-tmux: skipped)") { tmuxPresent() })
func wideTitlesAlignInRealTerminal() throws {
    let store = makeTemporaryDirectory(prefix: "taskls-repl-tmux")
    defer { removeTree(store) }
    let session = try TmuxSession(arguments: "--store '\(store)' --clock 2026-11-22T10:00:00Z", width: 90)
    defer { session.kill() }
    _ = try session.screen(showing: "taskls>")
    try session.type("mklist Wide")
    try session.type("open Wide")
    // Sunday 2026-11-22: ^fri is "in 5 days".
    let titles = ["买牛奶和面包", "🎉 party planning", "👨‍👩‍👧 family dinner", "e\u{301}cole et cafe\u{301}", "plain title",
                  "これはとても長いタイトルで、表の幅に収まらないので省略記号で切られるはずです本当に長い"]
    for title in titles { try session.type("add \(title) ^fri !high #x") }
    #expect(try session.screen(showing: " at 6").contains(" at 6"), "the sixth task was added")
    // Only the last table on the screen: tmux forgets what it showed, then the view is shown once.
    try session.tmux(["send-keys", "-R", "-t", "repl"])
    try session.tmux(["clear-history", "-t", "repl"])
    try session.type("view")
    let screen = try session.screen(showing: "rows 1–6 of 6")
    let rows = screen.split(separator: "\n").filter { $0.contains("in 5 days") }
    #expect(rows.count == titles.count, "\(screen)")
    // tmux's cursor, not our measure: search each due from the bottom up and read where the cursor is.
    try session.tmux(["copy-mode", "-t", "repl"])
    var columns: [Int: Int] = [:]
    for _ in titles {
        try session.tmux(["send-keys", "-t", "repl", "-X", "search-backward", "in 5 days"])
        let place = try session.tmux(["display-message", "-p", "-t", "repl", "#{copy_cursor_x} #{copy_cursor_y}"])
        let numbers = place.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard numbers.count == 2 else { Issue.record("tmux said \(place)"); break }
        columns[numbers[1]] = numbers[0]
    }
    #expect(columns.count == titles.count, "every row was found once: \(columns)")
    #expect(Set(columns.values).count == 1, "the due column starts at one screen column: \(columns)\n\(screen)")
    FileHandle.standardError.write(Data("repl-tmux: ran\n".utf8))
}

/// `--demo` in a real terminal: while the store loads, its progress is one line, rewritten in place, and the
/// overview takes its place once the store is ready.
@Test(.enabled("needs tmux (the reason is on stderr: repl-tmux: skipped)") { tmuxPresent() })
func storeProgressIsOneLineReplacedByTheOverview() throws {
    let session = try TmuxSession(arguments: "--demo --clock 2026-11-22T10:00:00Z")
    defer { session.kill() }
    let screen = try session.screen(showing: "Smart groups")
    #expect(screen.contains("Smart groups"), "\(screen)")
    #expect(!screen.contains("loading"), "the progress line is gone: \(screen)")
    try session.type("quit")
    FileHandle.standardError.write(Data("repl-tmux: ran\n".utf8))
}

/// A view that loads again (`sort due` on the demo's 100,000 tasks) says its progress on one line in a terminal.
@Test(.enabled("needs tmux (the reason is on stderr: repl-tmux: skipped)") { tmuxPresent() })
func viewProgressIsOneLineInATerminal() throws {
    let session = try TmuxSession(arguments: "--demo --clock 2026-11-22T10:00:00Z")
    defer { session.kill() }
    _ = try session.screen(showing: "Smart groups")
    try session.type("open Archive")
    _ = try session.screen(showing: "Archive>")
    try session.tmux(["send-keys", "-t", "repl", "C-l"])
    try session.type("sort due")
    let screen = try session.screen(showing: "100,000 rows · sort: due")
    #expect(screen.contains("100,000 rows · sort: due"), "\(screen)")
    let loading = screen.split(separator: "\n").filter { $0.contains("Loading") }
    #expect(loading.count <= 1, "\(screen)")
    try session.type("quit")
    FileHandle.standardError.write(Data("repl-tmux: ran\n".utf8))
}
