// The sync engine against a real Radicale: two lists (two machines) syncing one calendar, with edits on each side and
// on the server itself, conflicts, deletions against edits, a push refused because the server changed meanwhile, a
// uid already on the server, a refused token, and a randomized run that must converge. Marker `caldav`.

import CalDAV
import Domain
import Foundation
import Interchange
import Sync
import SyncEngine
import TestSupport
import Testing
import Wire

/// UTC, the only zone these tests use.
private struct UTCZone: ZoneOffsets, ZoneDatabase, Sendable {
    func offsetSeconds(at instant: Timestamp) -> Int { 0 }
    func zone(named name: String) -> (any ZoneOffsets & Sendable)? { name == "UTC" ? self : nil }
}

let utcTaskText = TaskText(zones: UTCZone(), localZone: UTCZone(), localZoneName: nil)

/// A list's tasks as a table: the local side of a sync in these tests.
final class TableSide: SyncLocalSide {
    let tasks = Locked<[String: ExchangeTask]>([:])
    /// Run once, at the next plan, before the list is read (to change the server between a listing and its pushes).
    let beforePlanning = Locked<(@Sendable () async -> Void)?>(nil)

    func planAndApply(_ planning: @escaping @Sendable ([String: ExchangeTask]) -> SyncPlan) async throws(ListSyncFailure) -> SyncPlan {
        if let hook = beforePlanning.withLock({ hook in defer { hook = nil }; return hook }) { await hook() }
        return tasks.withLock { tasks in
            let plan = planning(tasks)
            for action in plan.actions {
                switch action {
                case .applyLocal(let uid, var task):
                    task.list = nil
                    tasks[uid] = task
                case .deleteLocal(let uid):
                    tasks[uid] = nil
                default:
                    break
                }
            }
            return plan
        }
    }

    func edit(_ uid: String, _ change: (inout ExchangeTask) -> Void) {
        tasks.withLock { tasks in
            guard var task = tasks[uid] else { return }
            change(&task)
            tasks[uid] = task
        }
    }
}

/// A clock of whole seconds that moves one second per reading, so every edit is later than the one before.
final class SecondsClock: Sendable {
    private let seconds = Locked<Int64>(1_795_000_000)
    func next() -> Timestamp { Timestamp(milliseconds: seconds.withLock { $0 += 1; return $0 } * 1000) }
}

/// One Radicale, a calendar, and a sync engine for it.
struct SyncBench {
    let server: RadicaleServer
    let client: CalDAVClient
    let calendar: String
    let clock = SecondsClock()
    let engine: ListSync

    init() async throws {
        server = try RadicaleServer(users: ["ann": "pw"])
        client = CalDAVClient(account: CalDAVAccount(url: URL(string: server.base + "/")!, user: "ann", password: "pw"))
        calendar = "/ann/tasks/"
        try await client.makeTaskCalendar(at: calendar, name: "Tasks", color: nil)
        let clock = clock
        engine = ListSync(client: client, text: utcTaskText, now: { clock.next() })
    }

    func task(_ uid: String, _ title: String) -> ExchangeTask {
        let now = clock.next()
        return ExchangeTask(uid: uid, title: title, createdAt: now, modifiedAt: now)
    }

    /// The server's tasks by uid, read whole.
    func serverTasks() async throws -> [String: ExchangeTask] {
        let tags = try await client.entityTags(in: calendar)
        var tasks: [String: ExchangeTask] = [:]
        for (href, member) in try await client.fetch(Array(tags.keys), in: calendar) {
            let task = try #require(utcTaskText.task(in: member.text, href: href), "\(href) unreadable")
            tasks[task.uid!] = task
        }
        return tasks
    }
}

/// Whether two tables hold the same tasks in content.
func sameTasks(_ first: [String: ExchangeTask], _ second: [String: ExchangeTask]) -> Bool {
    Set(first.keys) == Set(second.keys) && first.allSatisfy { TaskMerge.sameContent($0.value, second[$0.key]!) }
}

@Suite(.serialized) struct ListSyncTests {
    @Test func twoMachinesSyncBothWaysAndMergeEditsToDifferentParts() async throws {
        guard RadicaleServer.available(marker: "caldav") else { return }
        let bench = try await SyncBench()
        defer { bench.server.stop() }
        let laptop = TableSide()
        let desktop = TableSide()
        laptop.tasks.withLock { $0 = ["a": bench.task("a", "Buy milk, eggs; bread"), "b": bench.task("b", "Call Ann")] }

        var laptopStatus = await bench.engine.run(ListSyncStatus(calendar: bench.calendar), local: laptop)
        #expect(laptopStatus.failure == nil && laptopStatus.pushed == 2 && laptopStatus.pulled == 0)
        let desktopStatus = await bench.engine.run(ListSyncStatus(calendar: bench.calendar), local: desktop)
        #expect(desktopStatus.failure == nil && desktopStatus.pulled == 2 && desktopStatus.pushed == 0)
        #expect(sameTasks(laptop.tasks.withLock { $0 }, desktop.tasks.withLock { $0 }))
        #expect(desktop.tasks.withLock { $0["a"]?.title } == "Buy milk, eggs; bread")

        // The title on one machine, the due on the other: both kept.
        laptop.edit("a") { $0.title = "Buy oat milk"; $0.modifiedAt = bench.clock.next() }
        desktop.edit("a") { $0.due = .date(CalendarDate(year: 2026, month: 12, day: 1)!); $0.modifiedAt = bench.clock.next() }
        laptopStatus = await bench.engine.run(laptopStatus.status, local: laptop)
        var desktopAgain = await bench.engine.run(desktopStatus.status, local: desktop)
        laptopStatus = await bench.engine.run(laptopStatus.status, local: laptop)
        #expect(laptopStatus.failure == nil && desktopAgain.failure == nil && desktopAgain.notices.isEmpty)
        let merged = try #require(laptop.tasks.withLock { $0["a"] })
        #expect(merged.title == "Buy oat milk" && merged.due == .date(CalendarDate(year: 2026, month: 12, day: 1)!))
        #expect(sameTasks(laptop.tasks.withLock { $0 }, desktop.tasks.withLock { $0 }))
        #expect(sameTasks(laptop.tasks.withLock { $0 }, try await bench.serverTasks()))

        // A quiet sync does nothing.
        desktopAgain = await bench.engine.run(desktopAgain.status, local: desktop)
        #expect(desktopAgain.pushed == 0 && desktopAgain.pulled == 0 && desktopAgain.failure == nil)
    }

    @Test func aClashGoesToTheLaterEditAndAnEditBeatsADeletion() async throws {
        guard RadicaleServer.available(marker: "caldav") else { return }
        let bench = try await SyncBench()
        defer { bench.server.stop() }
        let laptop = TableSide()
        let desktop = TableSide()
        laptop.tasks.withLock { $0 = ["a": bench.task("a", "Plan trip"), "b": bench.task("b", "Pay rent")] }
        var laptopRun = await bench.engine.run(ListSyncStatus(calendar: bench.calendar), local: laptop)
        var desktopRun = await bench.engine.run(ListSyncStatus(calendar: bench.calendar), local: desktop)

        // The same title changed on both: the later edit (the desktop's) wins, the laptop's is reported.
        laptop.edit("a") { $0.title = "Plan trip to Rome"; $0.modifiedAt = bench.clock.next() }
        desktop.edit("a") { $0.title = "Plan trip to Lisbon"; $0.modifiedAt = bench.clock.next() }
        // Deleted on the laptop, edited on the desktop: the task comes back.
        laptop.tasks.withLock { $0["b"] = nil }
        desktop.edit("b") { $0.priority = .high; $0.modifiedAt = bench.clock.next() }
        desktopRun = await bench.engine.run(desktopRun.status, local: desktop)
        laptopRun = await bench.engine.run(laptopRun.status, local: laptop)
        desktopRun = await bench.engine.run(desktopRun.status, local: desktop)
        #expect(laptopRun.failure == nil && desktopRun.failure == nil)
        #expect(laptop.tasks.withLock { $0["a"]?.title } == "Plan trip to Lisbon")
        #expect(laptop.tasks.withLock { $0["b"]?.priority } == .high)
        let clash = laptopRun.notices.first { if case .clash = $0 { true } else { false } }
        guard case .clash(let uid, let fields, let kept, let lost)? = clash else { Issue.record("no clash reported"); return }
        #expect(uid == "a" && fields == [.title] && kept == .remote && lost.title == "Plan trip to Rome")
        #expect(laptopRun.notices.contains(.undeleted(uid: "b", deletedOn: .local)))
        #expect(sameTasks(laptop.tasks.withLock { $0 }, desktop.tasks.withLock { $0 }))
    }

    @Test func aPushRefusedBecauseTheServerChangedMeanwhileIsMergedNextRound() async throws {
        guard RadicaleServer.available(marker: "caldav") else { return }
        let bench = try await SyncBench()
        defer { bench.server.stop() }
        let laptop = TableSide()
        laptop.tasks.withLock { $0 = ["a": bench.task("a", "Write report")] }
        var run = await bench.engine.run(ListSyncStatus(calendar: bench.calendar), local: laptop)
        let href = try #require(run.status.records["a"]?.href)
        let etag = try #require(run.status.records["a"]?.etag)

        // Between the listing and the push, another device sets the due on the server: the push of the new title
        // gets 412, and the next round merges both.
        laptop.edit("a") { $0.title = "Write the report"; $0.modifiedAt = bench.clock.next() }
        let client = bench.client
        let serverVersion = {
            var task = bench.task("a", "Write report")
            task.due = .date(CalendarDate(year: 2027, month: 1, day: 4)!)
            return utcTaskText.text(of: task, now: bench.clock.next())
        }()
        laptop.beforePlanning.withLock { $0 = { _ = try? await client.put(href, serverVersion, replacing: etag) } }
        run = await bench.engine.run(run.status, local: laptop)
        #expect(run.failure == nil && run.refused == 1)
        let server = try await bench.serverTasks()
        #expect(server["a"]?.title == "Write the report" && server["a"]?.due == .date(CalendarDate(year: 2027, month: 1, day: 4)!))
        #expect(sameTasks(laptop.tasks.withLock { $0 }, server))
    }

    @Test func aUIDAlreadyOnTheServerIsAdoptedAndARefusedTokenListsEverything() async throws {
        guard RadicaleServer.available(marker: "caldav") else { return }
        let bench = try await SyncBench()
        defer { bench.server.stop() }
        // Another client puts "a" at a name of its own after the laptop listed the calendar: the laptop's creation
        // of "a" is refused (409 no-uid-conflict), and the next round adopts the other client's member.
        let other = utcTaskText.text(of: bench.task("a", "Water plants"), now: bench.clock.next())
        let client = bench.client
        let calendar = bench.calendar
        let laptop = TableSide()
        var mine = bench.task("a", "Water plants")
        mine.notes = "the ficus too"
        laptop.tasks.withLock { $0 = ["a": mine] }
        laptop.beforePlanning.withLock { $0 = { _ = try? await client.put(calendar + "other-name.ics", other, replacing: nil) } }
        var run = await bench.engine.run(ListSyncStatus(calendar: bench.calendar), local: laptop)
        #expect(run.failure == nil && run.refused == 1 && run.status.records["a"]?.href == bench.calendar + "other-name.ics")
        let server = try await bench.serverTasks()
        #expect(server.count == 1 && server["a"]?.notes == "the ficus too")

        // A token the server does not know: everything is listed again, and nothing changes.
        run.status.token = "http://radicale.org/ns/sync/0000"
        run = await bench.engine.run(run.status, local: laptop)
        #expect(run.failure == nil && run.pushed == 0 && run.pulled == 0 && run.status.token != "http://radicale.org/ns/sync/0000")
    }

    @Test func anUnreachableServerStopsTheSyncWithItsStatusAsItWasAndTheStatusReadsBack() async throws {
        guard RadicaleServer.available(marker: "caldav") else { return }
        let bench = try await SyncBench()
        let laptop = TableSide()
        laptop.tasks.withLock { $0 = ["a": bench.task("a", "One"), "b": bench.task("b", "Two")] }
        let first = await bench.engine.run(ListSyncStatus(calendar: bench.calendar), local: laptop)
        #expect(first.failure == nil)
        let statusJSON = first.status.json(utcTaskText, now: bench.clock.next())
        bench.server.stop()
        laptop.edit("a") { $0.title = "One, edited offline"; $0.modifiedAt = bench.clock.next() }
        let offline = await bench.engine.run(first.status, local: laptop)
        guard case .server(let failure)? = offline.failure else { Issue.record("no failure"); return }
        #expect(failure.isTransient && failure.text.contains("127.0.0.1"))
        #expect(offline.status == first.status)
        // The status survives as JSON, each base as its VTODO.
        let read = try ListSyncStatus(json: try JSONParser.parse(statusJSON.bytes), utcTaskText)
        #expect(read.calendar == first.status.calendar && read.token == first.status.token)
        #expect(read.records.keys.sorted() == ["a", "b"] && read.records.allSatisfy { TaskMerge.sameContent($0.value.base, first.status.records[$0.key]!.base) })
    }
}
