/// `store/import` and `store/export` through the in-process server: answered after the file is read off the loop,
/// all or nothing, one undo step, idempotent; a refused file names its line; progress on the request's token.

import Foundation
import TasklsProtocol
import Testing
import Wire

private let todo = """
    (A) Call the plumber +Home due:2026-12-01 uid:plumber
    Buy milk +Home @errand uid:milk
    x 2026-11-20 2026-11-01 File taxes +Work uid:taxes

    """

@Test func anImportIsOneUndoStepAndImportingTwiceChangesNothing() throws {
    let client = try TestClient()
    let home = try client.send(ListsCreate(name: "Home")).list.id
    let view = try client.send(ListsOpen(.list(home), sort: Sort(.manual)))
    var window = try ViewWindow(snapshot: view)

    let revision = try client.send(ListsList()).revision
    let dry = try client.send(StoreImport(format: .todotxt, source: .text(todo), dryRun: true))
    #expect(dry.dryRun && dry.created == 3 && dry.createdLists == ["Work"] && dry.revision == revision)
    #expect(try client.send(ListsList()).lists.map(\.name) == ["Home"])
    #expect(client.takeNotifications().isEmpty)

    let imported = try client.send(StoreImport(format: .todotxt, source: .text(todo)))
    #expect(!imported.dryRun && imported.created == 3 && imported.updated == 0 && imported.createdLists == ["Work"])
    for case .viewChanged(let change) in client.takeNotifications() { _ = try window.apply(change) }
    #expect(window.rows.map(\.title) == ["Call the plumber", "Buy milk"])
    #expect(try client.send(ListsList()).lists.map(\.name) == ["Home", "Work"])

    let again = try client.send(StoreImport(format: .todotxt, source: .text(todo)))
    #expect(again.created == 0 && again.updated == 0 && again.unchanged == 3 && again.revision == imported.revision)

    _ = try client.send(Undo())
    for case .viewChanged(let change) in client.takeNotifications() { _ = try window.apply(change) }
    #expect(window.rows.isEmpty)
    #expect(try client.send(ListsList()).lists.map(\.name) == ["Home"])
}

@Test func aRefusedFileNamesItsLineAndChangesNothing() throws {
    let client = try TestClient()
    _ = try client.send(ListsCreate(name: "Home"))
    let bad = "Fine task\nDue when? due:2026-02-30\n"
    let result = try client.call(StoreImport(format: .todotxt, source: .text(bad), name: "todo.txt"))
    guard case .failure(let error) = result else { Issue.record("a bad date was accepted"); return }
    #expect(error.code == .invalidParams)
    #expect(error.message.hasPrefix("params.text: todo.txt:2: "), "\(error.message)")
    #expect(error.data?["reason"]?.stringValue == "invalidFile")
    #expect(try client.send(ListsList()).lists.map(\.total) == [0])

    let skipping = try client.send(StoreImport(format: .todotxt, source: .text(bad), skipInvalid: true))
    #expect(skipping.created == 1 && skipping.skipped.map(\.line) == [2])

    let missing = try client.call(StoreImport(format: .todotxt, source: .path("/nonexistent/taskls/todo.txt")))
    guard case .failure(let unreadable) = missing else { Issue.record("a missing file was read"); return }
    #expect(unreadable.message.hasPrefix("params.path: cannot read /nonexistent/taskls/todo.txt"))
    let relative = try client.call(StoreImport.self, params: ["format": "todotxt", "path": "todo.txt"])
    guard case .failure(let notAbsolute) = relative else { Issue.record("a relative path was taken"); return }
    #expect(notAbsolute.message == "params.path: must be an absolute path")
    let both = try client.call(StoreImport.self, params: ["format": "ics", "path": "/a", "text": ""])
    guard case .failure(let twoSources) = both else { Issue.record("path and text were taken together"); return }
    #expect(twoSources.message == "params: give path or text, not both")
}

@Test func anExportWritesTheTextOrTheFileAndCountsWhatTheFormatLoses() throws {
    let client = try TestClient()
    let home = try client.send(ListsCreate(name: "Home")).list.id
    let work = try client.send(ListsCreate(name: "Work")).list.id
    try client.send(ItemsCreate(list: home, title: "Water plants", notes: "the ferns too"))
    try client.send(ItemsCreate(list: work, title: "Report"))
    let all = try client.send(StoreExport(format: .todotxt))
    let text = try #require(all.text)
    #expect(all.tasks == 2 && all.lists == 2)
    #expect(text.contains("Water plants") && text.contains("Report"))
    #expect(all.losses.contains { $0.what.contains("notes") && $0.count == 1 })

    let one = try client.send(StoreExport(format: .todotxt, lists: [work]))
    #expect(one.tasks == 1 && one.text?.contains("Water plants") == false)

    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("taskls-export-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("tasks.ics").path
    let written = try client.send(StoreExport(format: .ics, path: path))
    #expect(written.text == nil && written.tasks == 2)
    let file = try String(contentsOfFile: path, encoding: .utf8)
    #expect(file.hasPrefix("BEGIN:VCALENDAR") && file.contains("SUMMARY:Water plants"))

    // The file imports back into the same store as the items it came from.
    let back = try client.send(StoreImport(format: .ics, source: .path(path)))
    #expect(back.created == 0 && back.updated == 0 && back.unchanged == 2)

    let unknown = try client.call(StoreExport(format: .json, lists: [ListID(999)]))
    guard case .failure(let error) = unknown else { Issue.record("an unknown list was exported"); return }
    #expect(error.data?["reason"]?.stringValue == "notFound")
}

@Test func anImportReportsProgressOnItsToken() throws {
    let client = try TestClient(initialize: false)
    try client.send(Initialize(processId: nil, workDoneProgress: true))
    client.notify(Initialized())
    _ = try client.send(ListsCreate(name: "Home"))
    let token = ProgressToken.string("import-1")
    let result = try client.send(StoreImport(format: .todotxt, source: .text(todo)), workDoneToken: token)
    #expect(result.created == 3)
    let values = client.takeNotifications().compactMap { notification -> ProgressValue? in
        if case .progress(let progress) = notification, progress.token == token { progress.value } else { nil }
    }
    #expect(values.count == 2)
    if case .begin(let title, _)? = values.first { #expect(title == "Importing -") } else { Issue.record("no begin: \(values)") }
    if case .end? = values.last {} else { Issue.record("no end: \(values)") }
}
