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

    /// How many of the list's tasks differ from what the last sync left (new, changed or deleted here): the changes
    /// a sync would push.
    public func waitingChanges(in list: ListID, status: ListSyncStatus) throws(StoreFailure) -> Int {
        try catchUp()
        guard state.lists[list] != nil else { return 0 }
        let tasks = tasksByUID(in: list)
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
        var plan = planning(tasks)
        var document = ExchangeDocument()
        var deletions: [ItemID] = []
        for action in plan.actions {
            switch action {
            case .applyLocal(_, var task):
                task.list = nil
                task.line = document.tasks.count + 1
                document.tasks.append(task)
            case .deleteLocal(let uid):
                if let id = tasks[uid]?.storeID { deletions.append(ItemID(id)) }
            default:
                break
            }
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
        try apply(mutations)
        return plan
    }

    private func tasksByUID(in list: ListID) -> [String: ExchangeTask] {
        var tasks: [String: ExchangeTask] = [:]
        for var task in state.exportDocument(lists: [list]).tasks {
            task.list = nil
            if let uid = task.uid { tasks[uid] = task }
        }
        return tasks
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
        do throws(DomainError) {
            _ = try trial.apply(mutations)
        } catch {
            throw .local("the list refused the server's tasks: \(error.message)")
        }
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
