/// The stores `taskls-bench machine` loads: a snapshot of one list of `items` items (as `taskls-bench store`
/// writes its 1M-item store) and a journal tail of `items / 5` ordinary mutations appended through
/// `DurableStore`, as a store looks between two compactions.

import Domain
import Store
import TestSupport

/// A store on disk and what it holds.
struct MachineStore {
    /// The store's directory.
    let path: String
    /// Items in it once the journal is applied.
    let items: Int
    /// Bytes of the snapshot file (and the empty journal's header).
    let snapshotBytes: Int
    /// Bytes of the journal's records.
    let journalBytes: Int

    /// The list every item is in, as the protocol names it.
    static let list = "l1"

    /// Writes a store of `count` items at a new temporary directory: the snapshot, then `count / 5` mutations
    /// (title and due updates, done toggles, moves, creations and deletions, one record each, synced every
    /// 10,000), each checked by applying it to the state first.
    /// Domain and Store calls: `Item(id:list:title:notes:done:completedAt:due:priority:tags:createdAt:modifiedAt:revision:position:)`,
    /// `TaskState(restoring:items:nextIdentifier:revision:)`, `TaskState.apply(_:)`, `TaskState.stored`,
    /// `DurableStore.open`, `beginCompaction` / `CompactionTicket.writeSnapshot(of:)` / `finishCompaction`,
    /// `lockForWriting` / `append(_:)` / `commit()`.
    static func make(items count: Int) throws -> MachineStore {
        let path = makeTemporaryDirectory(prefix: "taskls-bench-machine")
        let list = ListID(1)
        let positions = Position.between(nil, nil, count: count)
        let time = Timestamp(milliseconds: 1_795_000_000_000)
        var random = SplitMix64(seed: UInt64(count))
        var items: [Item] = []
        items.reserveCapacity(count)
        for index in 0..<count {
            let due: Due? = index % 2 == 0 ? .date(CalendarDate(year: 2026, month: 1 + index % 12, day: 1 + index % 28)!) : nil
            items.append(Item(id: ItemID(UInt64(index) + 2), list: list, title: "Task number \(index) with a realistic title",
                              notes: "", done: index % 4 == 0, completedAt: index % 4 == 0 ? time : nil, due: due,
                              priority: Priority.allCases[index % Priority.allCases.count], tags: index % 10 == 0 ? ["work"] : [],
                              createdAt: time, modifiedAt: time, revision: 1, position: positions[index]))
        }
        let lists = [TaskList(id: list, name: "Big", color: nil, icon: nil, position: Position.initial)]
        var state = try TaskState(restoring: lists, items: items, nextIdentifier: UInt64(count) + 2, revision: 1)
        items = []
        var live = (0..<count).map { ItemID(UInt64($0) + 2) }
        do {
            let (store, _) = try DurableStore.open(path)
            let ticket = store.beginCompaction()
            try ticket.writeSnapshot(of: state.stored)
            _ = try store.finishCompaction(ticket)
        }
        let snapshotBytes = DurableStore.bytesToRead(at: path)
        let (store, _) = try DurableStore.open(path)
        var clock = time.milliseconds
        func pick() -> Int { random.below(live.count) }
        let tail = count / 5
        var appended = 0
        while appended < tail {
            _ = try store.lockForWriting()
            for _ in 0..<min(10_000, tail - appended) {
                clock += 1
                let at = Timestamp(milliseconds: clock)
                let mutation: Mutation
                switch appended % 6 {
                case 0: mutation = .updateItems(ids: [live[pick()]], patch: ItemPatch(title: "Renamed task \(appended) with a realistic title"), at: at)
                case 1: mutation = .updateItems(ids: [live[pick()]], patch: ItemPatch(done: appended % 12 == 1), at: at)
                case 2: mutation = .updateItems(ids: [live[pick()]], patch: ItemPatch(due: .set(.date(CalendarDate(year: 2027, month: 3, day: 1 + appended % 28)!))), at: at)
                case 3:
                    let (moved, before) = (pick(), pick())
                    mutation = .moveItems(ids: [live[moved]], toList: nil, before: moved == before ? nil : live[before], at: at)
                case 4:
                    let id = ItemID(state.nextIdentifier)
                    mutation = .createItem(id: id, list: list, fields: ItemFields(title: "New task \(appended) with a realistic title"),
                                           before: live[pick()], at: at)
                    live.append(id)
                default:
                    let index = pick()
                    mutation = .deleteItems(ids: [live[index]])
                    live.swapAt(index, live.count - 1)
                    live.removeLast()
                }
                _ = try state.apply([mutation])
                try store.append([mutation])
                appended += 1
            }
            try store.commit()
        }
        return MachineStore(path: path, items: state.itemCount, snapshotBytes: snapshotBytes,
                            journalBytes: store.journalBytes)
    }

    /// Deletes the store's directory.
    func remove() { removeTree(path) }
}
