/// Commands on views: the overview, opening a list or group, scrolling, sort, filter, sections.

import TasklsProtocol
import Wire

extension Commands {
    static let viewCommands: [Command] = [
        Command(names: ["ls", "lists"], usage: "", summary: "show the lists, smart groups and smart lists with their counts",
                example: "ls", area: "Views", run: { repl, _ throws(CommandError) in try repl.showOverview() }),
        Command(names: ["open", "o"], usage: "LIST|GROUP|SMART LIST", summary: "open a list (by name, number in ls, or id), a smart group or a smart list",
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
        Command(names: ["bottom"], usage: "", summary: "scroll to the last page", example: "bottom", area: "Views",
                run: { repl, _ throws(CommandError) in try repl.scroll { _, page, count in count - page } }),
        Command(names: ["goto", "g"], usage: "N", summary: "scroll so that row N of the list is at the top", example: "goto 50000", area: "Views",
                run: { repl, arguments throws(CommandError) in
                    guard arguments.words.count == 1, let row = Int(arguments.words[0]) else { throw CommandError("goto needs a row number, such as goto 100") }
                    try repl.goto(row)
                }),
        Command(names: ["sort"], usage: "FIELD [desc]", summary: "sort by manual, title, due, priority, created or modified",
                example: "sort due   sort priority desc   sort manual", area: "Views",
                run: { repl, arguments throws(CommandError) in try repl.sort(arguments.words) }),
        Command(names: ["filter", "f"], usage: "WORDS|off", summary: "show only rows matching the filter words (help filters)",
                example: "filter milk   filter #home !high+ due<fri open   filter off", area: "Views",
                run: { repl, arguments throws(CommandError) in try repl.filter(String(arguments.text)) }),
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
        say(overviewLines())
        // While the store loads, the overview is its one progress line: the next progress rewrites it in place.
        if storeIsLoading { markProgressLine() }
    }

    /// The overview as `ls` prints it: the store's state when it is not ready, the lists numbered with their
    /// open and total counts (each count in a column of its own, two spaces apart), the smart groups.
    func overviewLines() -> [String] {
        var lines: [String] = []
        if let store = overviewStore?.state {
            if case .loading(let progress) = store {
                lines.append(style.yellow("The store is loading" + style.ellipsis + " \(Int((progress * 100).rounded(.down)))%"))
            } else if case .error(let message, let error) = store {
                lines.append(style.red("Error: " + displayed(message) + (error.retryable ? " (retry with: retry)" : "")))
            } else {
                lines.append(style.red("Error: the store could not be opened"))
            }
            // No lists and every count 0 would read as an empty store: the lists follow once it is ready.
            return lines
        }
        let nameWidth = max(12, min(30, lists.map { DisplayWidth.of(displayed($0.name)) }.max() ?? 0))
        let openWidth = max(4, lists.map { grouped($0.open ?? 0).count }.max() ?? 0)
        let totalWidth = max(5, lists.map { grouped($0.total ?? 0).count }.max() ?? 0)
        let groupWidth = max(openWidth, groups.map { grouped($0.count).count }.max() ?? 0)
        lines.append(style.bold(DisplayWidth.padded("Lists", toWidth: nameWidth + 6)) + "  " + DisplayWidth.paddedLeft("open", toWidth: openWidth)
            + "  " + DisplayWidth.paddedLeft("total", toWidth: totalWidth))
        if lists.isEmpty { lines.append(style.dim("  No lists yet " + style.dash + " make one with: mklist <name>")) }
        for (index, list) in lists.enumerated() {
            let name = style.fitted(displayed(list.name), to: nameWidth)
            lines.append(DisplayWidth.paddedLeft(String(index + 1), toWidth: 4) + "  " + name + "  " + DisplayWidth.paddedLeft(grouped(list.open ?? 0), toWidth: openWidth)
                + "  " + DisplayWidth.paddedLeft(grouped(list.total ?? 0), toWidth: totalWidth)
                + (syncStates?.first { $0.list == list.id }.map { "  " + syncWords($0) } ?? ""))
        }
        for state in syncStates ?? [] where state.state != .synced && state.state != .syncing {
            guard let message = state.message, let list = lists.first(where: { $0.id == state.list }) else { continue }
            lines.append("      " + style.dim(displayed(list.name) + ": " + displayed(message)))
        }
        lines.append(style.bold("Smart groups"))
        for group in groups {
            lines.append("      " + style.fitted(group.name, to: nameWidth) + "  " + DisplayWidth.paddedLeft(grouped(group.count), toWidth: groupWidth))
        }
        if !smartLists.isEmpty {
            lines.append(style.bold("Smart lists"))
            let width = max(groupWidth, smartLists.map { grouped($0.count).count }.max() ?? 0)
            for smartList in smartLists {
                lines.append("      " + style.fitted(displayed(smartList.name), to: nameWidth) + "  "
                    + DisplayWidth.paddedLeft(grouped(smartList.count), toWidth: width))
            }
        }
        return lines
    }

    /// The lists whose name is `name`, ignoring case and diacritics (as the grammar's `@NAME` compares).
    func lists(named name: String) -> [TaskList] {
        let folded = foldedName(name)
        return lists.filter { foldedName($0.name) == folded }
    }

    /// How a command can name the list `id` when another list has its name: its number in `ls` (when the
    /// overview has it), else its id.
    func listReference(_ id: ListID) -> String {
        lists.firstIndex { $0.id == id }.map { String($0 + 1) } ?? id.description
    }

    /// The list's name for a message; when other lists have that name too, followed by which one it is
    /// (`Work (number 3 in ls, l7)`).
    func listLabel(_ id: ListID) -> String {
        guard let list = lists.first(where: { $0.id == id }) else { return listNames[id] ?? id.description }
        guard lists(named: list.name).count > 1 else { return displayed(list.name) }
        let number = lists.firstIndex { $0.id == id }.map { "number \($0 + 1) in ls, " } ?? ""
        return displayed(list.name) + " (" + number + id.description + ")"
    }

    /// Warns that other lists are named like a list just created or renamed.
    func warnTwins(_ twins: [TaskList], name: String, id: ListID) {
        guard !twins.isEmpty else { return }
        let others = twins.map { list in "number \((lists.firstIndex { $0.id == list.id } ?? 0) + 1) in ls, \(list.id)" }
        warn("there is already a list named \(displayed(twins[0].name)) (\(others.joined(separator: "; "))); open and @ pick by number or id when names repeat")
    }

    /// The list a user named: a number in `ls`, an id, or a name (ignoring case and diacritics; else the one
    /// name it begins). When several lists have the name, `choosing` takes the first and says so in `note`
    /// (for `open`); otherwise that is an error naming them.
    func listID(named text: String, choosing: Bool = true) throws(CommandError) -> (id: ListID, note: String?) {
        try waitForLists()
        if let number = Int(text) {
            guard number >= 1 && number <= lists.count else { throw CommandError("no list number \(number); ls shows \(lists.count)") }
            return (lists[number - 1].id, nil)
        }
        if let list = lists.first(where: { $0.id.description == text }) { return (list.id, nil) }
        func position(_ list: TaskList) -> Int { (lists.firstIndex { $0.id == list.id } ?? 0) + 1 }
        let named = lists(named: text)
        if named.count == 1 { return (named[0].id, nil) }
        if named.count > 1 {
            let exact = named.filter { $0.name == text }
            if exact.count == 1 { return (exact[0].id, nil) }
            let choices = named.map { "open \(position($0)) or open \($0.id)" }
            guard choosing else {
                throw CommandError("\(named.count) lists are named \(displayed(text)); pick one by its number in ls or its id: " + named.map { "\(position($0)) (\($0.id))" }.joined(separator: ", "))
            }
            let note = "\(named.count) lists are named \(displayed(named[0].name)); this is number \(position(named[0])) in ls (\(named[0].id)); for another: "
                + choices.dropFirst().joined(separator: "; ")
            return (named[0].id, note)
        }
        let typed = foldedName(text)
        let matches = lists.filter { foldedName($0.name).starts(with: typed) }
        if matches.count == 1 { return (matches[0].id, nil) }
        if matches.count > 1 { throw CommandError("'\(displayed(text))' could be \(matches.map { displayed($0.name) }.joined(separator: " or "))") }
        throw CommandError("no list named '\(displayed(text))'; ls shows the lists")
    }

    /// Whether the overview says the store is loading.
    var storeIsLoading: Bool {
        if case .loading? = overviewStore?.state { return true }
        return false
    }

    /// The store's loading progress, 0 to 1.
    var storeProgress: Double {
        if case .loading(let progress)? = overviewStore?.state { return progress }
        return 1
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
        var note: String?
        if let group = SmartGroup(rawValue: text.lowercased()), !lists.contains(where: { $0.name == text }) {
            source = .group(group)
        } else if let smartList = smartLists.first(where: { $0.id.description == text })
                    ?? (lists(named: text).isEmpty && smartLists(named: text).count == 1 ? smartLists(named: text).first : nil) {
            source = .smartList(smartList.id)
        } else {
            let named = try listID(named: text)
            source = .list(named.id)
            note = named.note
        }
        let snapshot = try send(ListsOpen(source, window: Window(start: 0, end: page)))
        if let old = view { _ = try? send(ViewClose(view: old.id)) }
        view = try ViewModel(snapshot: snapshot)
        notes.removeAll()
        try showTable()
        if let note { say(note) }
    }

    /// The open view, or an error that says how to open one.
    func openView() throws(CommandError) -> ViewModel {
        guard let view else { throw CommandError("no view is open; open one with: open <list or group> (ls lists them)") }
        return view
    }

    /// Moves the window to the start `position` computes from (start, page, count), kept inside the view, and
    /// shows it.
    func scroll(_ position: (Int, Int, Int) -> Int) throws(CommandError) {
        let current = try openView()
        let count = current.count ?? 0
        let start = max(0, min(position(current.start, page, count), max(0, count - 1)))
        let snapshot = try send(ViewSetWindow(view: current.id, window: Window(start: start, end: start + page)))
        view?.take(snapshot)
        try showTable()
    }

    /// `goto N`: row N of the list at the top; a row past the end shows the last page, and says so.
    func goto(_ row: Int) throws(CommandError) {
        let count = try openView().count ?? 0
        if row > count || row < 1 {
            try scroll { _, page, count in row < 1 ? 0 : count - page }
            say(row < 1 ? "rows start at 1; showing the first" : count == 0 ? "the list is empty" : "there are \(grouped(count)) rows; showing the last")
            return
        }
        try scroll { _, _, _ in row - 1 }
    }

    /// `filter WORDS`: the filter the server's grammar reads in them (`text/parseFilter`); `off`, `none` or
    /// `clear` (or nothing) shows everything. With a warning, each is printed and the filter stays as it was.
    func filter(_ text: String) throws(CommandError) {
        let trimmed = text.trimmingWhiteSpace
        var filter: Filter?
        if !["", "off", "none", "clear"].contains(trimmed.lowercased()) {
            let result = try send(TextParseFilter(text: trimmed))
            if !result.warnings.isEmpty {
                for warning in result.warnings { warn(warning.message) }
                throw CommandError("the filter was not changed; a backslash keeps a word as text (\\#42, \\done)")
            }
            filter = result.filter
        }
        try changeView({ ViewFilter(view: $0, filter: filter) }) { $0.filter = filter ?? .all }
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
