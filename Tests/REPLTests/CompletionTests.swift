/// Tab completion in a real session: commands, list names (with white space), smart groups, tags.

@testable import REPL
import Testing
import TestSupport

@Test func completionOffersCommandsListsAndTags() throws {
    let output = CapturedOutput()
    let (repl, store) = try startREPL(["--clock", "2026-11-22T10:00:00Z"], output: output)
    defer {
        _ = repl.finish()
        removeTree(store)
    }
    for line in ["mklist Inbox", "mklist Two words", "mklist Twofold", "open Inbox", "add Buy milk #home #shop", "add Call #family"] {
        #expect(repl.execute(line), "\(line): \(output.take())")
    }
    var tags = SeenTags()
    tags.collect(from: repl.view)
    #expect(tags.tags == ["home", "shop", "family"])
    func candidates(_ line: String) -> [String] { repl.completion(line: line, cursor: line.count, tags: tags.tags).candidates }

    #expect(candidates("op") == ["open"])
    #expect(candidates("o") == ["open", "o", "outdent"])
    #expect(candidates("  mk") == ["mklist"])
    #expect(repl.completion(line: "  mk", cursor: 4, tags: []).start == 2)
    #expect(candidates("zz").isEmpty)
    #expect(candidates("open T") == ["Two words", "Twofold", "today"])
    #expect(candidates("open tw") == ["Two words", "Twofold"])
    #expect(candidates("o in") == ["Inbox"])
    #expect(candidates("rmlist in") == ["Inbox"])
    #expect(candidates("add Eggs @Tw") == ["@\"Two words\"", "@Twofold"])
    #expect(candidates("add Eggs @\"Two w") == ["@\"Two words\""])
    #expect(repl.completion(line: "add Eggs @\"Two w", cursor: 16, tags: []).start == 9)
    #expect(candidates("mv 2 @in") == ["@Inbox"])
    #expect(candidates("mv 2 to t") == ["top"])
    #expect(candidates("mv 2 to tw") == [], "to takes top, a list takes @")
    #expect(candidates("mv 2 u") == ["under"])
    #expect(candidates("mv 2 ") == ["under", "to"])
    #expect(candidates("mv u") == [], "the rows come first")
    #expect(candidates("mv 2 under ") == [])
    #expect(candidates("add -") == ["--under"])
    #expect(candidates("add --under 3 -") == [], "only the first word")
    #expect(candidates("fold a") == ["all"])
    #expect(candidates("unfold ") == ["all"])
    #expect(candidates("ind") == ["indent"])
    #expect(candidates("coll") == ["collapse"])
    #expect(candidates("add Eggs #h") == ["#home"])
    #expect(candidates("edit 1 -#s") == ["-#shop"])
    #expect(candidates("add Eggs #") == ["#family", "#home", "#shop"])
    #expect(candidates("add Eggs") == [], "a title word completes nothing")

    // Through the editor: one candidate completes with a space after it.
    var editor = LineEditor { line, cursor in repl.completion(line: line, cursor: cursor, tags: tags.tags) }
    for key: Key in [.text("add Eggs @\"two w"), .tab] { _ = editor.handle(key) }
    #expect(editor.text == "add Eggs @\"Two words\" ")
}
