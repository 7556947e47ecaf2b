/// `import` and `export`: another tool's file into the store, or lists out to one (protocol.md, "Import and export").

import Foundation
import TasklsProtocol
import Wire

extension Commands {
    static let exchangeCommands: [Command] = [
        Command(names: ["import"], usage: "FILE [--format F] [--into LIST] [--dry-run] [--skip-invalid]",
                summary: "read a Taskwarrior, todo.txt, iCalendar or backup file into the store (undo takes it all back)",
                example: "import ~/todo.txt --dry-run", area: "Files",
                run: { repl, arguments throws(CommandError) in try repl.importFile(arguments.words.map(String.init)) }),
        Command(names: ["export"], usage: "FILE [--format F] [--list LIST]...",
                summary: "write every list (or those named) as a Taskwarrior, todo.txt, iCalendar or backup file",
                example: "export ~/tasks.ics --list Work", area: "Files",
                run: { repl, arguments throws(CommandError) in try repl.exportFile(arguments.words.map(String.init)) }),
    ]
}

extension REPL {
    /// `import FILE [--format F] [--into LIST] [--dry-run] [--skip-invalid]`.
    func importFile(_ words: [String]) throws(CommandError) {
        var file: String?
        var format: TasklsProtocol.ExchangeFormat?
        var into: ListID?
        var dryRun = false
        var skipInvalid = false
        var rest = ArraySlice(words)
        while let word = rest.popFirst() {
            switch word {
            case "--format": format = try Self.format(rest.popFirst())
            case "--into":
                guard let name = rest.popFirst() else { throw CommandError("--into needs a list, such as --into Inbox") }
                into = try list(named: name)
            case "--dry-run": dryRun = true
            case "--skip-invalid": skipInvalid = true
            case let flag where flag.hasPrefix("--"): throw CommandError("import: unknown option \(flag)")
            default:
                guard file == nil else { throw CommandError("import takes one file; quote nothing, give one path") }
                file = word
            }
        }
        guard let file else { throw CommandError("import needs a file, such as import ~/todo.txt") }
        let path = Self.absolute(file)
        guard let format = format ?? ExchangeFileNames.format(of: path) else {
            throw CommandError("cannot tell the format of \(file) from its name; add --format taskwarrior, todotxt, ics or json")
        }
        try waitForLists()
        let result = try send(StoreImport(format: format, source: .path(path), name: file, into: into, dryRun: dryRun,
                                          skipInvalid: skipInvalid))
        let (create, update) = dryRun ? ("would create", "would update") : ("created", "updated")
        if !dryRun && result.created + result.updated + result.createdLists.count > 0 {
            record(StoreImport.method, "import \(file)")
        }
        var lines = ["\(dryRun ? "dry run: " : "imported \(file): ")\(create) \(grouped(result.created)), \(update) \(grouped(result.updated)), \(grouped(result.unchanged)) unchanged"]
        if !result.createdLists.isEmpty { lines.append("\(create) lists: " + result.createdLists.map { displayed($0) }.joined(separator: ", ")) }
        if !result.createdSmartLists.isEmpty { lines.append("\(create) smart lists: " + result.createdSmartLists.map { displayed($0) }.joined(separator: ", ")) }
        for problem in result.skipped {
            lines.append("skipped line \(problem.line): \(problem.field.map { $0 + ": " } ?? "")\(problem.message)")
        }
        for loss in result.losses { lines.append("\(dryRun ? "would lose" : "lost"): \(grouped(loss.count)) \(loss.count == 1 ? "task" : "tasks"): \(loss.what) (\(loss.reason))") }
        say(lines)
        if !dryRun { takeOverview(try send(ListsList())) }
    }

    /// `export FILE [--format F] [--list LIST]...`.
    func exportFile(_ words: [String]) throws(CommandError) {
        var file: String?
        var format: TasklsProtocol.ExchangeFormat?
        var lists: [ListID] = []
        var rest = ArraySlice(words)
        while let word = rest.popFirst() {
            switch word {
            case "--format": format = try Self.format(rest.popFirst())
            case "--list":
                guard let name = rest.popFirst() else { throw CommandError("--list needs a list, such as --list Work") }
                lists.append(try list(named: name))
            case let flag where flag.hasPrefix("--"): throw CommandError("export: unknown option \(flag)")
            default:
                guard file == nil else { throw CommandError("export takes one file") }
                file = word
            }
        }
        guard let file else { throw CommandError("export needs a file, such as export ~/tasks.ics") }
        let path = Self.absolute(file)
        guard let format = format ?? ExchangeFileNames.format(of: path, exporting: true) else {
            throw CommandError("cannot tell the format of \(file) from its name; add --format taskwarrior, todotxt, ics or json")
        }
        try waitForLists()
        let result = try send(StoreExport(format: format, lists: lists.isEmpty ? nil : lists, path: path))
        var lines = ["exported \(grouped(result.tasks)) \(result.tasks == 1 ? "task" : "tasks") in \(result.lists) \(result.lists == 1 ? "list" : "lists") to \(file)"]
        for loss in result.losses { lines.append("lost: \(grouped(loss.count)) \(loss.count == 1 ? "task" : "tasks"): \(loss.what) (\(loss.reason))") }
        say(lines)
    }

    /// The one list a user named, by name (case and diacritics ignored), number in `ls`, or id.
    private func list(named text: String) throws(CommandError) -> ListID {
        try waitForLists()
        let named = lists(named: text)
        if named.count == 1 { return named[0].id }
        if named.count > 1 { throw CommandError("\(named.count) lists are named \(displayed(text)); give its number in ls") }
        if let number = Int(text), lists.indices.contains(number - 1) { return lists[number - 1].id }
        if let list = lists.first(where: { $0.id.description == text }) { return list.id }
        throw CommandError("no list named \(displayed(text)); ls shows the lists")
    }

    private static func format(_ word: String?) throws(CommandError) -> TasklsProtocol.ExchangeFormat {
        guard let word, let format = TasklsProtocol.ExchangeFormat(rawValue: word) else {
            throw CommandError("--format needs one of taskwarrior, todotxt, ics, json")
        }
        return format
    }

    /// `~` expanded, and relative to the current directory.
    static func absolute(_ path: String) -> String {
        var path = path
        if path == "~" || path.hasPrefix("~/") { path = NSHomeDirectory() + path.dropFirst() }
        return path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
}

/// The format a file's name says, for `import` and `export` in the REPL and on the command line.
public enum ExchangeFileNames {
    /// `.ics`/`.ical` iCalendar, `.txt` todo.txt; `.json` Taskwarrior's when the file holds an array, the backup when
    /// it holds an object (a file to export to that does not exist yet: the backup).
    public static func format(of path: String, exporting: Bool = false) -> TasklsProtocol.ExchangeFormat? {
        let lowered = path.lowercased()
        if lowered.hasSuffix(".ics") || lowered.hasSuffix(".ical") { return .ics }
        if lowered.hasSuffix(".txt") { return .todotxt }
        guard lowered.hasSuffix(".json") else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else { return exporting ? .json : nil }
        let first = data.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        return first == UInt8(ascii: "[") ? .taskwarrior : first == UInt8(ascii: "{") ? .json : (exporting ? .json : nil)
    }
}
