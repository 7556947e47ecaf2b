/// Row numbers: without sections an item's number is its row in the view (the footer's and goto's numbers, and
/// what ROW arguments take); with sections, items are numbered from 1 in the window and the footer says so.

@testable import REPL
import Testing
import TestSupport

/// A REPL with a list Big of twelve tasks (`task 1` … `task 12`) open, five rows a page.
private func startWithTwelve() throws -> (REPL, CapturedOutput, String) {
    let output = CapturedOutput()
    let (repl, store) = try startREPL(["--clock", "2026-11-22T10:00:00Z", "--page", "5", "--keep-going"], output: output)
    for line in ["mklist Big", "open Big"] + (1...12).map({ "add task \($0)" }) { #expect(repl.execute(line), "\(output.text)") }
    _ = output.take()
    return (repl, output, store)
}

@Test func itemsAreNumberedByTheirRowInTheView() throws {
    let (repl, output, store) = try startWithTwelve()
    defer { removeTree(store); _ = repl.finish() }
    #expect(repl.execute("goto 6"))
    let table = output.take()
    #expect(table.contains("\n 6 [ ] task 6\n"), "\(table)")
    #expect(table.contains("\n10 [ ] task 10\n"), "\(table)")
    #expect(table.contains("rows 6-10 of 12"), "\(table)")
    #expect(!table.contains(" 1 [ ]"), "\(table)")
    #expect(repl.execute("done 7"), "\(output.text)")
    #expect(output.take().contains("done \"task 7\" at 7"))
    #expect(!repl.execute("done 1"))
    #expect(output.take().contains("no task 1 here (the window shows tasks 6-10;"))
    // mv takes the same numbers: task 9 to row 6.
    #expect(repl.execute("mv 9 6"), "\(output.text)")
    _ = output.take()
    #expect(repl.execute("view"))
    let moved = output.take()
    #expect(moved.contains(" 6 [ ] task 9\n 7 [ ] task 6\n"), "\(moved)")
    #expect(repl.execute("goto 11"))
    #expect(repl.execute("rm 12"), "\(output.text)")
    #expect(output.take().contains("- \"task 12\" (was 12)"))
}

@Test func withSectionsTheFooterSaysWhichNumbersTheTasksHave() throws {
    let (repl, output, store) = try startWithTwelve()
    defer { removeTree(store); _ = repl.finish() }
    #expect(repl.execute("done 1-2"))
    #expect(repl.execute("group done"))
    _ = output.take()
    #expect(repl.execute("goto 10"))
    let table = output.take()
    // Rows 10-14: task 11, task 12, the Done header, task 1, task 2; numbered 1-4 without the header.
    #expect(table.contains("1 [ ] task 11\n2 [ ] task 12\n"), "\(table)")
    #expect(table.contains("3 [x] task 1\n4 [x] task 2\n"), "\(table)")
    #expect(table.contains("tasks 1-4 here | rows 10-14 of 14"), "\(table)")
    #expect(repl.execute("done 1"), "\(output.text)")
    #expect(output.take().contains("\"task 11\""))
}
