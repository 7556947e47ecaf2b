// The sync planner: a table of its cases, and a list and a calendar edited at random on both sides, synced through
// plans executed against a simulated server, converging.

import Domain
import Sync
import TestSupport
import Testing

private func at(_ minute: Int64) -> Timestamp { Timestamp(milliseconds: 1_795_000_000_000 + minute * 60_000) }

private func task(_ uid: String, _ title: String, minute: Int64 = 0) -> ExchangeTask {
    ExchangeTask(uid: uid, title: title, createdAt: at(0), modifiedAt: at(minute))
}

private let a = task("a", "A")
private let b = task("b", "B")
private let synced = [SyncRecord(uid: "a", href: "/c/a.ics", etag: "1", base: a),
                      SyncRecord(uid: "b", href: "/c/b.ics", etag: "1", base: b)]

@Test func nothingChangedPlansNothing() {
    let plan = SyncPlanner.plan(status: synced, local: ["a": a, "b": b], remote: .delta([:]), fetched: [:])
    #expect(plan.actions.isEmpty && plan.notices.isEmpty && plan.emptySide == nil)
    #expect(plan.status == Dictionary(uniqueKeysWithValues: synced.map { ($0.uid, $0) }))
    #expect(SyncPlanner.hrefsToFetch(status: synced, remote: .complete(["/c/a.ics": "1", "/c/b.ics": "1"])).isEmpty)
}

@Test func eachSidesChangeReachesTheOther() {
    let remoteEdit = task("a", "A on the phone", minute: 2)
    let listing = RemoteListing.delta(["/c/a.ics": "2", "/c/n.ics": "1"])
    #expect(SyncPlanner.hrefsToFetch(status: synced, remote: listing) == ["/c/a.ics", "/c/n.ics"])
    let created = task("n", "New on the phone")
    let localEdit = task("b", "B here", minute: 3)
    let mine = task("m", "New here")
    let plan = SyncPlanner.plan(status: synced, local: ["a": a, "b": localEdit, "m": mine], remote: listing,
                                fetched: ["/c/a.ics": remoteEdit, "/c/n.ics": created])
    #expect(plan.actions == [.updateRemote(href: "/c/b.ics", etag: "1", task: localEdit), .createRemote(uid: "m", task: mine),
                             .applyLocal(uid: "a", task: remoteEdit), .applyLocal(uid: "n", task: created)])
    #expect(plan.status["a"] == SyncRecord(uid: "a", href: "/c/a.ics", etag: "2", base: remoteEdit))
    #expect(plan.status["n"]?.href == "/c/n.ics" && plan.status["m"]?.href == "")
}

@Test func deletionsReachTheOtherSideAndLoseToEdits() {
    // Deleted on the server, unchanged here: deleted here.
    let gone = SyncPlanner.plan(status: synced, local: ["a": a, "b": b], remote: .delta(["/c/a.ics": nil]), fetched: [:])
    #expect(gone.actions == [.deleteLocal(uid: "a")] && gone.status["a"] == nil)
    // Deleted here, unchanged there: deleted there, with its tag.
    let here = SyncPlanner.plan(status: synced, local: ["b": b], remote: .delta([:]), fetched: [:])
    #expect(here.actions == [.deleteRemote(href: "/c/a.ics", etag: "1")])
    // Deleted on the server, edited here: created again there, and said.
    let edited = task("a", "A edited", minute: 4)
    let back = SyncPlanner.plan(status: synced, local: ["a": edited, "b": b], remote: .delta(["/c/a.ics": nil]), fetched: [:])
    #expect(back.actions == [.createRemote(uid: "a", task: edited)])
    #expect(back.notices == [.undeleted(uid: "a", deletedOn: .remote)])
    // A complete listing without a member says it is gone.
    let listed = SyncPlanner.plan(status: synced, local: ["a": a, "b": b], remote: .complete(["/c/b.ics": "1"]), fetched: [:])
    #expect(listed.actions == [.deleteLocal(uid: "a")])
}

@Test func aClashIsMergedAndTheLoserKept() {
    let mine = task("a", "Mine", minute: 5)
    let theirs = task("a", "Theirs", minute: 6)
    let plan = SyncPlanner.plan(status: synced, local: ["a": mine, "b": b], remote: .delta(["/c/a.ics": "2"]),
                                fetched: ["/c/a.ics": theirs])
    #expect(plan.notices == [.clash(uid: "a", fields: [.title], kept: .remote, lost: mine)])
    #expect(plan.actions == [.applyLocal(uid: "a", task: theirs)])
}

@Test func aSideThatSuddenlyLooksEmptyWaitsForTheUser() {
    let wiped = SyncPlanner.plan(status: synced, local: ["a": a, "b": b], remote: .complete([:]), fetched: [:])
    #expect(wiped.emptySide == .remote && wiped.actions.isEmpty)
    #expect(wiped.status == Dictionary(uniqueKeysWithValues: synced.map { ($0.uid, $0) }))
    let confirmed = SyncPlanner.plan(status: synced, local: ["a": a, "b": b], remote: .complete([:]), fetched: [:], confirmed: true)
    #expect(confirmed.emptySide == nil && confirmed.actions == [.deleteLocal(uid: "a"), .deleteLocal(uid: "b")])
    let emptied = SyncPlanner.plan(status: synced, local: [:], remote: .delta([:]), fetched: [:])
    #expect(emptied.emptySide == .local && emptied.actions.isEmpty && emptied.keepsToken)
    // While it waits, nothing is pushed either (the server may be the wrong one).
    let waiting = SyncPlanner.plan(status: synced, local: ["a": a, "b": b, "n": task("n", "N")], remote: .complete([:]), fetched: [:])
    #expect(waiting.emptySide == .remote && waiting.actions.isEmpty)
    // Both sides deleted everything: nothing to mirror, nothing to ask.
    let both = SyncPlanner.plan(status: synced, local: [:], remote: .complete([:]), fetched: [:])
    #expect(both.emptySide == nil && both.actions.isEmpty && both.status.isEmpty)
    // One task of one is an ordinary deletion.
    let one = SyncPlanner.plan(status: [synced[0]], local: [:], remote: .delta([:]), fetched: [:])
    #expect(one.emptySide == nil && one.actions == [.deleteRemote(href: "/c/a.ics", etag: "1")])
}

@Test func duplicateUIDsAndUnreadableMembersAreLeftAlone() {
    let copy = task("b", "B copy")
    let listing = RemoteListing.delta(["/c/b2.ics": "1", "/c/a.ics": "9"])
    let plan = SyncPlanner.plan(status: synced, local: ["a": a, "b": b], remote: listing, fetched: ["/c/b2.ics": copy])
    // /c/a.ics changed but could not be read: nothing for it, its record as it was, listed again next time.
    #expect(plan.notices == [.duplicateUID(uid: "b", hrefs: ["/c/b2.ics"]), .unreadable(href: "/c/a.ics")])
    #expect(plan.actions.isEmpty && plan.status["a"] == synced[0] && plan.keepsToken)
    // A new member that could not be read: the same.
    let unread = SyncPlanner.plan(status: synced, local: ["a": a, "b": b], remote: .delta(["/c/x.ics": "1"]), fetched: [:])
    #expect(unread.notices == [.unreadable(href: "/c/x.ics")] && unread.actions.isEmpty && unread.keepsToken)
    // The kept copy deleted: the other one takes its place.
    let promoted = SyncPlanner.plan(status: synced, local: ["a": a, "b": b], remote: .delta(["/c/b.ics": nil, "/c/b2.ics": "1"]),
                                    fetched: ["/c/b2.ics": copy])
    #expect(promoted.actions == [.applyLocal(uid: "b", task: copy)] && promoted.status["b"]?.href == "/c/b2.ics")
    #expect(!promoted.keepsToken && promoted.notices.isEmpty)
}

@Test func aMemberMovedOrReplacedOnTheServerIsFollowed() {
    // Moved to another href, unchanged: only the record follows it.
    let moved = SyncPlanner.plan(status: synced, local: ["a": a, "b": b], remote: .delta(["/c/a.ics": nil, "/c/a2.ics": "5"]),
                                 fetched: ["/c/a2.ics": a])
    #expect(moved.actions.isEmpty)
    #expect(moved.status["a"] == SyncRecord(uid: "a", href: "/c/a2.ics", etag: "5", base: a))
    // Moved and edited here: the edit goes to the new href.
    let edited = task("a", "A edited", minute: 3)
    let followed = SyncPlanner.plan(status: synced, local: ["a": edited, "b": b],
                                    remote: .delta(["/c/a.ics": nil, "/c/a2.ics": "5"]), fetched: ["/c/a2.ics": a])
    #expect(followed.actions == [.updateRemote(href: "/c/a2.ics", etag: "5", task: edited)])
    // Replaced by a task of another uid at the same href: the old one is gone, the new one arrives.
    let other = task("x", "X")
    let replaced = SyncPlanner.plan(status: synced, local: ["a": a, "b": b], remote: .delta(["/c/a.ics": "2"]),
                                    fetched: ["/c/a.ics": other])
    #expect(replaced.actions == [.deleteLocal(uid: "a"), .applyLocal(uid: "x", task: other)])
    #expect(replaced.status["a"] == nil && replaced.status["x"]?.href == "/c/a.ics" && replaced.status["x"]?.etag == "2")
}

/// A calendar on a simulated server: members by href, each with its entity tag.
private struct SimulatedCalendar {
    var members: [String: (etag: String, task: ExchangeTask)] = [:]
    var changed: Set<String> = []
    var nextTag = 1

    mutating func put(_ href: String, _ task: ExchangeTask) {
        nextTag += 1
        members[href] = (String(nextTag), task)
        changed.insert(href)
    }

    mutating func delete(_ href: String) {
        members[href] = nil
        changed.insert(href)
    }

    /// A complete listing, or the delta since the token the client holds (`changed` is what changed since then).
    func listing(complete: Bool) -> RemoteListing {
        if complete { return .complete(members.mapValues(\.etag)) }
        return .delta(Dictionary(uniqueKeysWithValues: changed.map { ($0, members[$0]?.etag) }))
    }

    /// The client took the token of the listing: what changed so far is no longer news.
    mutating func tokenTaken() { changed = [] }
}

@Test func randomEditsOnBothSidesConvergeThroughPlans() {
    var random = SplitMix64(seed: 2_201)
    var local: [String: ExchangeTask] = [:]
    var server = SimulatedCalendar()
    var status: [String: SyncRecord] = [:]
    var clock: Int64 = 10
    var done: [String: Int] = [:]
    var notices = 0
    var nextUID = 0
    func edit(_ task: inout ExchangeTask, _ random: inout SplitMix64) {
        clock += 1
        switch random.below(4) {
        case 0: task.title = "title \(random.below(5))"
        case 1: task.notes = "notes \(random.below(5))"
        case 2: task.priority = [.none, .low, .high][random.below(3)]
        default: task.tags = random.chance(50) ? ["x"] : ["y", "z"]
        }
        task.modifiedAt = at(clock)
    }
    for round in 0..<300 {
        // Edits on each side.
        for _ in 0..<random.below(4) {
            let uids = local.keys.sorted()
            if uids.isEmpty || random.chance(25) {
                nextUID += 1
                local["u\(nextUID)"] = task("u\(nextUID)", "local \(nextUID)", minute: clock)
                // Sometimes the same task is made on the phone too (an import on both sides): merged without a base.
                if random.chance(10) {
                    server.put("/c/u\(nextUID).ics", task("u\(nextUID)", "phone \(nextUID)", minute: clock + 1))
                    done["made on both sides", default: 0] += 1
                }
            } else if random.chance(20) {
                local[random.pick(uids)] = nil
            } else {
                edit(&local[random.pick(uids)]!, &random)
            }
        }
        for _ in 0..<random.below(4) {
            let hrefs = server.members.keys.sorted()
            if hrefs.isEmpty || random.chance(25) {
                nextUID += 1
                server.put("/c/u\(nextUID).ics", task("u\(nextUID)", "phone \(nextUID)", minute: clock))
            } else if random.chance(20) {
                server.delete(random.pick(hrefs))
            } else if random.chance(5) {
                // The server moves a member to another href (a restore, another client's rename).
                let href = random.pick(hrefs)
                let moved = server.members[href]!.task
                server.delete(href)
                nextUID += 1
                server.put("/c/moved-\(nextUID).ics", moved)
                done["moved on the server", default: 0] += 1
            } else {
                let href = random.pick(hrefs)
                var changed = server.members[href]!.task
                edit(&changed, &random)
                server.put(href, changed)
            }
        }
        // One sync: list, fetch, plan (a user who confirms an empty side), execute.
        let records = status.values.sorted { $0.uid < $1.uid }
        let listing = server.listing(complete: round % 7 == 0)
        // Now and then a member cannot be read: it is left for the next sync.
        var fetched: [String: ExchangeTask] = [:]
        for href in SyncPlanner.hrefsToFetch(status: records, remote: listing) where !random.chance(8) {
            fetched[href] = server.members[href]!.task
        }
        let plan = SyncPlanner.plan(status: records, local: local, remote: listing, fetched: fetched, confirmed: true)
        notices += plan.notices.count
        status = plan.status
        for action in plan.actions {
            switch action {
            case .createRemote(let uid, let created):
                let href = "/c/\(uid).ics"
                guard server.members[href] == nil else {
                    // If-None-Match: * refused (412): the member is there, unread. Only a plan that left something
                    // unread can meet one; the uid's record is dropped and the next sync merges the two.
                    #expect(plan.keepsToken, "a create refused in round \(round) with nothing left unread")
                    status[uid] = nil
                    done["create refused", default: 0] += 1
                    continue
                }
                server.put(href, created)
                status[uid]?.href = href
                status[uid]?.etag = server.members[href]!.etag
                done["create", default: 0] += 1
            case .updateRemote(let href, let etag, let updated):
                #expect(server.members[href]?.etag == etag, "a stale tag in round \(round)")
                server.put(href, updated)
                status[updated.uid!]?.etag = server.members[href]!.etag
                done["update", default: 0] += 1
            case .deleteRemote(let href, let etag):
                #expect(server.members[href]?.etag == etag, "a stale tag in round \(round)")
                server.delete(href)
                done["delete remote", default: 0] += 1
            case .applyLocal(let uid, let applied):
                local[uid] = applied
                done["apply", default: 0] += 1
            case .deleteLocal(let uid):
                local[uid] = nil
                done["delete local", default: 0] += 1
            }
        }
        guard !plan.keepsToken else {
            // Something was left for later: the next sync lists it again, from the same token.
            done["left for later", default: 0] += 1
            continue
        }
        server.tokenTaken()
        done["converged", default: 0] += 1
        // Both sides hold the same tasks, and the status agrees with both.
        let remoteByUID = Dictionary(uniqueKeysWithValues: server.members.values.map { ($0.task.uid!, $0.task) })
        #expect(Set(remoteByUID.keys) == Set(local.keys), "round \(round)")
        #expect(Set(status.keys) == Set(local.keys), "round \(round)")
        for (uid, mine) in local {
            guard let theirs = remoteByUID[uid], let record = status[uid] else { continue }
            #expect(TaskMerge.sameContent(mine, theirs) && TaskMerge.sameContent(mine, record.base), "round \(round): \(uid)")
            #expect(server.members[record.href]?.etag == record.etag, "round \(round): \(uid)'s record")
        }
        // A second sync right after finds nothing to do.
        let again = SyncPlanner.plan(status: status.values.sorted { $0.uid < $1.uid }, local: local,
                                     remote: server.listing(complete: round % 5 == 0), fetched: [:])
        #expect(again.actions.isEmpty && !again.keepsToken, "round \(round): \(again.actions)")
    }
    // The run did real work: every kind of action, and clashes or undeletions.
    #expect(["create", "update", "delete remote", "apply", "delete local"].allSatisfy { done[$0, default: 0] > 20 }, "\(done)")
    #expect(done["made on both sides", default: 0] > 5 && done["moved on the server", default: 0] > 5, "\(done)")
    #expect(done["left for later", default: 0] > 10 && done["converged", default: 0] > 150, "\(done)")
    #expect(notices >= 5, "\(notices) notices")
}
