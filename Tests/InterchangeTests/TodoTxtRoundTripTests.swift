// todo.txt round trips on random documents of what the format carries: written, read back, the same document;
// written again, the same text; nothing counted as lost.

import Domain
import Interchange
import Testing
import TestSupport

/// Random documents of what todo.txt carries, in the order its reader gives them.
private struct TodoTxtDocuments {
    var random: SplitMix64
    /// How many of the tasks drawn had each feature.
    var features: [String: Int] = [:]

    static let words = ["Call", "Mom", "buy", "milk", "x", "(A)", "2026-01-01", "report", "2+2", "soandso@example.com",
                        "http://example.com/a:b", "10:30", "é", "Ünïcode", "note:", "(b)", "pri", "+", "@"]
    static let firstWords = ["Call", "Buy", "Water", "Pay", "Écrire", "Read", "xylophone", "2026", "(b)"]
    static let lists = ["Inbox", "Garage Sale", "Work stuff", "Ünïcode", " leading", "a+b@c"]
    static let tags = ["home", "New York", "phone", "Ünï", "a:b", "x"]
    static let uidCharacters = Array("abcXYZ019-:% é@+/_\t")

    mutating func count(_ feature: String) { features[feature, default: 0] += 1 }

    mutating func document(tasks count: Int) -> ExchangeDocument {
        var document = ExchangeDocument()
        var uids: Set<String> = []
        for _ in 0..<count {
            var task = self.task()
            while !uids.insert(task.uid!).inserted { task.uid! += "u" }
            let earlier = document.tasks.filter { $0.list == task.list }
            if !earlier.isEmpty, random.chance(30) {
                task.parentUID = random.pick(earlier).uid
                self.count("parent")
            }
            if let list = task.list, !document.lists.contains(where: { $0.name == list }) {
                document.lists.append(ExchangeList(name: list))
            }
            document.tasks.append(task)
        }
        return document
    }

    mutating func task() -> ExchangeTask {
        var task = ExchangeTask(title: random.pick(Self.firstWords))
        task.uid = String((0..<random.int(in: 1...12)).map { _ in random.pick(Self.uidCharacters) })
        if random.chance(85) { task.list = random.pick(Self.lists) }
        task.title += random.chance(70) ? " " + random.exchangeWords(Self.words, words: 5) : ""
        task.tags = random.sample(Self.tags, count: random.int(in: 0...3))
        if let list = task.list, random.chance(15) {
            task.title += " +" + list.map { $0 == " " ? "_" : $0 } + " " + random.pick(Self.firstWords)
            count("list in the title")
        }
        if let first = task.tags.first, random.chance(20) {
            task.title = random.pick(Self.firstWords) + " @" + first.map { $0 == " " ? "_" : $0 } + " " + task.title
            count("tag in the title")
        }
        task.done = random.chance(30)
        if task.done {
            task.completedAt = midnight(random.exchangeDay())
            count("done")
        }
        if random.chance(70) { task.createdAt = midnight(random.exchangeDay()) }
        task.priority = random.pick(Priority.allCases)
        var extras: [Extra] = []
        if task.list != nil, random.chance(20) {
            extras.append(Extra(key: "todotxt:project", value: random.pick(["Other", "Side_Project", "x:y"])))
            count("extra project")
        }
        for _ in 0..<random.int(in: 0...2) {
            extras.append(random.pick([Extra(key: "todotxt:t", value: random.exchangeDay().iso8601),
                                       Extra(key: "todotxt:h", value: "1"), Extra(key: "todotxt:foo", value: "bar/baz"),
                                       Extra(key: "todotxt:Estimate", value: "3h")]))
            count("extra")
        }
        if task.priority == .low, random.chance(50) {
            extras.append(Extra(key: "todotxt:pri", value: String(random.pick(Array("DEFXYZ")))))
            count("priority letter")
        }
        if random.chance(60) {
            task.due = .date(random.exchangeDay())
            if random.chance(40) {
                task.repeatRule = rule()
                count(task.repeatRule.flatMap { TodoTxtFormatProbe.recurrence(of: $0) } == nil ? "rrule" : "rec")
            }
        } else if random.chance(20) {
            extras.append(Extra(key: "todotxt:rec", value: random.pick(["+1w", "3d", "2b"])))
            count("repeat kept as text")
        }
        task.extras = extras
        return task
    }

    mutating func rule() -> RepeatRule {
        let anchor = random.pick(RepeatRule.Anchor.allCases)
        let frequency = random.pick(RepeatRule.Frequency.allCases)
        switch random.below(5) {
        case 0:
            return try! RepeatRule(frequency: .daily, weekdays: Set([.monday, .tuesday, .wednesday, .thursday, .friday]
                .map { RepeatRule.WeekdayRule($0) }), anchor: anchor)
        case 1:
            return try! RepeatRule(frequency: .weekly, interval: random.int(in: 1...4),
                                   weekdays: [RepeatRule.WeekdayRule(random.pick(RepeatRule.Weekday.allCases))],
                                   end: random.chance(50) ? .count(random.int(in: 1...30)) : nil, anchor: anchor)
        case 2:
            return try! RepeatRule(frequency: .monthly, weekdays: [RepeatRule.WeekdayRule(.friday, ordinal: -1)],
                                   end: .until(.date(random.exchangeDay())), anchor: anchor)
        case 3:
            return try! RepeatRule(frequency: .yearly, end: .until(.instant(Timestamp(milliseconds: 1_800_000_000_000))),
                                   weekStart: .sunday, anchor: anchor)
        default:
            return try! RepeatRule(frequency: frequency, interval: random.int(in: 1...1000), anchor: anchor)
        }
    }

    func midnight(_ date: CalendarDate) -> Timestamp {
        Timestamp(milliseconds: date.daysSinceEpoch * 86_400_000 - Int64(TodoTxtTestZone().seconds) * 1000)
    }
}

/// Whether a rule has a `rec:` spelling, as the writer decides (read from what it writes).
private enum TodoTxtFormatProbe {
    static func recurrence(of rule: RepeatRule) -> String? {
        let task = ExchangeTask(uid: "u", title: "t", due: .date(CalendarDate(year: 2026, month: 1, day: 1)!),
                                repeatRule: rule)
        let line = TodoTxtFormat.write(ExchangeDocument(tasks: [task]), options: todoTxtWriteOptions).text
        return line.split(separator: " ").first { $0.hasPrefix("rec:") }.map(String.init)
    }
}

@Test(arguments: [1, 2, 3, 4])
func randomDocumentsRoundTripThroughTodoTxt(seed: UInt64) throws {
    var documents = TodoTxtDocuments(random: SplitMix64(seed: seed))
    for _ in 0..<20 {
        let document = documents.document(tasks: documents.random.int(in: 1...40))
        let written = TodoTxtFormat.write(document, options: todoTxtWriteOptions)
        #expect(written.losses.isEmpty, "seed \(seed): \(written.losses)")
        let reading = try TodoTxtFormat.read(written.text, options: todoTxtReadOptions())
        #expect(reading.losses.filter { !$0.what.contains("business days") && !$0.what.contains("without a due") }
            .isEmpty)
        let back = withoutLines(reading.document)
        #expect(back.lists == document.lists, "seed \(seed)")
        for (index, (got, wanted)) in zip(back.tasks, document.tasks).enumerated() where got != wanted {
            Issue.record("seed \(seed), task \(index): \(written.text.split(separator: "\n")[index])\n got \(got)\nwanted \(wanted)")
        }
        #expect(back.tasks.count == document.tasks.count)
        #expect(TodoTxtFormat.write(reading.document, options: todoTxtWriteOptions).text == written.text)
    }
    // The run did real work: every feature was drawn, many times.
    for feature in ["parent", "list in the title", "tag in the title", "done", "extra project", "extra",
                    "priority letter", "rec", "rrule", "repeat kept as text"] {
        #expect(documents.features[feature, default: 0] >= 5, "seed \(seed): \(feature) drawn \(documents.features[feature, default: 0]) times")
    }
}
