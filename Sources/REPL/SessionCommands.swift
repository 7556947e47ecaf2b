/// Commands on lists, history and the session: make, rename and delete lists; undo and redo;
/// the store; raw requests; help and quit.

import TasklsProtocol
import Wire

extension Commands {
    static let listCommands: [Command] = [
        Command(names: ["mklist", "newlist"], usage: "NAME", summary: "create a list (last in the order)", example: "mklist Groceries", area: "Lists",
                run: { repl, arguments throws(CommandError) in
                    let name = arguments.words.joined(separator: " ")
                    guard !name.isEmpty else { throw CommandError("mklist needs a name, such as mklist Groceries") }
                    let twins = repl.lists(named: name)
                    let result = try repl.send(ListsCreate(name: name))
                    repl.record(ListsCreate.method, "create the list \"\(displayed(name))\"")
                    // `open NAME` would open the older list of that name: then the number or the id.
                    let opener = twins.isEmpty ? displayed(name) : repl.listReference(result.list.id)
                    repl.say("created list \"\(displayed(name))\" (\(result.list.id)); open it with: open \(opener)")
                    repl.warnTwins(twins, name: name, id: result.list.id)
                }),
        Command(names: ["rename"], usage: "NEW NAME", summary: "rename the open list", example: "rename Errands", area: "Lists",
                run: { repl, arguments throws(CommandError) in
                    let name = arguments.words.joined(separator: " ")
                    guard !name.isEmpty else { throw CommandError("rename needs the new name, such as rename Errands") }
                    guard let list = try repl.openView().list else { throw CommandError("a smart group cannot be renamed; open a list first") }
                    let old = repl.listNames[list] ?? list.description
                    let twins = repl.lists(named: name).filter { $0.id != list }
                    _ = try repl.send(ListsUpdate(id: list, name: name))
                    repl.record(ListsUpdate.method, "rename \"\(old)\" to \"\(displayed(name))\"")
                    repl.say("renamed \"\(old)\" to \"\(displayed(name))\"")
                    repl.warnTwins(twins, name: name, id: list)
                }),
        Command(names: ["rmlist"], usage: "[LIST]", summary: "delete a list and its items (default: the open one)", example: "rmlist Groceries", area: "Lists",
                run: { repl, arguments throws(CommandError) in
                    let named = arguments.words.joined(separator: " ")
                    let list: ListID
                    if named.isEmpty {
                        guard let open = try repl.openView().list else { throw CommandError("rmlist needs a list name when a smart group is open") }
                        list = open
                    } else {
                        list = try repl.listID(named: named, choosing: false).id
                    }
                    let name = repl.listNames[list] ?? list.description
                    _ = try repl.send(ListsDelete(id: list))
                    repl.record(ListsDelete.method, "delete the list \"\(name)\"")
                    repl.say("deleted list \"\(name)\" (undo brings it back)")
                }),
    ]

    static let sessionCommands: [Command] = [
        Command(names: ["undo", "u"], usage: "", summary: "undo your last change", example: "undo", area: "History",
                run: { repl, _ throws(CommandError) in try repl.undo() }),
        Command(names: ["redo"], usage: "", summary: "redo what undo undid", example: "redo", area: "History",
                run: { repl, _ throws(CommandError) in try repl.redo() }),
        Command(names: ["retry"], usage: "", summary: "try again to open a store that failed", example: "retry", area: "Store",
                run: { repl, _ throws(CommandError) in
                    let result = try repl.send(StoreRetry())
                    if !result.retried { repl.say("the store is \(result.status.state.name); nothing to retry") }
                }),
        Command(names: ["wait"], usage: "", summary: "wait until the store is ready and the open view has loaded", example: "wait", area: "Store",
                run: { repl, _ throws(CommandError) in try repl.waitForView() }),
        Command(names: ["status"], usage: "", summary: "show where the store is and its state", example: "status", area: "Store",
                run: { repl, _ throws(CommandError) in
                    let status = try repl.send(StoreStatus())
                    var line = "store: " + displayed(status.path ?? "in memory") + " " + repl.style.dash + " " + status.state.name
                    if case .loading(let progress) = status.state { line += " \(Int((progress * 100).rounded(.down)))%" }
                    if case .error(let message, _) = status.state { line += ": " + displayed(message) }
                    repl.say(line)
                }),
        Command(names: ["raw"], usage: "{JSON}", summary: "send a JSON-RPC request; print the reply and notifications",
                example: #"raw {"method":"server/ping"}"#, area: "Debugging",
                run: { repl, arguments throws(CommandError) in try repl.raw(String(arguments.text)) }),
        Command(names: ["clock"], usage: "INSTANT", summary: "move a --clock session's clock (debug/setClock)", example: "clock 2026-11-23T00:00:30Z", area: "Debugging",
                run: { repl, arguments throws(CommandError) in
                    guard arguments.words.count == 1, let instant = parseInstant(String(arguments.words[0])) else {
                        throw CommandError("clock needs an instant such as 2026-11-23T00:00:30Z")
                    }
                    let result = try repl.send(DebugSetClock(now: String(arguments.words[0])))
                    repl.day.manualNow = instant
                    repl.redraw = repl.view != nil
                    repl.say("the clock shows \(result.now)")
                }),
        Command(names: ["help", "h", "?"], usage: "[COMMAND|TOPIC|all]", summary: "the commands in short; one command, a topic (dates, filters, entry, keys), or all",
                example: "help mv   help dates   help all", area: "Session",
                run: { repl, arguments throws(CommandError) in repl.say(try Commands.help(arguments.words.first.map(String.init), style: repl.style)) }),
        Command(names: ["quit", "q", "exit"], usage: "", summary: "leave (everything is already saved)", example: "quit", area: "Session",
                run: { repl, _ throws(CommandError) in repl.markFinished() }),
    ]
}

extension REPL {
    /// Sends `text` as a JSON-RPC message (filling in `jsonrpc` and an `id`), and prints the reply
    /// and every notification before it, as they are on the wire.
    func raw(_ text: String) throws(CommandError) {
        let parsed: JSON
        do {
            parsed = try JSONParser.parse(text)
        } catch {
            throw CommandError("raw: not JSON: \(error.message) at byte \(error.offset)")
        }
        guard case .object(var object) = parsed else { throw CommandError("raw: expected a JSON object such as {\"method\":\"server/ping\"}") }
        if object["jsonrpc"] == nil { object["jsonrpc"] = "2.0" }
        let isRequest = object["method"] != nil && object["id"] != .null
        if isRequest && object["id"] == nil { object["id"] = .integer(takeID()) }
        let message: Message
        switch Message.decode(.object(object)) {
        case .success(let decoded): message = decoded
        case .failure(let failure): throw CommandError("raw: \(failure.error.message)")
        }
        transmit(message)
        guard case .request(let id, let method, _) = message else { return }
        do {
            _ = try awaitAnswer(id: id, method: method, printing: true)
            if Step.isStep(method) { record(method, nil) }
        } catch {
            // The error reply was printed as it is on the wire.
        }
        if method == "debug/continueLoading" || method == "store/retry" { redraw = false }
    }

    /// Waits (at most two minutes) until the store is ready and the open view is no longer loading, printing
    /// the progress in a terminal; then shows the view.
    func waitForView() throws(CommandError) {
        let deadline = monotonicMilliseconds() + 120_000
        var shown = -1
        while storeIsLoading || view?.state.isLoading == true {
            if options.interactive {
                let progress = storeIsLoading ? storeProgress : (view?.progress ?? 0)
                let tenths = Int(progress * 10)
                if tenths > shown {
                    shown = tenths
                    sayProgress(style.yellow("loading the store" + style.ellipsis + " \(tenths * 10)%"))
                }
            }
            guard let message = nextMessage(until: deadline) else { throw CommandError("the store is still loading after two minutes") }
            if case .notification(let name, let params) = message { handle(name, params) }
        }
        if needsSnapshot { settle() }
        if view != nil {
            try showTable()
        } else {
            say("the store is ready")
        }
    }

    /// `undo`: says what it undid, in the words the change was made with.
    func undo() throws(CommandError) {
        let result: UndoResult
        do {
            result = try send(Undo())
        } catch {
            if ["changedSince", "deletedSince", "listDeleted"].contains(error.reason ?? "") { history.dropNewest() }
            throw error
        }
        say("undid: " + history.undid(result.undone, description: result.description))
    }

    /// `redo`: says what it did again.
    func redo() throws(CommandError) {
        let result = try send(Redo())
        say("redid: " + history.redid(result.redone, description: result.description))
    }
}
