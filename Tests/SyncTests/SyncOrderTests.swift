// The manual order through `taskls sync` and a real Radicale: a task moved on one machine arrives in its place on
// the other and sends only itself, and a task another client moves (a new `X-APPLE-SORT-ORDER`, as Apple's Reminders
// writes) moves in both stores. Marker `caldav`.

import Domain
import Foundation
import Store
@testable import Sync
import SyncEngine
import TestSupport
import Testing

/// The titles (one letter each) of `store`'s list in manual order.
private func titles(_ store: String) throws -> [String] {
    try taskls(store, ["export", "--format", "todotxt"]).output.split(separator: "\n").map { line in
        String(line.split(separator: " ").first { $0.count == 1 && $0.first!.isUppercase } ?? "")
    }
}

@Test func theManualOrderSyncsBothWaysAndAMoveSendsOneTask() async throws {
    guard RadicaleServer.available(marker: "caldav") else { return }
    let machines = try TwoMachines(prefix: "taskls-sync-order")
    defer { machines.stop() }
    let (server, scratch, laptop, desktop) = (machines.server, machines.scratch, machines.laptop, machines.desktop)
    // Four tasks made in one second: their creation times tie, so the first sync gives them sort orders.
    try "A +Chores uid:a\nB +Chores uid:b\nC +Chores uid:c\nD +Chores uid:d\n".write(toFile: scratch + "/chores.txt", atomically: true, encoding: .utf8)
    #expect(try taskls(laptop, ["import", scratch + "/chores.txt"]).status == 0)
    for store in [laptop, desktop] {
        #expect(try machines.shareEverything(store))
        let run = try taskls(store, ["sync", "now"])
        #expect(run.status == 0 && run.output.contains("Chores: synced"), "\(run)")
    }
    #expect(try titles(desktop) == ["A", "B", "C", "D"])

    // D moved to the top on the laptop: one task sent, and the desktop has the new order. (Neither a REPL on a
    // clock of its own nor `taskls export` syncs by itself: the sync below sends the move.)
    let moved = try taskls(laptop, ["repl", "--clock", "2026-11-27T12:00:00Z"], input: "open Chores\nmv 4 1\n")
    #expect(moved.status == 0, "\(moved)")
    #expect(try titles(laptop) == ["D", "A", "B", "C"])
    var run = try taskls(laptop, ["sync", "now"])
    #expect(run.status == 0 && run.output.contains("(1 sent, 0 received)"), "\(run)")
    run = try taskls(desktop, ["sync", "now"])
    #expect(run.status == 0 && run.output.contains("(0 sent, 1 received)"), "\(run)")
    #expect(try titles(desktop) == ["D", "A", "B", "C"])
    // Nothing more to send either way: the order each side holds agrees with the values.
    for store in [laptop, desktop] {
        run = try taskls(store, ["sync", "now"])
        #expect(run.status == 0 && run.output.contains("(0 sent, 0 received)"), "\(run)")
    }

    // Another client moves C to the top (a sort order below every other), as a raw PUT.
    let url = server.base + "/ann/chores/c.ics"
    let object = try await send("GET", url, user: "ann", password: "pw")
    let text = String(decoding: object.body, as: UTF8.self)
    let etag = try #require(object.header("ETag"))
    var lines = text.components(separatedBy: "\r\n").filter { !$0.hasPrefix("X-APPLE-SORT-ORDER") }
    let end = try #require(lines.firstIndex(of: "END:VTODO"))
    lines.insert("X-APPLE-SORT-ORDER:-900000000", at: end)
    let put = try await send("PUT", url, user: "ann", password: "pw",
                             headers: ["If-Match": etag, "Content-Type": "text/calendar; charset=utf-8"],
                             body: lines.joined(separator: "\r\n"))
    #expect((200..<300).contains(put.status), "\(put.status)")
    for store in [desktop, laptop] {
        run = try taskls(store, ["sync", "now"])
        #expect(run.status == 0 && run.output.contains("(0 sent, 1 received)"), "\(run)")
        #expect(try titles(store) == ["C", "D", "A", "B"])
    }
}

/// A process's own edits to a store the sync's `StoreSide` also writes: each under the store's lock, after catching up
/// with what the sync appended.
private final class StoreEditor {
    let store: DurableStore
    var state: TaskState

    init(path: String) throws {
        (store, state) = try DurableStore.open(path)
    }

    /// Applies the mutations `make` gives for the state now; false (nothing written) when the domain refuses them.
    func change(_ make: (TaskState) -> [Mutation]) throws -> Bool {
        for group in try store.lockForWriting() { _ = try? state.apply(group.mutations) }
        defer { store.unlock() }
        var trial = state
        let mutations = make(state)
        do { _ = try trial.apply(mutations) } catch { return false }
        try store.append(mutations)
        try store.commit()
        state = trial
        return true
    }

    /// The list's tasks in manual tree order, after catching up.
    func tasks(in list: ListID) throws -> [ExchangeTask] {
        _ = try change { _ in [] }
        return state.exportDocument(lists: [list]).tasks
    }
}

/// The tree order of `tasks`: each task's uid and parent's uid, in order.
private func treeOrder(_ tasks: [ExchangeTask]) -> [String] {
    tasks.map { "\($0.parentUID ?? "-")/\($0.uid ?? "?")" }
}

@Test(arguments: [UInt64(1), 2, 3])
func randomMovesOnTwoMachinesAndTheServerConvergeOnOneOrder(seed: UInt64) async throws {
    guard RadicaleServer.available(marker: "caldav") else { return }
    let bench = try await SyncBench()
    defer { bench.server.stop() }
    let scratch = makeTemporaryDirectory(prefix: "taskls-sync-order-random")
    defer { removeTree(scratch) }
    var random = SplitMix64(seed: seed)
    func below(_ count: Int) -> Int { Int(random.next() % UInt64(max(count, 1))) }
    let clock = bench.clock
    var machines: [(side: StoreSide, editor: StoreEditor, list: ListID, status: ListSyncStatus)] = []
    for name in ["laptop", "desktop"] {
        let path = scratch + "/" + name
        let side = try StoreSide(path: path, now: { clock.next() })
        let list = try await side.createList(named: "Tasks", color: nil)
        machines.append((side, try StoreEditor(path: path), list, ListSyncStatus(calendar: bench.calendar)))
    }
    // The laptop starts with twelve tasks, three of them subtasks.
    let firstList = machines[0].list
    _ = try machines[0].editor.change { state in
        var creations: [Mutation] = []
        for number in 0..<UInt64(12) {
            let id = ItemID(state.nextIdentifier + number)
            let parent: Clearable<ItemID>? = number % 4 == 3 ? .set(ItemID(state.nextIdentifier + number - 1)) : nil
            creations.append(.createItem(id: id, list: firstList, fields: ItemFields(title: "Task \(number)"), before: nil,
                                         parent: parent, at: clock.next()))
        }
        return creations
    }

    var moves = 0
    var serverMoves = 0
    var reordered = 0
    func sync(_ index: Int) async throws {
        let machine = machines[index]
        let before = treeOrder(try machine.editor.tasks(in: machine.list))
        let outcome = await bench.engine.run(machine.status, local: machine.side.list(machine.list))
        #expect(outcome.failure == nil && outcome.awaitingConfirmation == nil, "\(String(describing: outcome.failure))")
        machines[index].status = outcome.status
        let after = treeOrder(try machine.editor.tasks(in: machine.list))
        if outcome.pulled > 0 && Set(before) == Set(after) && before != after { reordered += 1 }
    }
    for _ in 0..<60 {
        switch below(6) {
        case 0, 1:
            // A task moved on one machine: before another task (taking its parent), or to the end of the top level.
            let machine = machines[below(2)]
            let tasks = try machine.editor.tasks(in: machine.list)
            guard tasks.count > 1 else { continue }
            let moved = tasks[below(tasks.count)]
            let anchor = below(5) == 0 ? nil : tasks[below(tasks.count)]
            if try machine.editor.change({ _ in
                [.moveItems(ids: [ItemID(moved.storeID!)], toList: nil, before: anchor.map { ItemID($0.storeID!) },
                            parent: anchor == nil ? .clear : nil, at: clock.next())]
            }) { moves += 1 }
        case 2:
            // A task added on one machine, somewhere.
            let machine = machines[below(2)]
            let tasks = try machine.editor.tasks(in: machine.list)
            let anchor = tasks.isEmpty || below(3) == 0 ? nil : tasks[below(tasks.count)]
            _ = try machine.editor.change { state in
                [.createItem(id: ItemID(state.nextIdentifier), list: machine.list, fields: ItemFields(title: "New \(random.next() % 100)"),
                             before: anchor.map { ItemID($0.storeID!) }, at: clock.next())]
            }
        case 3:
            // Another client gives a task a new sort order.
            let tags = try await bench.client.entityTags(in: bench.calendar)
            guard !tags.isEmpty else { continue }
            let href = tags.keys.sorted()[below(tags.count)]
            guard let member = try await bench.client.fetch([href], in: bench.calendar)[href],
                  var task = utcTaskText.task(in: member.text, href: href) else { continue }
            task.extras.removeAll { $0.key == SortOrder.key }
            task.extras.append(Extra(key: SortOrder.key, value: ":\(Int64(below(2_000)) * 1_000_000 + 700_000_000)"))
            task.modifiedAt = clock.next()
            if (try? await bench.client.put(href, utcTaskText.text(of: task, now: clock.next()), replacing: tags[href])) != nil {
                serverMoves += 1
            }
        default:
            try await sync(below(2))
        }
    }
    // Every side syncs until neither has anything to send or take.
    var quiet = false
    for _ in 0..<6 where !quiet {
        quiet = true
        for index in machines.indices {
            let outcome = await bench.engine.run(machines[index].status, local: machines[index].side.list(machines[index].list))
            #expect(outcome.failure == nil)
            machines[index].status = outcome.status
            if outcome.pushed > 0 || outcome.pulled > 0 { quiet = false }
        }
    }
    #expect(quiet, "the machines still exchanged changes after six rounds")
    let laptop = try machines[0].editor.tasks(in: machines[0].list)
    let desktop = try machines[1].editor.tasks(in: machines[1].list)
    #expect(treeOrder(laptop) == treeOrder(desktop))
    // The server's values ascend in that order among siblings (equal ones in uid order).
    let server = try await bench.serverTasks()
    var last: [String: Sync.SortOrder.Tied] = [:]
    for task in laptop {
        let value = Sync.SortOrder.Tied(value: try #require(server[task.uid!].flatMap(SortOrder.value(of:))), tie: task.uid!)
        if let previous = last[task.parentUID ?? ""] { #expect(previous < value, "\(task.uid!) is out of order on the server") }
        last[task.parentUID ?? ""] = value
    }
    #expect(moves > 5 && serverMoves > 2 && reordered > 0 && laptop.count > 12, "a run that did no real work: \(moves) moves, \(serverMoves) on the server, \(reordered) reordered")
}

@Test func aSyncSaysHowFarItHasSent() async throws {
    guard RadicaleServer.available(marker: "caldav") else { return }
    let bench = try await SyncBench()
    defer { bench.server.stop() }
    let laptop = TableSide()
    laptop.tasks.withLock { tasks in
        for number in 0..<23 { tasks["t\(number)"] = bench.task("t\(number)", "Task \(number)") }
    }
    var told: [(sent: Int, total: Int)] = []
    let outcome = await bench.engine.run(ListSyncStatus(calendar: bench.calendar), local: laptop) { told.append(($0, $1)) }
    #expect(outcome.failure == nil && outcome.pushed == 23)
    // Once as the pushes start, then after each, counting up to all of them.
    #expect(told.map(\.sent) == Array(0...23) && told.allSatisfy { $0.total == 23 })
    // A sync with nothing to send says nothing.
    told = []
    _ = await bench.engine.run(outcome.status, local: laptop) { told.append(($0, $1)) }
    #expect(told.isEmpty)
}
