/// Commands on views: the overview, opening a list or group, scrolling, sort, filter, sections.

import Wire

extension Commands {
    static let viewCommands: [Command] = [
        Command(names: ["ls", "lists"], usage: "", summary: "show the lists and smart groups with their counts",
                example: "ls", area: "Views", run: { repl, _ throws(CommandError) in try repl.showOverview() }),
        Command(names: ["open", "o"], usage: "LIST|GROUP", summary: "open a list (by name, number in ls, or id) or a smart group",
                example: "open Inbox   open 2   open today", area: "Views",
                run: { repl, arguments throws(CommandError) in try repl.open(arguments.words.joined(separator: " ")) }),
        Command(names: ["view", "v"], usage: "", summary: "show the open view again", example: "view", area: "Views",
                run: { repl, _ throws(CommandError) in try repl.showTable() }),
        Command(names: ["next", "n"], usage: "", summary: "scroll down one page", example: "next", area: "Views",
                run: { repl, _ throws(CommandError) in try repl.scroll { start, page, count in start + page < count ? start + page : start } }),
        Command(names: ["prev", "p"], usage: "", summary: "scroll up one page", example: "prev", area: "Views",
                run: { repl, _ throws(CommandError) in try repl.scroll { start, page, _ in max(0, start - page) } }),
        Command(names: ["top"], usage: "", summary: "scroll to the first row", example: "top", area: "Views",
                run: { repl, _ throws(CommandError) in try repl.scroll { _, _, _ in 0 } }),
        Command(names: ["goto", "g"], usage: "N", summary: "scroll so that row N is at the top", example: "goto 50000", area: "Views",
                run: { repl, arguments throws(CommandError) in
                    guard arguments.words.count == 1, let row = Int(arguments.words[0]), row >= 1 else { throw CommandError("goto needs a row number, such as goto 100") }
                    try repl.scroll { _, _, _ in row - 1 }
                }),
        Command(names: ["sort"], usage: "FIELD [desc]", summary: "sort by manual, title, due, priority, created or modified",
                example: "sort due   sort priority desc   sort manual", area: "Views",
                run: { repl, arguments throws(CommandError) in try repl.sort(arguments.words) }),
        Command(names: ["filter", "f"], usage: "WORDS|off", summary: "show only rows matching text, #tags, !priority, done/open, before:/after:",
                example: "filter milk   filter #home !high open   filter off", area: "Views",
                run: { repl, arguments throws(CommandError) in
                    let filter = try FilterText.parse(arguments.words, day: repl.day)
                    try repl.changeView("view/filter", ["filter": filter])
                }),
        Command(names: ["group"], usage: "due|priority|list|done|none", summary: "divide the view into sections with headers",
                example: "group due   group none", area: "Views",
                run: { repl, arguments throws(CommandError) in
                    guard let sections = SectionsText.parse(arguments.words.joined(separator: " ")) else {
                        throw CommandError("group: expected due, priority, list, done or none")
                    }
                    try repl.changeView("view/sections", ["sections": .string(sections)])
                }),
    ]
}

extension REPL {
    /// Prints the lists (numbered, for `open N`) and the smart groups with their counts.
    func showOverview() throws(CommandError) {
        takeOverview(try request("lists/list", nil))
        var lines: [String] = []
        if let store = overviewStore {
            if store["state"]?.stringValue == "loading" {
                lines.append(style.yellow("The store is loading" + style.ellipsis + " \(Int(((store["progress"]?.doubleValue ?? 0) * 100).rounded(.down)))%"))
            } else {
                let message = store["message"]?.stringValue ?? "the store could not be opened"
                lines.append(style.red("Error: " + message + (store["error"]?["retryable"] == .bool(true) ? " (retry with: retry)" : "")))
            }
        }
        let nameWidth = max(12, min(30, lists.map { ($0["name"]?.stringValue ?? "").count }.max() ?? 0))
        lines.append(style.bold(pad("Lists", nameWidth + 6)) + "  open  total")
        if lists.isEmpty && overviewStore == nil { lines.append(style.dim("  No lists yet " + style.dash + " make one with: mklist <name>")) }
        for (index, list) in lists.enumerated() {
            let name = pad(style.truncate(list["name"]?.stringValue ?? "", to: nameWidth), nameWidth)
            lines.append(padLeft(String(index + 1), 4) + "  " + name + padLeft(grouped(list["open"]?.intValue ?? 0), 6) + padLeft(grouped(list["total"]?.intValue ?? 0), 7))
        }
        lines.append(style.bold("Smart groups"))
        for group in groups {
            let name = pad(group["name"]?.stringValue ?? "", nameWidth)
            lines.append("      " + name + padLeft(grouped(group["count"]?.intValue ?? 0), 6))
        }
        say(lines)
    }

    /// The id of the list a user named: a number in `ls`, an id, or a name (ignoring case).
    func listID(named text: String) throws(CommandError) -> String {
        try waitForLists()
        if let number = Int(text) {
            guard number >= 1 && number <= lists.count, let id = lists[number - 1]["id"]?.stringValue else {
                throw CommandError("no list number \(number); ls shows \(lists.count)")
            }
            return id
        }
        if let list = lists.first(where: { $0["id"]?.stringValue == text }) ?? lists.first(where: { $0["name"]?.stringValue?.lowercased() == text.lowercased() }),
            let id = list["id"]?.stringValue
        {
            return id
        }
        let matches = lists.filter { $0["name"]?.stringValue?.lowercased().hasPrefix(text.lowercased()) == true }
        if matches.count == 1, let id = matches[0]["id"]?.stringValue { return id }
        if matches.count > 1 { throw CommandError("'\(text)' could be \(matches.compactMap { $0["name"]?.stringValue }.joined(separator: " or "))") }
        throw CommandError("no list named '\(text)'; ls shows the lists")
    }

    /// While the store loads, the overview has no lists yet: waits (at most two minutes) for the
    /// `lists/changed` that brings them, so names can be looked up.
    func waitForLists() throws(CommandError) {
        guard overviewStore?["state"]?.stringValue == "loading" else { return }
        let deadline = monotonicMilliseconds() + 120_000
        while overviewStore?["state"]?.stringValue == "loading" {
            guard let message = nextMessage(until: deadline) else { throw CommandError("the store is still loading after two minutes") }
            if case .notification(let name, let params) = message { handle(name, params ?? .null) }
        }
    }

    /// Opens a list or a smart group and shows it, closing the view open before.
    func open(_ text: String) throws(CommandError) {
        guard !text.isEmpty else { throw CommandError("open needs a list or a group, such as open Inbox or open today") }
        var params: JSONObject = ["window": ["start": 0, "end": .integer(Int64(page))]]
        if SmartGroup.ids.contains(text.lowercased()) && !lists.contains(where: { $0["name"]?.stringValue == text }) {
            params["group"] = .string(text.lowercased())
        } else {
            params["list"] = .string(try listID(named: text))
        }
        let snapshot = try request("lists/open", .object(params))
        if let old = view { _ = try? request("view/close", ["view": .string(old.id)]) }
        view = ViewModel(snapshot: snapshot)
        notes.removeAll()
        try showTable()
    }

    /// The open view, or an error that says how to open one.
    func openView() throws(CommandError) -> ViewModel {
        guard let view else { throw CommandError("no view is open; open one with: open <list or group> (ls lists them)") }
        return view
    }

    /// Moves the window to the start `position` computes from (start, page, count), and shows it.
    func scroll(_ position: (Int, Int, Int) -> Int) throws(CommandError) {
        let current = try openView()
        let start = max(0, position(current.start, page, current.count ?? 0))
        let snapshot = try request("view/setWindow", ["view": .string(current.id), "window": ["start": .integer(Int64(start)), "end": .integer(Int64(start + page))]])
        view?.take(snapshot)
        try showTable()
    }

    /// `sort FIELD [desc]`.
    func sort(_ words: [Substring]) throws(CommandError) {
        let fields = ["manual", "title", "due", "priority", "created", "modified"]
        guard let field = words.first?.lowercased(), fields.contains(field), words.count <= 2 else {
            throw CommandError("sort: expected one of \(fields.joined(separator: ", ")), then optionally desc")
        }
        var direction = "ascending"
        if words.count == 2 {
            switch words[1].lowercased() {
            case "desc", "descending", "down": direction = "descending"
            case "asc", "ascending", "up": direction = "ascending"
            default: throw CommandError("sort: '\(words[1])' is not a direction; expected asc or desc")
            }
        }
        try changeView("view/sort", ["sort": ["by": .string(field), "direction": .string(direction)]])
    }

    /// Sends a view change (`view/sort`, `view/filter`, `view/sections`), takes the echo, shows the table.
    func changeView(_ method: String, _ params: JSONObject) throws(CommandError) {
        let current = try openView()
        var object = params
        object["view"] = .string(current.id)
        _ = try request(method, .object(object))
        if let key = params.keys.first, var updated = view {
            switch key {
            case "sort": updated.sort = params["sort"] ?? updated.sort
            case "filter": updated.filter = params["filter"] == .null ? [:] : (params["filter"] ?? [:])
            default: updated.sections = params["sections"]?.stringValue ?? updated.sections
            }
            view = updated
        }
        try showTable()
    }
}
