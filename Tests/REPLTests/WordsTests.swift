/// The REPL in words a user knows: what it stores from the server's grammar, tables aligned by terminal cells,
/// counts kept apart, server messages without protocol paths, filters written back in the grammar's words.

@testable import REPL
import Testing
import TasklsProtocol
import TestSupport
import Wire

/// A REPL in this process with a list Inbox (l1) and a list Work (l2), Inbox open.
private func startWithLists(clock: String = "2026-11-25T10:00:00Z") throws -> (REPL, CapturedOutput, String) {
    let output = CapturedOutput()
    let (repl, store) = try startREPL(["--clock", clock, "--keep-going"], output: output)
    for line in ["mklist Inbox", "mklist Work", "open Inbox"] { #expect(repl.execute(line), "\(output.text)") }
    _ = output.take()
    return (repl, output, store)
}

/// The items of a list, in order, as the server has them (notes and times left out).
private func items(_ repl: REPL, list: String) throws -> [ItemRow] {
    let snapshot = try repl.send(ListsOpen(.list(try ListID(json: .string(list), path: "")), window: Window(start: 0, end: 100)))
    defer { _ = try? repl.send(ViewClose(view: snapshot.view)) }
    return snapshot.rows.compactMap { row in if case .item(let item) = row { item } else { nil } }
}

@Test func addStoresExactlyWhatTheGrammarReads() throws {
    let (repl, output, store) = try startWithLists()
    defer { removeTree(store); _ = repl.finish() }
    // Wednesday 2026-11-25: ^fri is 2026-11-27.
    #expect(repl.execute("add Buy milk ^fri !high #home @Work // two litres"), "\(output.text)")
    let work = try items(repl, list: "l2")
    #expect(work.count == 1)
    let milk = try repl.send(ItemsGet(id: try #require(work.first).id))
    #expect(milk.title == "Buy milk")
    #expect(milk.due == "2026-11-27")
    #expect(milk.priority == .high)
    #expect(milk.tags == ["home"])
    #expect(milk.notes == "two litres")
    #expect(try items(repl, list: "l1").isEmpty, "nothing in the open list")
    #expect(repl.execute(##"add Fix issue \#42"##))
    #expect(try items(repl, list: "l1").map(\.title) == ["Fix issue #42"])
    #expect(try items(repl, list: "l1").first?.tags == [])
}

@Test(arguments: ["add Pay rent !urgent", "add Pay rent ^soon", "add Pay rent @Nowhere", "add Pay ^fri rent ^mon"])
func warningStoresNothing(_ line: String) throws {
    let (repl, output, store) = try startWithLists()
    defer { removeTree(store); _ = repl.finish() }
    #expect(!repl.execute(line))
    let printed = output.take()
    #expect(printed.contains("warning: "), "\(printed)")
    #expect(printed.contains("nothing was added"), "\(printed)")
    #expect(try items(repl, list: "l1").isEmpty)
    #expect(try items(repl, list: "l2").isEmpty)
}

@Test func editWithAWarningChangesNothing() throws {
    let (repl, output, store) = try startWithLists()
    defer { removeTree(store); _ = repl.finish() }
    #expect(repl.execute("add Call Ann ^tomorrow #family"))
    #expect(!repl.execute("edit 1 Call Bob !urgent"))
    #expect(output.take().contains("nothing was changed"))
    let ann = try #require(try items(repl, list: "l1").first)
    #expect(ann.title == "Call Ann" && ann.tags == ["family"] && ann.due == "2026-11-26")
    #expect(repl.execute("edit 1 Call Bob ^none !low #work @Work"))
    let bob = try #require(try items(repl, list: "l2").first)
    #expect(bob.title == "Call Bob" && bob.due == nil && bob.priority == .low && bob.tags == ["family", "work"])
    #expect(output.take().contains("moved \"Call Ann\" to Work"))
}

/// Titles in CJK, emoji (with a joiner), combining accents and ASCII: the due and priority columns start at
/// the same terminal cell on every row, and no line is wider than the style's width.
@Test func tableAlignsWideTitlesByTerminalCells() throws {
    let (repl, output, store) = try startWithLists()
    defer { removeTree(store); _ = repl.finish() }
    let titles = ["买牛奶和面包", "🎉 party planning", "👨‍👩‍👧 family dinner", "e\u{301}cole et cafe\u{301}", "Plain ASCII title",
                  "これはとても長いタイトルで、表の幅に収まらないので省略記号で切られるはずです本当に長い"]
    for title in titles { #expect(repl.execute("add \(title) ^fri !high #x"), "\(output.text)") }
    _ = output.take()
    #expect(repl.execute("view"))
    let rows = output.take().split(separator: "\n").map(String.init).filter { $0.contains("in 2 days") }
    #expect(rows.count == titles.count, "\(rows)")
    func cell(of marker: String, in line: String) -> Int? {
        guard let range = line.range(of: marker) else { return nil }
        return DisplayWidth.of(line[..<range.lowerBound])
    }
    let dueCells = Set(rows.map { cell(of: "in 2 days", in: $0) })
    let priorityCells = Set(rows.map { cell(of: "!!!", in: $0) })
    #expect(dueCells.count == 1, "\(rows.joined(separator: "\n"))")
    #expect(priorityCells.count == 1)
    for row in rows { #expect(DisplayWidth.of(row) <= 80, "\(row)") }
    #expect(rows.last?.contains("...") == true, "the long title is cut: \(rows.last ?? "")")
}

@Test func overviewKeepsCountsApart() throws {
    let (repl, _, store) = try startWithLists()
    defer { removeTree(store); _ = repl.finish() }
    repl.lists = [TaskList(id: try ListID(json: "l7", path: ""), name: "Archive", open: 66_666, total: 100_000),
                  TaskList(id: try ListID(json: "l8", path: ""), name: "日本語のリスト", open: 5, total: 12)]
    let lines = repl.overviewLines()
    let archive = try #require(lines.first { $0.contains("Archive") })
    #expect(archive.contains("66,666  100,000"), "\(archive)")
    let header = try #require(lines.first { $0.hasPrefix("Lists") })
    let japanese = try #require(lines.first { $0.contains("日本語") })
    // Right-aligned counts end at the same cell as their headings.
    #expect(DisplayWidth.of(header) == DisplayWidth.of(archive))
    #expect(DisplayWidth.of(japanese) == DisplayWidth.of(archive))
}

@Test(arguments: [
    ("params.due: must be an ISO 8601 date", "due: must be an ISO 8601 date"),
    ("params.window.start: must not be negative", "start: must not be negative"),
    ("params.ids[2]: unknown item", "ids: unknown item"),
    ("view v12 is not in manual ascending order", "This view is not in manual ascending order"),
    ("the view v3 closed", "the this view closed"),
    ("unknown item id: i999", "unknown item id: i999"),
    ("vivid v2x", "vivid v2x"),
])
func serverMessagesInPlainWords(_ message: String, _ expected: String) {
    #expect(plainWords(message) == expected)
}

/// What the title line shows of a filter reads back, through the server's grammar, to the same filter.
@Test(arguments: ["#home !high+ due<fri open milk", "#a|#b done", "due>tomorrow", "due:fri", "due>=2026-12-01 \\#42 \\done \\\\x",
                  "cafe", "!! due<=2026-11-30T17:00"])
func filterDescriptionsReadBack(_ text: String) throws {
    let (repl, _, store) = try startWithLists()
    defer { removeTree(store); _ = repl.finish() }
    let first = try repl.send(TextParseFilter(text: text))
    #expect(first.warnings.isEmpty, "\(first.warnings)")
    let described = FilterText.describe(first.filter)
    let again = try repl.send(TextParseFilter(text: described))
    #expect(again.warnings.isEmpty, "\(described): \(again.warnings)")
    #expect(again.filter == first.filter, "\(text) -> \(described)")
}

@Test func undoAndRedoSayWhatTheyDid() throws {
    let (repl, output, store) = try startWithLists()
    defer { removeTree(store); _ = repl.finish() }
    for line in ["add one", "add two", "add three", "rm 1-3", "undo", "redo", "undo", "mv 1-2 @Work", "undo", "redo"] {
        #expect(repl.execute(line), "\(line): \(output.text)")
    }
    let printed = output.take()
    for words in ["undid: delete 3 tasks", "redid: delete 3 tasks", "undid: move 2 tasks to Work", "redid: move 2 tasks to Work"] {
        #expect(printed.contains(words), "\(words) in \(printed)")
    }
    for jargon in ["items/", "lists/", "v1", "params."] { #expect(!printed.contains(jargon), "\(jargon) in \(printed)") }
}

@Test func itemNumbersSkipHeaders() throws {
    let (repl, output, store) = try startWithLists()
    defer { removeTree(store); _ = repl.finish() }
    for line in ["add a !high", "add b", "add c !high", "add d !low", "group priority"] { #expect(repl.execute(line)) }
    let table = output.take().split(separator: "\n").filter { $0.contains("[ ]") }.map { $0.prefix(7) }
    #expect(table == ["1 [ ] a", "2 [ ] c", "3 [ ] d", "4 [ ] b"])
    #expect(repl.execute("done 3"))
    let d = try #require(try items(repl, list: "l1").first { $0.title == "d" })
    #expect(d.done)
    #expect(!repl.execute("done 5"))
}

/// A view opened while the store loads gets its rows in one reset when the store is ready: the REPL shows
/// the table, not a `+ "title" at N` line per row as if they had just been added.
@Test func loadingShowsTheTableNotAdditions() throws {
    let output = CapturedOutput()
    let (first, store) = try startREPL(["--clock", "2026-11-25T10:00:00Z"], output: output)
    defer { removeTree(store) }
    for line in ["mklist Inbox", "open Inbox", "add one", "add two", "add three"] { #expect(first.execute(line)) }
    #expect(first.finish() == 0)
    _ = output.take()
    let (second, _) = try startREPL(["--clock", "2026-11-25T10:00:00Z", "--store", store, "--hold-load"], output: output)
    defer { _ = second.finish() }
    #expect(second.execute("open all"))
    #expect(second.execute(#"raw {"method":"debug/continueLoading"}"#))
    // As in a terminal between two commands: the notifications arrive, then what changed is printed.
    let deadline = monotonicMilliseconds() + 20_000
    while second.view?.state.isReady != true, let message = second.nextMessage(until: deadline) {
        if case .notification(let name, let params) = message { second.handle(name, params) }
    }
    #expect(second.execute(""))
    let printed = output.take()
    #expect(printed.contains("1 [ ] one") && printed.contains("3 [ ] three"), "\(printed)")
    #expect(!printed.contains("+ \""), "no additions are printed: \(printed)")
}
