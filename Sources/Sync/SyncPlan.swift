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
    /// Create the task on the server (`PUT` with `If-None-Match: *`) at a new href.
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
    /// Several members of the calendar carry the same uid: the first href (in order) is synced, these are left alone.
    case duplicateUID(uid: String, hrefs: [String])
}

/// The plan of one sync: its actions, what to tell the user, and whether it must wait for the user.
public struct SyncPlan: Hashable, Sendable {
    /// The steps, remote ones first (deletions, updates, creations), then local ones.
    public var actions: [SyncAction]
    /// What the user should see.
    public var notices: [SyncNotice]
    /// Set when one side suddenly looks empty (every task synced before is gone from it, and there were at least
    /// `SyncPlanner.emptySideThreshold`): a wiped server or a wrong URL must not be mirrored without the user saying
    /// so. `actions` then holds nothing that deletes.
    public var emptySide: SyncSide?
    /// The status after the actions succeed, by uid (entity tags of pushed tasks are the executor's to fill in: a
    /// pushed task's record has the tag it had, or "" for a new one).
    public var status: [String: SyncRecord]
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
    ///   - fetched: the data of the members `hrefsToFetch` named, read; a member left out (it could not be read, or
    ///     vanished between the listing and the fetch) is left as it was, to be tried again by the next sync.
    ///   - confirmed: the user confirmed mirroring a side that looks empty.
    /// - Complexity: O((s + l + f) log) for s records, l tasks and f fetched members.
    public static func plan(status: [SyncRecord], local: [String: ExchangeTask], remote: RemoteListing,
                            fetched: [String: ExchangeTask], confirmed: Bool = false) -> SyncPlan {
        var notices: [SyncNotice] = []
        let records = Dictionary(status.map { ($0.uid, $0) }) { first, _ in first }
        // The server's members by uid: known hrefs keep their uid; new ones are known by the uid they carry.
        var remoteHref: [String: String] = [:]
        var remoteTag: [String: String] = [:]
        var hrefsByUID: [String: [String]] = [:]
        // A known member keeps its uid while the server has it (unlisted in a delta: unchanged).
        for record in status.sorted(by: { $0.uid < $1.uid }) {
            remoteHref[record.uid] = record.href
            if remote.state(of: record.href).map({ $0 != nil }) ?? true { hrefsByUID[record.uid, default: []].append(record.href) }
        }
        let knownHrefs = Set(status.map(\.href))
        for (href, etag) in remote.present.sorted(by: { $0.href < $1.href }) {
            remoteTag[href] = etag
            guard !knownHrefs.contains(href), let uid = fetched[href]?.uid else { continue }
            hrefsByUID[uid, default: []].append(href)
        }
        for (uid, hrefs) in hrefsByUID.sorted(by: { $0.key < $1.key }) where hrefs.count > 1 {
            let kept = remoteHref[uid].map { hrefs.contains($0) ? $0 : hrefs[0] } ?? hrefs[0]
            notices.append(.duplicateUID(uid: uid, hrefs: hrefs.filter { $0 != kept }))
            remoteHref[uid] = kept
        }
        for (uid, hrefs) in hrefsByUID where remoteHref[uid] == nil { remoteHref[uid] = hrefs[0] }

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
            } else if let record, let state = remote.state(of: record.href), state == nil {
                // Gone from the server.
                remoteVersion = nil
                remoteChanged = true
            } else if let record {
                if let state = remote.state(of: record.href), let tag = state, tag != record.etag {
                    // Changed, but its data could not be read: left for the next sync.
                    continue
                }
                remoteVersion = record.base
                remoteChanged = false
            } else {
                // On the server but unread, or nowhere.
                guard href == nil else { continue }
                remoteVersion = nil
                remoteChanged = false
            }
            let localVersion = local[uid]
            let localChanged = record.map { record in localVersion.map { !TaskMerge.sameContent($0, record.base) } ?? true }
                ?? (localVersion != nil)
            guard remoteChanged || localChanged else { continue }
            let remoteHrefNow = remoteVersion == nil ? nil : href
            sides[uid] = Sides(remote: remoteVersion, remoteChanged: remoteChanged, local: localVersion,
                               localChanged: localChanged, href: remoteHrefNow, etag: etag)
        }

        // A side that lost every synced task at once.
        var emptySide: SyncSide?
        if !confirmed, status.count >= emptySideThreshold {
            if status.allSatisfy({ sides[$0.uid].map { $0.remote == nil && $0.remoteChanged } ?? false }) {
                emptySide = .remote
            } else if status.allSatisfy({ local[$0.uid] == nil }) {
                emptySide = .local
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
                // Deleted: on the side that still has it, unless that side is the one that looks empty's mirror.
                guard emptySide == nil else { continue }
                if let href = side.href, let etag = side.etag { remoteActions.append(.deleteRemote(href: href, etag: etag)) }
                if side.local != nil { localActions.append(.deleteLocal(uid: uid)) }
                newStatus[uid] = nil
                continue
            }
            // A task a side lost while that side looks empty is not given back to it either: the user decides.
            if emptySide != nil && ((side.remote == nil && side.remoteChanged) || (side.local == nil && records[uid] != nil)) { continue }
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
        return SyncPlan(actions: orderedRemote(remoteActions) + localActions, notices: notices, emptySide: emptySide,
                        status: newStatus)
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
