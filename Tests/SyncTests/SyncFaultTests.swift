// Sync through a proxy that plays faults between the engine and a real Radicale: the server down, slow, 5xx (every
// request, or one at each step of a sync), 412 storms, answers cut mid-way, a sync token suddenly refused. Each
// fault ends in a clear outcome with nothing lost or duplicated, and once it is switched off the next sync succeeds
// and every side converges; and a randomized run of two machines with faults switched at random. Marker `caldav`.

import CalDAV
import Domain
import Foundation
import Sync
import SyncEngine
import TestSupport
import Testing
import Wire

/// A Radicale, a proxy in front of it, and an engine that syncs through the proxy (with a one-second timeout);
/// `bench`'s own client and engine reach Radicale directly.
struct FaultBench {
    let bench: SyncBench
    let proxy: FaultProxy
    let engine: ListSync

    init() async throws {
        bench = try await SyncBench()
        proxy = try FaultProxy(upstream: bench.server.port)
        let client = CalDAVClient(account: CalDAVAccount(url: URL(string: proxy.base + "/")!, user: "ann", password: "pw"), timeout: 1)
        let clock = bench.clock
        engine = ListSync(client: client, text: utcTaskText, now: { clock.next() })
    }

    func stop() {
        proxy.stop()
        bench.server.stop()
    }

    /// A calendar of its own, with a laptop and a desktop that synced it (directly): the laptop then deleted "b",
    /// edited "a" and made "c", and the desktop edited "d" and synced it, so the laptop's next sync lists, fetches,
    /// deletes, updates and creates (requests 1 to 5).
    func scene(_ name: String) async throws -> Scene {
        let calendar = "/ann/\(name)/"
        try await bench.client.makeTaskCalendar(at: calendar, name: name, color: nil)
        let laptop = TableSide()
        let desktop = TableSide()
        laptop.tasks.withLock { tasks in
            for uid in ["a", "b", "d"] { tasks[uid] = bench.task(uid, "Task \(uid)") }
        }
        let laptopRun = await bench.engine.run(ListSyncStatus(calendar: calendar), local: laptop)
        var desktopRun = await bench.engine.run(ListSyncStatus(calendar: calendar), local: desktop)
        laptop.tasks.withLock { $0["b"] = nil }
        laptop.edit("a") { $0.title = "Task a, edited"; $0.modifiedAt = bench.clock.next() }
        laptop.tasks.withLock { $0["c"] = bench.task("c", "Task c") }
        desktop.edit("d") { $0.notes = "from the desktop"; $0.modifiedAt = bench.clock.next() }
        desktopRun = await bench.engine.run(desktopRun.status, local: desktop)
        #expect(laptopRun.failure == nil && desktopRun.failure == nil && desktopRun.pushed == 1)
        return Scene(calendar: calendar, laptop: laptop, desktop: desktop, laptopStatus: laptopRun.status, desktopStatus: desktopRun.status)
    }

    /// The server's tasks in `calendar` by uid, read directly; records an issue if a uid is there twice.
    func serverTasks(_ calendar: String) async throws -> [String: ExchangeTask] {
        let tags = try await bench.client.entityTags(in: calendar)
        var tasks: [String: ExchangeTask] = [:]
        for (href, member) in try await bench.client.fetch(Array(tags.keys), in: calendar) {
            let task = try #require(utcTaskText.task(in: member.text, href: href), "\(href) unreadable")
            #expect(tasks[task.uid!] == nil, "\(task.uid!) twice on the server")
            tasks[task.uid!] = task
        }
        return tasks
    }

    /// After a failed sync of `scene`'s laptop: the fault off, the laptop syncs (from the status the failure left)
    /// and succeeds, then the desktop; the laptop's edits and the desktop's are all there, on every side, once.
    func mends(_ scene: Scene, after failed: ListSyncOutcome, _ label: String) async throws {
        try proxy.set(nil)
        let laptopRun = await engine.run(failed.status, local: scene.laptop)
        let desktopRun = await engine.run(scene.desktopStatus, local: scene.desktop)
        #expect(laptopRun.failure == nil && desktopRun.failure == nil, "\(label): \(String(describing: laptopRun.failure ?? desktopRun.failure))")
        let laptop = scene.laptop.tasks.withLock { $0 }
        #expect(laptop.keys.sorted() == ["a", "c", "d"], "\(label)")
        #expect(laptop["a"]?.title == "Task a, edited" && laptop["d"]?.notes == "from the desktop", "\(label)")
        #expect(sameTasks(laptop, scene.desktop.tasks.withLock { $0 }), "\(label)")
        #expect(sameTasks(laptop, try await serverTasks(scene.calendar)), "\(label)")
        #expect(Set(laptopRun.status.records.keys) == ["a", "c", "d"] && Set(desktopRun.status.records.keys) == ["a", "c", "d"], "\(label)")
    }
}

/// Two machines syncing one calendar, as `FaultBench.scene` leaves them.
struct Scene {
    let calendar: String
    let laptop: TableSide
    let desktop: TableSide
    let laptopStatus: ListSyncStatus
    let desktopStatus: ListSyncStatus
}

/// Whether `outcome` failed as a server that a later sync may reach: transient, its text naming the host.
func failedTransiently(_ outcome: ListSyncOutcome) -> Bool {
    guard case .server(let text)? = outcome.failure else { return false }
    return text.isTransient && text.text.contains("127.0.0.1")
}

@Suite(.serialized) struct SyncFaultTests {
    @Test func aServerDownSlowOrAnswering5xxToEveryRequestLeavesTheStatusAsItWasAndTheNextSyncMendsIt() async throws {
        guard RadicaleServer.available(marker: "caldav") else { return }
        let faults = try await FaultBench()
        defer { faults.stop() }
        let cases: [(String, ProxyFault)] = [("down", .down), ("slow", .slow(milliseconds: 1500)),
                                             ("500", .status(500, only: nil)), ("503", .status(503, only: nil))]
        for (name, fault) in cases {
            let scene = try await faults.scene("every-\(name)")
            try faults.proxy.set(fault)
            let failed = await faults.engine.run(scene.laptopStatus, local: scene.laptop)
            #expect(failedTransiently(failed), "\(name): \(String(describing: failed.failure))")
            #expect(failed.status == scene.laptopStatus && failed.pushed == 0 && failed.pulled == 0, "\(name)")
            if name == "slow" { #expect(failed.failure?.description.contains("no answer within 1 s") == true) }
            try await faults.mends(scene, after: failed, name)
        }
        #expect(faults.proxy.hits >= 3)
    }

    @Test func a5xxOrAnAnswerCutAtAnyStepOfASyncLosesAndDuplicatesNothing() async throws {
        guard RadicaleServer.available(marker: "caldav") else { return }
        let faults = try await FaultBench()
        defer { faults.stop() }
        // Request 1 lists, 2 fetches the desktop's edit, 3 deletes "b", 4 updates "a", 5 creates "c" (deletions, updates
        // and creations go in that order). A cut answer reached the server: its change is there, but the laptop does
        // not know.
        for step in 1...5 {
            for (name, fault) in [("503", ProxyFault.status(503, only: step)), ("cut", .dropMidAnswer(only: step))] {
                let label = "\(name) at request \(step)"
                let scene = try await faults.scene("\(name)-\(step)")
                try faults.proxy.set(fault)
                let hits = faults.proxy.hits
                let failed = await faults.engine.run(scene.laptopStatus, local: scene.laptop)
                #expect(faults.proxy.hits == hits + 1, "\(label)")
                #expect(failedTransiently(failed), "\(label): \(String(describing: failed.failure))")
                // A failed push stops nothing else: the other two still go (the sync then fails, keeping the old token).
                #expect(failed.status.token == scene.laptopStatus.token && failed.pushed == (step >= 3 ? 2 : 0), "\(label)")
                try await faults.mends(scene, after: failed, label)
            }
        }
    }

    @Test func a412StormThatOutlastsTheRoundsFailsClearlyAndKeepsEveryChangeForTheNextSync() async throws {
        guard RadicaleServer.available(marker: "caldav") else { return }
        let faults = try await FaultBench()
        defer { faults.stop() }
        let scene = try await faults.scene("storm")
        let before = try await faults.serverTasks(scene.calendar)
        try faults.proxy.set(.preconditionStorm(count: 1000))
        let stormed = await faults.engine.run(scene.laptopStatus, local: scene.laptop)
        // Every round's update and creation refused (the deletion is not a PUT): the rounds run out, said as such.
        #expect(stormed.refused == 6 && stormed.pushed == 1 && stormed.pulled == 1)
        #expect(failedTransiently(stormed), "\(String(describing: stormed.failure))")
        #expect(stormed.failure?.description.contains("3 rounds") == true, "\(String(describing: stormed.failure))")
        // Nothing refused reached the server; the laptop's changes wait in the list, its records as before them.
        let server = try await faults.serverTasks(scene.calendar)
        #expect(server.keys.sorted() == ["a", "d"] && sameTasks(["a": server["a"]!], ["a": before["a"]!]))
        #expect(stormed.status.records["a"]?.etag == scene.laptopStatus.records["a"]?.etag && stormed.status.records["c"] == nil)
        try await faults.mends(scene, after: stormed, "storm")

        // A storm shorter than the rounds is weathered within one sync.
        let short = try await faults.scene("short-storm")
        try faults.proxy.set(.preconditionStorm(count: 2))
        let weathered = await faults.engine.run(short.laptopStatus, local: short.laptop)
        #expect(weathered.failure == nil && weathered.refused == 2 && weathered.pushed == 3)
        try await faults.mends(short, after: weathered, "short storm")
    }

    @Test func aSyncTokenSuddenlyRefusedListsEverythingAndSucceeds() async throws {
        guard RadicaleServer.available(marker: "caldav") else { return }
        let faults = try await FaultBench()
        defer { faults.stop() }
        let scene = try await faults.scene("token")
        try faults.proxy.set(.invalidToken)
        let hits = faults.proxy.hits
        let relisted = await faults.engine.run(scene.laptopStatus, local: scene.laptop)
        #expect(faults.proxy.hits == hits + 1)
        #expect(relisted.failure == nil && relisted.pushed == 3 && relisted.pulled == 1, "\(String(describing: relisted.failure))")
        #expect(relisted.status.token != nil && relisted.status.token != scene.laptopStatus.token)
        #expect(sameTasks(scene.laptop.tasks.withLock { $0 }, try await faults.serverTasks(scene.calendar)))
        try await faults.mends(scene, after: relisted, "token")
    }

    /// Seed 9 once left a task whose update the server had taken (its answer lost, the PUT sent again and refused
    /// 412) refused at every later sync: the 412 kept its old record while the token moved past the change.
    @Test(arguments: [UInt64(0xFA17_5EED), 9])
    func twoMachinesConvergeThroughFaultsSwitchedAtRandom(fixedSeed: UInt64) async throws {
        guard RadicaleServer.available(marker: "caldav") else { return }
        let faults = try await FaultBench()
        defer { faults.stop() }
        let seed = UInt64(ProcessInfo.processInfo.environment["SYNC_SEED"] ?? "") ?? fixedSeed
        var random = SplitMix64(seed: seed)
        let bench = faults.bench
        let machines = [TableSide(), TableSide()]
        var statuses = [ListSyncStatus(calendar: bench.calendar), ListSyncStatus(calendar: bench.calendar)]
        var created = 0
        var failed = 0
        var succeeded = 0
        var deck: [String] = []
        var kinds: Set<String> = []
        for uid in 0..<6 {
            machines[0].tasks.withLock { $0["t\(uid)"] = bench.task("t\(uid)", "Task \(uid)") }
            created += 1
        }
        for _ in 0..<60 {
            let machine = random.below(2)
            let side = machines[machine]
            switch random.below(10) {
            case 0:
                created += 1
                side.tasks.withLock { $0["n\(created)"] = bench.task("n\(created)", "New \(created)") }
            case 1, 2:
                let uids = side.tasks.withLock { Array($0.keys) }.sorted()
                if !uids.isEmpty {
                    let uid = random.pick(uids)
                    let title = "Title \(random.below(1000))"
                    side.edit(uid) { $0.title = title; $0.modifiedAt = bench.clock.next() }
                }
            case 3:
                let uids = side.tasks.withLock { Array($0.keys) }.sorted()
                if uids.count > 4 { side.tasks.withLock { $0[random.pick(uids)] = nil } }
            case 4, 5, 6:
                // Faults and no fault by turns, each fault from a shuffled deck of every kind.
                var fault: ProxyFault?
                if faults.proxy.fault == nil {
                    if deck.isEmpty {
                        deck = ["down", "slow", "503", "500", "cut", "storm", "token"]
                        for index in deck.indices.reversed() { deck.swapAt(index, random.below(index + 1)) }
                    }
                    let kind = deck.removeLast()
                    kinds.insert(kind)
                    switch kind {
                    case "down": fault = .down
                    case "slow": fault = .slow(milliseconds: 1200)
                    case "503": fault = .status(503, only: nil)
                    case "500": fault = .status(500, only: random.int(in: 1...4))
                    case "cut": fault = .dropMidAnswer(only: random.int(in: 1...4))
                    case "storm": fault = .preconditionStorm(count: random.int(in: 1...8))
                    default: fault = .invalidToken
                    }
                }
                try faults.proxy.set(fault)
            default:
                let outcome = await faults.engine.run(statuses[machine], local: side)
                #expect(outcome.awaitingConfirmation == nil)
                if outcome.failure == nil {
                    succeeded += 1
                } else {
                    #expect(failedTransiently(outcome), "\(String(describing: outcome.failure))")
                    failed += 1
                }
                // What a failure leaves is the status to keep, as the runner keeps it.
                statuses[machine] = outcome.status
            }
        }
        try faults.proxy.set(nil)
        for machine in [0, 1, 0, 1] {
            let outcome = await faults.engine.run(statuses[machine], local: machines[machine])
            #expect(outcome.failure == nil && outcome.awaitingConfirmation == nil, "\(String(describing: outcome.failure))")
            statuses[machine] = outcome.status
        }
        let server = try await faults.serverTasks(bench.calendar)
        let laptop = machines[0].tasks.withLock { $0 }
        #expect(sameTasks(laptop, machines[1].tasks.withLock { $0 }), "seed \(seed)")
        #expect(sameTasks(laptop, server), "seed \(seed)")
        let hrefs = try await bench.client.entityTags(in: bench.calendar)
        for status in statuses {
            #expect(Set(status.records.keys) == Set(laptop.keys) && Set(status.records.values.map(\.href)) == Set(hrefs.keys), "seed \(seed)")
        }
        #expect(laptop.count >= 5 && created > 6 && failed >= 3 && succeeded >= 4 && faults.proxy.hits >= 3 && kinds.count >= 5,
                "too little happened (seed \(seed)): \(laptop.count) tasks, \(created) created, \(failed) failed, \(succeeded) succeeded, \(faults.proxy.hits) hits, faults \(kinds.sorted())")
    }
}
