/// Repeating items in the random sessions: the server runs on a manual clock in America/New_York (its autumn change,
/// 1 November 2026, falls within the sessions' clock advances), items are created and updated with random rules,
/// completing one must move it on to the date the model expects, skipping likewise, and the clock moves forward by
/// `debug/setClock`. The model's next dates come from the domain's `RepeatRule.next` (which `RepeatRuleOracleTests`
/// holds to a day-by-day oracle); what this test checks independently is everything around it: which items move on
/// and which become done, the history's counts, the subtasks reopened, the refusals, and every view's rows.

import Domain
import Foundation
import Server
import TasklsProtocol

/// The sessions' client zone, with Foundation's rules, as the server reads it.
struct SessionZone: ZoneOffsets {
    static let name = "America/New_York"
    let zone = TimeZone(identifier: SessionZone.name)!

    func offsetSeconds(at instant: Domain.Timestamp) -> Int {
        zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant.milliseconds) / 1000))
    }
}

extension RandomSession {
    /// The manual clock's start: 2026-10-30T12:00:00Z, two days before New York's clocks go back.
    static let clockStart: Int64 = 1_793_361_600_000
    /// Rules in canonical form (the server answers them so), each with something to cross: month ends, COUNT and
    /// UNTIL running out, numbered weekdays, intervals.
    static let rules = [
        "FREQ=DAILY", "FREQ=DAILY;INTERVAL=3", "FREQ=WEEKLY;BYDAY=MO,WE", "FREQ=WEEKLY;INTERVAL=2", "FREQ=MONTHLY;BYMONTHDAY=-1",
        "FREQ=MONTHLY;COUNT=3", "FREQ=YEARLY", "FREQ=DAILY;UNTIL=20261201", "FREQ=MONTHLY;BYDAY=-1FR", "FREQ=WEEKLY;COUNT=2",
    ]

    /// An in-process server on the manual clock, initialized in `SessionZone`.
    static func makeServer() throws -> TestClient {
        let options = ServerOptions(logger: .silent, manualClock: ManualClock(Domain.Timestamp(milliseconds: clockStart)))
        // Tens of thousands of snapshots are read: writing each back again would cost a sixth of the run,
        // and ProtocolTypesTests holds every type to what the server writes.
        let server = try TestClient(initialize: false, options: options, checksWriteBack: false)
        _ = try server.send(Initialize(timeZone: SessionZone.name))
        server.notify(Initialized())
        return server
    }

    func randomRepeat() -> Repeat {
        Repeat(rule: random.pick(Self.rules), from: random.pick(RepeatAnchor.allCases))
    }

    /// The due completing or skipping an item with `rule` and `due` moves it to now, after `used` occurrences; nil
    /// when the rule has ended.
    func expectedNext(_ rule: Repeat, due: String, used: Int) -> String? {
        guard let anchor = Domain.RepeatRule.Anchor(rawValue: rule.from.rawValue),
              let parsed = try? Domain.RepeatRule(rrule: rule.rule, anchor: anchor),
              let due = try? Domain.Due(parsing: due) else { preconditionFailure("the session sends only valid rules and dues") }
        let now = Domain.Timestamp(milliseconds: clockMilliseconds)
        let zone = SessionZone()
        return parsed.next(after: due, completedAt: now, today: zone.localReading(of: now).date, zone: zone, occurrence: used + 1)?.iso8601
    }

    /// The repeat and due `id` has once `update` is applied.
    func repeatAndDue(of id: TasklsProtocol.ItemID, after update: ItemsUpdate) -> (Repeat?, String?) {
        let known = store.items[id]!
        let rule: Repeat? = switch update.repeat {
        case .unchanged: known.repeat
        case .cleared: nil
        case .set(let value): value
        }
        let due: String? = switch update.due {
        case .unchanged: known.due
        case .cleared: nil
        case .set(let value): value
        }
        return (rule, due)
    }

    /// Whether `update` would leave one of `ids` with a repeat and no due (`repeatWithoutDue`).
    func leavesARepeatWithoutDue(_ ids: [TasklsProtocol.ItemID], _ update: ItemsUpdate) -> Bool {
        ids.contains { id in
            let (rule, due) = repeatAndDue(of: id, after: update)
            return rule != nil && due == nil
        }
    }

    /// The items `update` (with `done: true`) moves on, with the dues the model expects: those not done whose rule
    /// (after the update) has a next occurrence.
    func expectedAdvances(_ ids: [TasklsProtocol.ItemID], _ update: ItemsUpdate) -> [TasklsProtocol.ItemID: String] {
        guard update.done == true else { return [:] }
        var advances: [TasklsProtocol.ItemID: String] = [:]
        for id in ids where !store.items[id]!.done {
            let (rule, due) = repeatAndDue(of: id, after: update)
            guard let rule, let due else { continue }
            let used = store.items[id]!.occurrences.completed + store.items[id]!.occurrences.skipped
            if let next = expectedNext(rule, due: due, used: used) { advances[id] = next }
        }
        return advances
    }

    /// An item moved on from `old` (its due once the request's other fields are applied): not done, at the expected
    /// due, its history one longer (`outcome`, the occurrence due `old`).
    func checkAdvanced(_ item: TasklsProtocol.Item, from old: String, to due: String, outcome: TasklsProtocol.Occurrence.Outcome) throws {
        let known = store.items[item.id]!
        try check(!item.done && item.completed == nil, "\(item.id) moved on to its next occurrence must not be done: \(item.json.text)")
        try check(item.due == due, "\(item.id) must move on to \(due) (\(known.repeat?.json.text ?? "no rule"), from \(known.due ?? "no due") at \(Domain.Timestamp(milliseconds: clockMilliseconds))), got \(item.due ?? "none")")
        let before = known.occurrences
        let expected = outcome == .completed ? (before.completed + 1, before.skipped) : (before.completed, before.skipped + 1)
        try check(
            (item.occurrences.completed, item.occurrences.skipped) == expected && item.occurrences.recent.last?.outcome == outcome
                && item.occurrences.recent.last.map { sameDue($0.due, old) } == true && item.occurrences.recent.count == min(20, before.recent.count + 1),
            "\(item.id)'s history must record the \(outcome.rawValue) occurrence due \(old): was \(before.json.text), got \(item.occurrences.json.text)")
        statistics.operations[outcome == .completed ? "advanced" : "skipped", default: 0] += 1
    }

    /// `items/skip` of one to three items, mostly repeating ones: refused as the model says (`notRepeating`, then
    /// `repeatEnded`, each naming the items), else each moved on with a skip recorded.
    func skipItems() throws {
        guard !store.items.isEmpty else { return }
        let all = spelled(store.items.keys)
        let repeating = all.filter { store.items[$0]!.repeat != nil }
        var ids = random.sample(repeating.isEmpty || random.chance(15) ? all : repeating, count: random.int(in: 1...3))
        ids = Array(Set(ids)).sorted { $0.description < $1.description }
        let single = ids.filter { store.items[$0]!.repeat == nil }
        var nexts: [TasklsProtocol.ItemID: String] = [:]
        for id in ids where store.items[id]!.repeat != nil {
            let known = store.items[id]!
            if let next = expectedNext(known.repeat!, due: known.due!, used: known.occurrences.completed + known.occurrences.skipped) {
                nexts[id] = next
            }
        }
        let ended = ids.filter { store.items[$0]!.repeat != nil && nexts[$0] == nil }
        try perform(ItemsSkip(ids: ids), mutates: true) { result in
            if !single.isEmpty || !ended.isEmpty {
                let reason = single.isEmpty ? "repeatEnded" : "notRepeating"
                try self.expectRefusal(result, reason: reason)
                guard case .failure(let error) = result else { return }
                let named = (single.isEmpty ? ended : single).map(\.json)
                try self.check(error.data?["ids"] == .array(named), "\(reason) must name \(named), got \(error.data?.text ?? "none")")
                return
            }
            let items = try self.success(result).items
            try self.check(items.map(\.id) == ids, "items/skip must answer the items in the order of ids: \(items.map(\.id))")
            for item in items {
                try self.checkAdvanced(item, from: self.store.items[item.id]!.due!, to: nexts[item.id]!, outcome: .skipped)
                self.store.update(item, markedDone: false)
            }
            for item in items { self.store.reopenSubtasks(of: item.id) }
        }
    }

    /// `items/update` with `done: true` on repeating items that are not done (and sometimes a plain one with them).
    func completeRepeating() throws {
        let open = spelled(store.items.keys).filter { store.items[$0]!.repeat != nil && !store.items[$0]!.done }
        guard !open.isEmpty else { return }
        var ids = random.sample(open, count: random.int(in: 1...2))
        if random.chance(20) { ids.append(random.pick(spelled(store.items.keys).filter { !ids.contains($0) })) }
        try sendUpdate(ItemsUpdate(ids.count == 1 ? .id(ids[0]) : .ids(ids), done: true))
    }

    /// Sends `update` (which must change something) and checks it as `updateItems` does, with what repeating items
    /// make of `done: true`: refused when it leaves a repeat without a due; items moved on where the model expects
    /// (the others done, or as the update says), the descendants of a moved-on item not done.
    func sendUpdate(_ update: ItemsUpdate) throws {
        let ids = update.target.ids
        if leavesARepeatWithoutDue(ids, update) {
            return try perform(update, mutates: true) { result in try self.expectRefusal(result, reason: "repeatWithoutDue") }
        }
        let advances = expectedAdvances(ids, update)
        // The descendants of an item moved on are not done afterwards, named or not.
        var reopened: Set<TasklsProtocol.ItemID> = []
        for id in advances.keys { reopened.formUnion(store.subtree(of: id)) }
        try perform(update, mutates: true) { result in
            let answer = try self.success(result)
            try self.check(answer.advanced == ids.filter { advances[$0] != nil },
                           "items/update done must move on exactly \(ids.filter { advances[$0] != nil }), got \(answer.advanced)")
            for item in answer.items {
                try self.check(ids.contains(item.id), "items/update returned \(item.id), which was not asked for")
                let known = self.store.items[item.id]!
                try self.check(
                    item.list == known.list && item.parent == known.parent,
                    "items/update moved \(item.id) from \(known.list) under \(known.parent.map(\.description) ?? "none"): \(item.json.text)")
                let (rule, _) = self.repeatAndDue(of: item.id, after: update)
                try self.check(item.repeat?.withoutText == rule?.withoutText && item.repeat.map(\.hasWords) != false,
                               "\(item.id) must repeat \(rule?.json.text ?? "null") (with its words), got \(item.repeat?.json.text ?? "null")")
                if let next = advances[item.id] {
                    try self.checkAdvanced(item, from: self.repeatAndDue(of: item.id, after: update).1!, to: next, outcome: .completed)
                    try self.checkItem(item, title: update.title, priority: update.priority, done: false, due: .unchanged)
                } else {
                    try self.checkItem(item, title: update.title, priority: update.priority,
                                       done: reopened.contains(item.id) ? false : update.done, due: update.due)
                    if update.done == true, !reopened.contains(item.id), !known.done {
                        try self.check(item.occurrences == known.occurrences, "\(item.id) became done: its history must stay \(known.occurrences.json.text)")
                    }
                }
            }
            for item in answer.items where advances[item.id] == nil { self.store.update(item, markedDone: update.done == true) }
            for item in answer.items where advances[item.id] != nil { self.store.update(item, markedDone: false) }
            for id in advances.keys { self.store.reopenSubtasks(of: id) }
        }
    }

    /// `debug/setClock` forward by 1 to 60 hours (and some minutes): later completions count from then.
    func advanceClock() throws {
        clockMilliseconds += Int64(random.int(in: 1...60)) * 3_600_000 + Int64(random.below(60)) * 60_000
        let now = Domain.Timestamp(milliseconds: clockMilliseconds).iso8601
        try perform(DebugSetClock(now: now)) { result in
            try self.check(try self.success(result).now == now, "debug/setClock to \(now) answered another instant")
        }
    }
}

extension ItemsSkipResult: RevisionCarrying {}

/// Whether two dues are one (a due sent is answered in canonical form).
private func sameDue(_ left: String, _ right: String) -> Bool {
    (try? Domain.Due(parsing: left)) == (try? Domain.Due(parsing: right))
}

extension ShadowStore {
    /// The descendants of `id` set back to not done, as moving a repeating item on does.
    mutating func reopenSubtasks(of id: TasklsProtocol.ItemID) {
        for descendant in subtree(of: id).dropFirst() where items[descendant]!.done {
            items[descendant]!.done = false
            items[descendant]!.completed = nil
        }
    }
}

extension Repeat {
    /// The repeat without its words: what a client sends and compares.
    var withoutText: Repeat { Repeat(rule: rule, from: from) }

    /// Whether the server gave its words (protocol.md: `text`, an `every …` phrase or description, in every result).
    var hasWords: Bool { text?.hasPrefix("every ") == true }
}
