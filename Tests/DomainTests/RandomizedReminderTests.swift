// A seeded randomized run of edits, completions, deletions, snoozes and dismissals between clock advances, each
// advance claiming what is due as the server does: every reminder fires exactly once (once more per snooze), none
// that is due is missed, and the schedule kept item by item is the one a state builds at once.

import Testing
import TestSupport
@testable import Domain

struct RandomizedReminderTests {
    static let offsets = [-120, -30, 0, 60, 540, -360, 1440 + 540]

    @Test(arguments: [0xA1E7_0001, 0xA1E7_0002, 0xA1E7_0003] as [UInt64])
    func everyReminderFiresExactlyOnce(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var engine = Engine()
        engine.setAlertZone(AlertTestBerlin2026())
        // Another process: applies the same records in the same order.
        var replica = Engine()
        replica.setAlertZone(AlertTestBerlin2026())
        var now = reminderInstant("2026-03-25T12:00:00Z")
        func apply(_ mutations: [Mutation]) throws {
            _ = try engine.apply(mutations)
            _ = try replica.apply(mutations)
        }
        let list = ListID(engine.state.nextIdentifier)
        try apply([.createList(id: list, fields: ListFields(name: "Inbox"), before: nil)])
        var fired: [ReminderKey: Int] = [:]
        var snoozed: [ReminderKey: Int] = [:]
        var live: [ItemID] = []
        var claims = 0

        func randomDue() -> Due? {
            switch random.below(3) {
            case 0: return nil
            case 1: return .date(CalendarDate(daysSinceEpoch: now.milliseconds / 86_400_000 + Int64(random.int(in: -2...6))))
            default:
                let minutes = Int64(random.int(in: -600...(6 * 1440)))
                return .dateTime(Timestamp(milliseconds: now.milliseconds + minutes * 60_000), offsetSeconds: 3600)
            }
        }
        func randomAlerts() -> [Alert] {
            (0..<random.below(4)).map { _ in
                random.chance(75) ? .offset(minutes: random.pick(Self.offsets))
                    : .at(Timestamp(milliseconds: now.milliseconds + Int64(random.int(in: -40 * 1440...5 * 1440)) * 60_000))
            }
        }

        for _ in 0..<600 {
            switch random.below(10) {
            case 0, 1:
                let id = ItemID(engine.state.nextIdentifier)
                try apply([.createItem(id: id, list: list, fields: ItemFields(title: "t", due: randomDue(), alerts: randomAlerts()),
                                       before: nil, at: now)])
                live.append(id)
            case 2 where !live.isEmpty:
                try apply([.updateItems(ids: [random.pick(live)], patch: ItemPatch(due: randomDue().map { .set($0) } ?? .clear), at: now)])
            case 3 where !live.isEmpty:
                try apply([.updateItems(ids: [random.pick(live)], patch: ItemPatch(alerts: randomAlerts()), at: now)])
            case 4 where !live.isEmpty:
                let id = random.pick(live)
                try apply([.updateItems(ids: [id], patch: ItemPatch(done: !engine.item(id)!.done), at: now)])
            case 5 where live.count > 10 && random.chance(30):
                let id = live.remove(at: random.below(live.count))
                try apply([.deleteItems(ids: [id])])
            case 6 where !engine.state.pendingReminders.isEmpty:
                let key = random.pick(engine.state.pendingReminders).key
                if random.chance(60) {
                    snoozed[key, default: 0] += 1
                    try apply([.snoozeReminder(key, until: Timestamp(milliseconds: now.milliseconds + Int64(random.int(in: 1...180)) * 60_000), at: now)])
                } else {
                    try apply([.dismissReminder(key, at: now)])
                }
            default:
                now = Timestamp(milliseconds: now.milliseconds + Int64(random.int(in: 1...720)) * 60_000)
                let due = engine.dueReminders(now: now)
                if let next = engine.nextReminder(now: now) { #expect(due.isEmpty == (next > now)) }
                guard !due.isEmpty else { continue }
                try apply([.fireReminders(reminders: due.map(\.fired), at: now)])
                claims += 1
                for reminder in due {
                    fired[reminder.fired.key, default: 0] += 1
                    #expect(reminder.dueAt <= now)
                }
                #expect(engine.dueReminders(now: now).isEmpty, "what was claimed is not due again")
                try checkNothingDueIsMissed(engine, now: now)
            }
        }
        for (key, count) in fired {
            #expect(count <= 1 + snoozed[key, default: 0], "\(key) fired \(count) times, snoozed \(snoozed[key, default: 0])")
        }
        #expect(replica.state.allReminders == engine.state.allReminders, "another process applying the records agrees")
        var rebuilt = Engine(state: engine.state, today: .epoch)
        rebuilt.setAlertZone(AlertTestBerlin2026())
        #expect(rebuilt.scheduledAlertCount == engine.scheduledAlertCount)
        let later = Timestamp(milliseconds: now.milliseconds + 10 * 86_400_000)
        #expect(rebuilt.dueReminders(now: later) == engine.dueReminders(now: later))
        let refired = fired.values.filter { $0 > 1 }.count
        #expect(claims >= 60 && fired.count >= 100 && refired >= 3,
                "real work: \(claims) claims, \(fired.count) reminders fired, \(refired) fired again after a snooze")
    }

    /// After a claim at `now`, every alert of a live item not done whose instant lies within the last 30 days has a
    /// record: nothing due was left unfired.
    private func checkNothingDueIsMissed(_ engine: Engine, now: Timestamp) throws {
        engine.state.forEachItem { item in
            guard !item.done else { return }
            for alert in item.alerts {
                guard let fireAt = alert.fireInstant(due: item.due, zone: AlertTestBerlin2026()),
                      fireAt <= now, fireAt.milliseconds >= now.milliseconds - Reminder.forgetAfter else { continue }
                let record = engine.state.reminder(ReminderKey(item: item.id, fireAt: fireAt))
                #expect(record != nil, "\(item.id) \(alert) at \(fireAt) is due at \(now) but has not fired")
                if case .snoozed(let until)? = record?.state { #expect(until > now, "a snooze ended at \(until) but did not fire again") }
            }
        }
    }
}
