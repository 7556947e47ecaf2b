/// Reminders through the in-process server: a watching client is sent `reminder/fired` when `debug/setClock`
/// passes an alert (after the views' changes, before the answer), once; dismissing and snoozing; alerts due before
/// the client watched fire late at once; a client that does not watch gets nothing; alerts are checked with their
/// paths and undone like any field.

import Domain
import Server
import TasklsProtocol
import Testing
import Wire

@Suite struct ReminderServerTests {
    /// A server on a manual clock at 2026-11-22T08:00:00Z, in Europe/Berlin, with one list.
    static func server(clock: String = "2026-11-22T08:00:00Z") throws -> (TestClient, TasklsProtocol.ListID) {
        let manual = ManualClock(instant(clock))
        let client = try TestClient(initialize: false, options: ServerOptions(logger: .silent, manualClock: manual))
        _ = try client.send(Initialize(processId: nil, timeZone: "Europe/Berlin"))
        client.notify(Initialized())
        let list = try client.send(ListsCreate(name: "Inbox")).list.id
        return (client, list)
    }

    static func instant(_ text: String) -> Timestamp {
        switch try? Domain.Due(parsing: text) {
        case .dateTime(let instant, offsetSeconds: _)?: return instant
        default: fatalError("not an instant: \(text)")
        }
    }

    /// The reminders among the notifications received so far (taken).
    static func fired(_ client: TestClient) -> [ReminderFired] {
        client.takeNotifications().compactMap { if case .reminderFired(let fired) = $0 { fired } else { nil } }
    }

    @Test func aWatchingClientIsToldOnceWhenTheClockPassesAnAlert() throws {
        let (client, list) = try Self.server()
        let item = try client.send(ItemsCreate(list: list, title: "Call Ann", due: "2026-11-22T11:00:00+01:00",
                                               alerts: [.offset(-60), .at("2026-11-22T08:30:00Z")])).item
        #expect(item.alerts == [.offset(-60), .at("2026-11-22T08:30:00.000Z")])
        #expect(try client.send(RemindersWatch(watch: true)).watch)
        #expect(Self.fired(client).isEmpty)
        _ = try client.send(DebugSetClock(now: "2026-11-22T08:10:00Z"))
        #expect(Self.fired(client).isEmpty)
        _ = try client.send(DebugSetClock(now: "2026-11-22T09:00:00Z"))
        let first = Self.fired(client)
        #expect(first.map(\.fireAt) == ["2026-11-22T08:30:00.000Z", "2026-11-22T09:00:00.000Z"])
        #expect(first.map(\.alert) == [.at("2026-11-22T08:30:00.000Z"), .offset(-60)])
        #expect(first.map(\.late) == [true, false], "the first is 30 minutes late")
        #expect(first.allSatisfy { $0.item.id == item.id && $0.item.title == "Call Ann" })
        _ = try client.send(DebugSetClock(now: "2026-11-22T12:00:00Z"))
        #expect(Self.fired(client).isEmpty, "fired once")
        let pending = try client.send(RemindersList()).reminders
        #expect(pending.map(\.fireAt) == ["2026-11-22T08:30:00.000Z", "2026-11-22T09:00:00.000Z"])
        #expect(pending.map(\.firedAt) == ["2026-11-22T09:00:00.000Z", "2026-11-22T09:00:00.000Z"])
    }

    @Test func theNotificationComesAfterTheViewsChangesAndBeforeTheAnswer() throws {
        let (client, list) = try Self.server()
        _ = try client.send(ItemsCreate(list: list, title: "Soon", due: "2026-11-22T09:00:00Z", alerts: [.offset(0)]))
        _ = try client.send(ListsOpen(.group(.overdue)))
        _ = try client.send(RemindersWatch(watch: true))
        _ = client.takeNotifications()
        _ = try client.send(DebugSetClock(now: "2026-11-22T09:00:01Z"))
        #expect(client.takeNotifications().map(\.method) == ["view/changed", "reminder/fired"])
    }

    @Test func dismissingAndSnoozing() throws {
        let (client, list) = try Self.server()
        let item = try client.send(ItemsCreate(list: list, title: "Pay rent", due: "2026-11-22T09:00:00Z", alerts: [.offset(0)])).item
        _ = try client.send(RemindersWatch(watch: true))
        _ = try client.send(DebugSetClock(now: "2026-11-22T09:00:00Z"))
        let fired = try #require(Self.fired(client).first)
        // Snoozed for 10 minutes: not pending meanwhile, fires again at the end, once.
        let snoozed = try client.send(RemindersSnooze(item: item.id, fireAt: fired.fireAt, .minutes(10)))
        #expect(snoozed.until == "2026-11-22T09:10:00.000Z")
        #expect(try client.send(RemindersList()).reminders.isEmpty)
        _ = try client.send(DebugSetClock(now: "2026-11-22T09:09:59Z"))
        #expect(Self.fired(client).isEmpty)
        _ = try client.send(DebugSetClock(now: "2026-11-22T09:10:00Z"))
        #expect(Self.fired(client).map(\.fireAt) == ["2026-11-22T09:00:00.000Z"])
        _ = try client.send(DebugSetClock(now: "2026-11-22T09:30:00Z"))
        #expect(Self.fired(client).isEmpty)
        // Snoozing until an instant given with another offset; then dismissed: never again.
        #expect(try client.send(RemindersSnooze(item: item.id, fireAt: "2026-11-22T10:00:00+01:00", .until("2026-11-22T11:00:00+01:00"))).until
                == "2026-11-22T10:00:00.000Z")
        _ = try client.send(RemindersDismiss(item: item.id, fireAt: fired.fireAt))
        _ = try client.send(DebugSetClock(now: "2026-11-22T11:00:00Z"))
        #expect(Self.fired(client).isEmpty)
        #expect(try client.send(RemindersList()).reminders.isEmpty)
        // Refusals.
        let again = try client.call(RemindersDismiss(item: item.id, fireAt: fired.fireAt))
        #expect(again.refusalReason == "notFound")
        if case .failure(let error) = again {
            #expect(error.message.contains("no reminder of item i2 at 2026-11-22T09:00:00.000Z"), "\(error.message)")
            #expect(error.data?["ids"] == .array([]))
        }
        let unknownItem = try client.call(RemindersSnooze(item: TasklsProtocol.ItemID(99), fireAt: fired.fireAt, .minutes(5)))
        #expect(unknownItem.refusalReason == "notFound")
        if case .failure(let error) = unknownItem { #expect(error.data?["ids"] == .array(["i99"])) }
        let badInstant = try client.call(RemindersDismiss(item: item.id, fireAt: "2026-11-22"))
        #expect(badInstant.errorCode == .invalidParams)
        // None of this is an edit of a task: the revision stays, and the step to undo is the creation.
        #expect(try client.send(ListsList()).revision == 2)
        #expect(try client.send(Undo()).undone == "items/create")
    }

    @Test func alertsDueBeforeTheClientWatchedFireLateAtOnce() throws {
        let (client, list) = try Self.server()
        _ = try client.send(ItemsCreate(list: list, title: "Missed", alerts: [.at("2026-11-22T07:00:00Z")]))
        _ = try client.send(ItemsCreate(list: list, title: "Just now", alerts: [.at("2026-11-22T07:59:30Z")]))
        _ = try client.send(ItemsCreate(list: list, title: "Later", alerts: [.at("2026-11-22T09:00:00Z")]))
        _ = try client.send(DebugSetClock(now: "2026-11-22T08:00:00Z"))
        #expect(Self.fired(client).isEmpty, "a client that does not watch is sent nothing, and nothing is claimed")
        #expect(try client.send(RemindersList()).reminders.isEmpty)
        _ = try client.send(RemindersWatch(watch: true))
        let fired = Self.fired(client)
        #expect(fired.map(\.item.title) == ["Missed", "Just now"])
        #expect(fired.map(\.late) == [true, false])
        _ = try client.send(RemindersWatch(watch: false))
        _ = try client.send(DebugSetClock(now: "2026-11-22T10:00:00Z"))
        #expect(Self.fired(client).isEmpty)
    }

    @Test func aDayDueFiresAtTheWallClockOfTheClientsZoneAndCompletingDismisses() throws {
        let (client, list) = try Self.server()
        let item = try client.send(ItemsCreate(list: list, title: "Rent", due: "2026-11-23", alerts: [.offset(540), .offset(-360)])).item
        _ = try client.send(RemindersWatch(watch: true))
        _ = try client.send(DebugSetClock(now: "2026-11-22T16:59:59Z"))
        #expect(Self.fired(client).isEmpty)
        _ = try client.send(DebugSetClock(now: "2026-11-22T17:00:00Z"))
        #expect(Self.fired(client).map(\.fireAt) == ["2026-11-22T17:00:00.000Z"], "the day before at 18:00 in Berlin")
        #expect(try client.send(RemindersList()).reminders.count == 1)
        _ = try client.send(ItemsUpdate(.id(item.id), done: true))
        #expect(try client.send(RemindersList()).reminders.isEmpty, "completing removes its pending reminders")
        _ = try client.send(DebugSetClock(now: "2026-11-23T09:00:00Z"))
        #expect(Self.fired(client).isEmpty, "a done item fires nothing")
    }

    @Test func alertsAreCheckedWithTheirPathsShownInRowsAndUndoneLikeAnyField() throws {
        let (client, list) = try Self.server()
        let tooFar = try client.request("items/create", ["list": list.json, "title": "x", "alerts": [["offset": 0], ["offset": 600_000]]])
        #expect(tooFar.failureMessage == "params.alerts[1].offset: must be within 527040 minutes (366 days) either way")
        let both = try client.request("items/create", ["list": list.json, "title": "x", "alerts": [["offset": 0, "at": "2026-11-22T08:00:00Z"]]])
        #expect(both.failureMessage == "params.alerts[0]: give at or offset, not both")
        let day = try client.request("items/create", ["list": list.json, "title": "x", "alerts": [["at": "2026-11-22"]]])
        #expect(day.failureMessage?.hasPrefix("params.alerts[0].at: expected an instant") == true)
        let item = try client.send(ItemsCreate(list: list, title: "Call", alerts: [.offset(5), .offset(5), .offset(-5)])).item
        #expect(item.alerts == [.offset(5), .offset(-5)], "repeats are dropped, the first kept")
        let view = try client.send(ListsOpen(.list(list)))
        guard case .item(let row)? = view.rows.first else { Issue.record("no row"); return }
        #expect(row.hasAlerts)
        _ = try client.send(ItemsUpdate(.id(item.id), alerts: []))
        #expect(try client.send(ItemsGet(id: item.id)).alerts.isEmpty)
        let undone = try client.send(Undo())
        #expect(undone.undone == "items/update")
        #expect(try client.send(ItemsGet(id: item.id)).alerts == [.offset(5), .offset(-5)])
    }
}

extension Result where Failure == ResponseError {
    /// The error's message, for a refused request.
    var failureMessage: String? {
        if case .failure(let error) = self { return error.message }
        return nil
    }
}

@Suite struct ReminderRealClockTests {
    /// On the real clock the loop sleeps only until the next alert: a reminder a quarter of a second ahead arrives by
    /// itself, on time, with nothing sent meanwhile.
    @Test func theServerWakesForTheNextAlert() throws {
        let client = try TestClient()
        let list = try client.send(ListsCreate(name: "Inbox")).list.id
        let soon = Timestamp(milliseconds: systemClock().milliseconds + 250)
        let item = try client.send(ItemsCreate(list: list, title: "Soon", alerts: [.at(soon.iso8601)])).item
        #expect(try client.send(RemindersWatch(watch: true)).watch)
        let notification = try client.nextNotification()
        guard case .reminderFired(let fired) = notification else {
            Issue.record("expected reminder/fired, got \(notification.method)")
            return
        }
        #expect(fired.item.id == item.id && fired.fireAt == soon.iso8601 && !fired.late)
        #expect(systemClock() >= soon)
    }
}
