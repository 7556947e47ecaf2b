// StoreSide: the local side of sync in a store shared with running servers — the list read, planned against and
// changed under the store's lock, so the sync's changes reach every open view as another process's records.

import Domain
import Store
import Sync

/// A store opened for sync. Every plan is made and applied under the store's writing lock, after catching up with
/// what other processes appended, and its changes are appended and synced as one record (one undo step for no one:
/// servers apply them as another process's changes).
public actor StoreSide {
    private let store: DurableStore
    private var state: TaskState
    private let now: @Sendable () -> Timestamp

    /// Opens the store at `path` (waiting for another process's lock as long as it takes).
    public init(path: String, now: @escaping @Sendable () -> Timestamp) throws(StoreFailure) {
        (store, state) = try DurableStore.open(path)
        self.now = now
    }

    /// The list's side of a sync.
    public nonisolated func list(_ list: ListID) -> StoreListSide {
        StoreListSide(store: self, list: list)
    }

    /// The lists, in order, after catching up with other processes.
    public func lists() throws(StoreFailure) -> [(id: ListID, name: String, color: String?)] {
        try catchUp()
        return state.orderedLists.map { ($0.id, $0.name, $0.color) }
    }

    /// Creates a list named `name` (last), and returns it.
    public func createList(named name: String, color: String?) throws(ListSyncFailure) -> ListID {
        let id = ListID(state.nextIdentifier)
        try change([.createList(id: id, fields: ListFields(name: name, color: color), before: nil)])
        return id
    }

    /// Gives the list `name` (nil: leaves it) and `color` (nil: leaves it).
    public func updateList(_ list: ListID, name: String?, color: Clearable<String>?) throws(ListSyncFailure) {
        try change([.updateList(id: list, patch: ListPatch(name: name, color: color))])
    }

    /// How many of the list's tasks differ from what the last sync left (new, changed or deleted here): the changes
    /// a sync would push.
    public func waitingChanges(in list: ListID, status: ListSyncStatus) throws(StoreFailure) -> Int {
        try catchUp()
        guard state.lists[list] != nil else { return 0 }
        let tasks = tasksByUID(in: list).numbered
        let changed = tasks.count { uid, task in status.records[uid].map { !TaskMerge.sameContent($0.base, task) } ?? true }
        return changed + status.records.keys.count { tasks[$0] == nil }
    }

    func planAndApply(list: ListID, _ planning: @Sendable ([String: ExchangeTask]) -> SyncPlan) throws(ListSyncFailure) -> SyncPlan {
        var groups: [DurableStore.Group]
        do {
            groups = try store.lockForWriting()
        } catch {
            throw .local("the store cannot be written: \(error.message)")
        }
        defer { store.unlock() }
        for group in groups { _ = try? state.apply(group.mutations) }
        groups = []
        guard state.lists[list] != nil else { throw .local("the list is gone from the store") }
        let tasks = tasksByUID(in: list)
        var plan = planning(tasks.numbered)
        guard plan.emptySide == nil else { return plan }
        var document = ExchangeDocument()
        var deletions: [ItemID] = []
        var applied: Set<String> = []
        for action in plan.actions {
            switch action {
            case .applyLocal(let uid, var task):
                task.list = nil
                task.line = document.tasks.count + 1
                document.tasks.append(task)
                applied.insert(uid)
            case .deleteLocal(let uid):
                if let id = tasks.numbered[uid]?.storeID { deletions.append(ItemID(id)) }
                applied.insert(uid)
            default:
                break
            }
        }
        // A task the plan leaves alone here keeps the sort order it was sent with (`SortOrder.numbered`).
        for (uid, task) in tasks.renumbered where !applied.contains(uid) {
            var task = task
            task.line = document.tasks.count + 1
            document.tasks.append(task)
        }
        let time = now()
        let imported = state.importPlan(document, settings: ImportSettings(into: list, fileName: "sync", skipInvalid: true, time: time))
        // A task this store cannot take (a limit, a parent it does not have): left as it was on both sides, its old
        // record kept, and reported; the token is kept so the server lists it again.
        for problem in imported.skipped {
            let uid = document.tasks.first { $0.line == problem.line }?.uid
            if let uid { plan.status[uid] = nil }
            plan.notices.append(.unreadable(href: problem.description))
            plan.keepsToken = true
        }
        let deleting = Set(deletions)
        let outermost = deletions.filter { id in
            var parent = state.item(id)?.parent
            while let ancestor = parent {
                if deleting.contains(ancestor) { return false }
                parent = state.item(ancestor)?.parent
            }
            return true
        }
        var mutations = imported.mutations
        if !outermost.isEmpty { mutations.append(.deleteItems(ids: outermost)) }
        guard !mutations.isEmpty else { return plan }
        var trial = state
        try refuseUnless { () throws(DomainError) in _ = try trial.apply(mutations) }
        // The siblings of every task the server changed, put in the order of their sort-order values.
        let parents = Set(document.tasks.map(\.parentUID))
        let moves = reorderings(in: list, of: trial, under: parents, at: time)
        try refuseUnless { () throws(DomainError) in _ = try trial.apply(moves) }
        try commit(mutations + moves, making: trial)
        return plan
    }

    /// The moves that put the siblings under each of `parents` (uids; nil: the top level) of `list` in ascending
    /// order of their sort-order values.
    /// - Complexity: O(n log n) for the list's n tasks.
    private func reorderings(in list: ListID, of state: TaskState, under parents: Set<String?>, at time: Timestamp) -> [Mutation] {
        let tasks = state.exportDocument(lists: [list]).tasks
        var siblings: [String?: [ExchangeTask]] = [:]
        var ids: [String: ItemID] = [:]
        for task in tasks {
            if let uid = task.uid, let id = task.storeID { ids[uid] = ItemID(id) }
            if parents.contains(task.parentUID) { siblings[task.parentUID, default: []].append(task) }
        }
        var moves: [Mutation] = []
        for (parent, members) in siblings.sorted(by: { ($0.key ?? "") < ($1.key ?? "") }) {
            for move in SortOrder.reordering(members, value: SortOrder.value(of:), tie: { $0.uid ?? "" }) {
                guard let id = move.element.storeID else { continue }
                let parentID: Clearable<ItemID> = parent.flatMap { ids[$0] }.map { .set($0) } ?? .clear
                moves.append(.moveItems(ids: [ItemID(id)], toList: nil, before: move.before?.storeID.map(ItemID.init),
                                        parent: parentID, at: time))
            }
        }
        return moves
    }

    /// The list's tasks by uid, each as the store holds it, and `numbered`: each with the sort order that agrees
    /// with the list's manual order (what sync sends); `renumbered` holds those whose order changed.
    private func tasksByUID(in list: ListID) -> (numbered: [String: ExchangeTask], renumbered: [String: ExchangeTask]) {
        var ordered = state.exportDocument(lists: [list]).tasks
        for index in ordered.indices { ordered[index].list = nil }
        let numbered = SortOrder.numbered(ordered)
        var byUID: [String: ExchangeTask] = [:]
        var renumbered: [String: ExchangeTask] = [:]
        for (task, before) in zip(numbered, ordered) {
            guard let uid = task.uid else { continue }
            byUID[uid] = task
            if task.extras != before.extras { renumbered[uid] = task }
        }
        return (byUID, renumbered)
    }

    private func catchUp() throws(StoreFailure) {
        let groups = try store.lockForWriting()
        store.unlock()
        for group in groups { _ = try? state.apply(group.mutations) }
    }

    private func change(_ mutations: [Mutation]) throws(ListSyncFailure) {
        do {
            for group in try store.lockForWriting() { _ = try? state.apply(group.mutations) }
        } catch {
            throw .local("the store cannot be written: \(error.message)")
        }
        defer { store.unlock() }
        try apply(mutations)
    }

    /// Applies a group to the state and the journal, under the lock; nothing changes when either refuses.
    private func apply(_ mutations: [Mutation]) throws(ListSyncFailure) {
        var trial = state
        try refuseUnless { () throws(DomainError) in _ = try trial.apply(mutations) }
        try commit(mutations, making: trial)
    }

    /// Runs `change` on a trial state; a refusal is the list's.
    private func refuseUnless(_ change: () throws(DomainError) -> Void) throws(ListSyncFailure) {
        do throws(DomainError) {
            try change()
        } catch {
            throw .local("the list refused the server's tasks: \(error.message)")
        }
    }

    /// Appends `mutations` to the journal and syncs it, then takes `trial` (the state with them applied).
    private func commit(_ mutations: [Mutation], making trial: TaskState) throws(ListSyncFailure) {
        do throws(StoreFailure) {
            try store.append(mutations)
            try store.commit()
        } catch {
            throw .local("the store cannot be written: \(error.message)")
        }
        state = trial
    }
}

/// One list of a `StoreSide`, as the engine's local side.
public struct StoreListSide: SyncLocalSide {
    let store: StoreSide
    let list: ListID

    public func planAndApply(_ planning: @escaping @Sendable ([String: ExchangeTask]) -> SyncPlan) async throws(ListSyncFailure) -> SyncPlan {
        try await store.planAndApply(list: list, planning)
    }
}
