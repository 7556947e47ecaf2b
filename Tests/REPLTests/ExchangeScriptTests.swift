/// The REPL's `import` and `export` through the real binary: a list exported as iCalendar and as the backup, a dry
/// run, an import into another store, the same file again, undo of an import, and mistakes in words.

import Testing
import TestSupport

@Test func aListGoesOutAndComesBackThroughTheREPL() throws {
    let directory = makeTemporaryDirectory(prefix: "taskls-repl-exchange")
    defer { removeTree(directory) }
    let clock = ["--clock", "2026-11-22T10:00:00Z"]
    let first = try runScript("""
        mklist Trip
        open Trip
        add Plan trip due:tomorrow !high #travel
        add > Book flights
        export \(directory)/trip.ics --list Trip
        export \(directory)/backup.json

        """, ["--store", directory + "/one"] + clock)
    #expect(first.status == 0, "\(first.errors)")
    #expect(first.output.contains("exported 2 tasks in 1 list to \(directory)/trip.ics"), "\(first.output)")
    #expect(first.output.contains("exported 2 tasks in 1 list to \(directory)/backup.json"), "\(first.output)")

    let second = try runScript("""
        import \(directory)/trip.ics --dry-run
        import \(directory)/trip.ics
        import \(directory)/trip.ics
        open Trip
        undo
        ls

        """, ["--store", directory + "/two"] + clock)
    #expect(second.status == 0, "\(second.errors)")
    #expect(second.output.contains("dry run: would create 2, would update 0, 0 unchanged"), "\(second.output)")
    #expect(second.output.contains("would create lists: Trip"), "\(second.output)")
    #expect(second.output.contains("imported \(directory)/trip.ics: created 2, updated 0, 0 unchanged"), "\(second.output)")
    #expect(second.output.contains("imported \(directory)/trip.ics: created 0, updated 0, 2 unchanged"), "\(second.output)")
    #expect(second.output.contains("Plan trip") && second.output.contains("Book flights"), "\(second.output)")
    #expect(second.output.contains("undid: import \(directory)/trip.ics"), "\(second.output)")

    let mistakes = try runScript("""
        import
        import \(directory)/notes.md
        export \(directory)/out.ics --list Nowhere

        """, ["--store", directory + "/three", "--keep-going"] + clock)
    #expect(mistakes.status == 1)
    #expect(mistakes.errors.contains("error: import needs a file, such as import ~/todo.txt"), "\(mistakes.errors)")
    #expect(mistakes.errors.contains("cannot tell the format of \(directory)/notes.md from its name"), "\(mistakes.errors)")
    #expect(mistakes.errors.contains("no list named Nowhere"), "\(mistakes.errors)")
}
