/// Commands on items: add, edit, note, prio, untag, done, rm, move, show. Row numbers become ids here, from
/// the window, exactly as an editor turns a clicked row into an id; what a user types for an item is read by
/// the server's quick-entry grammar (`text/parseItem`).

import TasklsProtocol
import Wire

extension Commands {
    static let itemCommands: [Command] = [
        Command(names: ["add", "a"], usage: "[--under ROW | >] TITLE [^DUE] [!P] [#tag] [@LIST] [// NOTES]",
                summary: "add a task at the end of the open list (or of @LIST), or as the last subtask of ROW (>: of the task added last); help entry explains the words",
                example: "add Buy milk ^fri !high #home // two litres   add --under 3 Book flights   add > Pack", area: "Tasks",
                run: { repl, arguments throws(CommandError) in try repl.add(String(arguments.text)) }),
        Command(names: ["edit", "e"], usage: "ROW [TITLE] [^DUE|due:none] [!P] [#tag] [@LIST] [// NOTES]",
                summary: "change what the words give: title, due, priority, notes; #tag adds a tag, @LIST moves",
                example: "edit 3 ^fri #work", area: "Tasks",
                run: { repl, arguments throws(CommandError) in try repl.edit(arguments) }),
        Command(names: ["note"], usage: "ROW [TEXT]", summary: "set a task's notes (nothing after ROW: clear them)",
                example: "note 3 2 litres, semi-skimmed", area: "Tasks",
                run: { repl, arguments throws(CommandError) in
                    guard let first = arguments.words.first else { throw CommandError("note needs a row, such as note 3 some text") }
                    let target = try repl.targets([first])[0]
                    let text = arguments.words.dropFirst().joined(separator: " ")
                    _ = try repl.send(ItemsUpdate(.id(target.id), notes: text))
                    repl.record(ItemsUpdate.method, text.isEmpty ? "clear the notes of \"\(target.title)\"" : "change the notes of \"\(target.title)\"")
                    repl.confirm(text.isEmpty ? "cleared the notes of \"\(target.title)\"" : "noted \"\(target.title)\"")
                }),
        Command(names: ["prio", "priority"], usage: "ROW... high|medium|low|none", summary: "set the priority of tasks",
                example: "prio 3 high   prio 1-4 none", area: "Tasks",
                run: { repl, arguments throws(CommandError) in try repl.setPriority(arguments.words) }),
        Command(names: ["untag"], usage: "ROW [TAG...]", summary: "take tags off a task (no TAG: all of them)",
                example: "untag 3 home   untag 3", area: "Tasks",
                run: { repl, arguments throws(CommandError) in try repl.untag(arguments.words) }),
        Command(names: ["done", "x"], usage: "ROW...", summary: "mark tasks done", example: "done 3   done 1-4 7", area: "Tasks",
                run: { repl, arguments throws(CommandError) in try repl.setDone(arguments.words, true) }),
        Command(names: ["undone"], usage: "ROW...", summary: "mark tasks not done", example: "undone 3", area: "Tasks",
                run: { repl, arguments throws(CommandError) in try repl.setDone(arguments.words, false) }),
        Command(names: ["repeat"], usage: "ROW... every ... | ROW... off",
                summary: "make tasks repeat (done then moves them to their next due), or stop it; help repeat explains the words",
                example: "repeat 3 every week   repeat 4 every month on the last fri   repeat 5 every 3 days after done   repeat 3 off",
                area: "Tasks", run: { repl, arguments throws(CommandError) in try repl.setRepeat(arguments) }),
        Command(names: ["skip"], usage: "ROW...", summary: "move repeating tasks on to their next due without doing them",
                example: "skip 3", area: "Tasks", run: { repl, arguments throws(CommandError) in try repl.skip(arguments.words) }),
        Command(names: ["rm", "del"], usage: "ROW...", summary: "delete tasks (undo brings them back)", example: "rm 2 5-6", area: "Tasks",
                run: { repl, arguments throws(CommandError) in
                    let targets = try repl.targets(arguments.words)
                    _ = try repl.send(ItemsDelete(ids: targets.map(\.id)))
                    repl.record(ItemsDelete.method, "delete " + Target.named(targets))
                    repl.confirm("deleted " + Target.named(targets))
                }),
        Command(names: ["mv", "move"], usage: "ROW[-ROW] TO | ROW... @LIST | ROW... under ROW | ROW... to top",
                summary: "move rows (with their subtasks) so the first is at row TO, into another list, under a task, or to the top level",
                example: "mv 5 1   mv 3-5 10   mv 2 @Work   mv 4 under 2   mv 4 to top", area: "Tasks",
                run: { repl, arguments throws(CommandError) in try repl.move(arguments.words) }),
        Command(names: ["show", "s"], usage: "ROW", summary: "show a task in full, notes and times too", example: "show 3", area: "Tasks",
                run: { repl, arguments throws(CommandError) in
                    guard arguments.words.count == 1 else { throw CommandError("show needs one row, such as show 3") }
                    let target = try repl.targets(arguments.words)[0]
                    repl.say(repl.describeItem(try repl.send(ItemsGet(id: target.id))))
                }),
    ]
}

/// An item a command names: its id, its index in the view when named by row, its title (escaped for printing).
struct Target {
    let id: ItemID
    let index: Int?
    let title: String

    /// `"Buy milk"` for one target, `3 tasks` for several.
    static func named(_ targets: [Target]) -> String {
        targets.count == 1 ? "\"\(targets[0].title)\"" : "\(targets.count) tasks"
    }
}

extension REPL {
    /// The items `words` name: item numbers as the table shows them (`ViewModel.index(ofItemNumber:)`: rows of
    /// the view without sections, numbers in the window with them), ranges (`3-5`) or ids (`i42`).
    func targets(_ words: [Substring]) throws(CommandError) -> [Target] {
        guard !words.isEmpty else { throw CommandError("which tasks? give their numbers (3, 3-5) or ids (i42)") }
        var found: [Target] = []
        for word in words {
            if word.first == "i", word.count > 1, word.dropFirst().allSatisfy(\.isNumber) {
                guard let id = try? ItemID(json: .string(String(word)), path: "") else {
                    throw CommandError("'\(word)' is not a task id: ids are spelled i1, i2, ... (no leading zero)")
                }
                let row = view?.rows.first { $0.id == word }
                found.append(Target(id: id, index: nil, title: displayed(row?.title ?? String(word))))
                continue
            }
            let bounds = word.split(separator: "-", maxSplits: 1)
            guard let first = bounds.first.flatMap({ Int($0) }), let last = bounds.count == 2 ? Int(bounds[1]) : first, first >= 1, last >= first else {
                throw CommandError("'\(displayed(String(word)))' is not a task number (3), a range (3-5) or a task id (i42)")
            }
            let current = try openView()
            for number in first...last {
                guard let index = current.index(ofItemNumber: number), case .item(let item)? = current.row(at: index) else {
                    let shown = current.shownNumbers.map { "the window shows tasks \($0.first)-\($0.last)" } ?? "the window shows no tasks"
                    throw CommandError("no task \(number) here (\(shown); next, prev, goto and top scroll)")
                }
                found.append(Target(id: item.id, index: index, title: displayed(item.title)))
            }
        }
        return found
    }

    /// Prints `summary` unless the view already showed the change (a line of its own for a row that came, went,
    /// moved or changed).
    func confirm(_ summary: String) {
        if notes.allSatisfy({ describe($0) == nil }) { say(summary) }
    }

    /// Reads `text` with the server's quick-entry grammar (`text/parseItem`, in `list`). Each warning is printed
    /// on a line of its own, and then the command fails: nothing is stored from a line the server could not
    /// read entirely as it seemed meant.
    func parseItem(_ text: String, list: ListID?, doing: String) throws(CommandError) -> ItemTextFields {
        let result = try send(TextParseItem(text: text, list: list))
        guard !result.warnings.isEmpty else { return result.fields }
        for warning in result.warnings { warn(warning.message) }
        throw CommandError("nothing was \(doing); a backslash keeps a word as text (\\#42, \\!urgent, \\@home)")
    }

    /// Prints a warning: one line, broken at spaces to the width on a terminal (`Style.wrapped`).
    func warn(_ message: String) {
        let line = (style.color ? "\u{1B}[33mwarning:\u{1B}[0m " : "warning: ") + displayed(message)
        output.writeError(style.wrapped(line).joined(separator: "\n") + "\n")
    }

    /// `add TEXT`: a task with the fields the grammar reads in `TEXT`, at the end of the open list or of `@LIST`;
    /// `add --under ROW TEXT`: the last subtask of ROW, in its list; `add > TEXT`: the last subtask of the task the
    /// last plain `add` made (an outline typed line by line: `add Plan trip`, `add > Book flights`, `add > Pack`).
    func add(_ text: String) throws(CommandError) {
        let trimmed = Substring(text).drop { $0.isWhitespace }
        if trimmed.prefix(while: { !$0.isWhitespace }).lowercased() == "--under" {
            let rest = trimmed.dropFirst("--under".count).drop { $0.isWhitespace }
            let row = rest.prefix { !$0.isWhitespace }
            guard !row.isEmpty else { throw CommandError("add --under needs a task, then the title: add --under 3 Book flights") }
            let parent = try targets([row])
            guard parent.count == 1 else { throw CommandError("add --under takes one task to go under, such as add --under 3 Book flights") }
            try addUnder(parent[0], row: String(row), String(rest.dropFirst(row.count).drop { $0.isWhitespace }))
            return
        }
        if trimmed.first == ">" {
            guard let parent = lastAdded else {
                throw CommandError("add > adds a subtask to the task you added last: add one first (add Plan trip), or name its row: add --under 3 Book flights")
            }
            try addUnder(parent, row: ">", String(trimmed.dropFirst().drop { $0.isWhitespace }))
            return
        }
        let openList = view?.list
        let fields = try parseItem(text, list: openList, doing: "added")
        guard let title = fields.title else { throw CommandError("add needs a title, such as add Buy milk ^tomorrow !high") }
        guard let list = fields.list else {
            if let current = view { throw CommandError("\(renderer.viewName(current)) is a smart group; open a list, or name one: add \(displayed(title)) @Inbox") }
            throw CommandError("add to which list? open one (open Inbox), or name it: add \(displayed(title)) @Inbox")
        }
        var due: String?
        if case .set(let value) = fields.due { due = value }
        let result = try send(ItemsCreate(list: list, title: title, notes: fields.notes, due: due, priority: fields.priority, tags: fields.tags,
                                          repeat: fields.repeat, alerts: fields.alerts))
        record(ItemsCreate.method, "add \"\(displayed(title))\"")
        lastAdded = Target(id: result.item.id, index: nil, title: displayed(title))
        if list != openList {
            say("added \"\(displayed(title))\" to \(listLabel(list))")
        } else {
            confirm("added \"\(displayed(title))\" as \(result.item.id) (below the window: \(grouped(view?.count ?? 0)) rows)")
        }
    }

    /// `add --under ROW TEXT` (or `add > TEXT`, `row` then `>`): a task with the fields the grammar reads in `TEXT`,
    /// the last subtask of `parent`, in its list (`@LIST` may name only that one).
    func addUnder(_ target: Target, row: String, _ text: String) throws(CommandError) {
        let parent = [target]
        let list: ListID
        do {
            list = try send(ItemsGet(id: target.id)).list
        } catch {
            guard row == ">" else { throw error }
            throw CommandError("\"\(target.title)\", the task added last, is gone; name a row instead: add --under 3 Book flights")
        }
        let fields = try parseItem(text, list: list, doing: "added")
        guard let title = fields.title else {
            throw CommandError(row == ">" ? "add > needs a title, such as add > Book flights" : "add --under \(row) needs a title, such as add --under \(row) Book flights")
        }
        if let named = fields.list, named != list {
            throw CommandError("\"\(parent[0].title)\" is in \(listLabel(list)), and its subtasks go there too; leave out @\(listNames[named] ?? named.description)")
        }
        var due: String?
        if case .set(let value) = fields.due { due = value }
        do {
            _ = try send(ItemsCreate(list: list, title: title, notes: fields.notes, due: due, priority: fields.priority, tags: fields.tags,
                                     repeat: fields.repeat, parent: .item(parent[0].id), alerts: fields.alerts))
        } catch {
            throw treeRefusal(error, moving: [])
        }
        record(ItemsCreate.method, "add \"\(displayed(title))\" under \"\(parent[0].title)\"")
        var folded = ""
        if let index = parent[0].index, let current = view, current.row(at: index)?.item?.collapsed == true {
            folded = " (folded: unfold \(current.itemNumber(atIndex: index)) shows it)"
        }
        confirm("added \"\(displayed(title))\" under \"\(parent[0].title)\"" + folded)
    }

    /// `edit ROW TEXT`: changes what the words of `TEXT` give; `#tag` adds a tag, `@LIST` moves the task there.
    func edit(_ arguments: Arguments) throws(CommandError) {
        guard let first = arguments.words.first else { throw CommandError("edit needs a row, such as edit 3 New title") }
        if let removal = arguments.words.dropFirst().first(where: { $0.hasPrefix("-#") && $0.count > 2 }) {
            throw CommandError("to take a tag off, use: untag \(first) \(displayed(String(removal.dropFirst(2)))) (\(displayed(String(removal))) would be a title word)")
        }
        let target = try targets([first])[0]
        let text = String(arguments.text.dropFirst(first.count).drop { $0.isWhitespace })
        let fields = try parseItem(text, list: nil, doing: "changed")
        var update = ItemsUpdate(.id(target.id), title: fields.title, notes: fields.notes, due: fields.due, priority: fields.priority,
                                 repeat: fields.repeat.map { .set($0) } ?? .unchanged, alerts: fields.alerts)
        if let added = fields.tags {
            var tags = try send(ItemsGet(id: target.id)).tags
            for tag in added where !tags.contains(tag) { tags.append(tag) }
            update.tags = tags
        }
        guard !update.changesNothing || fields.list != nil else {
            throw CommandError("edit \(first): nothing to change; give a title, ^due, !priority, #tags, every …, remind …, @list or // notes")
        }
        if !update.changesNothing {
            _ = try send(update)
            record(ItemsUpdate.method, "change \"\(target.title)\"")
        }
        if let list = fields.list {
            try moveToList([target], list)
        } else {
            confirm("changed \"\(target.title)\"")
        }
    }

    /// `prio ROW... LEVEL`.
    func setPriority(_ words: [Substring]) throws(CommandError) {
        guard words.count >= 2, let last = words.last else { throw CommandError("prio needs rows and a priority, such as prio 3 high") }
        let priority: Priority
        switch last.lowercased() {
        case "high", "h", "!!!": priority = .high
        case "medium", "med", "m", "!!": priority = .medium
        case "low", "l", "!": priority = .low
        case "none", "n", "-": priority = .none
        default: throw CommandError("prio: '\(displayed(String(last)))' is not a priority; expected high, medium, low or none")
        }
        let targets = try targets(Array(words.dropLast()))
        _ = try send(ItemsUpdate(targets.count == 1 ? .id(targets[0].id) : .ids(targets.map(\.id)), priority: priority))
        record(ItemsUpdate.method, "set the priority of " + Target.named(targets))
        confirm("priority \(priority.rawValue): " + Target.named(targets))
    }

    /// `untag ROW [TAG...]`: the tags off (a leading `#` is allowed); without tags, every tag.
    func untag(_ words: [Substring]) throws(CommandError) {
        guard let first = words.first else { throw CommandError("untag needs a row and tags, such as untag 3 home") }
        let target = try targets([first])[0]
        let removed = words.dropFirst().map { $0.hasPrefix("#") ? String($0.dropFirst()) : String($0) }
        let tags = try send(ItemsGet(id: target.id)).tags
        let kept = removed.isEmpty ? [] : tags.filter { !removed.contains($0) }
        if let missing = removed.first(where: { !tags.contains($0) }) {
            throw CommandError("\"\(target.title)\" has no tag #\(displayed(missing))" + (tags.isEmpty ? "" : "; its tags: " + tags.map { "#" + displayed($0) }.joined(separator: " ")))
        }
        guard kept != tags else { throw CommandError("\"\(target.title)\" has no tags") }
        _ = try send(ItemsUpdate(.id(target.id), tags: kept))
        record(ItemsUpdate.method, "untag \"\(target.title)\"")
        confirm("untagged \"\(target.title)\"")
    }

    /// `done ROW...` / `undone ROW...`.
    func setDone(_ words: [Substring], _ done: Bool) throws(CommandError) {
        let targets = try targets(words)
        let result = try send(ItemsUpdate(targets.count == 1 ? .id(targets[0].id) : .ids(targets.map(\.id)), done: done))
        record(ItemsUpdate.method, (done ? "complete " : "reopen ") + Target.named(targets))
        let advanced = Set(result.advanced)
        let finished = targets.filter { !advanced.contains($0.id) }
        if !finished.isEmpty {
            confirm((done ? "done: " : "not done: ") + finished.map { "\"\($0.title)\"" }.joined(separator: ", "))
        }
        // A repeating task moved on to its next occurrence: its row may look the same but for the due.
        for item in result.items where advanced.contains(item.id) {
            say("done: \"\(displayed(item.title))\"; it repeats (\(repeatText(item))), next due " + nextDue(item))
        }
    }

    /// `skip ROW...`: repeating tasks move on to their next occurrence without being done.
    func skip(_ words: [Substring]) throws(CommandError) {
        let targets = try targets(words)
        let result: ItemsSkipResult
        do {
            result = try send(ItemsSkip(ids: targets.map(\.id)))
        } catch {
            throw repeatRefusal(error, targets)
        }
        record(ItemsSkip.method, "skip " + Target.named(targets))
        for item in result.items {
            say("skipped \"\(displayed(item.title))\": next due " + nextDue(item))
        }
    }

    /// `repeat ROW... PHRASE` sets how tasks repeat (`every week`, read by the grammar); `repeat ROW... off` stops it.
    func setRepeat(_ arguments: Arguments) throws(CommandError) {
        guard let offAt = arguments.words.firstIndex(where: { $0.lowercased() == "off" || $0.lowercased() == "every" || Self.isCookie($0) }) else {
            throw CommandError("repeat needs rows and a repeat, such as repeat 3 every week, or repeat 3 off")
        }
        let rows = Array(arguments.words[..<offAt])
        guard !rows.isEmpty else { throw CommandError("repeat needs rows before the repeat, such as repeat 3 every week") }
        let targets = try targets(rows)
        let phrase = arguments.words[offAt...].joined(separator: " ")
        let patch: Patch<Repeat>
        if arguments.words[offAt].lowercased() == "off" {
            guard arguments.words.count == offAt + 1 else { throw CommandError("repeat ... off takes nothing after off") }
            patch = .cleared
        } else {
            let fields = try parseItem(phrase, list: nil, doing: "changed")
            guard let rule = fields.repeat, fields.title == nil else {
                throw CommandError("repeat: '\(displayed(phrase))' is not a repeat; such as every week, every mon,wed, every month on the last fri, every 3 days after done")
            }
            patch = .set(rule)
        }
        let update = ItemsUpdate(targets.count == 1 ? .id(targets[0].id) : .ids(targets.map(\.id)), repeat: patch)
        let result: ItemsUpdateResult
        do {
            result = try send(update)
        } catch {
            throw repeatRefusal(error, targets)
        }
        record(ItemsUpdate.method, (patch == .cleared ? "stop repeating " : "repeat ") + Target.named(targets))
        if case .cleared = patch {
            confirm("no longer repeating: " + Target.named(targets))
        } else if let first = result.items.first {
            confirm("repeats \(repeatText(first)): " + Target.named(targets))
        }
    }

    /// Whether `word` is a repeater cookie (`+1w`, `++1m`, `.+3d`).
    static func isCookie(_ word: Substring) -> Bool {
        var rest = word
        if rest.hasPrefix("++") || rest.hasPrefix(".+") { rest = rest.dropFirst(2) } else if rest.hasPrefix("+") { rest = rest.dropFirst() } else { return false }
        guard let unit = rest.last, "dwmy".contains(unit), rest.count >= 2 else { return false }
        return rest.dropLast().allSatisfy(\.isNumber)
    }

    /// A refusal of skip or repeat in words: the tasks do not repeat, their rule ended, or they have no due.
    func repeatRefusal(_ error: CommandError, _ targets: [Target]) -> CommandError {
        let named = Target.named(targets)
        switch error.reason {
        case "notRepeating"?:
            return CommandError((targets.count == 1 ? "\(named) does not repeat" : "not all of \(named) repeat") + "; give a repeat first: repeat ROW every week")
        case "repeatEnded"?:
            return CommandError("the repeat of " + (targets.count == 1 ? named : "one of \(named)") + " has ended: there is no next time to skip to; done marks it done")
        case "repeatWithoutDue"?:
            return CommandError("a repeating task needs a due: give it one first (edit ROW ^mon), or both at once: edit ROW ^mon every week")
        default:
            return error
        }
    }

    /// An item's repeat in words (the server's).
    func repeatText(_ item: Item) -> String { displayed(item.repeat?.text ?? item.repeat?.rule ?? "") }

    /// An alert in words, as it fires for `item`'s due: `1 hour before` (a due time), `on the day at 09:00` and
    /// `the day before at 18:00` (a due day: minutes from its midnight), `at 2026-12-01 09:00`.
    func alertWords(_ alert: Alert, of item: Item) -> String {
        switch alert {
        case .at(let text):
            guard let instant = parseInstant(text) else { return "at " + text }
            return "at " + day.date(ofDay: day.dayNumber(ofInstant: instant)) + " " + day.clockTime(ofInstant: instant)
        case .offset(let minutes):
            if let due = item.due, due.count > 10 {
                if minutes == 0 { return "at the due time" }
                return Self.lengthWords(abs(minutes)) + (minutes < 0 ? " before" : " after")
            }
            let days = Int((Double(minutes) / 1_440).rounded(.down))
            let clock = minutes - days * 1_440
            let time = (clock / 60 < 10 ? "0" : "") + "\(clock / 60):" + (clock % 60 < 10 ? "0" : "") + "\(clock % 60)"
            switch days {
            case 0: return "on the day at " + time
            case -1: return "the day before at " + time
            case ..<(-1): return "\(-days) days before at " + time
            default: return "\(days) days after at " + time
            }
        }
    }

    /// An item's due as the table says it.
    func nextDue(_ item: Item) -> String {
        guard let due = item.due else { return "none" }
        let described = day.describe(due: due, done: item.done)
        return described.text == due ? due : described.text + " (" + String(due.prefix(10)) + ")"
    }

    /// `mv ROW[-ROW] TO` (by view index, as a drag in a pane), `mv ROW... @LIST`, `mv ROW... under ROW` and
    /// `mv ROW... to top` (by id).
    func move(_ words: [Substring]) throws(CommandError) {
        guard words.count >= 2, let destination = words.last else { throw CommandError("mv needs rows and a destination, such as mv 5 1 or mv 2 @Work") }
        let keyword = words[words.count - 2].lowercased()
        if words.count >= 3 && keyword == "under" {
            try moveUnder(Array(words.dropLast(2)), parent: destination)
            return
        }
        if words.count >= 3 && keyword == "to" {
            guard destination.lowercased() == "top" else {
                throw CommandError("mv ... to top moves tasks to the top level; to a row: mv 5 1, to a list: mv 5 @Work, under a task: mv 5 under 2")
            }
            try moveToTopLevel(Array(words.dropLast(2)))
            return
        }
        if ["under", "to"].contains(destination.lowercased()) {
            throw CommandError("mv: \(destination) what? such as mv 4 under 2, mv 4 to top")
        }
        if destination.hasPrefix("@") {
            let list = try listID(named: String(destination.dropFirst()), choosing: false).id
            try moveToList(try targets(Array(words.dropLast())), list)
            return
        }
        guard words.count == 2, let to = Int(destination), to >= 1 else {
            throw CommandError("mv: '\(displayed(String(destination)))' is not a task number to move to (or @list)")
        }
        let block = try targets([words[0]])
        guard let from = block.first?.index, let last = block.last?.index else {
            throw CommandError("mv by position needs task numbers, not ids (or use mv ID @list)")
        }
        let current = try openView()
        let index: Int
        if let shown = current.index(ofItemNumber: to) {
            index = shown
        } else if !current.numbersInWindow {
            index = to - 1
        } else {
            throw CommandError("mv: no task \(to) here (the window shows tasks " + (current.shownNumbers.map { "\($0.first)-\($0.last)" } ?? "none") + ")")
        }
        _ = try send(ItemsMove.view(current.id, version: current.version, from: from, count: last - from + 1, to: index))
        record(ItemsMove.method, "move " + Target.named(block))
        confirm("moved \(block.count) rows to \(to)")
    }

    /// Moves `targets` to the end of `list` and says so in one line, naming the list by `listLabel` (the rows
    /// leaving the view, or moving to its end when `list` is the open one, are not listed as well).
    func moveToList(_ targets: [Target], _ list: ListID) throws(CommandError) {
        _ = try send(ItemsMove.ids(targets.map(\.id), before: nil, list: list))
        let label = listLabel(list)
        record(ItemsMove.method, "move " + Target.named(targets) + " to " + label)
        let moved = Set(targets.map { $0.id.description })
        notes.removeAll { note in
            switch note {
            case .removed: true
            case .moved(_, let row, _, _): moved.contains(row.id)
            default: false
            }
        }
        // A terminal shows the table again, without the rows that left.
        if options.interactive && view != nil { redraw = true }
        say("moved " + Target.named(targets) + " to " + (list == view?.list ? "the end of " : "") + label)
    }

    /// An item in full, as `show` prints it.
    func describeItem(_ item: Item) -> [String] {
        var lines = [style.bold(displayed(item.title)) + "  " + style.dim("(\(item.id)" + ", in " + (listNames[item.list] ?? "?") + ")")]
        func field(_ name: String, _ value: String) { lines.append("  " + DisplayWidth.padded(name + ":", toWidth: 10) + " " + value) }
        field("done", item.done ? "yes, " + time(item.completed) : "no")
        if let due = item.due {
            let described = day.describe(due: due, done: item.done)
            let relative = described.overdue ? style.red(described.text) : described.text
            field("due", described.text == due ? due : due + " (" + relative + ")")
        } else {
            field("due", "none")
        }
        if let rule = item.repeat {
            field("repeats", repeatText(item) + style.dim("  (" + rule.rule + ", from " + rule.from.rawValue + ")"))
        }
        let history = item.occurrences
        if history.completed + history.skipped > 0 {
            var text = "\(history.completed) done, \(history.skipped) skipped"
            if let last = history.recent.last {
                text += "; last " + (last.outcome == .completed ? "done " : "skipped ") + time(last.at) + " (due " + last.due + ")"
            }
            field("history", text)
        }
        if !item.alerts.isEmpty { field("reminds", item.alerts.map { alertWords($0, of: item) }.joined(separator: "; ")) }
        field("priority", item.priority.rawValue)
        if let parent = item.parent { field("under", "\"" + title(of: parent) + "\"") }
        if item.children > 0 { field("subtasks", "\(item.children - item.openChildren) of \(item.children) done") }
        field("tags", item.tags.isEmpty ? "none" : item.tags.map { "#" + displayed($0) }.joined(separator: " "))
        if item.notes.isEmpty {
            field("notes", "none")
        } else {
            let noteLines = item.notes.split(separator: "\n", omittingEmptySubsequences: false)
            field("notes", displayed(String(noteLines[0])))
            for line in noteLines.dropFirst() { lines.append("  " + String(repeating: " ", count: 10) + " " + displayed(String(line))) }
        }
        field("created", time(item.created))
        field("modified", time(item.modified) + ", revision \(item.revision)")
        return lines
    }

    /// An instant from the server, as local date and time.
    func time(_ text: String?) -> String {
        guard let text, let instant = parseInstant(text) else { return "never" }
        return day.date(ofDay: day.dayNumber(ofInstant: instant)) + " " + day.clockTime(ofInstant: instant)
    }
}
