// TaskMerge: one task's three-way merge for sync — the version both sides last agreed on, each side's now.

import Domain

/// One side of a sync: this store, or the server (and every other device that syncs with it).
public enum SyncSide: String, Hashable, Sendable {
    case local, remote
}

/// A part of a task that merges on its own: two sides' changes to different parts both stay.
public enum MergeField: Hashable, Sendable, CustomStringConvertible {
    case title, notes
    /// Done or not, with when it was done: one part, so the two never disagree.
    case done
    case due, priority, repeatRule
    /// The task it is a subtask of.
    case parent
    /// An extra (a property taskls does not model, kept for the server), by its key: `ical:X-FOO`. The manual order
    /// (`SortOrder.key`) is one, named `order`.
    case extra(String)

    public var description: String {
        switch self {
        case .title: "title"
        case .notes: "notes"
        case .done: "done"
        case .due: "due"
        case .priority: "priority"
        case .repeatRule: "repeat"
        case .parent: "parent"
        case .extra(let key): key == SortOrder.key ? "order" : key
        }
    }
}

/// What a merge made of one task.
public struct TaskMergeResult: Hashable, Sendable {
    /// The task both sides should hold now; nil when it is deleted.
    public var task: ExchangeTask?
    /// The parts both sides changed to different values since they last agreed, in `MergeField` order: `task`
    /// holds the `winner`'s value of each; the loser's is in its own version, which the caller keeps for the user.
    public var clashes: [MergeField]
    /// The side whose values `clashes` kept; nil when there were none.
    public var winner: SyncSide?
    /// The side whose deletion lost to an edit on the other side (the task comes back there); nil when none did.
    public var undeleted: SyncSide?
}

/// The three-way merge of one task, the rule the sync engine will apply to every task both sides hold:
///
/// - Each part (`MergeField`) merges on its own against the base, the version both sides last agreed on: a part
///   only one side changed takes that side's value; a part both changed to the same value takes it.
/// - A part both sides changed to different values is a clash. Every clash of a task goes one way: to the side whose
///   version was modified later (`modifiedAt`, in whole seconds as `LAST-MODIFIED` carries it); on a tie, or when
///   either lacks the time, to the remote side (what every other device already sees). With no base (the task
///   appeared on both sides, same uid), every part that differs is a clash, but for tags and alerts (their union).
/// - Tags and alerts merge as sets: what either side added is added, what either side removed is removed; order
///   is the local side's, then the remote's additions.
/// - A deletion beats a side that did not change the task; an edit beats a deletion (the task comes back).
/// - Identity and bookkeeping stay the local side's (`uid`, `list`, `storeID`, `occurrences`, `line`); `createdAt` is the
///   earlier of the two, `modifiedAt` the later.
public enum TaskMerge {
    /// Merges `local` and `remote` (nil: deleted on that side, or never there) against `base` (nil: never synced).
    /// - Complexity: O(t + a + e) for the tasks' tags, alerts and extras.
    public static func merge(base: ExchangeTask?, local: ExchangeTask?, remote: ExchangeTask?) -> TaskMergeResult {
        guard let local, let remote else {
            // At most one side has it.
            guard let present = local ?? remote else { return TaskMergeResult(task: nil, clashes: []) }
            let side: SyncSide = local == nil ? .local : .remote
            guard let base else {
                // New on one side.
                return TaskMergeResult(task: present, clashes: [])
            }
            // Deleted on `side`: the deletion stands unless the other side changed the task since.
            if sameContent(base, present) { return TaskMergeResult(task: nil, clashes: []) }
            return TaskMergeResult(task: present, clashes: [], undeleted: side)
        }
        // In whole seconds: LAST-MODIFIED has no finer unit, so the server's time of an edit made in the same second
        // as a local one ties with it.
        let localSecond = local.modifiedAt.map(second)
        let remoteSecond = remote.modifiedAt.map(second)
        let winner: SyncSide = (localSecond.map { time in remoteSecond.map { time > $0 } ?? false } ?? false) ? .local : .remote
        var merged = local
        var clashes: [MergeField] = []
        func part<Value: Equatable>(_ field: MergeField, _ value: (ExchangeTask) -> Value) -> Value {
            let mine = value(local)
            let theirs = value(remote)
            if mine == theirs { return mine }
            if let base {
                if value(base) == mine { return theirs }
                if value(base) == theirs { return mine }
            }
            clashes.append(field)
            return winner == .local ? mine : theirs
        }
        merged.title = part(.title) { $0.title }
        merged.notes = part(.notes) { $0.notes }
        let done = part(.done) { Completion($0) }
        merged.done = done.done
        merged.completedAt = done.at
        merged.due = part(.due) { $0.due }
        merged.priority = part(.priority) { $0.priority }
        merged.repeatRule = part(.repeatRule) { $0.repeatRule }
        merged.parentUID = part(.parent) { $0.parentUID }
        merged.tags = mergeSets(base: base?.tags, local: local.tags, remote: remote.tags)
        merged.alerts = mergeSets(base: base?.alerts, local: local.alerts, remote: remote.alerts)
        merged.extras = []
        for key in extraKeys(local, remote) {
            let values = part(.extra(key)) { task in task.extras.filter { $0.key == key } }
            merged.extras += values
        }
        merged.createdAt = [local.createdAt, remote.createdAt].compactMap { $0 }.min()
        merged.modifiedAt = [local.modifiedAt, remote.modifiedAt].compactMap { $0 }.max()
        return TaskMergeResult(task: merged, clashes: clashes, winner: clashes.isEmpty ? nil : winner)
    }

    /// Whether two versions of a task hold the same content: every part a merge looks at (tags and alerts as sets),
    /// the times of creation and modification and the bookkeeping left out.
    /// - Complexity: O(t + a + e).
    public static func sameContent(_ first: ExchangeTask, _ second: ExchangeTask) -> Bool {
        first.title == second.title && first.notes == second.notes && Completion(first) == Completion(second)
            && first.due == second.due && first.priority == second.priority && first.repeatRule == second.repeatRule
            && first.parentUID == second.parentUID && Set(first.tags) == Set(second.tags)
            && Set(first.alerts) == Set(second.alerts) && extrasByKey(first) == extrasByKey(second)
    }

    /// A task's extras grouped by key, each key's values in order: servers reorder properties as they rewrite an
    /// object, which changes nothing.
    private static func extrasByKey(_ task: ExchangeTask) -> [String: [String]] {
        Dictionary(grouping: task.extras, by: \.key).mapValues { $0.map(\.value) }
    }

    /// A three-way merge of sets kept in order: the local elements the remote side did not remove, then the remote
    /// side's additions. Without a base, the union.
    private static func mergeSets<Element: Hashable>(base: [Element]?, local: [Element], remote: [Element]) -> [Element] {
        let before = Set(base ?? [])
        let theirs = Set(remote)
        var merged: [Element] = []
        var seen: Set<Element> = []
        for element in local where !(before.contains(element) && !theirs.contains(element)) && seen.insert(element).inserted {
            merged.append(element)
        }
        let mine = Set(local)
        for element in remote where !(before.contains(element) && !mine.contains(element)) && seen.insert(element).inserted {
            merged.append(element)
        }
        return merged
    }

    /// The extras' keys of either version, each once, in the order first met (local's first).
    private static func extraKeys(_ local: ExchangeTask, _ remote: ExchangeTask) -> [String] {
        var keys: [String] = []
        var seen: Set<String> = []
        for extra in local.extras + remote.extras where seen.insert(extra.key).inserted { keys.append(extra.key) }
        return keys
    }
}

/// The whole second an instant falls in (rounding down, before 1970 too).
func second(_ time: Timestamp) -> Int64 {
    time.milliseconds >= 0 ? time.milliseconds / 1_000 : (time.milliseconds - 999) / 1_000
}

/// Done or not and when: one part of a task. A time is compared only where the task is done.
private struct Completion: Equatable {
    let done: Bool
    let at: Timestamp?

    init(_ task: ExchangeTask) {
        done = task.done
        at = task.done ? task.completedAt : nil
    }
}
