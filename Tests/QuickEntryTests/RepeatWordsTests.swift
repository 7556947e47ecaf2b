/// A repeat in words (`RepeatWords.text`, the server's `repeat.text`): a table of rules and their words, every
/// phrase of the grammar's table reading back as itself, and random rules whose words are a phrase reading back as
/// the same rule and anchor.

import Domain
import QuickEntry
import Testing
import TestSupport

/// The words of a rule given as RRULE text and anchor.
private func words(_ rrule: String, _ anchor: RepeatRule.Anchor = .due) throws -> String {
    RepeatWords.text(try RepeatRule(rrule: rrule, anchor: anchor))
}

@Test func rulesInWords() throws {
    let table: [(String, RepeatRule.Anchor, String)] = [
        ("FREQ=DAILY", .due, "every day"),
        ("FREQ=DAILY;INTERVAL=2", .due, "every other day"),
        ("FREQ=DAILY;INTERVAL=3", .completion, "every 3 days after done"),
        ("FREQ=WEEKLY", .due, "every week"),
        ("FREQ=WEEKLY;BYDAY=MO,WE", .due, "every mon, wed"),
        ("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", .due, "every weekday"),
        ("FREQ=WEEKLY;BYDAY=SA,SU", .due, "every weekend"),
        ("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE", .due, "every other week on mon and wed"),
        ("FREQ=WEEKLY;INTERVAL=3;BYDAY=FR", .due, "every 3 weeks on fri"),
        ("FREQ=MONTHLY", .due, "every month"),
        ("FREQ=MONTHLY;BYMONTHDAY=15", .due, "every month on the 15th"),
        ("FREQ=MONTHLY;BYMONTHDAY=1,15,-1", .due, "every month on the 1st, the 15th and the last day"),
        ("FREQ=MONTHLY;BYDAY=-1FR", .due, "every month on the last fri"),
        ("FREQ=MONTHLY;BYDAY=1TU,3TU", .completion, "every month on the 1st tue and the 3rd tue after done"),
        ("FREQ=MONTHLY;INTERVAL=6;BYMONTHDAY=22", .due, "every 6 months on the 22nd"),
        ("FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=25", .due, "every year on dec 25"),
        ("FREQ=YEARLY", .due, "every year"),
        // What no phrase says: described, after a comma for an end or an anchor.
        ("FREQ=DAILY;COUNT=10", .due, "every day, 10 times"),
        ("FREQ=DAILY;COUNT=1", .due, "every day, once"),
        ("FREQ=WEEKLY;UNTIL=20261231", .due, "every week, until 2026-12-31"),
        ("FREQ=WEEKLY", .dueFuture, "every week, next after today"),
        ("FREQ=MONTHLY;BYMONTHDAY=-2", .due, "every month on the 2nd last day"),
        ("FREQ=MONTHLY;BYDAY=-2MO", .due, "every month on the 2nd last mon"),
        ("FREQ=YEARLY;BYMONTH=1,7", .due, "every year in jan, jul"),
        ("FREQ=WEEKLY;INTERVAL=2;WKST=SU;BYDAY=MO", .due, "every other week on mon, weeks starting sun"),
    ]
    for (rrule, anchor, expected) in table {
        #expect(try words(rrule, anchor) == expected, "\(rrule) from \(anchor)")
    }
}

/// The rule and anchor `text` reads as in an item, or nil.
private func read(_ text: String) -> RepeatRule? {
    let parsed = ItemGrammar.parse("x " + text, clock: clock(), lists: .known(directory))
    guard parsed.warnings.isEmpty, parsed.title == "x" else { return nil }
    return parsed.repeat
}

@Test(arguments: repeatForms.filter { $0.rule != nil && $0.warnings.isEmpty })
func everyPhraseReadsBackFromItsWords(_ row: RepeatRow) throws {
    let parsed = ItemGrammar.parse(row.text, clock: clock(), lists: .known(directory))
    let rule = try #require(parsed.repeat)
    guard rule.anchor != .dueFuture else { return } // org's ++ has no words (a cookie)
    let text = RepeatWords.text(rule)
    #expect(read(text) == rule, "\(row.text) → \(text)")
}

@Test func randomRulesReadBackFromTheirWords() throws {
    var random = SplitMix64(seed: 19)
    var checked = 0
    var withParts = 0
    let weekdays = RepeatRule.Weekday.allCases
    for _ in 0..<3_000 {
        let frequency = random.pick(RepeatRule.Frequency.allCases)
        let interval = random.chance(50) ? 1 : 1 + random.below(12)
        let anchor: RepeatRule.Anchor = random.chance(30) ? .completion : .due
        var days: Set<RepeatRule.WeekdayRule> = []
        var monthDays: Set<Int> = []
        var months: Set<Int> = []
        switch frequency {
        case .daily: break
        case .weekly:
            if random.chance(60) {
                for _ in 0...random.below(4) { days.insert(RepeatRule.WeekdayRule(random.pick(weekdays))) }
            }
        case .monthly:
            if random.chance(40) {
                for _ in 0...random.below(3) { monthDays.insert(random.chance(20) ? -1 : 1 + random.below(28)) }
            } else if random.chance(60) {
                let ordinals = [1, 2, 3, 4, 5, -1]
                for _ in 0...random.below(2) { days.insert(RepeatRule.WeekdayRule(random.pick(weekdays), ordinal: random.pick(ordinals))) }
            }
        case .yearly:
            if random.chance(60) {
                let month = 1 + random.below(12)
                months = [month]
                monthDays = [1 + random.below(CalendarDate.daysInMonth(year: 2001, month: month))]
            }
        }
        guard let rule = try? RepeatRule(frequency: frequency, interval: interval, weekdays: days, monthDays: monthDays,
                                         months: months, anchor: anchor) else { continue }
        let text = RepeatWords.text(rule)
        #expect(read(text) == rule, "\(rule.rrule) from \(anchor) → \(text)")
        checked += 1
        if !(days.isEmpty && monthDays.isEmpty) { withParts += 1 }
    }
    #expect(checked > 2_000 && withParts > 800, "checked \(checked), \(withParts) with BY parts")
}
