// Repeating items in the state: completing moves an item on (due, history, subtasks reopened) in one group, an
// ended rule makes it done, skipping records a skip, the refusals (repeatWithoutDue, notRepeating, repeatEnded),
// the history's bound, duplicates, and undo restoring the due, the history and the subtasks' done.

import Testing
@testable import Domain

struct RepeatingItemTests {
    static let berlin = FoundationZone("Europe/Berlin")
    static let utc = FoundationZone("UTC")

    /// An engine with one list and one item due `due` repeating by `rule` (anchor `from`), created at 1 s.
    static func stage(_ rule: String, from anchor: RepeatRule.Anchor = .due, due: String) throws -> (Engine, ListID, ItemID) {
        var engine = Engine()
        let list = try engine.makeList()
        let id = ItemID(engine.state.nextIdentifier)
        let fields = ItemFields(title: "repeats", due: try Due(parsing: due), repeatRule: try RepeatRule(rrule: rule, anchor: anchor))
        _ = try engine.apply([.createItem(id: id, list: list, fields: fields, before: nil, at: Timestamp(milliseconds: 1_000))])
        return (engine, list, id)
    }

    static func instant(_ text: String) -> Timestamp {
        guard case .dateTime(let instant, _) = try! Due(parsing: text) else { fatalError("not an instant: \(text)") }
        return instant
    }

    /// Completes `ids` at `now` (the client's day its local date in `zone`), as `items/update` with `done: true`.
    @discardableResult
    static func complete(_ engine: inout Engine, _ ids: [ItemID], at now: String, zone: FoundationZone = utc,
                         patch: ItemPatch = ItemPatch(done: true)) throws -> (Applied, [ItemID]) {
        let time = instant(now)
        let (mutations, advanced) = try engine.state.completionMutations(ids, patch, at: time, today: zone.localReading(of: time).date,
                                                                         zone: zone)
        return (try engine.apply(mutations), advanced)
    }

    /// (rule, anchor, due, completed at, zone, the next due).
    @Test(arguments: [
        ("FREQ=MONTHLY", RepeatRule.Anchor.due, "2027-01-31", "2027-01-31T10:00:00Z", "UTC", "2027-03-31"),
        ("FREQ=MONTHLY;BYMONTHDAY=-1", .due, "2027-01-31", "2027-01-31T10:00:00Z", "UTC", "2027-02-28"),
        ("FREQ=YEARLY", .due, "2028-02-29", "2028-02-29T10:00:00Z", "UTC", "2032-02-29"),
        ("FREQ=WEEKLY", .due, "2026-11-16", "2026-11-25T10:00:00Z", "UTC", "2026-11-23"),
        ("FREQ=WEEKLY", .dueFuture, "2026-11-16", "2026-11-25T10:00:00Z", "UTC", "2026-11-30"),
        ("FREQ=WEEKLY", .completion, "2026-11-16", "2026-11-25T10:00:00Z", "UTC", "2026-12-02"),
        ("FREQ=WEEKLY", .due, "2026-10-23T09:00:00+02:00", "2026-10-23T05:00:00Z", "Europe/Berlin", "2026-10-30T09:00:00+01:00"),
        ("FREQ=DAILY", .dueFuture, "2026-11-20T08:00:00Z", "2026-11-25T10:00:00Z", "UTC", "2026-11-26T08:00:00Z"),
        ("FREQ=DAILY;INTERVAL=3", .completion, "2026-11-26T09:00:00+01:00", "2026-11-26T08:00:00Z", "Europe/Berlin",
         "2026-11-29T09:00:00+01:00"),
    ])
    func completingMovesTheDueOn(rule: String, anchor: RepeatRule.Anchor, due: String, now: String, zone: String,
                                 next: String) throws {
        var (engine, _, id) = try Self.stage(rule, from: anchor, due: due)
        let before = try #require(engine.item(id))
        let (applied, advanced) = try Self.complete(&engine, [id], at: now, zone: FoundationZone(zone))
        let after = try #require(engine.item(id))
        #expect(advanced == [id])
        #expect(after.due == (try Due(parsing: next)), "\(rule) from \(anchor): \(String(describing: after.due))")
        #expect(!after.done && after.completedAt == nil)
        #expect(after.revision == before.revision + 1 && after.modifiedAt == Self.instant(now))
        #expect(after.occurrences == Occurrences(completed: 1, recent: [
            Occurrence(due: try Due(parsing: due), outcome: .completed, at: Self.instant(now)),
        ]))
        #expect(applied.changes.items.count == 1)
    }

    @Test func anEndedRuleMakesTheItemDone() throws {
        var (engine, _, id) = try Self.stage("FREQ=WEEKLY;COUNT=2", due: "2026-11-26")
        #expect(try Self.complete(&engine, [id], at: "2026-11-26T08:00:00Z").1 == [id])
        let (_, advanced) = try Self.complete(&engine, [id], at: "2026-11-26T09:00:00Z")
        let item = try #require(engine.item(id))
        #expect(advanced.isEmpty)
        #expect(item.done && item.completedAt == Self.instant("2026-11-26T09:00:00Z"))
        #expect(item.due == (try Due(parsing: "2026-12-03")) && item.occurrences.completed == 1)
        // Skipping it now: nothing to skip to.
        #expect(throws: DomainError.refusedItems(reason: "repeatEnded", message: "the repeat of \(id) has ended: there is no next occurrence to skip to",
                                                 ids: [id])) {
            try engine.state.skipMutations([id], at: Self.instant("2026-11-26T10:00:00Z"), today: CalendarDate(year: 2026, month: 11, day: 26)!,
                                           zone: Self.utc)
        }
        var (until, _, daily) = try Self.stage("FREQ=DAILY;UNTIL=20261127", due: "2026-11-26")
        #expect(try Self.complete(&until, [daily], at: "2026-11-26T08:00:00Z").1 == [daily])
        #expect(try Self.complete(&until, [daily], at: "2026-11-26T08:00:00Z").1.isEmpty)
        #expect(until.item(daily)?.done == true)
    }

    @Test func theHistoryKeepsTheTwentyMostRecentAndCountsThemAll() throws {
        var (engine, _, id) = try Self.stage("FREQ=DAILY", due: "2026-01-01")
        for _ in 0..<25 { try Self.complete(&engine, [id], at: "2026-11-26T08:00:00Z") }
        let item = try #require(engine.item(id))
        #expect(item.occurrences.completed == 25 && item.occurrences.skipped == 0)
        #expect(item.occurrences.recent.count == Occurrences.recentLimit)
        #expect(item.occurrences.recent.first?.due == (try Due(parsing: "2026-01-06")))
        #expect(item.occurrences.recent.last?.due == (try Due(parsing: "2026-01-25")))
        #expect(item.due == (try Due(parsing: "2026-01-26")))
    }

    @Test func completingResetsTheChecklistAndUndoPutsEverythingBack() throws {
        var (engine, list, id) = try Self.stage("FREQ=WEEKLY;BYDAY=SA", due: "2026-11-28")
        let first = ItemID(engine.state.nextIdentifier)
        let second = ItemID(first.rawValue + 1)
        _ = try engine.apply([
            .createItem(id: first, list: list, fields: ItemFields(title: "kitchen", done: true), before: nil, parent: .set(id),
                        at: Timestamp(milliseconds: 2_000)),
            .createItem(id: second, list: list, fields: ItemFields(title: "bathroom"), before: nil, parent: .set(id),
                        at: Timestamp(milliseconds: 2_000)),
        ])
        let before = engine.state.items.mapValues(\.item)
        let revision = engine.revision
        let (applied, _) = try Self.complete(&engine, [id], at: "2026-11-26T08:00:00Z")
        #expect(engine.revision == revision + 1)
        #expect(engine.item(first)?.done == false && engine.item(second)?.revision == 1)
        #expect(Set(applied.changes.items.map(\.id)) == [id, first])
        let undo = try engine.state.inverse(of: applied.changes, at: Timestamp(milliseconds: 9_000))
        _ = try engine.apply(undo)
        for (key, old) in before {
            let now = try #require(engine.item(key))
            #expect(now.due == old.due && now.done == old.done && now.completedAt == old.completedAt
                    && now.occurrences == old.occurrences && now.repeatRule == old.repeatRule, "\(key)")
        }
    }

    @Test func skippingRecordsASkipAndRefusesItemsThatDoNotRepeat() throws {
        var (engine, list, id) = try Self.stage("FREQ=MONTHLY;BYDAY=-1FR", due: "2026-11-27")
        let plain = try engine.makeItems(["plain"], in: list)[0]
        let time = Self.instant("2026-11-26T08:00:00Z")
        let today = CalendarDate(year: 2026, month: 11, day: 26)!
        #expect(throws: DomainError.refusedItems(reason: "notRepeating", message: "\(plain) does not repeat", ids: [plain])) {
            try engine.state.skipMutations([id, plain], at: time, today: today, zone: Self.utc)
        }
        _ = try engine.apply(try engine.state.skipMutations([id], at: time, today: today, zone: Self.utc))
        let item = try #require(engine.item(id))
        #expect(item.due == (try Due(parsing: "2026-12-25")))
        #expect(item.occurrences == Occurrences(skipped: 1, recent: [Occurrence(due: try Due(parsing: "2026-11-27"), outcome: .skipped, at: time)]))
        // The mutation itself refuses an item that does not repeat (a journal record can name one only if forged).
        #expect(throws: DomainError.self) {
            try engine.apply([.advanceItems(advances: [Advance(id: plain, next: .date(today), outcome: .skipped)], at: time)])
        }
    }

    @Test func aRepeatNeedsADue() throws {
        var engine = Engine()
        let list = try engine.makeList()
        let rule = try RepeatRule(rrule: "FREQ=DAILY")
        let id = ItemID(engine.state.nextIdentifier)
        #expect(throws: DomainError.self) {
            try engine.apply([.createItem(id: id, list: list, fields: ItemFields(title: "x", repeatRule: rule), before: nil, at: Timestamp(milliseconds: 1))])
        }
        let due = try Due(parsing: "2026-11-26")
        _ = try engine.apply([.createItem(id: id, list: list, fields: ItemFields(title: "x", due: due, repeatRule: rule), before: nil,
                                          at: Timestamp(milliseconds: 1))])
        do {
            _ = try engine.apply([.updateItems(ids: [id], patch: ItemPatch(due: .clear), at: Timestamp(milliseconds: 2))])
            Issue.record("clearing the due of a repeating item was accepted")
        } catch {
            #expect(error == .refused(reason: "repeatWithoutDue", message: "item \(id): a repeating item needs a due; give due, or clear repeat"))
        }
        _ = try engine.apply([.updateItems(ids: [id], patch: ItemPatch(due: .clear, repeatRule: .clear), at: Timestamp(milliseconds: 2))])
        #expect(engine.item(id)?.repeatRule == nil && engine.item(id)?.due == nil)
    }

    @Test func aDuplicateCopiesTheRuleNotTheHistory() throws {
        var (engine, _, id) = try Self.stage("FREQ=DAILY", from: .completion, due: "2026-11-26")
        try Self.complete(&engine, [id], at: "2026-11-26T08:00:00Z")
        let copy = engine.state.nextIdentifier
        _ = try engine.apply(try engine.state.duplicates(of: [id], firstIdentifier: copy, at: Timestamp(milliseconds: 5_000)))
        let duplicate = try #require(engine.item(ItemID(copy)))
        #expect(duplicate.repeatRule == engine.item(id)?.repeatRule && duplicate.repeatRule?.anchor == .completion)
        #expect(duplicate.occurrences == .none && engine.item(id)?.occurrences.completed == 1)
    }

    @Test func otherFieldsOfTheCompletingRequestCountFirst() throws {
        var (engine, _, id) = try Self.stage("FREQ=DAILY", due: "2026-11-26")
        // A new rule and due in the same request: the next occurrence is computed from them.
        let patch = ItemPatch(done: true, due: .set(try Due(parsing: "2026-12-01")),
                              repeatRule: .set(try RepeatRule(rrule: "FREQ=WEEKLY")))
        let (applied, advanced) = try Self.complete(&engine, [id], at: "2026-11-26T08:00:00Z", patch: patch)
        #expect(advanced == [id])
        #expect(engine.item(id)?.due == (try Due(parsing: "2026-12-08")))
        #expect(engine.item(id)?.occurrences.recent.first?.due == (try Due(parsing: "2026-12-01")))
        #expect(applied.changes.items.count == 1)
        // A repeating item already done is not moved on: done again, it stays done.
        _ = try engine.apply([.updateItems(ids: [id], patch: ItemPatch(done: true), at: Timestamp(milliseconds: 3))])
        #expect(engine.item(id)?.done == true)
        #expect(try Self.complete(&engine, [id], at: "2026-11-26T09:00:00Z").1.isEmpty)
    }
}
