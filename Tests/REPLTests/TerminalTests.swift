/// The line editor through the real binary in a real terminal (tmux): arrow keys, Home/End, Ctrl-W, history,
/// Ctrl-R and Tab change exactly what is stored; stored escape sequences print escaped; Ctrl-C twice quits
/// and takes the `--demo` store with it.

#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TestSupport
import Transcript
import Wire

/// Whether tmux is there; when it is not, the tests are skipped with `repl-tmux: skipped (REASON)` on stderr.
private func tmuxInstalled() -> Bool {
    guard tmuxPath() == nil else { return true }
    FileHandle.standardError.write(Data("repl-tmux: skipped (tmux is not installed)\n".utf8))
    return false
}

/// A tmux server of its own running one command in a 100×40 window.
private struct TerminalSession {
    let tmux: String
    let socket: String

    /// Starts `command` in a new tmux server.
    init(tmux: String, command: String) throws {
        self.tmux = tmux
        socket = "taskls-term-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try run(tmux, ["-L", socket, "-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "40", "-s", "repl", command])
    }

    /// Types `text` literally.
    func type(_ text: String) throws { try run(tmux, ["-L", socket, "send-keys", "-t", "repl", "-l", text]) }

    /// Presses keys by tmux's names (`Left`, `C-w`, `M-b`, `Enter`).
    func press(_ keys: String...) throws { try run(tmux, ["-L", socket, "send-keys", "-t", "repl"] + keys) }

    /// The screen as text.
    func screen() throws -> String { try run(tmux, ["-L", socket, "capture-pane", "-p", "-t", "repl"]).output }

    /// The screen once `condition` holds for it, or the last screen after ten seconds (each look runs tmux
    /// once, which paces the loop).
    func screen(until condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(10)
        var last = ""
        while Date() < deadline {
            last = try screen()
            if condition(last) { return last }
        }
        return last
    }

    /// The screen once its last non-blank line is `line`.
    @discardableResult
    func waitForLastLine(_ line: String) throws -> String {
        let shown = try screen { lastLine($0) == line }
        #expect(lastLine(shown) == line, "\(shown)")
        return shown
    }

    /// The cursor's column.
    func cursorColumn() throws -> Int? {
        Int(try run(tmux, ["-L", socket, "display-message", "-p", "-t", "repl", "#{cursor_x}"]).output.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Whether the session (and so its command) is still running.
    func isRunning() -> Bool { ((try? run(tmux, ["-L", socket, "has-session", "-t", "repl"]))?.status ?? 1) == 0 }

    func stop() { _ = try? run(tmux, ["-L", socket, "kill-server"]) }
}

/// The last line of `screen` that is not blank, without trailing spaces.
private func lastLine(_ screen: String) -> String {
    let lines = screen.split(separator: "\n").map { String($0.reversed().drop { $0 == " " }.reversed()) }
    return lines.last { !$0.isEmpty } ?? ""
}

/// The titles of every item in the store at `store`, read by a second process (`raw lists/open` of the All
/// group and its JSON answer).
private func storedTitles(_ store: String) throws -> [String] {
    let run = try runScript(#"raw {"method":"lists/open","params":{"group":"all"}}"# + "\n", ["--store", store])
    let answer = try #require(run.output.split(separator: "\n").first { $0.hasPrefix("<-- ") && $0.contains("\"result\"") })
    let json = try JSONParser.parse(String(answer.dropFirst(4)))
    guard case .array(let rows)? = json["result"]?["rows"] else { return [] }
    return rows.compactMap { $0["title"]?.stringValue }
}

@Test(.enabled("needs tmux (the reason is on stderr: repl-tmux: skipped)") { tmuxInstalled() })
func editingKeysStoreExactlyWhatWasMeant() throws {
    let tmux = try #require(tmuxPath())
    let store = makeTemporaryDirectory(prefix: "taskls-term-store")
    let state = makeTemporaryDirectory(prefix: "taskls-term-state")
    defer {
        removeTree(store)
        removeTree(state)
    }
    // Another client plants a title that would clear the screen if printed raw.
    let seeded = try runScript("mklist Inbox\nmklist Two words\nopen Inbox\nadd Evil \u{1B}[2J title\n", ["--store", store])
    #expect(seeded.status == 0, "\(seeded.errors)")
    let command = "env TZ=UTC COLUMNS= NO_COLOR= TERM=xterm-256color XDG_STATE_HOME='\(state)' '\(BuildPaths.taskls)' repl --store '\(store)' --clock 2026-11-22T10:00:00Z"
    let terminal = try TerminalSession(tmux: tmux, command: command)
    defer { terminal.stop() }
    /// Enter, then wait until the line shows as run (typed at `prompt`) and the prompt (`next`) is back.
    func enter(_ line: String, at prompt: String = "Inbox>", next: String = "Inbox>") throws {
        try terminal.press("Enter")
        let ran = { (screen: String) in screen.split(separator: "\n").contains { $0.hasPrefix(prompt + " " + line) } && lastLine(screen) == next }
        let shown = try terminal.screen(until: ran)
        #expect(ran(shown), "after \(line): \(shown)")
    }

    try terminal.waitForLastLine("taskls>")
    // Tab completes a command, then a list name.
    try terminal.type("op")
    try terminal.press("Tab")
    try terminal.waitForLastLine("taskls> open")
    try terminal.type("In")
    try terminal.press("Tab")
    try terminal.waitForLastLine("taskls> open Inbox")
    try enter("open Inbox", at: "taskls>")
    let table = try terminal.screen()
    #expect(table.contains(#"Evil \e[2J title"#), "the stored escape prints escaped: \(table)")
    #expect(table.contains("taskls repl"), "the screen was not cleared: \(table)")

    // Arrows and Backspace fix a typo.
    try terminal.type("add Tesk")
    try terminal.press("Left", "Left", "BSpace")
    try terminal.type("a")
    try terminal.waitForLastLine("Inbox> add Task")
    try enter("add Task")
    // Up recalls the line; Ctrl-A, Alt-F and End move in it.
    try terminal.press("Up")
    try terminal.waitForLastLine("Inbox> add Task")
    try terminal.press("C-a", "M-f")
    try terminal.type(" Big")
    try terminal.press("End")
    try terminal.type(" here")
    try terminal.press("Home", "End")
    try terminal.waitForLastLine("Inbox> add Big Task here")
    try enter("add Big Task here")
    // Ctrl-W takes back a word.
    try terminal.type("add Call Ann tomorrowish")
    try terminal.press("C-w")
    try terminal.type("back")
    try terminal.waitForLastLine("Inbox> add Call Ann back")
    try enter("add Call Ann back")
    // Ctrl-R finds an older line; End takes it to edit.
    try terminal.press("C-r")
    try terminal.type("Big")
    try terminal.waitForLastLine("(reverse-i-search)'Big': add Big Task here")
    try terminal.press("End")
    try terminal.type(" too")
    try terminal.waitForLastLine("Inbox> add Big Task here too")
    try enter("add Big Task here too")
    // Wide characters: the cursor lands between them.
    try terminal.type("add 茶")
    try terminal.press("Left")
    try terminal.type("緑")
    try terminal.waitForLastLine("Inbox> add 緑茶")
    #expect(try terminal.cursorColumn() == DisplayWidthOf("Inbox> add 緑"))
    try enter("add 緑茶")
    // Alt-B moves back a word.
    try terminal.type("add Fix bike")
    try terminal.press("M-b")
    try terminal.type("old ")
    try terminal.waitForLastLine("Inbox> add Fix old bike")
    try enter("add Fix old bike")
    // Tab completes a list name with white space after @; Ctrl-C clears the line.
    try terminal.type("mv 1 @Tw")
    try terminal.press("Tab")
    try terminal.waitForLastLine(#"Inbox> mv 1 @"Two words""#)
    try terminal.press("C-c")
    try terminal.waitForLastLine("Inbox>")
    // Another client adds a task while a line is half typed: the change prints, the line and cursor come back.
    try terminal.type("add half")
    try terminal.press("Left", "Left")
    try terminal.waitForLastLine("Inbox> add half")
    let pushed = try runScript("open Inbox\nadd Pushed elsewhere\n", ["--store", store])
    #expect(pushed.status == 0, "\(pushed.errors)")
    let redrawn = try terminal.screen { $0.contains("Pushed elsewhere") && lastLine($0) == "Inbox> add half" }
    #expect(redrawn.contains("Pushed elsewhere") && lastLine(redrawn) == "Inbox> add half", "\(redrawn)")
    #expect(try terminal.cursorColumn() == "Inbox> add ha".count)
    try terminal.type("X")
    try terminal.waitForLastLine("Inbox> add haXlf")
    try terminal.press("C-c")
    try terminal.waitForLastLine("Inbox>")
    try terminal.type("quit")
    try terminal.press("Enter")
    _ = try terminal.screen { _ in !terminal.isRunning() }
    #expect(!terminal.isRunning(), "quit ends the session")

    let titles = try storedTitles(store)
    #expect(titles.sorted() == ["Evil \u{1B}[2J title", "Pushed elsewhere", "Task", "Big Task here", "Call Ann back", "Big Task here too", "緑茶", "Fix old bike"].sorted(), "\(titles)")
    let history = readTextFile(state + "/taskls/history") ?? ""
    #expect(history == "open Inbox \nadd Task\nadd Big Task here\nadd Call Ann back\nadd Big Task here too\nadd 緑茶\nadd Fix old bike\nquit\n", "\(history)")
    var info = stat()
    #expect(stat(state + "/taskls/history", &info) == 0 && info.st_mode & 0o777 == 0o600)
    FileHandle.standardError.write(Data("repl-tmux: ran\n".utf8))
}

/// The cells of `text` as the terminal counts them (ASCII and CJK only here).
private func DisplayWidthOf(_ text: String) -> Int {
    text.unicodeScalars.reduce(0) { $0 + ($1.value >= 0x2E80 ? 2 : 1) }
}

@Test(.enabled("needs tmux (the reason is on stderr: repl-tmux: skipped)") { tmuxInstalled() })
func controlCTwiceQuitsAndRemovesTheDemoStore() throws {
    let tmux = try #require(tmuxPath())
    let temporary = makeTemporaryDirectory(prefix: "taskls-term-tmp")
    let state = makeTemporaryDirectory(prefix: "taskls-term-state")
    defer {
        removeTree(temporary)
        removeTree(state)
    }
    let command = "env TZ=UTC COLUMNS= NO_COLOR= TERM=xterm-256color TMPDIR='\(temporary)' XDG_STATE_HOME='\(state)' '\(BuildPaths.taskls)' repl --demo"
    let terminal = try TerminalSession(tmux: tmux, command: command)
    defer { terminal.stop() }
    try terminal.waitForLastLine("taskls>")
    #expect(names(in: temporary).contains { $0.hasPrefix("taskls-demo-") }, "the demo store is there while the session runs")
    try terminal.type("half typed")
    try terminal.waitForLastLine("taskls> half typed")
    try terminal.press("C-c")
    let hint = try terminal.screen { $0.contains("(Ctrl-C again") && lastLine($0) == "taskls>" }
    #expect(hint.contains("taskls> half typed^C"), "\(hint)")
    #expect(hint.contains("(Ctrl-C again or Ctrl-D to quit)"), "\(hint)")
    #expect(terminal.isRunning(), "one Ctrl-C only clears the line")
    try terminal.press("C-c")
    _ = try terminal.screen { _ in !terminal.isRunning() }
    #expect(!terminal.isRunning())
    #expect(names(in: temporary).isEmpty, "the demo store is gone: \(names(in: temporary))")
    FileHandle.standardError.write(Data("repl-tmux: ran\n".utf8))
}

@Test func demoStoreIsRemovedHoweverAScriptEnds() throws {
    for ending in [SIGTERM, SIGHUP, SIGINT, 0] {
        let temporary = makeTemporaryDirectory(prefix: "taskls-term-tmp")
        defer { removeTree(temporary) }
        let process = try ServerProcess(executable: BuildPaths.taskls, arguments: ["repl", "--demo"], environment: ["TMPDIR": temporary, "NO_COLOR": "1"])
        #expect(process.write(Array("ls\n".utf8)))
        // Output means the store was made and the session runs.
        #expect(process.receiveRaw(timeout: 20_000)?.isEmpty == false)
        #expect(names(in: temporary).contains { $0.hasPrefix("taskls-demo-") })
        if ending == 0 {
            process.closeInput()
            #expect(process.waitForExit(timeout: 20_000) == 0)
        } else {
            process.terminate(signal: ending)
            #expect(process.waitForExit(timeout: 0) == 128 + ending, "signal \(ending)")
        }
        #expect(names(in: temporary).isEmpty, "signal \(ending): \(names(in: temporary))")
    }
}
