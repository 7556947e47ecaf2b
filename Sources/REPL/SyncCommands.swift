/// `sync`: the shared lists synced with their CalDAV calendars now (protocol.md, "Sync with CalDAV"); and how a
/// list's sync state reads in `ls`.

import TasklsProtocol
import Wire

extension Commands {
    static let syncCommands: [Command] = [
        Command(names: ["sync"], usage: "[LIST]... [--confirm]",
                summary: "sync the lists shared with CalDAV calendars now (set up with: taskls sync add, taskls sync share)",
                example: "sync   sync Groceries   sync --confirm", area: "Files",
                run: { repl, arguments throws(CommandError) in try repl.syncNow(arguments.words.map(String.init)) }),
    ]
}

extension REPL {
    /// `sync [LIST]... [--confirm]`.
    func syncNow(_ words: [String]) throws(CommandError) {
        var names: [String] = []
        var confirm = false
        for word in words {
            switch word {
            case "--confirm": confirm = true
            case let flag where flag.hasPrefix("--"): throw CommandError("sync: unknown option \(flag)")
            default: names.append(word)
            }
        }
        try waitForLists()
        var ids: [ListID] = []
        for name in names {
            let matching = lists(named: name)
            guard matching.count == 1 else {
                throw CommandError(matching.isEmpty ? "no list named \(displayed(name))" : "several lists are named \(displayed(name))")
            }
            ids.append(matching[0].id)
        }
        let result = try send(SyncNow(lists: ids.isEmpty ? nil : ids, confirm: confirm ? true : nil))
        var lines: [String] = []
        for synced in result.lists {
            let name = lists.first { $0.id == synced.sync.list }.map { displayed($0.name) } ?? synced.sync.list.description
            var line = name + ": " + syncWords(synced.sync)
            if synced.sync.state == .synced { line += " (\(grouped(synced.sent)) sent, \(grouped(synced.received)) received)" }
            lines.append(line)
            if let message = synced.sync.message, synced.sync.state != .synced { lines.append("  " + displayed(message)) }
            for notice in synced.sync.notices { lines.append("  " + displayed(notice)) }
        }
        say(lines)
        takeOverview(try send(ListsList()))
    }

    /// A list's sync state in a few words: `synced 10:04`, `syncing…` (`syncing, 120 of 1,000 sent` while it sends),
    /// `offline, 3 waiting`, `sync error`,
    /// `sync waits for --confirm`.
    func syncWords(_ state: ListSyncState) -> String {
        switch state.state {
        case .synced:
            // RFC 3339 in UTC: the day and the minute are enough here.
            let at = state.syncedAt.map { " " + $0.prefix(16).replacingOccurrences(of: "T", with: " ") + " UTC" } ?? ""
            return style.dim("synced" + at)
        case .syncing:
            guard let progress = state.progress else { return style.dim("syncing" + style.ellipsis) }
            return style.dim("syncing, \(grouped(progress.sent)) of \(grouped(progress.total)) sent")
        case .offline: return style.yellow("offline, \(grouped(state.waiting)) waiting")
        case .error: return style.red("sync error")
        case .confirm: return style.yellow("sync waits for: sync --confirm")
        }
    }
}
