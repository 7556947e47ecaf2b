/// Messages that name a list when two lists have its name: which one they mean, by number in ls or id.

@testable import REPL
import Testing
import TestSupport

@Test func aSecondListOfANameIsOpenedByNumberOrID() throws {
    let output = CapturedOutput()
    let (repl, store) = try startREPL(["--clock", "2026-11-22T10:00:00Z", "--keep-going"], output: output)
    defer { removeTree(store); _ = repl.finish() }
    #expect(repl.execute("mklist Work"))
    #expect(output.take().contains("open it with: open Work"))
    #expect(repl.execute("mklist Work"))
    let created = output.take()
    #expect(!created.contains("open it with: open Work"), "\(created)")
    let suggested = try #require(created.split(separator: "\n").first { $0.contains("open it with: ") }?.components(separatedBy: "open it with: ").last)
    #expect(repl.execute(suggested), "\(output.text)")
    #expect(repl.view?.list?.description == "l2", "\(suggested) opens the new list")
}

@Test func movingIntoTheOpenListIsOneMessageNamingWhichList() throws {
    let output = CapturedOutput()
    let (repl, store) = try startREPL(["--clock", "2026-11-22T10:00:00Z", "--keep-going"], output: output)
    defer { removeTree(store); _ = repl.finish() }
    for line in ["mklist Work", "mklist Work", "open 2", "add first", "add second"] { #expect(repl.execute(line), "\(output.text)") }
    _ = output.take()
    #expect(repl.execute("mv 1 @l2"))
    let said = output.take().split(separator: "\n")
    #expect(said == ["moved \"first\" to the end of Work (number 2 in ls, l2)"], "\(said)")
    #expect(repl.execute("mv 1 @l1"))
    let other = output.take().split(separator: "\n")
    #expect(other == ["moved \"second\" to Work (number 1 in ls, l1)"], "\(other)")
}
