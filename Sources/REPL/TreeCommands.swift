/// Commands on the tree of tasks: indent, outdent, fold, unfold; and what `add --under ROW` and `mv ROW... under
/// ROW` / `mv ROW... to top` send. Each shows the table after a change (the tree is what changed, which lines of
/// `+`/`-` cannot say), and the server's refusals come back in words that name tasks by their titles.

import TasklsProtocol
import Wire

extension Commands {
    static let treeCommands: [Command] = [
        Command(names: ["indent"], usage: "ROW...", summary: "make tasks subtasks of the task above them at their level (last under it)",
                example: "indent 3   indent 4-5", area: "Subtasks",
                run: { repl, arguments throws(CommandError) in try repl.indent(arguments.words) }),
        Command(names: ["outdent"], usage: "ROW...", summary: "move subtasks up a level, right after their parent and its other subtasks",
                example: "outdent 3", area: "Subtasks",
                run: { repl, arguments throws(CommandError) in try repl.outdent(arguments.words) }),
        Command(names: ["fold", "collapse"], usage: "ROW...|all", summary: "hide the subtasks of tasks, in this view",
                example: "fold 2   fold all", area: "Subtasks",
                run: { repl, arguments throws(CommandError) in try repl.fold(arguments.words, collapsing: true) }),
        Command(names: ["unfold", "expand"], usage: "ROW...|all", summary: "show the subtasks fold hid",
                example: "unfold 2   unfold all", area: "Subtasks",
                run: { repl, arguments throws(CommandError) in try repl.fold(arguments.words, collapsing: false) }),
    ]
}

extension REPL {
    /// `indent ROW...` (`items/indent`): the tasks become the last subtasks of the task above them at their level.
    func indent(_ words: [Substring]) throws(CommandError) {
        try changeLevel(words, { ItemsIndent(ids: $0) }) { moving, top in
            "indented " + Target.named(moving) + " " + placeOfParent(of: top)
        }
    }

    /// `outdent ROW...` (`items/outdent`): the tasks become their parent's next siblings.
    func outdent(_ words: [Substring]) throws(CommandError) {
        try changeLevel(words, { ItemsOutdent(ids: $0) }) { moving, top in
            "outdented " + Target.named(moving) + ": now " + placeOfParent(of: top, topLevel: "at the top level")
        }
    }

    /// Sends `request` for the tasks `words` name (a refusal in words), records the step, says `done` of them and of
    /// the shallowest of them, and shows the table.
    private func changeLevel<Request: RequestMessage>(_ words: [Substring], _ request: ([ItemID]) -> Request,
                                                      done: ([Target], Target) -> String) throws(CommandError) {
        let moving = try targets(words)
        let top = shallowest(moving)
        do {
            _ = try send(request(moving.map(\.id)))
        } catch {
            throw treeRefusal(error, moving: moving)
        }
        record(Request.method, nil)
        say(done(moving, top))
        try showTable()
    }

    /// `mv ROW... under ROW` (`items/move` by id with `parent`): the tasks, with their subtasks, become the last
    /// subtasks of the task named last (in its list).
    func moveUnder(_ words: [Substring], parent word: Substring) throws(CommandError) {
        let moving = try targets(words)
        let parents = try targets([word])
        guard parents.count == 1, let parent = parents.first else { throw CommandError("mv ... under takes one task to go under, such as mv 4 under 2") }
        let result: ItemsMoveResult
        do {
            result = try send(ItemsMove.ids(moving.map(\.id), before: nil, parent: .item(parent.id)))
        } catch {
            throw treeRefusal(error, moving: moving)
        }
        guard result.changed else {
            say(Target.named(moving) + (moving.count == 1 ? " is" : " are") + " already the last under \"\(parent.title)\"")
            return
        }
        record(ItemsMove.method, "move " + Target.named(moving) + " under \"\(parent.title)\"")
        say("moved " + Target.named(moving) + " under \"\(parent.title)\"")
        try showTable()
    }

    /// `mv ROW... to top` (`items/move` by id with `parent: null`): the tasks, with their subtasks, go to the top
    /// level of their list, last.
    func moveToTopLevel(_ words: [Substring]) throws(CommandError) {
        let moving = try targets(words)
        let result: ItemsMoveResult
        do {
            result = try send(ItemsMove.ids(moving.map(\.id), before: nil, parent: .topLevel))
        } catch {
            throw treeRefusal(error, moving: moving)
        }
        guard result.changed else {
            say(Target.named(moving) + (moving.count == 1 ? " is" : " are") + " already the last at the top level")
            return
        }
        let list = (try? send(ItemsGet(id: moving[0].id)))?.list
        record(ItemsMove.method, "move " + Target.named(moving) + " to the top level")
        say("moved " + Target.named(moving) + " to the top level" + (list.map { ", last in " + listLabel($0) } ?? ""))
        try showTable()
    }

    /// `fold ROW...|all` (`view/collapse`) and `unfold ROW...|all` (`view/expand`), on the open view: says how many
    /// rows went or came, and shows the table.
    func fold(_ words: [Substring], collapsing: Bool) throws(CommandError) {
        let verb = collapsing ? "fold" : "unfold"
        let current = try openView()
        guard !words.isEmpty else { throw CommandError("\(verb) which tasks? give their numbers (\(verb) 2, \(verb) 1-4) or all") }
        let target: CollapseTarget
        var named: [Target] = []
        if words.count == 1 && words[0].lowercased() == "all" {
            target = .all
        } else {
            named = try targets(words)
            let rows = named.compactMap { $0.index.flatMap(current.row(at:))?.item }
            if collapsing && rows.count == named.count && rows.allSatisfy({ !$0.hasChildren }) {
                throw CommandError(Target.named(named) + (named.count == 1 ? " has" : " have") + " no subtasks in this view to fold")
            }
            target = .ids(named.map(\.id))
        }
        let before = current.count ?? 0
        let changed: Bool
        do {
            changed = try collapsing ? send(ViewCollapse(view: current.id, target)).changed : send(ViewExpand(view: current.id, target)).changed
        } catch {
            throw treeRefusal(error, moving: named)
        }
        let what = named.isEmpty ? (collapsing ? "every task with subtasks" : "every task") : Target.named(named)
        guard changed else {
            if named.isEmpty {
                say(collapsing ? "nothing to fold: no task here shows subtasks (folded ones stay folded)" : "nothing is folded in this view")
            } else {
                say(what + (named.count == 1 ? " is " : " are ") + (collapsing ? "already folded" : "not folded"))
            }
            return
        }
        let difference = abs(before - (view?.count ?? before))
        say((collapsing ? "folded " : "unfolded ") + what + ": \(grouped(difference)) " + (difference == 1 ? "row " : "rows ")
            + (collapsing ? "hidden" : "shown"))
        try showTable()
    }

    /// The target highest in the tree (least depth, as the window shows it; the first when it does not): the one a
    /// message names the new parent of.
    func shallowest(_ targets: [Target]) -> Target {
        func depth(_ target: Target) -> Int { target.index.flatMap { view?.row(at: $0)?.depth } ?? Int.max }
        return targets.min { depth($0) < depth($1) } ?? targets[0]
    }

    /// Where `target` is now, for a message: `"Plan trip"` (its parent's title, quoted), or `topLevel`.
    func placeOfParent(of target: Target, topLevel: String = "the top level") -> String {
        guard let item = try? send(ItemsGet(id: target.id)) else { return "its new parent" }
        return item.parent.map { "under \"" + title(of: $0) + "\"" } ?? topLevel
    }

    /// An item's title, escaped for printing: from the window, else from the server (`items/get`), else its id.
    func title(of id: ItemID) -> String {
        if let row = view?.rows.first(where: { $0.id == id.description }) { return displayed(row.title) }
        return (try? send(ItemsGet(id: id))).map { displayed($0.title) } ?? id.description
    }

    /// A refusal of the tree (protocol.md, "Refusals of the tree") in the REPL's words, naming the tasks the
    /// server's message names by their titles; any other error as it is. `moving` are the tasks the command named.
    func treeRefusal(_ error: CommandError, moving: [Target]) -> CommandError {
        let named = mentionedItems(error.message).map { "\"" + title(of: $0) + "\"" }
        let first = named.first ?? Target.named(moving)
        switch error.reason {
        case "noPreviousSibling":
            return CommandError("\(first) has no task above it at its level to go under")
        case "topLevel":
            return CommandError("\(first) is already at the top level")
        case "notSiblings":
            let pair = named.count >= 2 ? "\(named[0]) and \(named[1])" : "the tasks"
            return CommandError("\(pair) are not under the same task; indent and outdent tasks that share a parent, or use mv ROW... under ROW")
        case "tooDeep":
            let place = named.first.map { "under " + $0 } ?? "there"
            let who = moving.isEmpty ? "a subtask" : Target.named(moving)
            return CommandError("too deep: \(place), \(who) would reach more than 15 levels below the top level (the most a tree has)")
        case "cycle":
            if named.count >= 2 { return CommandError("\(named[0]) is inside \(named[1]): a task cannot go under its own subtask") }
            return CommandError("\(first) is one of the tasks moved: a task cannot go under itself")
        case "ambiguousList":
            return CommandError("the tasks are in different lists; move them one list at a time")
        case "notInView":
            return CommandError("\(first) is not in this view")
        default:
            return error
        }
    }

    /// The item ids (`i42`) a server message names, in order.
    func mentionedItems(_ message: String) -> [ItemID] {
        message.split { !$0.isLetter && !$0.isNumber }.compactMap { word in
            guard word.first == "i", word.count > 1, word.dropFirst().allSatisfy(\.isASCII), word.dropFirst().allSatisfy(\.isNumber) else { return nil }
            return try? ItemID(json: .string(String(word)), path: "")
        }
    }
}
