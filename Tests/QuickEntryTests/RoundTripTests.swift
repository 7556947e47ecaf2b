/// Randomized round trips: random fields, written as a person would type them (in any order, with any white
/// space, escaping what must be), read back as the same fields; dues checked against Foundation's calendar.

import Domain
import Foundation
import QuickEntry
import Testing
import TestSupport

/// Title words: plain, accented, wide, emoji (with modifiers and joiners), markers inside words, and words
/// that start with a marker (written escaped).
private let plainWords = ["Buy", "milk", "call", "Mom", "Überweisung", "café", "naïve", "漢字", "👍🏽", "👩‍👩‍👧", "e\u{301}",
                          "C#", "a@b.c", "wow!", "x^2", "half-done", "#", "@", "^", "-", "\\n", "C:\\dir", "http://x//y",
                          "don't", "(a)", "𝔘𝔫𝔦"]
private let markedWords = ["#42", "!urgent", "!", "@home", "^fri", "//", "due:fri", "DUE:x", "\\#x", "\\\\", "\\!"]

/// Tags and list names (each list name folds to a key no other has).
private let tagNames = ["home", "Home", "work", "a|b", "c,", "漢字", "👍", "naïve", "x#y", "!", "@"]
private let listNames = ["Inbox", "Groceries", "Work stuff", "Café", "Ünïcödé list", "漢字", "a b  c", "L1"]

private struct Zone {
    let name: String
    let rules: ZoneRules
    let calendar: Calendar

    init(_ name: String) {
        self.name = name
        rules = ZoneRules(name)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: name)!
        self.calendar = calendar
    }
}

private let zones = ["Europe/Paris", "America/New_York", "Pacific/Auckland", "Asia/Kolkata", "UTC", "Australia/Lord_Howe"].map(Zone.init)

/// What a generated line must read back as, and counts of what the run covered.
private struct Expected {
    var title: String?
    var due: String?
    var priority: Priority?
    var tags: [String]?
    var list: ListID?
    var notes: String?
}

@Test(arguments: [1, 2, 3, 4])
func randomFieldsReadBackFromTheTextThatWritesThem(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    let lists = ListDirectory(listNames.enumerated().map { (ListID(UInt64($0.offset + 1)), $0.element) })
    var covered: [String: Int] = [:]
    for _ in 0..<500 {
        let zone = random.pick(zones)
        // Any instant from 2000 to 2040.
        let now = Timestamp(milliseconds: Int64(946_684_800_000) + Int64(random.below(1_262_304_000)) * 1000)
        let clock = ClientClock(now: now, zone: zone.rules)
        var expected = Expected()
        var tokens: [String] = []

        var titleWords: [String] = []
        for _ in 0..<random.below(5) {
            if random.chance(25) {
                let word = random.pick(markedWords)
                titleWords.append(word)
                tokens.append("\\" + word)
            } else {
                let word = random.pick(plainWords)
                titleWords.append(word)
                tokens.append(word)
            }
        }
        // Title words keep their order; fields go anywhere among them.
        var line = tokens
        if !titleWords.isEmpty { expected.title = titleWords.joined(separator: " ") }
        /// Puts `token` anywhere after the place `after` (returns where it went).
        @discardableResult
        func insert(_ token: String, after: Int = -1) -> Int {
            let place = after + 1 + random.below(line.count - after)
            line.insert(token, at: place)
            return place
        }

        if random.chance(60) {
            let (token, due) = randomDue(&random, clock: clock, zone: zone)
            insert(token)
            expected.due = due
            covered["due", default: 0] += 1
        }
        if random.chance(50) {
            let (spelling, priority) = random.pick([("!", Priority.low), ("!!", .medium), ("!!!", .high), ("!low", .low),
                                                    ("!MEDIUM", .medium), ("!h", .high), ("!none", Priority.none), ("!Med", .medium)])
            insert(spelling)
            expected.priority = priority
            covered["priority", default: 0] += 1
        }
        if random.chance(50) {
            let tags = random.sample(tagNames, count: 1 + random.below(3))
            // Tags keep their order among themselves.
            var last = -1
            for tag in tags { last = insert("#" + tag, after: last) }
            expected.tags = tags
            covered["tags", default: 0] += 1
        }
        if random.chance(50) {
            let index = random.below(listNames.count)
            var name = listNames[index]
            if random.chance(50) { name = random.chance(50) ? name.uppercased() : name.lowercased() }
            insert(name.contains(" ") ? "@\"\(name)\"" : "@" + name)
            expected.list = ListID(UInt64(index + 1))
            covered["list", default: 0] += 1
        }
        if random.chance(40) {
            let notes = random.pick(["2 litres", "#not a tag ^fri !high", "line one\nline two", "a // b", "漢字 👍🏽", "\\#"])
            line.append("//")
            line.append(notes)
            expected.notes = notes
            covered["notes", default: 0] += 1
        }
        var text = random.pick(["", " ", "\t"])
        for (offset, token) in line.enumerated() {
            if offset > 0 { text += random.pick([" ", "  ", "\t", "\n", " \u{A0}", "\u{3000}"]) }
            text += token
        }
        text += random.pick(["", " ", "\n"])

        let parsed = ItemGrammar.parse(text, clock: clock, lists: .known(lists))
        let context = "seed \(seed): \(text.debugDescription)"
        #expect(parsed.warnings.isEmpty || parsed.warnings.allSatisfy { $0.reason == .skippedTime }, "\(context): \(parsed.warnings)")
        #expect(parsed.title == expected.title, "\(context)")
        #expect(parsed.priority == expected.priority, "\(context)")
        #expect(parsed.tags == expected.tags, "\(context)")
        #expect(parsed.list == expected.list, "\(context)")
        #expect(parsed.notes == expected.notes, "\(context)")
        if let due = expected.due, due.hasPrefix("local ") {
            try checkLocal(due, parsed, zone: zone, context: context)
            covered["local time", default: 0] += 1
        } else {
            #expect(written(parsed.due) == expected.due, "\(context)")
        }
        checkSpans(text, parsed.spans, parsed.warnings)
        if parsed.spans.contains(where: { $0.kind == .escape }) { covered["escape", default: 0] += 1 }
        covered["lines", default: 0] += 1
    }
    // Real work: every kind of field came up many times.
    #expect(covered["lines"] == 500)
    for kind in ["due", "priority", "tags", "list", "notes", "escape", "local time"] {
        #expect(covered[kind, default: 0] >= 40, "\(kind): only \(covered[kind, default: 0]) lines")
    }
}

/// A due token and what it must read as: a protocol due, "none", or "local DATE HH:MM" for a wall-clock time
/// (checked against Foundation: see `checkLocal`).
private func randomDue(_ random: inout SplitMix64, clock: ClientClock, zone: Zone) -> (String, String) {
    let today = clock.today
    let marker = random.pick(["^", "due:", "DUE:"])
    switch random.below(6) {
    case 0:
        let date = CalendarDate(daysSinceEpoch: today.daysSinceEpoch + Int64(random.int(in: -400...400)))
        return (marker + date.iso8601, date.iso8601)
    case 1:
        let days = random.int(in: -30...300)
        let date = CalendarDate(daysSinceEpoch: today.daysSinceEpoch + Int64(days))
        return (marker + (days < 0 ? "\(days)" : "+\(days)"), date.iso8601)
    case 2:
        // Foundation's weekday: 1 is Sunday.
        let names = ["sun", "monday", "Tue", "wednesday", "thu", "FRIDAY", "sat"]
        let target = random.below(7)
        let instant = Date(timeIntervalSince1970: Double(clock.now.milliseconds) / 1000)
        let todayIndex = zone.calendar.component(.weekday, from: instant) - 1
        let ahead = (target - todayIndex + 7) % 7
        let date = CalendarDate(daysSinceEpoch: today.daysSinceEpoch + Int64(ahead == 0 ? 7 : ahead))
        return (marker + names[target], date.iso8601)
    case 3:
        let days = random.int(in: 0...60)
        let date = CalendarDate(daysSinceEpoch: today.daysSinceEpoch + Int64(days))
        let (hour, minute) = (random.below(24), random.below(60))
        let time = twoDigits(hour) + ":" + twoDigits(minute)
        return ("\(marker)\(date.iso8601) \(time)", "local \(date.iso8601) \(time)")
    case 4:
        let (hour, minute) = (random.int(in: 1...12), random.below(60))
        let date = CalendarDate(daysSinceEpoch: today.daysSinceEpoch + 1)
        let hours = hour % 12 + (random.chance(50) ? 12 : 0)
        let spelled = "\(hour):\(twoDigits(minute))" + (hours >= 12 ? "pm" : "am")
        return ("\(marker)tomorrow \(spelled)", "local \(date.iso8601) \(twoDigits(hours)):\(twoDigits(minute))")
    default:
        return (marker + random.pick(["none", "clear", "-"]), "none")
    }
}

/// A wall-clock time read back: the instant shows that date and time in the zone (Foundation's rules), written
/// with the zone's offset at that instant; or, when the clocks skip it, the parse says so and the instant is
/// the time after the gap.
private func checkLocal(_ expected: String, _ parsed: ParsedItem, zone: Zone, context: String) throws {
    guard case .set(.dateTime(let instant, let offset))? = parsed.due else {
        Issue.record("\(context): expected a time, got \(String(describing: written(parsed.due)))")
        return
    }
    let date = Date(timeIntervalSince1970: Double(instant.milliseconds) / 1000)
    #expect(offset == zone.rules.zone.secondsFromGMT(for: date), "\(context)")
    let shown = "local " + wallClock(date, zone)
    guard parsed.warnings.contains(where: { $0.reason == .skippedTime }) else {
        #expect(shown == expected, "\(context)")
        return
    }
    // Said to be skipped: no instant near it shows the time asked for, and what is used is later that day.
    let asked = try #require(Due(parsing: expected.dropFirst(6).replacingOccurrences(of: " ", with: "T") + "Z").instant)
    for hours in -3...3 {
        let near = Date(timeIntervalSince1970: Double(asked.milliseconds) / 1000 + Double(hours) * 1800)
        let offsetThere = zone.rules.zone.secondsFromGMT(for: near)
        let candidate = Date(timeIntervalSince1970: Double(asked.milliseconds) / 1000 - Double(offsetThere))
        #expect("local " + wallClock(candidate, zone) != expected, "\(context): \(expected) is shown at \(candidate)")
    }
    #expect(shown > expected && shown.prefix(16) == expected.prefix(16), "\(context): \(shown) for \(expected)")
}

/// `YYYY-MM-DD HH:MM` of `date` in `zone`, by Foundation's calendar.
private func wallClock(_ date: Date, _ zone: Zone) -> String {
    let parts = zone.calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
    return CalendarDate(year: parts.year!, month: parts.month!, day: parts.day!)!.iso8601 + " "
        + twoDigits(parts.hour!) + ":" + twoDigits(parts.minute!)
}

private func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }

private extension Due {
    var instant: Timestamp? {
        if case .dateTime(let instant, _) = self { return instant }
        return nil
    }
}
