// Table tests of the client's day: smart group membership at day boundaries (day-only and date-time dues, uneven
// days), live counts, re-evaluation in chunks, and the next instant at which time changes something.

import Testing
@testable import Domain

struct SmartGroupTests {
    static let date = day(2026, 11, 22)
    /// 22 November, 10:00 UTC, with the next day 23 hours long (a daylight saving change).
    static let shifts: [Int64] = [0, 0, -3_600_000, -3_600_000, -3_600_000, -3_600_000, -3_600_000, -3_600_000, -3_600_000]
    static let today = makeDay(date, after: 10 * 3_600_000, shifts: shifts)
    static let start = today.dayStarts[0].milliseconds

    static func instant(_ milliseconds: Int64) -> Due { .dateTime(Timestamp(milliseconds: start + milliseconds), offsetSeconds: 3600) }

    @Test(arguments: [
        // (due, today, overdue, bucket)
        (Due.date(day(2026, 11, 21)), false, true, DueBucket.overdue),
        (.date(day(2026, 11, 22)), true, false, .today),
        (.date(day(2026, 11, 23)), false, false, .tomorrow),
        (.date(day(2026, 11, 24)), false, false, .nextSevenDays),
        (.date(day(2026, 11, 29)), false, false, .nextSevenDays),
        (.date(day(2026, 11, 30)), false, false, .later),
        (instant(-1), false, true, .overdue),
        (instant(0), true, true, .overdue),
        (instant(10 * 3_600_000 - 1), true, true, .overdue),
        (instant(10 * 3_600_000), true, false, .today),
        (instant(dayLength - 1), true, false, .today),
        (instant(dayLength), false, false, .tomorrow),
        (instant(2 * dayLength - 3_600_001), false, false, .tomorrow),
        (instant(2 * dayLength - 3_600_000), false, false, .nextSevenDays),
        (instant(8 * dayLength - 3_600_001), false, false, .nextSevenDays),
        (instant(8 * dayLength - 3_600_000), false, false, .later),
    ])
    func membershipAtDayBoundaries(due: Due, isToday: Bool, isOverdue: Bool, bucket: DueBucket) {
        let status = Self.today.status(of: due)
        #expect(status.isToday == isToday && (status.bucket == .overdue) == isOverdue && status.bucket == bucket)
        let expected = expectedBucket(due, Self.today)
        #expect(expected.bucket == bucket && expected.isToday == isToday)
    }

    /// An engine on `today` with one list holding items due as given (the last one done).
    static func setUp(_ dues: [Due?], done: Set<Int> = []) throws -> (engine: Engine, items: [ItemID], list: ListID) {
        var engine = Engine()
        _ = engine.advance(to: today, budget: 100)
        let list = try engine.makeList()
        var items: [ItemID] = []
        for (offset, due) in dues.enumerated() {
            let id = ItemID(engine.state.nextIdentifier)
            _ = try engine.apply([.createItem(id: id, list: list, fields: ItemFields(title: "t\(offset)", done: done.contains(offset), due: due),
                                              before: nil, at: Timestamp(milliseconds: start))])
            items.append(id)
        }
        return (engine, items, list)
    }

    static func counts(_ engine: Engine) -> [SmartGroup: Int] {
        Dictionary(uniqueKeysWithValues: engine.overview().groups.map { ($0.group, $0.count) })
    }

    @Test func countsFollowMutations() throws {
        var (engine, items, list) = try Self.setUp([.date(Self.date), .date(day(2026, 11, 20)), nil, Self.instant(12 * 3_600_000)],
                                                   done: [2])
        #expect(Self.counts(engine) == [.today: 2, .overdue: 1, .scheduled: 3, .all: 3, .completed: 1])
        #expect(engine.overview().lists.map(\.open) == [3] && engine.overview().lists.map(\.total) == [4])
        _ = try engine.apply([.updateItems(ids: [items[0]], patch: ItemPatch(done: true), at: Timestamp(milliseconds: Self.start))])
        #expect(Self.counts(engine) == [.today: 1, .overdue: 1, .scheduled: 2, .all: 2, .completed: 2])
        _ = try engine.apply([.deleteList(id: list)])
        #expect(Self.counts(engine) == [.today: 0, .overdue: 0, .scheduled: 0, .all: 0, .completed: 0])
    }

    @Test func midnightMovesTodayToOverdueWithoutAnyoneTouchingIt() throws {
        var (engine, items, _) = try Self.setUp([.date(Self.date), .date(day(2026, 11, 23)), nil])
        let today = try engine.openView(source: .today, sort: .manual, window: Window(start: 0, end: 10))
        let overdue = try engine.openView(source: .overdue, sort: .manual, window: Window(start: 0, end: 10))
        var clients = ClientSet()
        clients.open(today.snapshot)
        clients.open(overdue.snapshot)
        #expect(ids(today.snapshot.rows) == [items[0].rawValue])
        #expect(engine.nextTimeChange == Self.today.dayStarts[1])
        let tomorrow = makeDay(day(2026, 11, 23), after: 0, shifts: [0] + Array(repeating: -3_600_000, count: 8))
        var chunks = 0
        var finished = false
        while !finished {
            let advanced = engine.advance(to: tomorrow, budget: 1)
            clients.receive(advanced.changes, engine: engine)
            finished = advanced.finished
            chunks += 1
        }
        #expect(chunks >= 2)
        #expect(ids(try engine.snapshot(today.snapshot.view).rows) == [items[1].rawValue])
        #expect(ids(try engine.snapshot(overdue.snapshot.view).rows) == [items[0].rawValue])
        #expect(Self.counts(engine)[.today] == 1 && Self.counts(engine)[.overdue] == 1)
    }

    @Test func aDueTimePassingMakesItOverdueAndNextTimeChangeSaysWhen() throws {
        var (engine, items, _) = try Self.setUp([Self.instant(11 * 3_600_000), Self.instant(13 * 3_600_000)])
        #expect(engine.nextTimeChange == Timestamp(milliseconds: Self.start + 11 * 3_600_000 + 1))
        var later = Self.today
        later.now = engine.nextTimeChange!
        let advanced = engine.advance(to: later, budget: 10)
        #expect(advanced.finished && advanced.changes.isEmpty)
        #expect(Self.counts(engine)[.overdue] == 1 && Self.counts(engine)[.today] == 2)
        #expect(engine.nextTimeChange == Timestamp(milliseconds: Self.start + 13 * 3_600_000 + 1))
        let opened = try engine.openView(source: .overdue, sort: .manual, window: Window(start: 0, end: 5))
        #expect(ids(opened.snapshot.rows) == [items[0].rawValue])
    }

    @Test func aMutationBetweenChunksIsExact() throws {
        var (engine, items, _) = try Self.setUp((0..<6).map { Self.instant(Int64($0) * 3_600_000 + 11 * 3_600_000) })
        let opened = try engine.openView(source: .overdue, sort: Sort(.due), window: Window(start: 0, end: 10))
        var clients = ClientSet()
        clients.open(opened.snapshot)
        var later = Self.today
        later.now = Timestamp(milliseconds: Self.start + 20 * 3_600_000)
        var advanced = engine.advance(to: later, budget: 2)
        clients.receive(advanced.changes, engine: engine)
        #expect(!advanced.finished && engine.nextTimeChange == nil)
        // Not yet re-evaluated: moved to a due that is overdue in the new day, and one that is not.
        let applied = try engine.apply([.updateItems(ids: [items[5]], patch: ItemPatch(due: .set(Self.instant(30 * 3_600_000))),
                                                     at: later.now)])
        clients.receive(applied.viewChanges, engine: engine)
        while !advanced.finished {
            advanced = engine.advance(to: later, budget: 2)
            clients.receive(advanced.changes, engine: engine)
        }
        #expect(ids(try engine.snapshot(opened.snapshot.view).rows) == items[0..<5].map(\.rawValue))
    }

    @Test func smartManualOrderIsListThenItemPosition() throws {
        var engine = Engine()
        let first = try engine.makeList("A")
        let second = try engine.makeList("B")
        let inSecond = try engine.makeItems(["b1", "b2"], in: second)
        let inFirst = try engine.makeItems(["a1", "a2"], in: first)
        let opened = try engine.openView(source: .all, sort: .manual, window: Window(start: 0, end: 10))
        #expect(ids(opened.snapshot.rows) == (inFirst + inSecond).map(\.rawValue))
        var clients = ClientSet()
        clients.open(opened.snapshot)
        let applied = try engine.apply([.moveLists(ids: [second], before: first)])
        clients.receive(applied.viewChanges, engine: engine)
        #expect(ids(try engine.snapshot(opened.snapshot.view).rows) == (inSecond + inFirst).map(\.rawValue))
        // Dragging a1 to the top of the view moves it into list B, before b1.
        let move = try engine.moveMutation(view: opened.snapshot.view, rows: 2..<3, to: 0, seenVersion: 2, at: Timestamp(milliseconds: 5))
        #expect(move == .moveItems(ids: [inFirst[0]], toList: second, before: inSecond[0], parent: .clear,
                                    at: Timestamp(milliseconds: 5)))
    }
}
