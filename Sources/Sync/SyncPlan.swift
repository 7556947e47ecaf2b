// SyncPlan: what one sync of a list with its calendar does, decided from the status of the last sync (each task's
// href, entity tag and the version both sides agreed on), the list now and what the server reported.

import Domain

/// What sync remembers of one task both sides held after the last sync: the status a sync starts from.
public struct SyncRecord: Hashable, Sendable {
    /// The task's uid (the VTODO's `UID`, the item's `uid`).
    public var uid: String
    /// Where the server keeps it.
    public var href: String
    /// The server's entity tag for it as last seen.
    public var etag: String
    /// The version both sides agreed on: the base of the next merge.
    public var base: ExchangeTask

    public init(uid: String, href: String, etag: String, base: ExchangeTask) {
        self.uid = uid
        self.href = href
        self.etag = etag
        self.base = base
    }
}

/// What the server reported of a calendar's members.
public enum RemoteListing: Hashable, Sendable {
    /// Every member with its entity tag (a first sync, a calendar-query): a member of the status not listed is gone.
    case complete([String: String])
    /// The members changed since the last sync (sync-collection from a token): an entity tag, or nil for one gone.
    case delta([String: String?])

    /// The entity tag of `href` now: `.some(tag)`, `.some(nil)` when it is gone, nil when the listing does not say
    /// (unchanged, in a delta).
    func state(of href: String) -> String?? {
        switch self {
        case .complete(let members): .some(members[href])
        case .delta(let changes): changes[href]
        }
    }

    /// The hrefs the listing reports present, with their tags.
    var present: [(href: String, etag: String)] {
        switch self {
        case .complete(let members): members.map { ($0.key, $0.value) }
        case .delta(let changes): changes.compactMap { change in change.value.map { (change.key, $0) } }
        }
    }
}

/// One step of a sync, for its executor.
public enum SyncAction: Hashable, Sendable {
    /// Create the task on the server (`PUT` with `If-None-Match: *`) at a new href. Refused (412) when a member the
    /// plan could not read holds that href: the executor then drops the uid's record, and the next sync merges the
    /// task with what it reads there.
    case createRemote(uid: String, task: ExchangeTask)
    /// Replace the server's version (`PUT` with `If-Match: etag`).
    case updateRemote(href: String, etag: String, task: ExchangeTask)
    /// Delete it on the server (`DELETE` with `If-Match: etag`).
    case deleteRemote(href: String, etag: String)
    /// Make the list's task `uid` this version (create it when the list has none).
    case applyLocal(uid: String, task: ExchangeTask)
    /// Delete the list's task `uid`.
    case deleteLocal(uid: String)
}

/// What a sync found that the user should see.
public enum SyncNotice: Hashable, Sendable {
    /// Both sides changed the same parts of a task: the winner's values were kept; the loser's version is here.
    case clash(uid: String, fields: [MergeField], kept: SyncSide, lost: ExchangeTask)
    /// An edit on one side undid a deletion on the other.
    case undeleted(uid: String, deletedOn: SyncSide)
    /// Several members of the calendar carry the same uid: the one its status names (else the first by href) is
    /// synced, these are left alone.
    case duplicateUID(uid: String, hrefs: [String])
    /// A member the server listed but whose data could not be read (malformed, or gone before it was fetched): left
    /// as it was, for the next sync.
    case unreadable(href: String)
}

/// The plan of one sync: its actions, what to tell the user, and whether it must wait for the user.
public struct SyncPlan: Hashable, Sendable {
    /// The steps, remote ones first (deletions, updates, creations), then local ones.
    public var actions: [SyncAction]
    /// What the user should see.
    public var notices: [SyncNotice]
    /// Set when one side suddenly looks empty (every task synced before is gone from it, there were at least
    /// `SyncPlanner.emptySideThreshold`, and the other side still has some): a wiped server or a wrong URL must not be
    /// mirrored without the user saying so. `actions` is then empty and `status` the old one.
    public var emptySide: SyncSide?
    /// The status after the actions succeed, by uid (entity tags of pushed tasks are the executor's to fill in: a
    /// pushed task's record has the tag it had, or "" for a new one).
    public var status: [String: SyncRecord]
    /// Set when something the server reported was left for later (a member that could not be read, duplicate uids,
    /// an empty side awaiting the user): the executor keeps the sync token it listed from, so the next sync's
    /// listing reports those members again.
    public var keepsToken: Bool
}

/// Plans syncs. Pure: the status, the list and the server's answers in, a plan out.
///
/// A sync runs in two steps: `hrefsToFetch` says which members' data to ask for (calendar-multiget), then `plan`
/// decides, per uid, from the version both sides last agreed on (`SyncRecord.base`), the list's version now and the
/// server's (the fetched one; the base when the server did not change it; none when it is gone), by
/// `TaskMerge.merge`. A side changed when its version differs from the base in content (`TaskMerge.sameContent`) or,
/// for the server, when its entity tag changed.
public enum SyncPlanner {
    /// A side that loses every one of at least this many synced tasks at once asks for confirmation.
    public static let emptySideThreshold = 2

    /// The members whose data the plan needs: those new or changed since the status (a different entity tag).
    /// - Complexity: O(m) for m members listed.
    public static func hrefsToFetch(status: [SyncRecord], remote: RemoteListing) -> [String] {
        let known = Dictionary(status.map { ($0.href, $0.etag) }) { first, _ in first }
        return remote.present.filter { known[$0.href] != $0.etag }.map(\.href).sorted()
    }

    /// Plans one sync.
    /// - Parameters:
    ///   - status: the records of the last sync.
    ///   - local: the list's tasks now, by uid.
    ///   - remote: what the server reported.
    ///   - fetched: the data of the members `hrefsToFetch` named, read. A member left out (it could not be read, or
    ///     vanished between the listing and the fetch) is left as it was, reported `unreadable`, and makes the plan
    ///     `keepsToken`, so the next sync lists it again.
    ///   - confirmed: the user confirmed mirroring a side that looks empty.
    /// - Complexity: O((s + l + m) log(s + l + m)) for s records, l tasks and m members listed.
    public static func plan(status: [SyncRecord], local: [String: ExchangeTask], remote: RemoteListing,
                            fetched: [String: ExchangeTask], confirmed: Bool = false) -> SyncPlan {
        var notices: [SyncNotice] = []
        var keepsToken = false
        let records = Dictionary(status.map { ($0.uid, $0) }) { first, _ in first }
        // The server's members by uid. A known href keeps its uid while the server has it (unlisted in a delta:
        // unchanged), unless its data now carries another uid (the member was replaced: its old uid is gone).
        var hrefsByUID: [String: [String]] = [:]
        var replaced: Set<String> = []
        var remoteTag: [String: String] = [:]
        for (href, etag) in remote.present { remoteTag[href] = etag }
        for record in status.sorted(by: { $0.uid < $1.uid }) {
            guard remote.state(of: record.href).map({ $0 != nil }) ?? true else { continue }
            if let uid = fetched[record.href]?.uid, uid != record.uid {
                replaced.insert(record.uid)
                hrefsByUID[uid, default: []].append(record.href)
            } else {
                hrefsByUID[record.uid, default: []].append(record.href)
            }
        }
        let knownHrefs = Set(status.map(\.href))
        for (href, _) in remote.present.sorted(by: { $0.href < $1.href }) where !knownHrefs.contains(href) {
            guard let uid = fetched[href]?.uid else {
                notices.append(.unreadable(href: href))
                keepsToken = true
                continue
            }
            hrefsByUID[uid, default: []].append(href)
        }
        // Each uid's member: the one its record names while it is listed, else the first.
        var remoteHref: [String: String] = [:]
        for (uid, hrefs) in hrefsByUID.sorted(by: { $0.key < $1.key }) {
            let known = records[uid].map(\.href)
            let kept = known.flatMap { hrefs.contains($0) ? $0 : nil } ?? hrefs[0]
            remoteHref[uid] = kept
            if hrefs.count > 1 {
                notices.append(.duplicateUID(uid: uid, hrefs: hrefs.filter { $0 != kept }))
                // Listed again until the user settles it (and promoted if the kept one goes).
                keepsToken = true
            }
        }

        // Each side's version now, and whether it changed.
        struct Sides {
            var remote: ExchangeTask?
            var remoteChanged: Bool
            var local: ExchangeTask?
            var localChanged: Bool
            var href: String?
            var etag: String?
        }
        var sides: [String: Sides] = [:]
        let uids = Set(records.keys).union(local.keys).union(hrefsByUID.keys).sorted()
        for uid in uids {
            let record = records[uid]
            let href = remoteHref[uid]
            var remoteVersion: ExchangeTask?
            var remoteChanged: Bool
            var etag = record?.etag
            if let href, let fetchedVersion = fetched[href], fetchedVersion.uid == uid {
                remoteVersion = fetchedVersion
                remoteChanged = true
                etag = remoteTag[href] ?? etag
            } else if record != nil, href == nil || replaced.contains(uid) {
                // Gone from the server (deleted, moved to an href not yet read, or replaced by another uid).
                remoteVersion = nil
                remoteChanged = true
                if href != nil { etag = nil }
            } else if let record {
                if let state = remote.state(of: record.href), let tag = state, tag != record.etag {
                    // Changed, but its data could not be read: left for the next sync.
                    notices.append(.unreadable(href: record.href))
                    keepsToken = true
                    continue
                }
                remoteVersion = record.base
                remoteChanged = false
            } else {
                // Only here (a member on the server whose data was not read was reported above).
                guard href == nil else { continue }
                remoteVersion = nil
                remoteChanged = false
            }
            let localVersion = local[uid]
            let localChanged = record.map { record in localVersion.map { !TaskMerge.sameContent($0, record.base) } ?? true }
                ?? (localVersion != nil)
            guard remoteChanged || localChanged else { continue }
            sides[uid] = Sides(remote: remoteVersion, remoteChanged: remoteChanged, local: localVersion,
                               localChanged: localChanged, href: remoteVersion == nil ? nil : href, etag: etag)
        }

        // A side that lost every synced task at once, while the other still has some to lose: nothing is done until
        // the user confirms (not even creations on a server that may be the wrong one), and the token is kept.
        if !confirmed, status.count >= emptySideThreshold {
            let goneRemotely = status.allSatisfy { sides[$0.uid].map { $0.remote == nil && $0.remoteChanged } ?? false }
            let goneLocally = status.allSatisfy { local[$0.uid] == nil }
            let side: SyncSide? = goneRemotely && status.contains(where: { local[$0.uid] != nil }) ? .remote
                : goneLocally && status.contains(where: { sides[$0.uid]?.remote != nil || sides[$0.uid] == nil }) ? .local : nil
            if let side {
                return SyncPlan(actions: [], notices: notices, emptySide: side, status: records, keepsToken: true)
            }
        }

        var remoteActions: [SyncAction] = []
        var localActions: [SyncAction] = []
        var newStatus = records
        for uid in sides.keys.sorted() {
            let side = sides[uid]!
            let result = TaskMerge.merge(base: records[uid]?.base, local: side.local, remote: side.remote)
            if let winner = result.winner, let loser = winner == .local ? side.remote : side.local {
                notices.append(.clash(uid: uid, fields: result.clashes, kept: winner, lost: loser))
            }
            if let deletedOn = result.undeleted { notices.append(.undeleted(uid: uid, deletedOn: deletedOn)) }
            guard let merged = result.task else {
                if let href = side.href, let etag = side.etag { remoteActions.append(.deleteRemote(href: href, etag: etag)) }
                if side.local != nil { localActions.append(.deleteLocal(uid: uid)) }
                newStatus[uid] = nil
                continue
            }
            if side.local.map({ !TaskMerge.sameContent($0, merged) }) ?? true {
                localActions.append(.applyLocal(uid: uid, task: merged))
            }
            if side.remote.map({ !TaskMerge.sameContent($0, merged) }) ?? true {
                if let href = side.href, let etag = side.etag {
                    remoteActions.append(.updateRemote(href: href, etag: etag, task: merged))
                } else {
                    remoteActions.append(.createRemote(uid: uid, task: merged))
                }
            }
            newStatus[uid] = SyncRecord(uid: uid, href: side.href ?? "", etag: side.etag ?? "", base: merged)
        }
        return SyncPlan(actions: orderedRemote(remoteActions) + localActions, notices: notices, emptySide: nil,
                        status: newStatus, keepsToken: keepsToken)
    }

    /// Remote actions in the order the server should see them: deletions first (a uid may come back at another
    /// href), then updates, then creations.
    private static func orderedRemote(_ actions: [SyncAction]) -> [SyncAction] {
        func rank(_ action: SyncAction) -> Int {
            switch action {
            case .deleteRemote: 0
            case .updateRemote: 1
            default: 2
            }
        }
        return actions.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element)
    }
}
