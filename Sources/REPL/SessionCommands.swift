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
                    let result = try repl.send(ListsCreate(name: name))
                    repl.say("created list \"\(displayed(name))\" (\(result.list.id)); open it with: open \(displayed(name))")
                }),
        Command(names: ["rename"], usage: "NEW NAME", summary: "rename the open list", example: "rename Errands", area: "Lists",
                run: { repl, arguments throws(CommandError) in
                    let name = arguments.words.joined(separator: " ")
                    guard !name.isEmpty else { throw CommandError("rename needs the new name, such as rename Errands") }
                    guard let list = try repl.openView().list else { throw CommandError("a smart group cannot be renamed; open a list first") }
                    let old = repl.listNames[list] ?? list.description
                    _ = try repl.send(ListsUpdate(id: list, name: name))
                    repl.say("renamed \"\(old)\" to \"\(displayed(name))\"")
                }),
        Command(names: ["rmlist"], usage: "[LIST]", summary: "delete a list and its items (default: the open one)", example: "rmlist Groceries", area: "Lists",
                run: { repl, arguments throws(CommandError) in
                    let named = arguments.words.joined(separator: " ")
                    let list: ListID
                    if named.isEmpty {
                        guard let open = try repl.openView().list else { throw CommandError("rmlist needs a list name when a smart group is open") }
                        list = open
                    } else {
                        list = try repl.listID(named: named)
                    }
                    let name = repl.listNames[list] ?? list.description
                    _ = try repl.send(ListsDelete(id: list))
                    repl.say("deleted list \"\(name)\" (undo brings it back)")
                }),
    ]

    static let sessionCommands: [Command] = [
        Command(names: ["undo", "u"], usage: "", summary: "undo your last change", example: "undo", area: "History",
                run: { repl, _ throws(CommandError) in
                    repl.confirm("undid " + displayed(try repl.send(Undo()).undone))
                }),
        Command(names: ["redo"], usage: "", summary: "redo what undo undid", example: "redo", area: "History",
                run: { repl, _ throws(CommandError) in
                    repl.confirm("redid " + displayed(try repl.send(Redo()).redone))
                }),
        Command(names: ["retry"], usage: "", summary: "try again to open a store that failed", example: "retry", area: "Store",
                run: { repl, _ throws(CommandError) in
                    let result = try repl.send(StoreRetry())
                    if !result.retried { repl.say("the store is \(result.status.state.name); nothing to retry") }
                }),
        Command(names: ["wait"], usage: "", summary: "wait until the open view has loaded (for scripts)", example: "wait", area: "Store",
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
        Command(names: ["help", "h", "?"], usage: "[COMMAND]", summary: "list the commands, or explain one", example: "help mv", area: "Session",
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
        } catch {
            // The error reply was printed as it is on the wire.
        }
        if method == "debug/continueLoading" || method == "store/retry" { redraw = false }
    }

    /// Waits (at most two minutes) until the open view is no longer loading, then shows it.
    func waitForView() throws(CommandError) {
        let deadline = monotonicMilliseconds() + 120_000
        while view?.state.isLoading == true {
            guard let message = nextMessage(until: deadline) else { throw CommandError("the view is still loading after two minutes") }
            if case .notification(let name, let params) = message { handle(name, params) }
        }
        if needsSnapshot { settle() }
        if view != nil { try showTable() }
    }
}
