/// The line editor as a state machine: each binding, kill and yank, word motion, history, reverse search,
/// completion, and a randomized run against a simple model.

@testable import REPL
import Testing
import TestSupport

/// An editor after `keys`, with `history`.
private func edited(_ keys: [Key], history: [String] = [], complete: @escaping (String, Int) -> Completion = { _, _ in .none }) -> (LineEditor, [LineEditor.Outcome]) {
    var editor = LineEditor(history: history, complete: complete)
    let outcomes = keys.map { editor.handle($0) }
    return (editor, outcomes)
}

@Test func typingAndCursorMotion() {
    let (editor, _) = edited([.text("add Tesk"), .left, .left, .backspace, .text("a")])
    #expect(editor.text == "add Task")
    #expect(editor.cursor == 6)
    var moved = edited([.text("abc"), .home]).0
    #expect(moved.cursor == 0)
    _ = moved.handle(.end)
    #expect(moved.cursor == 3)
    for (key, cursor) in [(Key.control("a"), 0), (.control("f"), 1), (.right, 2), (.control("b"), 1), (.left, 0), (.left, 0), (.control("e"), 3), (.right, 3)] {
        _ = moved.handle(key)
        #expect(moved.cursor == cursor, "\(key)")
    }
}

@Test func deletingKeys() {
    #expect(edited([.text("abc"), .home, .delete]).0.text == "bc")
    #expect(edited([.text("abc"), .home, .control("d")]).0.text == "bc")
    #expect(edited([.text("abc"), .control("d")]).0.text == "abc", "Ctrl-D at the end of a line deletes nothing")
    #expect(edited([.text("abc"), .backspace, .backspace]).0.text == "a")
    #expect(edited([.text("abc"), .home, .backspace]).0.text == "abc")
    #expect(edited([.control("d")]).1 == [.end])
    #expect(edited([.text("x"), .control("d")]).1 == [.edited, .edited])
}

@Test func killAndYank() {
    let (afterK, _) = edited([.text("buy milk now"), .left, .left, .left, .left, .control("k")])
    #expect(afterK.text == "buy milk")
    #expect(afterK.killed == " now")
    #expect(edited([.text("buy milk now"), .left, .left, .left, .left, .control("k"), .home, .control("y")]).0.text == " nowbuy milk")
    let (afterU, _) = edited([.text("buy milk"), .left, .left, .left, .left, .control("u")])
    #expect(afterU.text == "milk")
    #expect(afterU.cursor == 0)
    #expect(afterU.killed == "buy ")
    let (afterW, _) = edited([.text("add call-Ann today  "), .control("w")])
    #expect(afterW.text == "add call-Ann ")
    #expect(afterW.killed == "today  ")
    #expect(edited([.text("add call-Ann"), .control("w")]).0.text == "add ", "Ctrl-W takes everything back to white space")
    #expect(edited([.text("add call-Ann"), .control("w"), .control("y"), .control("y")]).0.text == "add call-Anncall-Ann")
    #expect(edited([.text("add call-Ann"), .deleteWordLeft]).0.text == "add call-")
    #expect(edited([.text("add call-Ann"), .home, .deleteWordRight]).0.text == " call-Ann")
    // An empty kill keeps what was killed before.
    #expect(edited([.text("ab"), .control("u"), .control("u"), .control("y")]).0.text == "ab")
}

@Test func wordMotionOverPunctuationAndWideCharacters() {
    var editor = edited([.text("fix #42: 漢字テスト, now")]).0
    let stops = [16, 9, 5, 0, 0]
    for stop in stops {
        _ = editor.handle(.wordLeft)
        #expect(editor.cursor == stop)
    }
    for stop in [3, 7, 14, 19, 19] {
        _ = editor.handle(.wordRight)
        #expect(editor.cursor == stop)
    }
    #expect(edited([.text("a 😀 b"), .wordLeft, .wordLeft]).0.cursor == 0, "an emoji is not a word")
}

@Test func transposeSwapsCharacters() {
    #expect(edited([.text("ab"), .control("t")]).0.text == "ba")
    #expect(edited([.text("abc"), .left, .control("t")]).0.text == "acb")
    #expect(edited([.text("abc"), .home, .control("t")]).0.text == "abc")
}

@Test func combiningMarksJoinTheirCharacter() {
    let (editor, _) = edited([.text("cafe"), .text("\u{301}"), .text("!")])
    #expect(editor.buffer.count == 5)
    #expect(editor.text == "café!")
    #expect(editor.cursor == 5)
    #expect(edited([.text("漢字"), .left, .backspace]).0.text == "字")
}

@Test func controlCClearsThenQuits() {
    let (editor, outcomes) = edited([.text("half typed"), .control("c")])
    #expect(editor.text == "")
    #expect(outcomes.last == .interrupted)
    #expect(edited([.text("x"), .control("c"), .control("c")]).1.last == .quit)
    #expect(edited([.control("c"), .control("c")]).1 == [.interrupted, .quit])
    #expect(edited([.control("c"), .text("a"), .backspace, .control("c")]).1.last == .interrupted, "only a Ctrl-C right after a Ctrl-C quits")
    #expect(edited([.control("l")]).1 == [.clearScreen])
    #expect(edited([.text("go"), .enter]).1.last == .submit("go"))
}

@Test func historyNavigationKeepsEditedLines() {
    var editor = LineEditor(history: ["add one", "add two"])
    _ = editor.handle(.text("half"))
    _ = editor.handle(.up)
    #expect(editor.text == "add two")
    _ = editor.handle(.text("!"))
    _ = editor.handle(.up)
    #expect(editor.text == "add one")
    _ = editor.handle(.up)
    #expect(editor.text == "add one", "the oldest line stays")
    _ = editor.handle(.control("n"))
    #expect(editor.text == "add two!", "the edit to a recalled line is kept")
    _ = editor.handle(.down)
    #expect(editor.text == "half", "the line being typed is kept")
    _ = editor.handle(.down)
    #expect(editor.text == "half")
    _ = editor.handle(.control("p"))
    #expect(editor.handle(.enter) == .submit("add two!"))
    editor.begin(history: ["add one", "add two", "add two!"])
    _ = editor.handle(.up)
    _ = editor.handle(.up)
    #expect(editor.text == "add two", "a submitted line forgets the edits")
}

@Test func reverseSearch() {
    let history = ["add Buy milk", "open Work", "add Call Ann", "done 3"]
    var editor = LineEditor(history: history)
    _ = editor.handle(.text("keep"))
    _ = editor.handle(.control("r"))
    #expect(editor.search?.prompt == "(reverse-i-search)'': ")
    _ = editor.handle(.text("a"))
    #expect(editor.text == "add Call Ann")
    _ = editor.handle(.text("dd"))
    #expect(editor.text == "add Call Ann")
    #expect(editor.cursor == 0)
    _ = editor.handle(.control("r"))
    #expect(editor.text == "add Buy milk")
    _ = editor.handle(.control("r"))
    #expect(editor.search?.failed == true)
    #expect(editor.text == "add Buy milk", "a failed search keeps the last match")
    _ = editor.handle(.backspace)
    #expect(editor.search?.query == "ad")
    #expect(editor.text == "add Call Ann", "a shorter query searches from the newest again")
    _ = editor.handle(.control("g"))
    #expect(editor.search == nil)
    #expect(editor.text == "keep", "Ctrl-G gives the line back")

    var accepting = LineEditor(history: history)
    for key: Key in [.control("r"), .text("milk")] { _ = accepting.handle(key) }
    #expect(accepting.search?.prompt == "(reverse-i-search)'milk': ")
    #expect(accepting.text == "add Buy milk")
    _ = accepting.handle(.control("e"))
    #expect(accepting.search == nil)
    #expect(accepting.cursor == accepting.buffer.count, "a key ends the search and then acts")
    _ = accepting.handle(.text(" now"))
    _ = accepting.handle(.down)
    #expect(accepting.text == "open Work", "the history walk goes on from the match")
    _ = accepting.handle(.up)
    #expect(accepting.handle(.enter) == .submit("add Buy milk now"))

    var returning = LineEditor(history: history)
    for key: Key in [.text("typed"), .control("r"), .text("Work"), .left, .down, .down, .down] { _ = returning.handle(key) }
    #expect(returning.text == "typed", "the line typed before the search is still there below the history")

    var submitting = LineEditor(history: history)
    for key: Key in [.control("r"), .text("WORK")] { _ = submitting.handle(key) }
    #expect(submitting.handle(.enter) == .submit("open Work"), "the search ignores case; Enter runs the match")
}

@Test func tabCompletes() {
    let names = ["open", "o", "note", "next"]
    let complete: (String, Int) -> Completion = { line, cursor in
        let word = String(line.prefix(cursor))
        return Completion(start: 0, candidates: names.filter { $0.hasPrefix(word) })
    }
    #expect(edited([.text("op"), .tab], complete: complete).0.text == "open ")
    let (several, outcomes) = edited([.text("n"), .tab, .tab], complete: complete)
    #expect(several.text == "n")
    #expect(outcomes == [.edited, .edited, .list(["note", "next"])])
    #expect(edited([.text("ne"), .tab], complete: complete).0.text == "next ")
    #expect(edited([.text("x"), .tab], complete: complete).0.text == "x")
    // A common beginning longer than what was typed is completed at once.
    let longer: (String, Int) -> Completion = { _, _ in Completion(start: 4, candidates: ["@\"Two words\"", "@\"Two ways\""]) }
    #expect(edited([.text("add @T"), .tab], complete: longer).0.text == "add @\"Two w")
    // Completing in the middle of a line keeps what follows, and steps over its space.
    let middle = edited([.text("op x"), .left, .left, .tab], complete: complete).0
    #expect(middle.text == "open x")
    #expect(middle.cursor == 5)
}

/// Random keys against a model of the line as a string and a cursor, for the keys whose effect is plain.
@Test func randomizedEditingMatchesModel() {
    var random = SplitMix64(seed: 0x5EED_0014)
    let pieces = ["a", "b", " ", "漢", "😀", "é", "xy", "-", "#"]
    var changes = 0
    for _ in 0..<200 {
        var editor = LineEditor()
        var model: [Character] = []
        var cursor = 0
        var killed = ""
        for _ in 0..<60 {
            let before = (model, cursor)
            switch random.below(10) {
            case 0, 1, 2:
                let text = random.pick(pieces)
                _ = editor.handle(.text(text))
                model.insert(contentsOf: Array(text), at: cursor)
                cursor += text.count
            case 3:
                _ = editor.handle(.left)
                cursor = max(0, cursor - 1)
            case 4:
                _ = editor.handle(.right)
                cursor = min(model.count, cursor + 1)
            case 5:
                _ = editor.handle(random.chance(50) ? .home : .end)
                cursor = editor.cursor == 0 ? 0 : model.count
            case 6:
                _ = editor.handle(.backspace)
                if cursor > 0 {
                    model.remove(at: cursor - 1)
                    cursor -= 1
                }
            case 7:
                _ = editor.handle(.delete)
                if cursor < model.count { model.remove(at: cursor) }
            case 8:
                if random.chance(50) {
                    _ = editor.handle(.control("k"))
                    if cursor < model.count {
                        killed = String(model[cursor...])
                        model.removeSubrange(cursor...)
                    }
                } else {
                    _ = editor.handle(.control("u"))
                    if cursor > 0 {
                        killed = String(model[..<cursor])
                        model.removeSubrange(..<cursor)
                        cursor = 0
                    }
                }
            default:
                _ = editor.handle(.control("y"))
                model.insert(contentsOf: Array(killed), at: cursor)
                cursor += killed.count
            }
            if before.0 != model || before.1 != cursor { changes += 1 }
            #expect(editor.buffer == model)
            #expect(editor.cursor == cursor)
            #expect(editor.killed == killed)
        }
    }
    #expect(changes > 5000, "the run did real work: \(changes) changes")
}

@Test func rendererKeepsTheCursorInSight() {
    let escape = "\u{1B}"
    // Fits: the whole line, the cursor after the prompt's 3 cells and 2 wide characters.
    #expect(LineRenderer.draw(prompt: "x> ", promptWidth: 3, line: Array("漢字ab"), cursor: 2, width: 40)
            == "\rx> 漢字ab" + escape + "[0K\r" + escape + "[7C")
    // Control characters in the line are drawn escaped.
    #expect(LineRenderer.draw(prompt: "> ", promptWidth: 2, line: Array("a\u{1B}[2J"), cursor: 0, width: 40)
            == "\r> a\\e[2J" + escape + "[0K\r" + escape + "[2C")
    // Too wide: the window ends at the cursor.
    let line = Array("0123456789abcdefghij")
    #expect(LineRenderer.visibleRange(cells: line.map { _ in 1 }, cursor: 20, room: 10) == 11..<20)
    #expect(LineRenderer.visibleRange(cells: line.map { _ in 1 }, cursor: 3, room: 10) == 0..<10)
    #expect(LineRenderer.visibleRange(cells: [2, 2, 2, 2, 2, 2], cursor: 6, room: 7) == 3..<6)
    #expect(LineRenderer.visibleRange(cells: [2, 2, 2, 2, 2, 2], cursor: 5, room: 7) == 3..<6)
    // Randomized: the cursor is always in the window and the window always fits.
    var random = SplitMix64(seed: 14)
    var checked = 0
    for _ in 0..<500 {
        let cells = (0..<random.below(40)).map { _ in random.pick([1, 1, 2, 0]) }
        let cursor = random.below(cells.count + 1)
        let room = random.int(in: 2...30)
        let window = LineRenderer.visibleRange(cells: cells, cursor: cursor, room: room)
        #expect(window.contains(cursor) || window.upperBound == cursor)
        let used = cells[window].reduce(0, +)
        let cursorCells = cursor < cells.count ? max(1, cells[cursor]) : 1
        #expect(used <= room)
        #expect(cells[window.lowerBound..<cursor].reduce(0, +) + cursorCells <= room)
        checked += 1
    }
    #expect(checked == 500)
}
