/// `taskls import` and `taskls export` through the binary: a dry run, an import, a second import that changes
/// nothing, standard input, a refused file, and an import into a store an editor's server has open.

import Testing
import TestSupport
import Transcript
import Wire

private let todo = """
    (A) Call the plumber +Home due:2026-12-01
    Buy milk +Home @errand
    x 2026-11-20 2026-11-01 File taxes +Work

    """

private func taskls(_ arguments: [String], input: String = "") throws -> (status: Int32, output: String, error: String) {
    let run = try ServerProcess.run(BuildPaths.taskls, arguments, input: Array(input.utf8), timeout: 60_000)
    return (run.status ?? -1, run.output, run.error)
}

@Test func importIsDryRunThenDoneThenUnchangedAndExportGivesItBack() throws {
    let store = Binary.temporaryStore()
    let file = makeTemporaryDirectory(prefix: "taskls-import") + "/todo.txt"
    try writeTextFile(file, todo)
    let dry = try taskls(["import", file, "--dry-run", "--store", store])
    #expect(dry.status == 0, "\(dry.error)")
    #expect(dry.output.contains("dry run: would create 3, would update 0, 0 unchanged"), "\(dry.output)")
    #expect(dry.output.contains("would create lists: Home, Work"), "\(dry.output)")

    let done = try taskls(["import", file, "--store", store])
    #expect(done.status == 0 && done.output.hasPrefix("created 3, updated 0, 0 unchanged"), "\(done.output)\(done.error)")
    let again = try taskls(["import", file, "--store", store])
    #expect(again.output.hasPrefix("created 0, updated 0, 3 unchanged"), "\(again.output)\(again.error)")

    let exported = try taskls(["export", "--format", "todotxt", "--list", "Home", "--store", store])
    #expect(exported.status == 0, "\(exported.error)")
    #expect(exported.output.contains("Call the plumber") && exported.output.contains("Buy milk"))
    #expect(!exported.output.contains("File taxes"))
    #expect(exported.error.contains("exported 2 tasks in 1 list"), "\(exported.error)")

    // The export imports back as the same tasks (its uids find them).
    let back = try taskls(["import", "-", "--format", "todotxt", "--store", store], input: exported.output)
    #expect(back.output.hasPrefix("created 0, updated 0, 2 unchanged"), "\(back.output)\(back.error)")
}

@Test func aRefusedFileExitsOneNamingItsLine() throws {
    let store = Binary.temporaryStore()
    let bad = try taskls(["import", "-", "--format", "todotxt", "--store", store], input: "fine\nbad due:2026-13-01\n")
    #expect(bad.status == 1)
    #expect(bad.error.hasPrefix("taskls: params.text: -:2: "), "\(bad.error)")
    let unknown = try taskls(["import", "tasks.xyz", "--store", store])
    #expect(unknown.status == 2 && unknown.error.contains("cannot tell the format"), "\(unknown.error)")
    let list = try taskls(["export", "--format", "ics", "--list", "Nowhere", "--store", store])
    #expect(list.status == 1 && list.error.contains("no list named 'Nowhere'"), "\(list.error)")
}

@Test func anEditorOnTheStoreSeesTheImportAsOneChange() throws {
    let store = Binary.temporaryStore()
    let server = try ServerProcess(executable: BuildPaths.taskls, arguments: ["serve", "--store", store], environment: [:])
    defer { server.terminate() }
    func call(_ id: Int, _ method: String, _ params: JSON) throws -> JSON {
        _ = server.send(["jsonrpc": "2.0", "id": .integer(Int64(id)), "method": .string(method), "params": params])
        while let message = server.receive(timeout: 30_000) {
            if message["id"] == .integer(Int64(id)) { return message }
        }
        throw ProcessError("no answer to \(method)")
    }
    _ = try call(1, "initialize", [:])
    _ = server.send(["jsonrpc": "2.0", "method": "initialized", "params": [:]])
    let created = try call(2, "lists/create", ["name": "Home"])
    guard let home = created["result"]?["list"]?["id"] else { Issue.record("no list: \(created)"); return }
    _ = try call(3, "lists/open", ["list": home, "window": ["start": 0, "end": 50]])

    let run = try taskls(["import", "-", "--format", "todotxt", "--store", store], input: todo)
    #expect(run.status == 0, "\(run.error)")
    // The editor's server finds the other process's records and tells its view, in one change.
    var changes = 0
    var count: JSON?
    while count != .integer(2), let message = server.receive(timeout: 30_000) {
        guard message["method"] == "view/changed" else { continue }
        changes += 1
        count = message["params"]?["count"]
    }
    #expect(count == .integer(2) && changes == 1)
}
