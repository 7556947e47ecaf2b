// Tables of alerts' fire instants (offsets on due days and instants across daylight saving in Europe/Berlin,
// absolute alerts, no due) and of the reminder records (fire once, a new due is a new identity, done items,
// snooze, dismiss, forgetting).

import Testing
@testable import Domain

/// Europe/Berlin in 2026: UTC+2 from 2026-03-29T01:00Z to 2026-10-25T01:00Z, else UTC+1 (no time zone database).
struct AlertTestBerlin2026: AlertZone {
    static let summerStart = Timestamp(milliseconds: 1_774_746_000_000)   // 2026-03-29T01:00:00Z
    static let summerEnd = Timestamp(milliseconds: 1_792_890_000_000)     // 2026-10-25T01:00:00Z

    func offsetSeconds(at instant: Timestamp) -> Int {
        instant >= Self.summerStart && instant < Self.summerEnd ? 7200 : 3600
    }
}

/// An instant from its ISO 8601 text (with offset).
func reminderInstant(_ text: String) -> Timestamp {
    guard case .dateTime(let instant, _)? = try? Due(parsing: text) else { fatalError("not an instant: \(text)") }
    return instant
}

struct AlertTests {
    @Test(arguments: [
        // A due instant: minutes after it, whatever the zone.
        ("2026-03-29T10:00:00+02:00", -60, "2026-03-29T07:00:00Z"),
        ("2026-03-29T10:00:00+02:00", 0, "2026-03-29T08:00:00Z"),
        ("2026-10-25T01:30:00Z", 90, "2026-10-25T03:00:00Z"),
        // A due day: the wall clock that long after its local midnight, in the zone's offset then.
        ("2026-03-28", 540, "2026-03-28T08:00:00Z"),          // 9:00 CET
        ("2026-03-29", 540, "2026-03-29T07:00:00Z"),          // 9:00 CEST, on the day the clocks go forward
        ("2026-03-30", -360, "2026-03-29T16:00:00Z"),         // the day before at 18:00 CEST
        ("2026-03-29", 150, "2026-03-29T01:30:00Z"),          // 2:30 does not exist: 3:30 CEST
        ("2026-10-25", 150, "2026-10-25T00:30:00Z"),          // 2:30 happens twice: the first (CEST)
        ("2026-10-25", 540, "2026-10-25T08:00:00Z"),          // 9:00 CET, on the day the clocks go back
        ("2026-10-24", 1440 + 540, "2026-10-25T08:00:00Z"),   // the next day at 9:00
        ("2026-11-23", 0, "2026-11-22T23:00:00Z"),            // midnight
    ])
    func relativeAlertsFireWhereTheWallClockSays(due: String, minutes: Int, expected: String) throws {
        let fire = Alert.offset(minutes: minutes).fireInstant(due: try Due(parsing: due), zone: AlertTestBerlin2026())
        #expect(fire == reminderInstant(expected), "\(due) \(minutes) min: \(fire?.iso8601 ?? "none")")
    }

    @Test func absoluteAlertsFireAtTheirInstantAndRelativeOnesNeedADue() throws {
        let at = reminderInstant("2026-11-22T09:00:00Z")
        #expect(Alert.at(at).fireInstant(due: nil, zone: AlertTestBerlin2026()) == at)
        #expect(Alert.at(at).fireInstant(due: try Due(parsing: "2030-01-01"), zone: AlertTestBerlin2026()) == at)
        #expect(Alert.offset(minutes: -60).fireInstant(due: nil, zone: AlertTestBerlin2026()) == nil)
    }

    @Test func alertsAreValidatedWithTheirPathsAndDeduplicated() throws {
        #expect(try Validation.alerts([.offset(minutes: 5), .offset(minutes: 5), .at(reminderInstant("2026-11-22T09:00:00Z"))])
                == [.offset(minutes: 5), .at(reminderInstant("2026-11-22T09:00:00Z"))])
        #expect(throws: DomainError.invalidField(field: "alerts[1].offset", problem: "must be within 527040 minutes (366 days) either way")) {
            try Validation.alerts([.offset(minutes: 0), .offset(minutes: 527_041)])
        }
        #expect(throws: DomainError.invalidField(field: "alerts", problem: "must hold at most 20 alerts")) {
            try Validation.alerts((0...20).map { .offset(minutes: $0) })
        }
        // 21 given, 20 once repeats are dropped: accepted.
        #expect(try Validation.alerts((0...19).map { .offset(minutes: $0) } + [.offset(minutes: 0)]).count == 20)
    }
}

/// An engine with one list, reading day-relative alerts in Berlin.
struct ReminderBench {
    var engine = Engine()
    let list: ListID
    let time = reminderInstant("2026-11-22T08:00:00Z")

    init() throws {
        engine.setAlertZone(AlertTestBerlin2026())
        list = try engine.makeList()
    }

    mutating func item(_ title: String, due: String? = nil, alerts: [Alert], done: Bool = false) throws -> ItemID {
        let id = ItemID(engine.state.nextIdentifier)
        _ = try engine.apply([.createItem(id: id, list: list, fields: ItemFields(title: title, done: done, due: try due.map { text throws(DomainError) in try Due(parsing: text) },
                                                                               alerts: alerts), before: nil, at: time)])
        return id
    }

    /// Claims what is due at `now`, as the server does; the keys fired.
    mutating func claim(_ now: String) throws -> [ReminderKey] {
        let due = engine.dueReminders(now: reminderInstant(now))
        if !due.isEmpty { _ = try engine.apply([.fireReminders(reminders: due.map(\.fired), at: reminderInstant(now))]) }
        return due.map(\.fired.key)
    }
}

struct ReminderTests {
    @Test func anAlertFiresOnceAndOnlyWhenItsInstantHasCome() throws {
        var bench = try ReminderBench()
        let id = try bench.item("Call", due: "2026-11-23T10:00:00+01:00", alerts: [.offset(minutes: -60), .offset(minutes: 0)])
        #expect(bench.engine.nextReminder(now: bench.time) == reminderInstant("2026-11-23T08:00:00Z"))
        #expect(try bench.claim("2026-11-23T07:59:59.999Z").isEmpty)
        #expect(try bench.claim("2026-11-23T08:00:00Z") == [ReminderKey(item: id, fireAt: reminderInstant("2026-11-23T08:00:00Z"))])
        #expect(try bench.claim("2026-11-23T08:30:00Z").isEmpty)
        let revision = bench.engine.revision
        #expect(try bench.claim("2026-11-23T12:00:00Z") == [ReminderKey(item: id, fireAt: reminderInstant("2026-11-23T09:00:00Z"))])
        #expect(bench.engine.revision == revision, "firing is not an edit of a task")
        #expect(bench.engine.nextReminder(now: reminderInstant("2026-11-23T12:00:00Z")) == nil)
        #expect(bench.engine.state.pendingReminders.map(\.key.fireAt) == [reminderInstant("2026-11-23T08:00:00Z"), reminderInstant("2026-11-23T09:00:00Z")])
    }

    @Test func anotherDueIsAnotherReminderAndAnEditOfSomethingElseIsNot() throws {
        var bench = try ReminderBench()
        let id = try bench.item("Rent", due: "2026-11-23", alerts: [.offset(minutes: 540)])
        #expect(try bench.claim("2026-11-23T08:00:00Z").count == 1)
        _ = try bench.engine.apply([.updateItems(ids: [id], patch: ItemPatch(title: "Pay rent"), at: bench.time)])
        #expect(try bench.claim("2026-11-23T09:00:00Z").isEmpty, "an unchanged due does not fire twice")
        let moved = try bench.engine.apply([.updateItems(ids: [id], patch: ItemPatch(due: .set(try Due(parsing: "2026-11-24"))), at: bench.time)])
        #expect(try bench.claim("2026-11-24T08:00:00Z") == [ReminderKey(item: id, fireAt: reminderInstant("2026-11-24T08:00:00Z"))])
        // Undoing the due change does not fire the first reminder again: its record is kept.
        _ = try bench.engine.apply(try bench.engine.state.inverse(of: moved.changes, at: bench.time))
        #expect(bench.engine.item(id)?.due == .date(CalendarDate(year: 2026, month: 11, day: 23)!))
        #expect(try bench.claim("2026-11-24T09:00:00Z").isEmpty)
    }

    @Test func relativeAlertsWaitForADueAndDoneItemsNeverFire() throws {
        var bench = try ReminderBench()
        let undated = try bench.item("Someday", alerts: [.offset(minutes: -30)])
        _ = try bench.item("Done", due: "2026-11-22T09:00:00Z", alerts: [.offset(minutes: 0)], done: true)
        #expect(bench.engine.scheduledAlertCount == 0)
        #expect(try bench.claim("2026-11-30T00:00:00Z").isEmpty)
        _ = try bench.engine.apply([.updateItems(ids: [undated], patch: ItemPatch(due: .set(try Due(parsing: "2026-12-01T10:00:00Z"))), at: bench.time)])
        #expect(bench.engine.nextReminder(now: bench.time) == reminderInstant("2026-12-01T09:30:00Z"))
    }

    @Test func completingDismissesAndReopeningBringsNothingBack() throws {
        var bench = try ReminderBench()
        let id = try bench.item("Call", due: "2026-11-22T09:00:00Z", alerts: [.offset(minutes: 0), .offset(minutes: 60)])
        #expect(try bench.claim("2026-11-22T09:00:00Z").count == 1)
        let done = try bench.engine.apply([.updateItems(ids: [id], patch: ItemPatch(done: true), at: bench.time)])
        #expect(done.changes.reminders.map(\.new?.state) == [.dismissed])
        #expect(bench.engine.state.pendingReminders.isEmpty)
        #expect(try bench.claim("2026-11-22T11:00:00Z").isEmpty, "a done item fires nothing")
        _ = try bench.engine.apply(try bench.engine.state.inverse(of: done.changes, at: bench.time))
        #expect(bench.engine.state.pendingReminders.isEmpty, "undo does not unfire or undismiss")
        #expect(try bench.claim("2026-11-22T11:00:00Z").map(\.fireAt) == [reminderInstant("2026-11-22T10:00:00Z")], "the second alert, not yet fired, does")
    }

    @Test func aRepeatingItemMovingOnAnswersItsOccurrencesRemindersAndTheNextOnesFire() throws {
        var bench = try ReminderBench()
        let id = try bench.item("Stretch", due: "2026-11-23", alerts: [.offset(minutes: 540)])
        _ = try bench.engine.apply([.updateItems(ids: [id], patch: ItemPatch(repeatRule: .set(try RepeatRule(rrule: "FREQ=DAILY", anchor: .due))),
                                                 at: bench.time)])
        #expect(try bench.claim("2026-11-23T08:30:00Z").count == 1, "9:00 in Berlin on the 23rd")
        #expect(bench.engine.state.pendingReminders.count == 1)
        // Completing the occurrence moves the item on (it is not done) and answers its reminder.
        let next = try Due(parsing: "2026-11-24")
        let moved = try bench.engine.apply([.advanceItems(advances: [Advance(id: id, next: next, outcome: .completed)], at: bench.time)])
        #expect(bench.engine.item(id)?.done == false && bench.engine.item(id)?.due == next)
        #expect(moved.changes.reminders.map(\.new?.state) == [.dismissed])
        #expect(bench.engine.state.pendingReminders.isEmpty)
        // The next occurrence's reminder fires in its turn; a skip answers it as well.
        #expect(try bench.claim("2026-11-24T08:00:00Z") == [ReminderKey(item: id, fireAt: reminderInstant("2026-11-24T08:00:00Z"))])
        _ = try bench.engine.apply([.advanceItems(advances: [Advance(id: id, next: try Due(parsing: "2026-11-25"), outcome: .skipped)], at: bench.time)])
        #expect(bench.engine.state.pendingReminders.isEmpty)
    }

    @Test func aSnoozedReminderFiresAgainOnceAndADismissedOneNever() throws {
        var bench = try ReminderBench()
        let id = try bench.item("Call", due: "2026-11-22T09:00:00Z", alerts: [.offset(minutes: 0)])
        let key = ReminderKey(item: id, fireAt: reminderInstant("2026-11-22T09:00:00Z"))
        #expect(try bench.claim("2026-11-22T09:00:00Z") == [key])
        _ = try bench.engine.apply([.snoozeReminder(key, until: reminderInstant("2026-11-22T09:10:00Z"), at: reminderInstant("2026-11-22T09:01:00Z"))])
        #expect(bench.engine.state.pendingReminders.isEmpty)
        #expect(bench.engine.dueReminders(now: reminderInstant("2026-11-22T09:10:00Z")).map(\.dueAt) == [reminderInstant("2026-11-22T09:10:00Z")])
        #expect(try bench.claim("2026-11-22T09:10:00Z") == [key])
        #expect(try bench.claim("2026-11-22T09:20:00Z").isEmpty)
        _ = try bench.engine.apply([.dismissReminder(key, at: bench.time)])
        #expect(bench.engine.state.reminder(key)?.state == .dismissed)
        #expect(throws: DomainError.refused(reason: "notFound", message: "no reminder of item \(id) at 2026-11-22T09:00:00.000Z: it was dismissed")) {
            try bench.engine.apply([.dismissReminder(key, at: bench.time)])
        }
        let unknown = ReminderKey(item: id, fireAt: reminderInstant("2026-11-22T10:00:00Z"))
        #expect(throws: DomainError.refused(reason: "notFound", message: "no reminder of item \(id) at 2026-11-22T10:00:00.000Z: it has not fired (or is forgotten)")) {
            try bench.engine.apply([.snoozeReminder(unknown, until: bench.time, at: bench.time)])
        }
    }

    @Test func recordsAreForgottenThirtyDaysOnAndOlderAlertsNeverFire() throws {
        var bench = try ReminderBench()
        let stale = try bench.item("Old", alerts: [.at(reminderInstant("2026-10-01T00:00:00Z"))])
        let recent = try bench.item("Recent", alerts: [.at(reminderInstant("2026-11-01T00:00:00Z"))])
        #expect(try bench.claim("2026-11-22T08:00:00Z") == [ReminderKey(item: recent, fireAt: reminderInstant("2026-11-01T00:00:00Z"))])
        #expect(bench.engine.state.reminders(of: stale).isEmpty)
        #expect(bench.engine.state.reminderCount == 1)
        let later = try bench.item("Later", alerts: [.at(reminderInstant("2026-12-05T00:00:00Z"))])
        #expect(try bench.claim("2026-12-05T00:00:00Z").map(\.item) == [later])
        // 2026-11-01 is more than 30 days before 2026-12-05: forgotten, and too old to fire again.
        #expect(bench.engine.state.reminderCount == 1)
        #expect(try bench.claim("2026-12-05T00:00:01Z").isEmpty)
    }

    @Test func theScheduleOfAStateBuiltAtOnceIsTheOneKeptUpItemByItem() throws {
        var bench = try ReminderBench()
        for day in 1...9 {
            _ = try bench.item("Item \(day)", due: "2026-11-2\(day)", alerts: [.offset(minutes: 540), .offset(minutes: -360), .at(reminderInstant("2026-11-22T12:00:00Z"))])
        }
        _ = try bench.claim("2026-11-23T00:00:00Z")
        var rebuilt = Engine(state: bench.engine.state, today: .epoch)
        rebuilt.setAlertZone(AlertTestBerlin2026())
        #expect(rebuilt.scheduledAlertCount == bench.engine.scheduledAlertCount)
        let now = reminderInstant("2026-12-15T00:00:00Z")
        #expect(rebuilt.dueReminders(now: now) == bench.engine.dueReminders(now: now))
        #expect(bench.engine.dueReminders(now: now).count == 27 - 14, "27 reminders (3 per item), 14 of them fired on the 23rd")
    }
}
