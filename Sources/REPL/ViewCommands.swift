/// Commands on views: the overview, opening a list or group, scrolling, sort, filter, sections.

import TasklsProtocol
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
                    try repl.changeView({ ViewFilter(view: $0, filter: filter) }) { $0.filter = filter ?? .all }
                }),
        Command(names: ["group"], usage: "due|priority|list|done|none", summary: "divide the view into sections with headers",
                example: "group due   group none", area: "Views",
                run: { repl, arguments throws(CommandError) in
                    guard let sections = SectionsText.parse(arguments.words.joined(separator: " ")) else {
                        throw CommandError("group: expected due, priority, list, done or none")
                    }
                    try repl.changeView({ ViewSections(view: $0, sections: sections) }) { $0.sections = sections }
                }),
    ]
}

extension REPL {
    /// Prints the lists (numbered, for `open N`) and the smart groups with their counts.
    func showOverview() throws(CommandError) {
        takeOverview(try send(ListsList()))
        var lines: [String] = []
        if let store = overviewStore?.state {
            if case .loading(let progress) = store {
                lines.append(style.yellow("The store is loading" + style.ellipsis + " \(Int((progress * 100).rounded(.down)))%"))
            } else if case .error(let message, let error) = store {
                lines.append(style.red("Error: " + displayed(message) + (error.retryable ? " (retry with: retry)" : "")))
            } else {
                lines.append(style.red("Error: the store could not be opened"))
            }
        }
        let nameWidth = max(12, min(30, lists.map { displayed($0.name).count }.max() ?? 0))
        lines.append(style.bold(pad("Lists", nameWidth + 6)) + "  open  total")
        if lists.isEmpty && overviewStore == nil { lines.append(style.dim("  No lists yet " + style.dash + " make one with: mklist <name>")) }
        for (index, list) in lists.enumerated() {
            let name = pad(style.truncate(displayed(list.name), to: nameWidth), nameWidth)
            lines.append(padLeft(String(index + 1), 4) + "  " + name + padLeft(grouped(list.open ?? 0), 6) + padLeft(grouped(list.total ?? 0), 7))
        }
        lines.append(style.bold("Smart groups"))
        for group in groups {
            lines.append("      " + pad(group.name, nameWidth) + padLeft(grouped(group.count), 6))
        }
        say(lines)
    }

    /// The id of the list a user named: a number in `ls`, an id, or a name (ignoring case).
    func listID(named text: String) throws(CommandError) -> ListID {
        try waitForLists()
        if let number = Int(text) {
            guard number >= 1 && number <= lists.count else { throw CommandError("no list number \(number); ls shows \(lists.count)") }
            return lists[number - 1].id
        }
        if let list = lists.first(where: { $0.id.description == text }) ?? lists.first(where: { $0.name.lowercased() == text.lowercased() }) {
            return list.id
        }
        let matches = lists.filter { $0.name.lowercased().hasPrefix(text.lowercased()) }
        if matches.count == 1 { return matches[0].id }
        if matches.count > 1 { throw CommandError("'\(text)' could be \(matches.map { displayed($0.name) }.joined(separator: " or "))") }
        throw CommandError("no list named '\(text)'; ls shows the lists")
    }

    /// Whether the overview says the store is loading.
    private var storeIsLoading: Bool {
        if case .loading? = overviewStore?.state { return true }
        return false
    }

    /// While the store loads, the overview has no lists yet: waits (at most two minutes) for the
    /// `lists/changed` that brings them, so names can be looked up.
    func waitForLists() throws(CommandError) {
        guard storeIsLoading else { return }
        let deadline = monotonicMilliseconds() + 120_000
        while storeIsLoading {
            guard let message = nextMessage(until: deadline) else { throw CommandError("the store is still loading after two minutes") }
            if case .notification(let name, let params) = message { handle(name, params) }
        }
    }

    /// Opens a list or a smart group and shows it, closing the view open before.
    func open(_ text: String) throws(CommandError) {
        guard !text.isEmpty else { throw CommandError("open needs a list or a group, such as open Inbox or open today") }
        let source: ViewSource
        if let group = SmartGroup(rawValue: text.lowercased()), !lists.contains(where: { $0.name == text }) {
            source = .group(group)
        } else {
            source = .list(try listID(named: text))
        }
        let snapshot = try send(ListsOpen(source, window: Window(start: 0, end: page)))
        if let old = view { _ = try? send(ViewClose(view: old.id)) }
        view = try ViewModel(snapshot: snapshot)
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
        let snapshot = try send(ViewSetWindow(view: current.id, window: Window(start: start, end: start + page)))
        view?.take(snapshot)
        try showTable()
    }

    /// `sort FIELD [desc]`.
    func sort(_ words: [Substring]) throws(CommandError) {
        guard let field = words.first.flatMap({ SortField(rawValue: $0.lowercased()) }), words.count <= 2 else {
            throw CommandError("sort: expected one of \(SortField.allCases.map(\.rawValue).joined(separator: ", ")), then optionally desc")
        }
        var direction = SortDirection.ascending
        if words.count == 2 {
            switch words[1].lowercased() {
            case "desc", "descending", "down": direction = .descending
            case "asc", "ascending", "up": direction = .ascending
            default: throw CommandError("sort: '\(words[1])' is not a direction; expected asc or desc")
            }
        }
        let sort = Sort(field, direction)
        try changeView({ ViewSort(view: $0, sort: sort) }) { $0.sort = sort }
    }

    /// Sends a view change (`view/sort`, `view/filter`, `view/sections`) for the open view, records what it set
    /// with `update`, and shows the table.
    func changeView<Request: RequestMessage>(_ request: (ViewID) -> Request, _ update: (inout ViewModel) -> Void) throws(CommandError) {
        let current = try openView()
        _ = try send(request(current.id))
        if var updated = view {
            update(&updated)
            view = updated
        }
        try showTable()
    }
}
