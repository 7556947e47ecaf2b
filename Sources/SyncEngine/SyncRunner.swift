// SyncRunner: a sync of a store — its lock taken, its accounts' passwords got, every shared list synced with its
// calendar in turn (lists and calendars new on either side shared first, for an account that shares all), each
// list's status and state kept as it finishes.

import CalDAV
import Domain
import Foundation
import Store
import Sync
import TasklsProtocol
import Wire

/// What a sync did to one list, for the command line and the tests.
public struct ListSyncReport: Sendable {
    public var state: ListSyncState
    public var name: String
    public var pushed: Int
    public var pulled: Int

    public init(state: ListSyncState, name: String, pushed: Int, pulled: Int) {
        self.state = state
        self.name = name
        self.pushed = pushed
        self.pulled = pulled
    }
}

/// Runs syncs of one store. One at a time across every process sharing the store (`sync-lock`).
public struct SyncRunner: Sendable {
    public let storePath: String
    public let text: TaskText
    public let now: @Sendable () -> Timestamp
    /// Seconds a request may wait for a server.
    public var timeout: TimeInterval = 60

    public init(storePath: String, text: TaskText, now: @escaping @Sendable () -> Timestamp) {
        self.storePath = storePath
        self.text = text
        self.now = now
    }

    /// How long a sync waits for another process's sync of the store to end, in milliseconds.
    public static let lockPatience = 600_000

    /// The side file of a list's status.
    static func statusName(_ list: UInt64) -> String { "sync-status-\(list).json" }

    /// Syncs the shared lists (`only`: those of these ids), each in turn; a list that fails does not stop the others.
    /// - Parameters:
    ///   - confirmed: mirror a side that looks empty (the user confirmed it).
    ///   - progress: told each list's report as it finishes.
    /// - Throws: when the store is being synced by another process, or its settings cannot be read.
    public func run(only: Set<UInt64>? = nil, confirmed: Bool = false,
                    progress: @Sendable (ListSyncReport) -> Void = { _ in }) async throws(SyncError) -> [ListSyncReport] {
        let files = try open()
        defer { files.close() }
        do {
            guard try files.lock(StoreSideFiles.syncLock, patience: Self.lockPatience) else {
                throw SyncError("another process has been syncing this store for \(Self.lockPatience / 60_000) minutes")
            }
        } catch let error as SyncError {
            throw error
        } catch {
            throw SyncError("\(error)")
        }
        var settings = try Self.settings(files)
        guard !settings.accounts.isEmpty else { throw SyncError("no account: add one with `taskls sync add URL --user NAME --password-command CMD`") }
        let store: StoreSide
        do {
            store = try StoreSide(path: storePath, now: now)
        } catch {
            throw SyncError("the store cannot be opened: \(error.message)")
        }
        var state = try Self.state(files)
        var reports: [ListSyncReport] = []
        var clients: [String: CalDAVClient] = [:]
        var refused: [String: String] = [:]
        for account in settings.accounts {
            do throws(SyncError) {
                let client = try client(for: account)
                clients[account.name] = client
                if account.sharesAll { try await shareAll(account, client: client, store: store, settings: &settings, files: files) }
            } catch {
                refused[account.name] = error.description
            }
        }
        // Each account's calendars as they are now, for their names and colours (none when the server cannot be
        // reached: the lists' syncs then say so).
        var calendars: [String: [String: CalDAVCalendar]] = [:]
        for (name, client) in clients where settings.shares.contains(where: { $0.account == name && (only?.contains($0.list) ?? true) }) {
            guard let home = settings.accounts.first(where: { $0.name == name })?.home,
                  let found = try? await client.calendars(in: home) else { continue }
            calendars[name] = Dictionary(found.map { ($0.href, $0) }) { first, _ in first }
        }
        let lists = (try? await store.lists()) ?? []
        var names = Dictionary(lists.map { ($0.id.rawValue, $0.name) }) { first, _ in first }
        let colors = Dictionary(lists.map { ($0.id.rawValue, $0.color) }) { first, _ in first }
        for share in settings.shares where only?.contains(share.list) ?? true {
            let name = names[share.list] ?? "list \(share.list)"
            var listState = state.state(of: share.list)
                ?? ListSyncState(list: TasklsProtocol.ListID(share.list), account: share.account, calendar: share.calendar, state: .syncing)
            listState.account = share.account
            listState.calendar = share.calendar
            guard names[share.list] != nil else {
                listState.state = .error
                listState.message = "the list was deleted here: unshare it (taskls sync unshare) or share another"
                reports.append(finish(listState, name: name, &state, files: files, progress: progress))
                continue
            }
            guard let client = clients[share.account] else {
                listState.state = .error
                listState.message = refused[share.account] ?? "no account named \(share.account)"
                reports.append(finish(listState, name: name, &state, files: files, progress: progress))
                continue
            }
            listState.state = .syncing
            state.set(listState)
            try? write(state.json, SyncState.fileName, files)
            var status = ListSyncStatus(calendar: share.calendar)
            if let bytes = try? files.read(Self.statusName(share.list)), let json = try? JSONParser.parse(bytes),
               let read = try? ListSyncStatus(json: json, text), read.calendar == share.calendar {
                status = read
            }
            var propertiesNotice: String?
            if let calendar = calendars[share.account]?[share.calendar], let listName = names[share.list] {
                let local = ListProperties(name: listName, color: colors[share.list] ?? nil)
                (status.properties, propertiesNotice) = await syncProperties(of: Domain.ListID(share.list), local, with: calendar,
                                                                             base: status.properties, client: client, store: store)
                if let name = status.properties?.local.name { names[share.list] = name }
            }
            // Its progress, into the state file (which every server pushes to its clients) at most four times a
            // second, and as the last push ends.
            var written = ContinuousClock.now
            let outcome = await ListSync(client: client, text: text, now: now).run(status, local: store.list(Domain.ListID(share.list)),
                                                                                 confirmed: confirmed) { sent, total in
                let instant = ContinuousClock.now
                guard sent == 0 || sent == total || instant - written >= .milliseconds(250) else { return }
                written = instant
                listState.progress = SyncProgress(sent: sent, total: total)
                state.set(listState)
                try? write(state.json, SyncState.fileName, files)
            }
            listState.progress = nil
            // Kept only when it changed: writing it turns every record's base into VTODO text (a second or two at
            // 10,000 tasks), and a sync with nothing to do changes nothing.
            if outcome.status != status {
                try? write(outcome.status.json(text, now: now()), Self.statusName(share.list), files)
            }
            listState.notices = outcome.notices.map(Self.describe) + (propertiesNotice.map { [$0] } ?? [])
            listState.waiting = (try? await store.waitingChanges(in: Domain.ListID(share.list), status: outcome.status)) ?? 0
            listState.message = nil
            if let failure = outcome.failure {
                if case .server(let text) = failure, text.isTransient { listState.state = .offline } else { listState.state = .error }
                listState.message = failure.description
            } else if let side = outcome.awaitingConfirmation {
                listState.state = .confirm
                listState.message = side == .remote
                    ? "every task synced before is gone from the calendar: run `taskls sync now --confirm` to delete them here too"
                    : "every task synced before is gone from this list: run `taskls sync now --confirm` to delete them on the server too"
            } else {
                listState.state = .synced
                listState.syncedAt = now().iso8601
            }
            reports.append(finish(listState, name: names[share.list] ?? name, &state, files: files, pushed: outcome.pushed,
                                  pulled: outcome.pulled, progress: progress))
        }
        return reports
    }

    private func finish(_ listState: ListSyncState, name: String, _ state: inout SyncState, files: StoreSideFiles,
                        pushed: Int = 0, pulled: Int = 0, progress: @Sendable (ListSyncReport) -> Void) -> ListSyncReport {
        state.set(listState)
        try? write(state.json, SyncState.fileName, files)
        let report = ListSyncReport(state: listState, name: name, pushed: pushed, pulled: pulled)
        progress(report)
        return report
    }

    /// Shares every list of the store without a calendar (a new calendar for each, named as the list) and adopts
    /// every task calendar of the account without a list (a new list, or the unshared list of its name).
    private func shareAll(_ account: SyncAccountSettings, client: CalDAVClient, store: StoreSide,
                          settings: inout SyncSettings, files: StoreSideFiles) async throws(SyncError) {
        let calendars: [CalDAVCalendar]
        let lists: [(id: Domain.ListID, name: String, color: String?)]
        do {
            calendars = try await client.calendars(in: account.home).filter(\.takesTasks)
            lists = try await store.lists()
        } catch let failure as CalDAVFailure {
            throw SyncError(failure.description)
        } catch {
            throw SyncError("\(error)")
        }
        let before = settings
        let sharedLists = Set(settings.shares.map(\.list))
        let sharedCalendars = Set(settings.shares.filter { $0.account == account.name }.map(\.calendar))
        var adopted: Set<UInt64> = []
        for calendar in calendars where !sharedCalendars.contains(calendar.href) {
            let name = calendar.name ?? String(calendar.href.split(separator: "/").last ?? "Tasks")
            if let list = lists.first(where: { $0.name == name && !sharedLists.contains($0.id.rawValue) && !adopted.contains($0.id.rawValue) }) {
                adopted.insert(list.id.rawValue)
                settings.shares.append(SyncShare(list: list.id.rawValue, account: account.name, calendar: calendar.href))
            } else {
                do throws(ListSyncFailure) {
                    let id = try await store.createList(named: name, color: calendar.color.map(Self.listColor))
                    adopted.insert(id.rawValue)
                    settings.shares.append(SyncShare(list: id.rawValue, account: account.name, calendar: calendar.href))
                } catch {
                    throw SyncError("the calendar \(name) cannot become a list: \(error)")
                }
            }
        }
        for list in lists where !sharedLists.contains(list.id.rawValue) && !adopted.contains(list.id.rawValue) {
            let href = try await makeCalendar(named: list.name, color: list.color, in: account.home, client: client,
                                              taken: Set(calendars.map(\.href)))
            settings.shares.append(SyncShare(list: list.id.rawValue, account: account.name, calendar: href))
        }
        if settings != before { try write(settings.json, SyncSettings.fileName, files) }
    }

    /// Makes a task calendar named `name` in `home`, at a path made of the name (`Home Stuff` → `home-stuff/`, with a
    /// number when that is taken); returns its href.
    public func makeCalendar(named name: String, color: String?, in home: String, client: CalDAVClient,
                             taken: Set<String> = []) async throws(SyncError) -> String {
        var slug = String(name.lowercased().unicodeScalars.map { scalar -> Character in
            CharacterSet.alphanumerics.contains(scalar) && scalar.isASCII ? Character(scalar) : "-"
        })
        slug = slug.split(separator: "-").joined(separator: "-")
        if slug.isEmpty { slug = "tasks" }
        let base = home.hasSuffix("/") ? home : home + "/"
        for attempt in 1...20 {
            let href = base + slug + (attempt == 1 ? "" : "-\(attempt)") + "/"
            guard !taken.contains(href) else { continue }
            do {
                try await client.makeTaskCalendar(at: href, name: name, color: color.map(Self.calendarColor))
                return client.canonical(href)
            } catch {
                if case .status(let code, _, _) = error, code == 405 || code == 409 { continue }
                throw SyncError("the calendar for \(name) cannot be made: \(error)")
            }
        }
        throw SyncError("the calendar for \(name) cannot be made: every name tried is taken")
    }

    /// Gives the calendar a change of the list's name or colour made here since the last sync, and the list one made
    /// on the server (`ListPropertiesMerge`); returns the base to keep, and a notice when either side refused (the old
    /// base is then kept, so the next sync tries again).
    private func syncProperties(of list: Domain.ListID, _ local: ListProperties, with calendar: CalDAVCalendar, base: ListPropertiesBase?,
                                client: CalDAVClient, store: StoreSide) async -> (ListPropertiesBase?, String?) {
        let remote = ListProperties(name: calendar.name, color: calendar.color.map(Self.listColor))
        let change = ListPropertiesMerge.merge(base: base, local: local, remote: remote)
        func clearable(_ color: String?) -> Clearable<String> { color.map { .set($0) } ?? .clear }
        do {
            if let wanted = change.remote {
                try await client.setProperties(of: calendar.href, name: wanted.name == remote.name ? nil : wanted.name,
                                               color: wanted.color == remote.color ? nil : clearable(wanted.color.map(Self.calendarColor)))
            }
            if let wanted = change.local {
                try await store.updateList(list, name: wanted.name == local.name ? nil : wanted.name,
                                           color: wanted.color == local.color ? nil : clearable(wanted.color))
            }
        } catch {
            return (base, "the list's name and colour were not synced: \(error)")
        }
        return (change.base, nil)
    }

    /// A list's `#RRGGBB` as a calendar colour (`#RRGGBBFF`, as Apple's calendar-color has it).
    static func calendarColor(_ color: String) -> String { color.count == 7 ? color + "FF" : color }

    /// A calendar's colour as a list's (`#RRGGBB`).
    static func listColor(_ color: String) -> String { color.count == 9 ? String(color.prefix(7)) : color }

    /// The client of an account, its password read now.
    public func client(for account: SyncAccountSettings) throws(SyncError) -> CalDAVClient {
        guard let url = URL(string: account.url), url.scheme == "http" || url.scheme == "https", url.host != nil else {
            throw SyncError("the account \(account.name)'s URL \(account.url) is not an http or https URL")
        }
        let password = try PasswordReader.read(account.password)
        return CalDAVClient(account: CalDAVAccount(url: url, user: account.user, password: password), timeout: timeout)
    }

    /// The store's side files.
    public func open() throws(SyncError) -> StoreSideFiles {
        do {
            return try StoreSideFiles(path: storePath)
        } catch {
            throw SyncError("the store cannot be opened: \(error.message)")
        }
    }

    /// The store's sync settings (none yet: empty).
    public static func settings(_ files: StoreSideFiles) throws(SyncError) -> SyncSettings {
        try read(SyncSettings.fileName, files, none: SyncSettings()) { json throws(SyncError) in try SyncSettings(json: json) }
    }

    /// The lists' states as the last syncs left them.
    public static func state(_ files: StoreSideFiles) throws(SyncError) -> SyncState {
        try read(SyncState.fileName, files, none: SyncState()) { json throws(SyncError) in try SyncState(json: json) }
    }

    /// A side file read and decoded; `none` when there is no such file. The error names the file and what is wrong.
    private static func read<Value>(_ name: String, _ files: StoreSideFiles, none: Value,
                                    _ decode: (JSON) throws(SyncError) -> Value) throws(SyncError) -> Value {
        let bytes: [UInt8]?
        do {
            bytes = try files.read(name)
        } catch {
            throw SyncError("\(files.path)/\(name) cannot be read: \(error.message)")
        }
        guard let bytes else { return none }
        let json: JSON
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            throw SyncError("\(files.path)/\(name) is not JSON: \(error)")
        }
        do {
            return try decode(json)
        } catch {
            throw SyncError("\(files.path)/\(name): \(error)")
        }
    }

    /// Writes a side file.
    public func write(_ json: JSON, _ name: String, _ files: StoreSideFiles) throws(SyncError) {
        do {
            try files.write(name, json.bytes)
        } catch {
            throw SyncError("\(files.path)/\(name) cannot be written: \(error.message)")
        }
    }

    /// A notice as the user reads it.
    static func describe(_ notice: SyncNotice) -> String {
        switch notice {
        case .clash(let uid, let fields, let kept, let lost):
            let names = fields.map(\.description).joined(separator: ", ")
            let winner = kept == .remote ? "the server's" : "this store's"
            return "“\(lost.title)” (\(uid)): \(names) changed on both sides; \(winner) later edit was kept, the other side's was: "
                + lostValues(fields, lost)
        case .undeleted(let uid, let side):
            return "\(uid): deleted \(side == .local ? "here" : "on the server") but edited on the other side, so it is back"
        case .duplicateUID(let uid, let hrefs):
            return "\(uid): the calendar holds it more than once; left alone: " + hrefs.joined(separator: ", ")
        case .unreadable(let href):
            return "\(href): cannot be read, left as it is"
        }
    }

    private static func lostValues(_ fields: [MergeField], _ task: ExchangeTask) -> String {
        fields.map { field -> String in
            switch field {
            case .title: "title “\(task.title)”"
            case .notes: "notes “\(task.notes)”"
            case .done: task.done ? "done" : "not done"
            case .due: "due \(task.due.map { "\($0)" } ?? "none")"
            case .priority: "priority \(task.priority)"
            case .repeatRule: "repeat \(task.repeatRule.map { "\($0)" } ?? "none")"
            case .parent: "parent \(task.parentUID ?? "none")"
            case .extra(let key): "\(key) " + task.extras.filter { $0.key == key }.map(\.value).joined(separator: ", ")
            }
        }.joined(separator: "; ")
    }
}
