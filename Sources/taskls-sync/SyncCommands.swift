// SyncCommands: what each `taskls sync` command does.

import CalDAV
import Domain
import Foundation
import Store
import SyncEngine
import TasklsProtocol
import Wire

struct SyncCommands {
    let runner: SyncRunner
    let line: CommandLineArguments

    /// The store's side files with sync's lock held (the settings are changed only under it).
    private func lockedFiles() throws(Failure) -> StoreSideFiles {
        let files = try attempt { () throws(SyncError) in try runner.open() }
        do {
            guard try files.lock(StoreSideFiles.syncLock, patience: SyncRunner.lockPatience) else {
                throw Failure("another process has been syncing this store for \(SyncRunner.lockPatience / 60_000) minutes; try again once it is done")
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure("\(error)")
        }
        return files
    }

    private func attempt<Value>(_ body: () throws(SyncError) -> Value) throws(Failure) -> Value {
        do { return try body() } catch { throw Failure(error.description) }
    }

    private func store() throws(Failure) -> StoreSide {
        do {
            return try StoreSide(path: runner.storePath, now: runner.now)
        } catch {
            throw Failure("the store cannot be opened: \(error.message)")
        }
    }

    private func account(in settings: SyncSettings) throws(Failure) -> SyncAccountSettings {
        if let name = line.options["--account"] {
            guard let account = settings.account(named: name) else {
                throw Failure("no account named \(name); accounts: " + settings.accounts.map(\.name).joined(separator: ", "))
            }
            return account
        }
        guard settings.accounts.count == 1 else {
            throw Failure(settings.accounts.isEmpty ? "no account: add one with `taskls sync add URL --user NAME --password-command CMD`"
                                                    : "several accounts: say which with --account NAME")
        }
        return settings.accounts[0]
    }

    // MARK: Commands

    func add() async throws(Failure) {
        guard line.positional.count == 1, let url = URL(string: line.positional[0]), let host = url.host,
              url.scheme == "http" || url.scheme == "https" else {
            throw Failure("add wants one http or https URL: taskls sync add https://dav.example.com/ --user NAME --password-command CMD")
        }
        guard let user = line.options["--user"] else { throw Failure("add wants --user NAME") }
        let password: PasswordSource
        switch (line.options["--password-command"], line.options["--password-file"]) {
        case (let command?, nil): password = .command(command)
        case (nil, let file?): password = .file(file)
        default: throw Failure("add wants one of --password-command CMD or --password-file FILE (the password itself is never stored)")
        }
        let name = line.options["--name"] ?? host
        let files = try lockedFiles()
        var settings = try attempt { () throws(SyncError) in try SyncRunner.settings(files) }
        guard settings.account(named: name) == nil else {
            throw Failure("an account named \(name) exists; remove it first (taskls sync remove \(name)) or give --name")
        }
        var account = SyncAccountSettings(name: name, url: url.absoluteString, user: user, password: password, home: "")
        let client = try attempt { () throws(SyncError) in try runner.client(for: account) }
        let calendars: [CalDAVCalendar]
        do {
            let principal = try await client.discoverPrincipal()
            account.home = try await client.calendarHome(of: principal)
            calendars = try await client.calendars(in: account.home).filter(\.takesTasks)
        } catch {
            throw Failure(error.description)
        }
        settings.accounts.append(account)
        try attempt { () throws(SyncError) in try runner.write(settings.json, SyncSettings.fileName, files) }
        say("account \(name): \(user) at \(host), calendars in \(account.home)")
        if calendars.isEmpty { say("  no task calendar yet") }
        for calendar in calendars { say("  \(calendar.name ?? "(no name)")  \(calendar.href)") }
        say("share lists with `taskls sync share LIST` (or all of them with `taskls sync share --all`), then `taskls sync now`")
    }

    func share() async throws(Failure) {
        let files = try lockedFiles()
        var settings = try attempt { () throws(SyncError) in try SyncRunner.settings(files) }
        var account = try account(in: settings)
        if line.flags.contains("--all") {
            guard line.positional.isEmpty else { throw Failure("share --all takes no list") }
            account.sharesAll = true
            settings.accounts[settings.accounts.firstIndex { $0.name == account.name }!] = account
            try attempt { () throws(SyncError) in try runner.write(settings.json, SyncSettings.fileName, files) }
            say("every list and every task calendar of \(account.name) is shared from the next sync: every taskls server syncs by itself (as it opens, then every five minutes), or run taskls sync now")
            return
        }
        guard line.positional.count == 1 else { throw Failure("share wants one list name (or --all)") }
        let listName = line.positional[0]
        let client = try attempt { () throws(SyncError) in try runner.client(for: account) }
        let calendars: [CalDAVCalendar]
        do {
            calendars = try await client.calendars(in: account.home).filter(\.takesTasks)
        } catch {
            throw Failure(error.description)
        }
        let store = try store()
        let lists: [(id: Domain.ListID, name: String, color: String?)]
        do { lists = try await store.lists() } catch { throw Failure("the store cannot be read: \(error.message)") }
        var calendarHref: String?
        if let wanted = line.options["--calendar"] {
            guard let calendar = calendars.first(where: { $0.name == wanted || $0.href == client.canonical(wanted) }) else {
                throw Failure("\(account.name) has no task calendar named \(wanted); it has: "
                              + calendars.map { "\($0.name ?? $0.href)" }.joined(separator: ", "))
            }
            if let other = settings.shares.first(where: { $0.account == account.name && $0.calendar == calendar.href }) {
                let name = lists.first { $0.id.rawValue == other.list }?.name ?? "another list"
                throw Failure("the calendar \(wanted) is already shared with \(name)")
            }
            calendarHref = calendar.href
        }
        let list: (id: Domain.ListID, color: String?)
        if let existing = lists.first(where: { $0.name == listName }) {
            guard !settings.shares.contains(where: { $0.list == existing.id.rawValue }) else {
                throw Failure("\(listName) is already shared; unshare it first to share it with another calendar")
            }
            list = (existing.id, existing.color)
        } else {
            let color = calendarHref.flatMap { href in calendars.first { $0.href == href }?.color }
            do {
                list = (try await store.createList(named: listName, color: color.map { $0.count == 9 ? String($0.prefix(7)) : $0 }), nil)
            } catch {
                throw Failure("the list \(listName) cannot be made: \(error)")
            }
        }
        if calendarHref == nil {
            calendarHref = try await makeCalendar(listName, color: list.color, account: account, client: client,
                                                  taken: Set(calendars.map(\.href)))
        }
        settings.shares.append(SyncShare(list: list.id.rawValue, account: account.name, calendar: calendarHref!))
        try attempt { () throws(SyncError) in try runner.write(settings.json, SyncSettings.fileName, files) }
        say("\(listName) is shared with \(calendarHref!) of \(account.name); run `taskls sync now`")
    }

    private func makeCalendar(_ name: String, color: String?, account: SyncAccountSettings, client: CalDAVClient,
                              taken: Set<String>) async throws(Failure) -> String {
        do {
            return try await runner.makeCalendar(named: name, color: color, in: account.home, client: client, taken: taken)
        } catch {
            throw Failure(error.description)
        }
    }

    func unshare() throws(Failure) {
        guard line.positional.count == 1 else { throw Failure("unshare wants one list name") }
        let files = try lockedFiles()
        var settings = try attempt { () throws(SyncError) in try SyncRunner.settings(files) }
        let names = try listNames()
        guard let share = settings.shares.first(where: { names[$0.list] == line.positional[0] }) else {
            throw Failure("\(line.positional[0]) is not shared")
        }
        settings.shares.removeAll { $0.list == share.list }
        try forget([share.list], settings: settings, files: files)
        say("\(line.positional[0]) is no longer synced (the list and the calendar both stay)")
    }

    func remove() throws(Failure) {
        guard line.positional.count == 1 else { throw Failure("remove wants one account name") }
        let files = try lockedFiles()
        var settings = try attempt { () throws(SyncError) in try SyncRunner.settings(files) }
        let name = line.positional[0]
        guard settings.account(named: name) != nil else { throw Failure("no account named \(name)") }
        let lists = settings.shares.filter { $0.account == name }.map(\.list)
        settings.accounts.removeAll { $0.name == name }
        settings.shares.removeAll { $0.account == name }
        try forget(lists, settings: settings, files: files)
        say("account \(name) is removed (nothing was deleted here or on the server)")
    }

    /// Writes `settings` and drops the status and state of `lists`.
    private func forget(_ lists: [UInt64], settings: SyncSettings, files: StoreSideFiles) throws(Failure) {
        try attempt { () throws(SyncError) in try runner.write(settings.json, SyncSettings.fileName, files) }
        var state = try attempt { () throws(SyncError) in try SyncRunner.state(files) }
        state.lists.removeAll { lists.contains($0.list.rawValue) }
        try attempt { () throws(SyncError) in try runner.write(state.json, SyncState.fileName, files) }
        for list in lists { files.remove("sync-status-\(list).json") }
    }

    private func listNames() throws(Failure) -> [UInt64: String] {
        do {
            let (_, state) = try DurableStore.open(runner.storePath)
            return Dictionary(state.orderedLists.map { ($0.id.rawValue, $0.name) }) { first, _ in first }
        } catch {
            throw Failure("the store cannot be opened: \(error.message)")
        }
    }

    func now() async throws(Failure) -> Int32 {
        var only: Set<UInt64>?
        if let given = line.options["--list-id"] {
            var ids: Set<UInt64> = []
            for text in given.split(separator: ",") {
                guard let id = UInt64(text), id > 0 else { throw Failure("--list-id wants list numbers separated by commas, not '\(given)'") }
                ids.insert(id)
            }
            only = ids
        } else if !line.positional.isEmpty {
            let names = try listNames()
            var ids: Set<UInt64> = []
            for name in line.positional {
                guard let id = names.first(where: { $0.value == name })?.key else { throw Failure("no list named \(name)") }
                ids.insert(id)
            }
            only = ids
        }
        let reports: [ListSyncReport]
        let json = line.flags.contains("--json")
        do {
            reports = try await runner.run(only: only, confirmed: line.flags.contains("--confirm")) { report in
                guard !json else { return }
                say(Self.describe(report))
                for notice in report.state.notices { say("  " + notice) }
            }
        } catch {
            throw Failure(error.description)
        }
        if json {
            // For a server's sync/now: its answer, as the protocol has it.
            let result = SyncNowResult(lists: reports.map { SyncedList(sync: $0.state, sent: $0.pushed, received: $0.pulled) })
            say(String(decoding: result.json.bytes, as: UTF8.self))
            return 0
        }
        if reports.isEmpty {
            throw Failure(only == nil ? "no list is shared: share one with `taskls sync share LIST`" : "none of those lists is shared")
        }
        return reports.allSatisfy { $0.state.state == .synced } ? 0 : 1
    }

    func status() async throws(Failure) {
        let files = try attempt { () throws(SyncError) in try runner.open() }
        let settings = try attempt { () throws(SyncError) in try SyncRunner.settings(files) }
        let state = try attempt { () throws(SyncError) in try SyncRunner.state(files) }
        guard !settings.accounts.isEmpty else {
            say("no account: add one with `taskls sync add URL --user NAME --password-command CMD`")
            return
        }
        let names = try listNames()
        for account in settings.accounts {
            let password = switch account.password {
            case .command(let command): "password from `\(command)`"
            case .file(let path): "password from \(path)"
            }
            say("account \(account.name): \(account.user) at \(account.url), \(password)\(account.sharesAll ? ", shares every list" : "")")
            for share in settings.shares where share.account == account.name {
                let name = names[share.list] ?? "list \(share.list) (deleted)"
                if let listState = state.state(of: share.list) {
                    say(Self.describe(ListSyncReport(state: listState, name: name, pushed: 0, pulled: 0), counts: false))
                    for notice in listState.notices { say("  " + notice) }
                } else {
                    say("\(name): not synced yet (\(share.calendar))")
                }
            }
        }
    }

    static func describe(_ report: ListSyncReport, counts: Bool = true) -> String {
        let state = report.state
        var text = "\(report.name): \(state.state.rawValue)"
        switch state.state {
        case .synced:
            if let at = state.syncedAt { text += " at \(at)" }
            if counts { text += " (\(report.pushed) sent, \(report.pulled) received)" }
        case .offline:
            text += ", \(state.waiting) change\(state.waiting == 1 ? "" : "s") waiting"
            if let message = state.message { text += ": \(message)" }
        case .error, .confirm, .syncing:
            if let message = state.message { text += ": \(message)" }
        }
        return text
    }
}
