/// Help: `help keys` lists exactly the keys the line editor acts on; prose is wrapped at spaces on a terminal.

@testable import REPL
import Testing
import TestSupport

/// Every key there is, typed text aside; the switch makes a new kind of key a compile error here.
private func everyKey() -> [Key] {
    let controls = "abcdefghijklmnopqrstuvwxyz".map { Key.control($0) }
    let keys: [Key] = [.enter, .tab, .backspace, .delete, .left, .right, .up, .down, .home, .end, .wordLeft, .wordRight,
                       .deleteWordRight, .deleteWordLeft, .escape] + controls
    for key in keys {
        switch key {
        case .text, .enter, .tab, .backspace, .delete, .left, .right, .up, .down, .home, .end, .wordLeft, .wordRight,
             .deleteWordRight, .deleteWordLeft, .control, .escape: break
        }
    }
    return keys
}

/// Whether `key` does anything to `editor`: changes its line, cursor, cut text, history place or search, or
/// asks the loop for something other than a redraw.
private func acts(_ key: Key, on editor: LineEditor) -> Bool {
    var after = editor
    let outcome = after.handle(key)
    return outcome != .edited || after.buffer != editor.buffer || after.cursor != editor.cursor || after.killed != editor.killed
        || after.position != editor.position || after.search != editor.search
}

@Test func helpKeysListsEveryKeyTheEditorActsOn() {
    // A line "ab cd" with the cursor before "cd", something cut, and a history; then the same a line up it.
    var editor = LineEditor(history: ["one", "two"]) { _, _ in Completion(start: 0, candidates: ["ab cdx", "ab cdy"]) }
    for key: Key in [.text("xy "), .control("w"), .text("ab cd"), .left, .left] { _ = editor.handle(key) }
    var upHistory = editor
    _ = upHistory.handle(.up)
    let acting = Set(everyKey().filter { acts($0, on: editor) || acts($0, on: upHistory) }.map { "\($0)" })
    let listed = Set(LineEditor.bindings.flatMap(\.keys).map { "\($0)" })
    #expect(acting == listed, "bound but not in help: \(acting.subtracting(listed)); in help but not bound: \(listed.subtracting(acting))")
    let help = HelpText.keys(style: .plain()).joined(separator: "\n")
    for binding in LineEditor.bindings { #expect(help.contains(binding.names + "  "), "\(binding.names)") }
    for name in ["Ctrl-T", "Alt-D", "Alt-Backspace"] { #expect(help.contains(name), "\(name)") }
}

/// Every help page at 40 columns on a terminal: no line wider than 40 cells unless it is one word, the same words
/// as unwrapped, and each table's continuation lines start at its second column.
@Test(arguments: [false, true])
func helpIsWrappedAtSpaces(color: Bool) throws {
    let narrow = Style(color: color, unicode: color, width: 40, wraps: true)
    let wide = Style(color: color, unicode: color, width: 40, wraps: false)
    var wrappedLines = 0
    for topic in [nil, "all", "keys", "dates", "filters", "entry", "subtasks", "mv", "add", "fold", "help"] {
        let wrapped = try Commands.help(topic, style: narrow)
        let whole = try Commands.help(topic, style: wide)
        #expect(wrapped.joined(separator: " ").split(separator: " ") == whole.joined(separator: " ").split(separator: " "), "\(topic ?? "index")")
        for line in wrapped {
            let words = line.split(separator: " ")
            #expect(Wrapping.cells(line) <= 40 || words.count == 1, "\(topic ?? "index"): \(line)")
        }
        wrappedLines += wrapped.count - whole.count
    }
    #expect(wrappedLines > 20, "the pages were wrapped: \(wrappedLines) lines more")
    // help filters at 60 columns: its table's second column is at 17 (two spaces, "!high  !high+", two spaces).
    let filters = HelpText.filters(style: Style(color: color, unicode: color, width: 60, wraps: true))
    let continued = filters.filter { $0.hasPrefix("   ") }
    #expect(continued.count >= 2, "\(filters)")
    for line in continued { #expect(line.prefix { $0 == " " }.count == 17, "\(line)") }
}

@Test func wrappingBreaksAtSpacesOnly() {
    #expect(Wrapping.wrap("one two three four", width: 9) == ["one two", "three", "four"])
    #expect(Wrapping.wrap("  key  a long description here", width: 20, indent: 7) == ["  key  a long", "       description", "       here"])
    #expect(Wrapping.wrap("short", width: 9) == ["short"])
    #expect(Wrapping.wrap("averyveryverylongword next", width: 9) == ["averyveryverylongword", "next"])
    #expect(Wrapping.cells("\u{1B}[31merror:\u{1B}[0m 漢字") == 11)
}

/// Errors and warnings on a terminal are broken at spaces to its width; in a pipe they stay one line.
@Test func errorsAndWarningsAreWrappedOnATerminal() throws {
    for wraps in [true, false] {
        let output = CapturedOutput()
        let store = makeTemporaryDirectory(prefix: "taskls-repl-test")
        defer { removeTree(store) }
        var options = try REPLOptions(arguments: ["--clock", "2026-11-22T10:00:00Z", "--keep-going"])
        options.timeZone = "UTC"
        let repl = try REPL(options: options, output: output, style: Style(color: false, unicode: false, width: 40, wraps: wraps), storeSetting: .directory(store))
        defer { _ = repl.finish() }
        #expect(repl.execute("mklist Inbox") && repl.execute("open Inbox"))
        _ = output.take()
        #expect(!repl.execute("add Pay rent ^someday"))
        #expect(!repl.execute("sort sideways"))
        let lines = output.take().split(separator: "\n")
        if wraps {
            #expect(lines.count > 4, "\(lines)")
            for line in lines { #expect(Wrapping.cells(line) <= 40, "\(line)") }
        } else {
            #expect(lines.count == 3, "\(lines)")
        }
    }
}
