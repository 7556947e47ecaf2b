/// Commands on items: add, edit, complete, delete, move, show. Row numbers become ids here, from
/// the window, exactly as an editor turns a clicked row into an id.

import TasklsProtocol
import Wire

extension Commands {
    static let itemCommands: [Command] = [
        Command(names: ["add", "a"], usage: "TITLE [due:D] [!P] [#tag]", summary: "add an item at the end of the open list",
                example: "add Buy milk due:tomorrow !high #home", area: "Items",
                run: { repl, arguments throws(CommandError) in try repl.add(arguments.words) }),
        Command(names: ["edit", "e"], usage: "ROW [TITLE] [due:D|due:none] [!P] [#tag] [-#tag]",
                summary: "change an item's title, due, priority or tags", example: "edit 3 due:fri -#home #work", area: "Items",
                run: { repl, arguments throws(CommandError) in try repl.edit(arguments.words) }),
        Command(names: ["note"], usage: "ROW [TEXT]", summary: "set an item's notes (none: clear them)",
                example: "note 3 2 litres, semi-skimmed", area: "Items",
                run: { repl, arguments throws(CommandError) in
                    guard let first = arguments.words.first else { throw CommandError("note needs a row, such as note 3 some text") }
                    let target = try repl.targets([first])[0]
                    let text = arguments.words.dropFirst().joined(separator: " ")
                    _ = try repl.send(ItemsUpdate(.id(target.id), notes: text))
                    repl.confirm(text.isEmpty ? "cleared the notes of \"\(target.title)\"" : "noted \"\(target.title)\"")
                }),
        Command(names: ["done", "x"], usage: "ROW...", summary: "mark items done", example: "done 3   done 1-4 7", area: "Items",
                run: { repl, arguments throws(CommandError) in try repl.setDone(arguments.words, true) }),
        Command(names: ["undone"], usage: "ROW...", summary: "mark items not done", example: "undone 3", area: "Items",
                run: { repl, arguments throws(CommandError) in try repl.setDone(arguments.words, false) }),
        Command(names: ["rm", "del"], usage: "ROW...", summary: "delete items (undo brings them back)", example: "rm 2 5-6", area: "Items",
                run: { repl, arguments throws(CommandError) in
                    let targets = try repl.targets(arguments.words)
                    _ = try repl.send(ItemsDelete(ids: targets.map(\.id)))
                    repl.confirm("deleted \(targets.count == 1 ? "\"\(targets[0].title)\"" : "\(targets.count) items")")
                }),
        Command(names: ["mv", "move"], usage: "ROW[-ROW] TO | ROW... @LIST", summary: "move rows so the first is at row TO, or into another list",
                example: "mv 5 1   mv 3-5 10   mv 2 @Work", area: "Items",
                run: { repl, arguments throws(CommandError) in try repl.move(arguments.words) }),
        Command(names: ["show", "s"], usage: "ROW", summary: "show an item in full, notes and times too", example: "show 3", area: "Items",
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
}

extension REPL {
    /// The items `words` name: row numbers of the window (`3`), ranges (`3-5`) or ids (`i42`).
    func targets(_ words: [Substring]) throws(CommandError) -> [Target] {
        guard !words.isEmpty else { throw CommandError("which rows? give row numbers (3, 3-5) or ids (i42)") }
        var found: [Target] = []
        for word in words {
            if word.first == "i", word.count > 1, word.dropFirst().allSatisfy(\.isNumber) {
                guard let id = try? ItemID(json: .string(String(word)), path: "") else {
                    throw CommandError("'\(word)' is not an item id: ids are spelled i1, i2, ... (no leading zero)")
                }
                let row = view?.rows.first { $0.id == word }
                found.append(Target(id: id, index: nil, title: displayed(row?.title ?? String(word))))
                continue
            }
            let bounds = word.split(separator: "-", maxSplits: 1)
            guard let first = bounds.first.flatMap({ Int($0) }), let last = bounds.count == 2 ? Int(bounds[1]) : first, first >= 1, last >= first else {
                throw CommandError("'\(word)' is not a row (3), a range (3-5) or an item id (i42)")
            }
            let current = try openView()
            for number in first...last {
                guard let row = current.row(at: number - 1) else {
                    let shown = current.rows.isEmpty ? "the window shows no rows" : "the window shows rows \(current.start + 1)-\(current.start + current.rows.count)"
                    throw CommandError("no row \(number) here (\(shown))")
                }
                guard case .item(let item) = row else { throw CommandError("row \(number) is the header of section \"\(displayed(row.title))\", not an item") }
                found.append(Target(id: item.id, index: number - 1, title: displayed(item.title)))
            }
        }
        return found
    }

    /// Prints `summary` unless the view already showed the change.
    func confirm(_ summary: String) {
        if notes.allSatisfy({ $0 == .reset }) { say(summary) }
    }

    /// `add TITLE [due:D] [!P] [#tag]`: an item at the end of the open list.
    func add(_ words: [Substring]) throws(CommandError) {
        let shorthand = try ItemShorthand(words, day: day)
        guard let title = shorthand.title else { throw CommandError("add needs a title, such as add Buy milk due:tomorrow") }
        let current = try openView()
        guard case .list(let list) = current.source else {
            throw CommandError("\(renderer.viewName(current)) is a smart group; open a list to add to it")
        }
        var params = ItemsCreate(list: list, title: title, priority: shorthand.priority)
        if case .set(let due) = shorthand.due { params.due = due }
        if !shorthand.addTags.isEmpty { params.tags = shorthand.addTags }
        let result = try send(params)
        confirm("added \"\(displayed(title))\" as \(result.item.id) (below the window: \(grouped(view?.count ?? 0)) rows)")
    }

    /// `edit ROW [TITLE] [due:D] [!P] [#tag] [-#tag]`.
    func edit(_ words: [Substring]) throws(CommandError) {
        guard let first = words.first else { throw CommandError("edit needs a row, such as edit 3 New title") }
        let target = try targets([first])[0]
        let shorthand = try ItemShorthand(Array(words.dropFirst()), day: day)
        var update = ItemsUpdate(.id(target.id), title: shorthand.title, due: shorthand.due, priority: shorthand.priority)
        if !shorthand.addTags.isEmpty || !shorthand.removeTags.isEmpty {
            var tags = try send(ItemsGet(id: target.id)).tags
            tags.removeAll { shorthand.removeTags.contains($0) }
            for tag in shorthand.addTags where !tags.contains(tag) { tags.append(tag) }
            update.tags = tags
        }
        guard !update.changesNothing else { throw CommandError("edit \(first): nothing to change; give a title, due:, !priority or #tags") }
        _ = try send(update)
        confirm("changed \"\(target.title)\"")
    }

    /// `done ROW...` / `undone ROW...`.
    func setDone(_ words: [Substring], _ done: Bool) throws(CommandError) {
        let targets = try targets(words)
        _ = try send(ItemsUpdate(targets.count == 1 ? .id(targets[0].id) : .ids(targets.map(\.id)), done: done))
        confirm((done ? "done: " : "not done: ") + targets.map { "\"\($0.title)\"" }.joined(separator: ", "))
    }

    /// `mv ROW[-ROW] TO` (by view index, as a drag in a pane) or `mv ROW... @LIST` (by id).
    func move(_ words: [Substring]) throws(CommandError) {
        guard words.count >= 2, let destination = words.last else { throw CommandError("mv needs rows and a destination, such as mv 5 1 or mv 2 @Work") }
        if destination.hasPrefix("@") {
            let list = try listID(named: String(destination.dropFirst()))
            let targets = try targets(Array(words.dropLast()))
            _ = try send(ItemsMove.ids(targets.map(\.id), before: nil, list: list))
            confirm("moved \(targets.count == 1 ? "\"\(targets[0].title)\"" : "\(targets.count) items") to \(listNames[list] ?? list.description)")
            return
        }
        guard words.count == 2, let to = Int(destination), to >= 1 else { throw CommandError("mv: '\(destination)' is not a row number to move to (or @list)") }
        let block = try targets([words[0]])
        guard let from = block.first?.index else { throw CommandError("mv by position needs row numbers, not ids (or use mv ID @list)") }
        let current = try openView()
        _ = try send(ItemsMove.view(current.id, version: current.version, from: from, count: block.count, to: to - 1))
        confirm("moved \(block.count) rows to \(to)")
    }

    /// An item in full, as `show` prints it.
    func describeItem(_ item: Item) -> [String] {
        var lines = [style.bold(displayed(item.title)) + "  " + style.dim("(\(item.id)" + ", in " + (listNames[item.list] ?? "?") + ")")]
        func field(_ name: String, _ value: String) { lines.append("  " + pad(name + ":", 10) + " " + value) }
        field("done", item.done ? "yes, " + time(item.completed) : "no")
        if let due = item.due {
            let described = day.describe(due: due, done: item.done)
            field("due", due + " (" + (described.overdue ? style.red(described.text) : described.text) + ")")
        } else {
            field("due", "none")
        }
        field("priority", item.priority.rawValue)
        field("tags", item.tags.isEmpty ? "none" : item.tags.map { "#" + displayed($0) }.joined(separator: " "))
        if item.notes.isEmpty {
            field("notes", "none")
        } else {
            let noteLines = item.notes.split(separator: "\n", omittingEmptySubsequences: false)
            field("notes", displayed(String(noteLines[0])))
            for line in noteLines.dropFirst() { lines.append("  " + pad("", 10) + " " + displayed(String(line))) }
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
