/// Commands on items: add, edit, complete, delete, move, show. Row numbers become ids here, from
/// the window, exactly as an editor turns a clicked row into an id.

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
                    let result = try repl.request("items/update", ["id": .string(target.id), "notes": .string(text)])
                    repl.confirm(text.isEmpty ? "cleared the notes of \"\(target.title)\"" : "noted \"\(target.title)\"", result)
                }),
        Command(names: ["done", "x"], usage: "ROW...", summary: "mark items done", example: "done 3   done 1-4 7", area: "Items",
                run: { repl, arguments throws(CommandError) in try repl.setDone(arguments.words, true) }),
        Command(names: ["undone"], usage: "ROW...", summary: "mark items not done", example: "undone 3", area: "Items",
                run: { repl, arguments throws(CommandError) in try repl.setDone(arguments.words, false) }),
        Command(names: ["rm", "del"], usage: "ROW...", summary: "delete items (undo brings them back)", example: "rm 2 5-6", area: "Items",
                run: { repl, arguments throws(CommandError) in
                    let targets = try repl.targets(arguments.words)
                    let result = try repl.request("items/delete", ["ids": .array(targets.map { .string($0.id) })])
                    repl.confirm("deleted \(targets.count == 1 ? "\"\(targets[0].title)\"" : "\(targets.count) items")", result)
                }),
        Command(names: ["mv", "move"], usage: "ROW[-ROW] TO | ROW... @LIST", summary: "move rows so the first is at row TO, or into another list",
                example: "mv 5 1   mv 3-5 10   mv 2 @Work", area: "Items",
                run: { repl, arguments throws(CommandError) in try repl.move(arguments.words) }),
        Command(names: ["show", "s"], usage: "ROW", summary: "show an item in full, notes and times too", example: "show 3", area: "Items",
                run: { repl, arguments throws(CommandError) in
                    guard arguments.words.count == 1 else { throw CommandError("show needs one row, such as show 3") }
                    let target = try repl.targets(arguments.words)[0]
                    repl.say(repl.describeItem(try repl.request("items/get", ["id": .string(target.id)])))
                }),
    ]
}

/// An item a command names: its id, its index in the view when named by row, its title.
struct Target {
    let id: String
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
                let row = view?.rows.first { $0.id == word }
                found.append(Target(id: String(word), index: nil, title: row?.title ?? String(word)))
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
                guard !row.isHeader else { throw CommandError("row \(number) is the header of section \"\(row.title)\", not an item") }
                found.append(Target(id: row.id, index: number - 1, title: row.title))
            }
        }
        return found
    }

    /// Prints `summary` unless the view already showed the change.
    func confirm(_ summary: String, _ result: JSON) {
        if notes.allSatisfy({ $0 == .reset }) { say(summary) }
    }

    /// `add TITLE [due:D] [!P] [#tag]`: an item at the end of the open list.
    func add(_ words: [Substring]) throws(CommandError) {
        let shorthand = try ItemShorthand(words, day: day)
        guard let title = shorthand.title else { throw CommandError("add needs a title, such as add Buy milk due:tomorrow") }
        let current = try openView()
        guard let list = current.list else {
            throw CommandError("\(SmartGroup.name(current.group ?? "")) is a smart group; open a list to add to it")
        }
        var params: JSONObject = ["list": .string(list), "title": .string(title)]
        if let due = shorthand.due, due != .null { params["due"] = due }
        if let priority = shorthand.priority { params["priority"] = .string(priority) }
        if !shorthand.addTags.isEmpty { params["tags"] = .array(shorthand.addTags.map(JSON.string)) }
        let result = try request("items/create", .object(params))
        confirm("added \"\(title)\" as \(result["item"]?["id"]?.stringValue ?? "?") (below the window: \(grouped(view?.count ?? 0)) rows)", result)
    }

    /// `edit ROW [TITLE] [due:D] [!P] [#tag] [-#tag]`.
    func edit(_ words: [Substring]) throws(CommandError) {
        guard let first = words.first else { throw CommandError("edit needs a row, such as edit 3 New title") }
        let target = try targets([first])[0]
        let shorthand = try ItemShorthand(Array(words.dropFirst()), day: day)
        var params: JSONObject = ["id": .string(target.id)]
        if let title = shorthand.title { params["title"] = .string(title) }
        if let due = shorthand.due { params["due"] = due }
        if let priority = shorthand.priority { params["priority"] = .string(priority) }
        if !shorthand.addTags.isEmpty || !shorthand.removeTags.isEmpty {
            let item = try request("items/get", ["id": .string(target.id)])
            var tags = (item["tags"]?.arrayValue ?? []).compactMap(\.stringValue)
            tags.removeAll { shorthand.removeTags.contains($0) }
            for tag in shorthand.addTags where !tags.contains(tag) { tags.append(tag) }
            params["tags"] = .array(tags.map(JSON.string))
        }
        guard params.members.count > 1 else { throw CommandError("edit \(first): nothing to change; give a title, due:, !priority or #tags") }
        let result = try request("items/update", .object(params))
        confirm("changed \"\(target.title)\"", result)
    }

    /// `done ROW...` / `undone ROW...`.
    func setDone(_ words: [Substring], _ done: Bool) throws(CommandError) {
        let targets = try targets(words)
        let params: JSON = targets.count == 1
            ? ["id": .string(targets[0].id), "done": .bool(done)]
            : ["ids": .array(targets.map { .string($0.id) }), "done": .bool(done)]
        let result = try request("items/update", params)
        confirm((done ? "done: " : "not done: ") + targets.map { "\"\($0.title)\"" }.joined(separator: ", "), result)
    }

    /// `mv ROW[-ROW] TO` (by view index, as a drag in a pane) or `mv ROW... @LIST` (by id).
    func move(_ words: [Substring]) throws(CommandError) {
        guard words.count >= 2, let destination = words.last else { throw CommandError("mv needs rows and a destination, such as mv 5 1 or mv 2 @Work") }
        if destination.hasPrefix("@") {
            let list = try listID(named: String(destination.dropFirst()))
            let targets = try targets(Array(words.dropLast()))
            let result = try request("items/move", ["ids": .array(targets.map { .string($0.id) }), "before": .null, "list": .string(list)])
            confirm("moved \(targets.count == 1 ? "\"\(targets[0].title)\"" : "\(targets.count) items") to \(listNames[list] ?? list)", result)
            return
        }
        guard words.count == 2, let to = Int(destination), to >= 1 else { throw CommandError("mv: '\(destination)' is not a row number to move to (or @list)") }
        let block = try targets([words[0]])
        guard let from = block.first?.index else { throw CommandError("mv by position needs row numbers, not ids (or use mv ID @list)") }
        let current = try openView()
        let result = try request("items/move", ["view": .string(current.id), "version": .integer(Int64(current.version)),
                                                "from": .integer(Int64(from)), "count": .integer(Int64(block.count)), "to": .integer(Int64(to - 1))])
        confirm("moved \(block.count) rows to \(to)", result)
    }

    /// An item in full, as `show` prints it.
    func describeItem(_ item: JSON) -> [String] {
        let title = item["title"]?.stringValue ?? ""
        var lines = [style.bold(title) + "  " + style.dim("(\(item["id"]?.stringValue ?? "")" + ", in " + (listNames[item["list"]?.stringValue ?? ""] ?? "?") + ")")]
        func field(_ name: String, _ value: String) { lines.append("  " + pad(name + ":", 10) + " " + value) }
        let done = item["done"] == .bool(true)
        field("done", done ? "yes, " + time(item["completed"]) : "no")
        if let due = item["due"]?.stringValue {
            let described = day.describe(due: due, done: done)
            field("due", due + " (" + (described.overdue ? style.red(described.text) : described.text) + ")")
        } else {
            field("due", "none")
        }
        field("priority", item["priority"]?.stringValue ?? "none")
        let tags = (item["tags"]?.arrayValue ?? []).compactMap(\.stringValue)
        field("tags", tags.isEmpty ? "none" : tags.map { "#" + $0 }.joined(separator: " "))
        let notes = item["notes"]?.stringValue ?? ""
        if notes.isEmpty {
            field("notes", "none")
        } else {
            let noteLines = notes.split(separator: "\n", omittingEmptySubsequences: false)
            field("notes", String(noteLines[0]))
            for line in noteLines.dropFirst() { lines.append("  " + pad("", 10) + " " + line) }
        }
        field("created", time(item["created"]))
        field("modified", time(item["modified"]) + ", revision \(item["revision"]?.intValue ?? 0)")
        return lines
    }

    /// An instant from the server, as local date and time.
    func time(_ value: JSON?) -> String {
        guard let text = value?.stringValue, let instant = parseInstant(text) else { return "never" }
        return day.date(ofDay: day.dayNumber(ofInstant: instant)) + " " + day.clockTime(ofInstant: instant)
    }
}
