/// Commands on saved smart lists (protocol.md, "Smart lists"): save the open view's filter as one, rename and
/// delete it; `ls` shows them with their counts and `open` opens them by name.

import TasklsProtocol
import Wire

extension Commands {
    static let smartListCommands: [Command] = [
        Command(names: ["save"], usage: "NAME", summary: "save the open view's filter as a smart list (open tasks only unless the filter says done)",
                example: "filter #errand   save Errands", area: "Smart lists",
                run: { repl, arguments throws(CommandError) in try repl.saveSmartList(arguments.words.joined(separator: " ")) }),
        Command(names: ["rensmart"], usage: "NAME NEW NAME", summary: "rename a smart list (quote a name with spaces: \"Big errands\")",
                example: "rensmart Errands Shopping", area: "Smart lists",
                run: { repl, arguments throws(CommandError) in try repl.renameSmartList(String(arguments.text)) }),
        Command(names: ["rmsmart"], usage: "NAME", summary: "delete a smart list (its tasks stay; undo brings it back)",
                example: "rmsmart Errands", area: "Smart lists",
                run: { repl, arguments throws(CommandError) in try repl.deleteSmartList(arguments.words.joined(separator: " ")) }),
    ]
}

extension REPL {
    /// `save NAME`: a smart list with the open view's filter, over the view's list (or every list for the All and
    /// Completed groups); `done: notDone` is added unless the filter says which, since a list is mostly read for
    /// what is left to do.
    func saveSmartList(_ name: String) throws(CommandError) {
        guard !name.isEmpty else { throw CommandError("save needs a name, such as save Errands") }
        let current = try openView()
        var filter = current.filter
        let lists: [ListID]?
        switch current.source {
        case .list(let list): lists = [list]
        case .group(.all): lists = nil
        case .group(.completed):
            lists = nil
            filter.done = .done
        case .group(let group):
            throw CommandError("\(group.title) changes with the day, and a smart list's dates are fixed; open All or a list, filter it, then save")
        case .smartList:
            throw CommandError("this is a smart list already; to change what it holds, delete it and save another from a list or All")
        }
        if filter.done == .any { filter.done = .notDone }
        if !smartLists(named: name).isEmpty { throw CommandError("there is already a smart list named \(displayed(name)); pick another name") }
        let result = try send(SmartListsCreate(name: name, filter: filter, lists: lists))
        record(SmartListsCreate.method, "create the smart list \"\(displayed(name))\"")
        takeOverview(try send(ListsList()))
        let count = result.smartList.count
        say("saved smart list \"\(displayed(name))\" (\(result.smartList.id)): \(grouped(count)) \(count == 1 ? "task" : "tasks") now; open it with: open \(displayed(name))")
    }

    /// `rensmart OLD NEW`: the first word (or a quoted name) is the smart list, the rest its new name.
    func renameSmartList(_ text: String) throws(CommandError) {
        let (old, rest) = Self.firstName(text)
        let new = rest.trimmingWhiteSpace
        guard !old.isEmpty, !new.isEmpty else { throw CommandError("rensmart needs a smart list and its new name, such as rensmart Errands Shopping") }
        let smartList = try smartList(named: old)
        _ = try send(SmartListsUpdate(id: smartList.id, name: new))
        record(SmartListsUpdate.method, "rename the smart list \"\(displayed(smartList.name))\"")
        takeOverview(try send(ListsList()))
        say("renamed smart list \"\(displayed(smartList.name))\" to \"\(displayed(new))\"")
    }

    /// `rmsmart NAME`.
    func deleteSmartList(_ name: String) throws(CommandError) {
        guard !name.isEmpty else { throw CommandError("rmsmart needs a smart list's name, such as rmsmart Errands") }
        let smartList = try smartList(named: name)
        _ = try send(SmartListsDelete(id: smartList.id))
        record(SmartListsDelete.method, "delete the smart list \"\(displayed(smartList.name))\"")
        takeOverview(try send(ListsList()))
        say("deleted smart list \"\(displayed(smartList.name))\" (its tasks stay; undo brings it back)")
    }

    /// The smart lists whose name is `name`, ignoring case and diacritics.
    func smartLists(named name: String) -> [SmartList] {
        let folded = foldedName(name)
        return smartLists.filter { foldedName($0.name) == folded }
    }

    /// The one smart list a user named: by its id or its name (ignoring case and diacritics).
    func smartList(named text: String) throws(CommandError) -> SmartList {
        try waitForLists()
        if let found = smartLists.first(where: { $0.id.description == text }) { return found }
        let named = smartLists(named: text)
        if named.count == 1 { return named[0] }
        if named.count > 1 {
            throw CommandError("\(named.count) smart lists are named \(displayed(text)); name one by its id: " + named.map(\.id.description).joined(separator: ", "))
        }
        throw CommandError("no smart list named '\(displayed(text))'; ls shows them")
    }

    /// The first name of `text` (a word, or a quoted name) and what follows it.
    static func firstName(_ text: String) -> (String, Substring) {
        let trimmed = Substring(text).drop { $0.isWhitespace }
        if trimmed.first == "\"", let close = trimmed.dropFirst().firstIndex(of: "\"") {
            return (String(trimmed[trimmed.index(after: trimmed.startIndex)..<close]), trimmed[trimmed.index(after: close)...])
        }
        let word = trimmed.prefix { !$0.isWhitespace }
        return (String(word), trimmed.dropFirst(word.count))
    }

    /// Smart list names by id, escaped for printing.
    var smartListNames: [SmartListID: String] {
        Dictionary(smartLists.map { ($0.id, displayed($0.name)) }, uniquingKeysWith: { first, _ in first })
    }
}

extension Substring {
    /// Without white space at either end.
    var trimmingWhiteSpace: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
