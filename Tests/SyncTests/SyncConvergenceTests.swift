// Two machines and the server itself editing one calendar at random, with syncs that crash at random points (after
// the list changed, or after the pushes but before the status was kept): once every side syncs again, all three
// hold the same tasks — nothing lost, nothing duplicated. Against a real Radicale; marker `caldav`.

import CalDAV
import Domain
import Foundation
import Sync
import SyncEngine
import TestSupport
import Testing
import Wire

/// A local side that can crash right after applying a plan (the process dies before pushing anything).
final class CrashingSide: SyncLocalSide {
    let table: TableSide
    let crashes = Locked(false)
    init(_ table: TableSide) { self.table = table }

    func planAndApply(_ planning: @escaping @Sendable ([String: ExchangeTask]) -> SyncPlan) async throws(ListSyncFailure) -> SyncPlan {
        let plan = try await table.planAndApply(planning)
        if crashes.withLock({ $0 }) { throw .local("crashed") }
        return plan
    }
}

@Test func twoMachinesAndTheServerEditingAtRandomConvergeThroughCrashes() async throws {
    guard RadicaleServer.available(marker: "caldav") else { return }
    let bench = try await SyncBench()
    defer { bench.server.stop() }
    var random = SplitMix64(seed: UInt64(ProcessInfo.processInfo.environment["SYNC_SEED"] ?? "") ?? 0x5EED_CA1D)
    let machines = [TableSide(), TableSide()]
    var statuses = [ListSyncStatus(calendar: bench.calendar), ListSyncStatus(calendar: bench.calendar)]
    var created = 0
    var pushed = 0
    var pulled = 0
    var crashes = 0
    var serverEdits = 0
    func pick<T>(_ values: [T]) -> T? { values.isEmpty ? nil : values[Int(random.next() % UInt64(values.count))] }
    func edit(_ task: inout ExchangeTask) {
        switch random.next() % 6 {
        case 0: task.title = "Title \(random.next() % 1000)"
        case 1: task.notes = "Notes, \(random.next() % 1000); with a comma"
        case 2: task.due = .date(CalendarDate(year: 2027, month: 1 + Int(random.next() % 12), day: 1 + Int(random.next() % 28))!)
        case 3: task.priority = [Priority.none, .low, .medium, .high][Int(random.next() % 4)]
        case 4:
            task.done.toggle()
            task.completedAt = task.done ? bench.clock.next() : nil
        default: task.tags = Array(["home", "work", "phone"].prefix(Int(random.next() % 4)))
        }
        task.modifiedAt = bench.clock.next()
    }
    for uid in 0..<6 {
        machines[0].tasks.withLock { $0["t\(uid)"] = bench.task("t\(uid)", "Task \(uid)") }
        created += 1
    }

    for _ in 0..<60 {
        let machine = Int(random.next() % 2)
        let side = machines[machine]
        switch random.next() % 10 {
        case 0:
            created += 1
            side.tasks.withLock { $0["n\(created)"] = bench.task("n\(created)", "New \(created)") }
        case 1, 2, 3:
            if let uid = pick(side.tasks.withLock { Array($0.keys) }.sorted()) { side.edit(uid) { edit(&$0) } }
        case 4:
            let uids = side.tasks.withLock { Array($0.keys) }.sorted()
            if uids.count > 4, let uid = pick(uids) { side.tasks.withLock { $0[uid] = nil } }
        case 5:
            // Another device edits the server directly.
            let tags = try await bench.client.entityTags(in: bench.calendar)
            if let href = pick(tags.keys.sorted()), let member = try await bench.client.fetch([href], in: bench.calendar)[href],
               var task = utcTaskText.task(in: member.text, href: href) {
                edit(&task)
                _ = try? await bench.client.put(href, utcTaskText.text(of: task, now: bench.clock.next()), replacing: tags[href])
                serverEdits += 1
            }
        case 6:
            // A sync that crashes after changing the list: its status is not kept.
            let crashing = CrashingSide(side)
            crashing.crashes.withLock { $0 = true }
            let outcome = await bench.engine.run(statuses[machine], local: crashing)
            #expect(outcome.failure == .local("crashed"))
            crashes += 1
        case 7:
            // A sync that crashes after its pushes, before its status is kept.
            let outcome = await bench.engine.run(statuses[machine], local: side)
            #expect(outcome.failure == nil && outcome.awaitingConfirmation == nil)
            pushed += outcome.pushed
            crashes += 1
        default:
            let outcome = await bench.engine.run(statuses[machine], local: side)
            #expect(outcome.failure == nil && outcome.awaitingConfirmation == nil)
            statuses[machine] = outcome.status
            pushed += outcome.pushed
            pulled += outcome.pulled
        }
    }
    for machine in [0, 1, 0, 1] {
        let outcome = await bench.engine.run(statuses[machine], local: machines[machine])
        #expect(outcome.failure == nil && outcome.awaitingConfirmation == nil)
        statuses[machine] = outcome.status
    }
    let server = try await bench.serverTasks()
    let laptop = machines[0].tasks.withLock { $0 }
    #expect(sameTasks(laptop, machines[1].tasks.withLock { $0 }))
    #expect(sameTasks(laptop, server))
    #expect(laptop.count >= 5 && created > 6 && pushed > 10 && pulled > 5 && crashes > 5 && serverEdits > 0,
            "too little happened: \(laptop.count) tasks, \(created) created, \(pushed) pushed, \(pulled) pulled, \(crashes) crashes, \(serverEdits) server edits")
    // Every machine's status names every task once, at the href the server holds it.
    let hrefs = try await bench.client.entityTags(in: bench.calendar)
    for status in statuses {
        #expect(Set(status.records.keys) == Set(laptop.keys) && Set(status.records.values.map(\.href)) == Set(hrefs.keys))
    }
}
