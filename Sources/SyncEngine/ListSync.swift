// ListSync: one sync of a list with its calendar — list what changed on the server, fetch it, plan and apply the
// local side in one step, push the rest, and say what the status is now, even when the sync stops half-way.

import CalDAV
import Domain
import Sync

/// What one list's sync did.
public struct ListSyncOutcome: Sendable {
    /// The status to keep: after a failure, what was done so far (records of unfinished pushes as they were, and the
    /// old token), so the next sync redoes only the rest.
    public var status: ListSyncStatus
    /// What the user should see (clashes, undeletions, duplicate uids, unreadable members), in order.
    public var notices: [SyncNotice]
    /// Tasks sent to the server (created, updated, deleted).
    public var pushed = 0
    /// Tasks changed in the list (created, updated, deleted).
    public var pulled = 0
    /// Pushes the server refused because the task changed there meanwhile (or its uid was already there): each was
    /// merged with the server's version in a further round.
    public var refused = 0
    /// Set when a side looks suddenly empty: nothing was done, and the user must confirm (`confirmed: true`).
    public var awaitingConfirmation: SyncSide?
    /// Set when the sync stopped before it finished.
    public var failure: ListSyncFailure?
}

/// Syncs lists with calendars through one client.
///
/// A sync runs in rounds. A round lists the calendar's members changed since the token (sync-collection; with no
/// token, or one the server refused, every member; a server without sync-collection: a calendar-query of entity
/// tags), fetches the new and changed ones in batches (calendar-multiget), plans against the list as it is and
/// applies the local actions in one step (`SyncLocalSide.planAndApply`), then pushes, `pushesInFlight` at a time:
/// every deletion (`If-Match`), then every update (`If-Match`), then every creation (`If-None-Match: *`). A push that
/// fails for another reason (the server gone, a 5xx) keeps its task's old record; the others' results are kept, and
/// the sync then stops with the old token. A push the server refuses because the member changed
/// meanwhile (412, or 404 for an update) keeps that task's old record, and the next round lists every member (the
/// change may predate the new token), fetches the server's version and merges it; a creation refused because the uid is already there (409 `no-uid-conflict`, or a 412 at its href)
/// drops the record and lists every member next round, which adopts the server's href. A round that needed another
/// runs one, up to `rounds`; when the last still had pushes refused, the outcome is a transient failure that says
/// so (those changes keep their old records, and wait for the next sync).
///
/// Crash-safe by order: the list changes before the server does, and the status is kept last, so a sync stopped at
/// any point leaves a status that is at worst older than both sides, and the next sync merges them again to the
/// same result (a merge of two equal versions changes nothing).
public struct ListSync: Sendable {
    public let client: CalDAVClient
    public let text: TaskText
    /// The time now (`DTSTAMP` of what is sent).
    public let now: @Sendable () -> Timestamp
    /// Members fetched per calendar-multiget.
    public var batchSize = 100
    /// Rounds a sync may run when pushes are refused.
    public var rounds = 3

    public init(client: CalDAVClient, text: TaskText, now: @escaping @Sendable () -> Timestamp) {
        self.client = client
        self.text = text
        self.now = now
    }

    /// Syncs a list with its calendar from `status`.
    /// - Parameters:
    ///   - confirmed: the user confirmed mirroring a side that looks empty.
    ///   - progress: told how many of a round's pushes have ended, of how many: once as they start, then after each.
    /// - Complexity: O(changes) requests in batches, plus the planner's O(s log s) for s tasks.
    public func run(_ status: ListSyncStatus, local: some SyncLocalSide, confirmed: Bool = false,
                    progress: (_ sent: Int, _ total: Int) -> Void = { _, _ in }) async -> ListSyncOutcome {
        var outcome = ListSyncOutcome(status: status, notices: [])
        let rounds = max(1, self.rounds)
        var refusedLast = 0
        for _ in 0..<rounds {
            let refusedBefore = outcome.refused
            let again: Bool
            do throws(ListSyncFailure) {
                again = try await round(&outcome, local: local, confirmed: confirmed, progress: progress)
            } catch {
                outcome.failure = error
                return outcome
            }
            if !again || outcome.awaitingConfirmation != nil { return outcome }
            refusedLast = outcome.refused - refusedBefore
        }
        // The rounds ran out with pushes still refused: those changes are not on the server. Their records are as
        // before them, so the next sync sends them again; said as a failure a later sync may mend.
        if refusedLast > 0 {
            outcome.failure = .server(CalDAVFailureText(
                text: "\(host) refused \(refusedLast) change\(refusedLast == 1 ? "" : "s") in the last of \(rounds) rounds as changed there "
                    + "meanwhile: \(refusedLast == 1 ? "it waits" : "they wait") for the next sync",
                isTransient: true))
        }
        return outcome
    }

    /// The server's host, as failures name it.
    private var host: String { client.account.url.host ?? client.account.url.absoluteString }

    /// One round; true when another is needed.
    private func round(_ outcome: inout ListSyncOutcome, local: some SyncLocalSide, confirmed: Bool,
                       progress: (Int, Int) -> Void) async throws(ListSyncFailure) -> Bool {
        let status = outcome.status
        let calendar = status.calendar
        let (listing, listedToken, truncated) = try await list(status)
        var token = listedToken
        let records = Array(status.records.values)
        var fetched: [String: ExchangeTask] = [:]
        var tags: [String: String] = [:]
        let wanted = SyncPlanner.hrefsToFetch(status: records, remote: listing)
        for start in stride(from: 0, to: wanted.count, by: batchSize) {
            let batch = Array(wanted[start..<min(start + batchSize, wanted.count)])
            let members = try await server { () async throws(CalDAVFailure) in try await client.fetch(batch, in: calendar) }
            for (href, member) in members {
                guard let task = text.task(in: member.text, href: href) else { continue }
                fetched[href] = task
                if let etag = member.etag { tags[href] = etag }
            }
        }
        // The tags the members were fetched with: newer than the listing's when they changed in between.
        let remote = listing.replacingTags(tags)
        let read = fetched
        let plan = try await local.planAndApply { tasks in
            SyncPlanner.plan(status: records, local: tasks, remote: remote, fetched: read, confirmed: confirmed)
        }
        outcome.notices += plan.notices
        if let side = plan.emptySide {
            outcome.awaitingConfirmation = side
            return false
        }
        outcome.pulled += plan.actions.count { if case .applyLocal = $0 { true } else if case .deleteLocal = $0 { true } else { false } }

        var next = plan.status
        var again = truncated
        var forgetsToken = false
        let uidsByHref = Dictionary(records.map { ($0.href, $0.uid) }) { first, _ in first }
        let pushes = plan.actions.filter(\.isRemote)
        let results = await push(pushes, calendar: calendar, progress: progress)
        var stopped: CalDAVFailure?
        for (action, result) in zip(pushes, results) {
            switch result {
            case .success(let etag):
                switch action {
                case .createRemote(let uid, _):
                    next[uid]?.href = client.canonical(calendar + memberName(uid))
                    next[uid]?.etag = etag ?? ""
                case .updateRemote(_, _, let task):
                    if let uid = task.uid { next[uid]?.etag = etag ?? "" }
                default:
                    break
                }
                outcome.pushed += 1
            case .failure(let error):
                switch error {
                case .preconditionFailed, .notFound:
                    // Changed on the server since its record: its old record, and the next round lists every member
                    // and merges. Not a delta from the new token: the change may be older than the listing (a push
                    // done whose answer was lost, then sent again by the HTTP stack), and would never be listed.
                    if case .createRemote(let uid, _) = action {
                        next[uid] = nil
                    } else if let uid = action.uid(uidsByHref) {
                        next[uid] = status.records[uid]
                    }
                    forgetsToken = true
                    again = true
                    outcome.refused += 1
                case .uidTaken:
                    // The uid is at an href sync did not know: every member is listed next round, which adopts it.
                    if let uid = action.uid(uidsByHref) { next[uid] = nil }
                    forgetsToken = true
                    again = true
                    outcome.refused += 1
                default:
                    // Not done: its old record is kept; the sync stops once every push has ended, keeping the old token.
                    if let uid = action.uid(uidsByHref) { next[uid] = status.records[uid] }
                    stopped = stopped ?? error
                }
            }
        }
        if let stopped {
            outcome.status.records = next
            throw .server(text(of: stopped))
        }
        if forgetsToken {
            token = nil
        } else if plan.keepsToken {
            token = status.token
        }
        outcome.status.records = next
        outcome.status.token = token
        return again
    }

    /// Requests the server may have in flight at once for one sync's pushes.
    public static let pushesInFlight = 4

    /// Sends `pushes` to the server, `pushesInFlight` at a time: every deletion first, then every update, then every
    /// creation (a uid may come back at another href); the outcome of each, in order (a push's new entity tag).
    /// - Complexity: O(p) requests, about p / `pushesInFlight` round trips long.
    private func push(_ pushes: [SyncAction], calendar: String, progress: (Int, Int) -> Void) async -> [Result<String?, CalDAVFailure>] {
        var results = [Result<String?, CalDAVFailure>](repeating: .success(nil), count: pushes.count)
        var ended = 0
        if !pushes.isEmpty { progress(0, pushes.count) }
        let client = client
        let text = text
        let now = now
        let names = pushes.map { action -> String? in
            if case .createRemote(let uid, _) = action { client.canonical(calendar + memberName(uid)) } else { nil }
        }
        for phase in 0..<3 {
            let indexes = pushes.indices.filter { pushes[$0].pushPhase == phase }
            await withTaskGroup(of: (Int, Result<String?, CalDAVFailure>).self) { group in
                var next = indexes.makeIterator()
                func start() -> Bool {
                    guard let index = next.next() else { return false }
                    let action = pushes[index]
                    let href = names[index]
                    group.addTask {
                        do throws(CalDAVFailure) {
                            switch action {
                            case .createRemote(_, let task):
                                return (index, .success(try await client.put(href!, text.text(of: task, now: now()), replacing: nil)))
                            case .updateRemote(let href, let etag, let task):
                                return (index, .success(try await client.put(href, text.text(of: task, now: now()), replacing: etag)))
                            case .deleteRemote(let href, let etag):
                                do throws(CalDAVFailure) {
                                    try await client.delete(href, etag: etag)
                                } catch .notFound(href: _) {
                                    // Already gone: what the deletion wanted.
                                }
                                return (index, .success(nil))
                            case .applyLocal, .deleteLocal:
                                return (index, .success(nil))
                            }
                        } catch {
                            return (index, .failure(error))
                        }
                    }
                    return true
                }
                for _ in 0..<Self.pushesInFlight where start() {}
                while let (index, result) = await group.next() {
                    results[index] = result
                    ended += 1
                    progress(ended, pushes.count)
                    _ = start()
                }
            }
        }
        return results
    }

    /// What changed on the server since the status's token: a delta with the new token; with no token, or one the
    /// server refused, every member (complete); from a server without sync-collection, every member by
    /// calendar-query and no token.
    private func list(_ status: ListSyncStatus) async throws(ListSyncFailure) -> (RemoteListing, String?, Bool) {
        let calendar = status.calendar
        if let token = status.token {
            do throws(CalDAVFailure) {
                let changes = try await client.changes(in: calendar, since: token)
                return (changes.listing, changes.token, changes.truncated)
            } catch .tokenRefused {
                // Listed whole below.
            } catch {
                throw .server(text(of: error))
            }
        }
        do throws(CalDAVFailure) {
            let changes = try await client.changes(in: calendar, since: nil)
            guard case .delta(let members) = changes.listing else { return (changes.listing, changes.token, changes.truncated) }
            // A truncated first listing is not the whole calendar: kept as a delta (nothing counts as gone), and the
            // next round lists the rest from its token.
            if changes.truncated { return (changes.listing, changes.token, true) }
            return (.complete(members.compactMapValues { $0 }), changes.token, false)
        } catch {
            switch error {
            case .status(let code, _, _) where [400, 403, 405, 415, 501].contains(code):
                let tags = try await server { () async throws(CalDAVFailure) in try await client.entityTags(in: calendar) }
                return (.complete(tags), nil, false)
            default:
                throw .server(text(of: error))
            }
        }
    }

    private func server<Value>(_ request: () async throws(CalDAVFailure) -> Value) async throws(ListSyncFailure) -> Value {
        do {
            return try await request()
        } catch {
            throw .server(text(of: error))
        }
    }

    /// `failure` as the user reads it, naming the server's host (the client's text names an href alone for all but
    /// the failures of reaching the server and signing in); transient when unreachable or 5xx.
    func text(of failure: CalDAVFailure) -> CalDAVFailureText {
        let text: String
        switch failure {
        case .credentialsRefused, .unreachable, .untrustedCertificate: text = failure.description
        default: text = "\(host): \(failure.description)"
        }
        switch failure {
        case .unreachable: return CalDAVFailureText(text: text, isTransient: true)
        case .status(let code, _, _) where code >= 500: return CalDAVFailureText(text: text, isTransient: true)
        default: return CalDAVFailureText(text: text, isTransient: false)
        }
    }

    /// The member name of a new task: its uid, with every byte but letters, digits, `-`, `_` and `.`
    /// percent-encoded, and `.ics`.
    func memberName(_ uid: String) -> String {
        var name = ""
        for byte in uid.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
                name.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                name += "%"
                name.unicodeScalars.append(hex[Int(byte >> 4)])
                name.unicodeScalars.append(hex[Int(byte & 15)])
            }
        }
        return name + ".ics"
    }
}

extension SyncAction {
    /// The order pushes go in: deletions (0), updates (1), creations (2).
    var pushPhase: Int {
        switch self {
        case .deleteRemote: 0
        case .updateRemote: 1
        default: 2
        }
    }

    var isRemote: Bool {
        switch self {
        case .createRemote, .updateRemote, .deleteRemote: true
        case .applyLocal, .deleteLocal: false
        }
    }

    /// The uid a push is about (a deletion's by its href's record).
    func uid(_ uidsByHref: [String: String]) -> String? {
        switch self {
        case .createRemote(let uid, _), .applyLocal(let uid, _), .deleteLocal(let uid): uid
        case .updateRemote(let href, _, let task): task.uid ?? uidsByHref[href]
        case .deleteRemote(let href, _): uidsByHref[href]
        }
    }
}

extension RemoteListing {
    /// The listing with the entity tags of `tags`' members replaced.
    func replacingTags(_ tags: [String: String]) -> RemoteListing {
        guard !tags.isEmpty else { return self }
        switch self {
        case .complete(var members):
            for (href, tag) in tags where members[href] != nil { members[href] = tag }
            return .complete(members)
        case .delta(var changes):
            for (href, tag) in tags where changes[href] != nil { changes[href] = .some(tag) }
            return .delta(changes)
        }
    }
}
