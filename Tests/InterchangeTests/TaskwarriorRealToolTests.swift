// The Taskwarrior format against the real Taskwarrior 2.6: a database built with `task` read, written and imported
// into a fresh Taskwarrior gives the same `task export`; a random document written, imported and exported by
// Taskwarrior reads back the same. Marker `taskwarrior`: `ran`, or `skipped (REASON)` when `task` is missing.

import Domain
import Foundation
@testable import Interchange
import Testing
import TestSupport
import Wire

@Suite struct TaskwarriorRealToolTests {
    /// Zone of the real-tool tests: an offset that is not whole hours and no daylight saving, so a day's midnight
    /// is not a UTC one and the dates Taskwarrior steps by seconds stay on local midnights.
    static let zone = "Asia/Kolkata"

    @Test func aDatabaseReadWrittenAndImportedIntoAFreshTaskwarriorExportsTheSame() throws {
        guard TaskwarriorDatabase.available(marker: "taskwarrior") else { return }
        let (original, deleted) = try TaskwarriorDatabase.sample(zoneName: Self.zone)
        defer { original.remove() }
        let export = try original.export()
        let reading = try TaskwarriorFormat.read(export, options: .taskwarrior(Self.zone))
        var document = reading.document
        for index in document.tasks.indices where document.tasks[index].list == nil { document.tasks[index].list = "Inbox" }
        let writing = TaskwarriorFormat.write(document, options: .taskwarrior(Self.zone))
        let fresh = try TaskwarriorDatabase(zoneName: Self.zone)
        defer { fresh.remove() }
        try fresh.importText(writing.text)
        let again = try fresh.export()
        #expect(try TaskwarriorDatabase.differences(export, again, leftOut: [deleted]) == [])
        #expect(reading.losses.map(\.description).contains("1 task: deleted tasks (taskls keeps no deleted tasks)"))
        // Read again, the fresh database's export gives the same tasks (in another order: Taskwarrior writes
        // its completed tasks last).
        func byUID(_ document: ExchangeDocument) -> [String: ExchangeTask] {
            Dictionary(uniqueKeysWithValues: document.tasks.map { task in
                var task = task
                task.line = 0
                return (task.uid!, task)
            })
        }
        #expect(byUID(try TaskwarriorFormat.read(again, options: .taskwarrior(Self.zone)).document) == byUID(reading.document))
    }
}

extension TaskwarriorRealToolTests {
    @Test func aRandomDocumentWrittenImportedAndExportedByTaskwarriorReadsBackTheSame() throws {
        guard TaskwarriorDatabase.available(marker: "taskwarrior") else { return }
        for seed: UInt64 in [20, 2026] {
            var random = SplitMix64(seed: seed)
            let document = TaskwarriorRandomDocument.make(count: 60, zone: Self.zone, using: &random)
            let writing = TaskwarriorFormat.write(document, options: .taskwarrior(Self.zone))
            #expect(writing.losses.isEmpty, "seed \(seed): \(writing.losses)")
            let database = try TaskwarriorDatabase(zoneName: Self.zone)
            defer { database.remove() }
            try database.importText(writing.text)
            let reading = try TaskwarriorFormat.read(try database.export(), options: .taskwarrior(Self.zone))
            #expect(reading.losses.isEmpty, "seed \(seed): \(reading.losses)")
            let back = Dictionary(uniqueKeysWithValues: reading.document.tasks.map { ($0.uid!, $0) })
            #expect(back.count == document.tasks.count)
            var compared = (repeating: 0, done: 0, notes: 0, extras: 0)
            for task in document.tasks {
                guard let read = back[task.uid!] else {
                    Issue.record("seed \(seed): \(task.uid!) \(task.title) did not come back")
                    continue
                }
                let differences = TaskwarriorRandomDocument.differences(task, read)
                #expect(differences.isEmpty, "seed \(seed): \(task.title): \(differences)")
                if task.repeatRule != nil { compared.repeating += 1 }
                if task.done { compared.done += 1 }
                if !task.notes.isEmpty { compared.notes += 1 }
                if !task.extras.isEmpty { compared.extras += 1 }
            }
            #expect(compared.repeating >= 5 && compared.done >= 5 && compared.notes >= 5 && compared.extras >= 5,
                    "seed \(seed) made too little of each kind: \(compared)")
        }
    }
}

/// Random documents of what taskls and Taskwarrior both express: whole seconds, tags without spaces (Taskwarrior
/// sorts them), notes of non-empty lines, characters up to U+FFFF, dues in the zone's offset and not at
/// midnight when they have a time, rules Taskwarrior has a period for (from their due, months up to the 28th),
/// and Taskwarrior fields kept as extras (dates, UDAs).
enum TaskwarriorRandomDocument {
    static let words = ["milk", "report", "Über", "naïve café", "straße", "中文", "\"quoted\"", "back\\slash", "tab\there",
                        "  spaced  ", "a/b", "50%", "#1", "x"]
    static let lists = ["Home", "Work.Reports", "Errands", "Ünïcode list", "a b"]
    static let tags = ["home", "work", "ünï", "a_b", "b-c", "next", "Z9"]

    static func make(count: Int, zone: String, using random: inout SplitMix64) -> ExchangeDocument {
        let offsets = TaskwarriorTestZone(zone)
        let now: Int64 = 1_795_694_400 // 2026-11-26T12:00:00Z
        var tasks: [ExchangeTask] = []
        for _ in 0..<count {
            let created = now - Int64(random.int(in: 3600...40_000_000))
            let modified = created + Int64(random.int(in: 0...3_000_000))
            var task = ExchangeTask(uid: uuid(&random), list: random.pick(lists), title: title(&random),
                                    createdAt: seconds(created), modifiedAt: seconds(modified))
            task.notes = (0..<random.pick([0, 0, 1, 2, 3])).map { _ in title(&random) }.joined(separator: "\n")
            task.priority = random.pick(Priority.allCases)
            task.tags = random.sample(tags, count: random.int(in: 0...3))
            let today = offsets.localReading(of: seconds(now)).date
            let day = CalendarDate(daysSinceEpoch: today.daysSinceEpoch + Int64(random.int(in: -20...60)))
            switch random.below(3) {
            case 0: break
            case 1: task.due = .date(day)
            default:
                let time = Int64(random.int(in: 1...86_399)) * 1000
                task.due = offsets.dateTime(on: day, at: time).due
            }
            if task.due != nil, random.chance(30), let rule = rule(for: task.due!, zone: offsets, using: &random) {
                task.repeatRule = rule
            } else if random.chance(30) {
                task.done = true
                task.completedAt = seconds(modified)
            }
            if random.chance(40) {
                let wait = now + Int64(random.int(in: 86_400...10_000_000))
                task.extras.append(Extra(key: "taskwarrior:wait", value: JSON.string(TaskwarriorDate.text(seconds(wait))).text))
            }
            if random.chance(30) { task.extras.append(Extra(key: "taskwarrior:size", value: random.pick(["\"S\"", "\"M\"", "\"L\""]))) }
            if random.chance(30) { task.extras.append(Extra(key: "taskwarrior:estimate", value: random.pick(["2.5", "3", "0.25"]))) }
            tasks.append(task)
        }
        return ExchangeDocument(lists: lists.map { ExchangeList(name: $0) }, tasks: tasks)
    }

    /// A rule Taskwarrior has a period for, from `due`; nil when the draw fits no period from this due.
    static func rule(for due: Due, zone: TaskwarriorTestZone, using random: inout SplitMix64) -> RepeatRule? {
        let date: CalendarDate
        switch due {
        case .date(let day): date = day
        case .dateTime(let instant, _): date = zone.localReading(of: instant).date
        }
        var until: RepeatRule.End?
        if random.chance(40) {
            let end = CalendarDate(daysSinceEpoch: date.daysSinceEpoch + Int64(random.int(in: 200...900)))
            until = .until(random.chance(50) ? .date(end) : .instant(Timestamp(milliseconds: (end.daysSinceEpoch * 86_400 + 4000) * 1000)))
        }
        switch random.below(5) {
        case 0: return try? RepeatRule(frequency: .daily, interval: random.int(in: 1...10), end: until)
        case 1: return try? RepeatRule(frequency: .weekly, interval: random.int(in: 1...4), end: until)
        case 2: return try? RepeatRule(frequency: .weekly, weekdays: workdays, end: until)
        case 3: return date.day > 28 ? nil : try? RepeatRule(frequency: .monthly, interval: random.int(in: 1...6), end: until)
        default: return date.month == 2 && date.day == 29 ? nil : try? RepeatRule(frequency: .yearly, interval: random.int(in: 1...2), end: until)
        }
    }

    static let workdays: Set<RepeatRule.WeekdayRule> = [.init(.monday), .init(.tuesday), .init(.wednesday), .init(.thursday), .init(.friday)]

    /// What differs between a task written and the task read back, in what both express: every field but the
    /// order of tags (Taskwarrior sorts them), a repeating task's `modified` (Taskwarrior's recurrence writes it
    /// when it makes the first instance), and the extras that keep the annotations (the notes are compared) and a
    /// series.
    static func differences(_ written: ExchangeTask, _ read: ExchangeTask) -> [String] {
        var found: [String] = []
        func check<T: Equatable>(_ name: String, _ a: T, _ b: T) { if a != b { found.append("\(name): \(a) then \(b)") } }
        check("list", written.list, read.list)
        check("title", written.title, read.title)
        check("notes", written.notes, read.notes)
        check("done", written.done, read.done)
        check("completedAt", written.completedAt, read.completedAt)
        check("createdAt", written.createdAt, read.createdAt)
        if written.repeatRule == nil { check("modifiedAt", written.modifiedAt, read.modifiedAt) }
        check("due", written.due, read.due)
        check("priority", written.priority, read.priority)
        check("tags", written.tags.sorted(), read.tags.sorted())
        check("repeatRule", written.repeatRule?.rrule, read.repeatRule?.rrule)
        check("occurrences", written.occurrences, read.occurrences)
        let series: Set<String> = ["taskwarrior:annotations", "taskwarrior:due", "taskwarrior:recur", "taskwarrior:mask", "taskwarrior:rtype",
                                   "taskwarrior:template", "taskwarrior:instances"]
        let extras = read.extras.filter { !series.contains($0.key) }
        let expected = written.extras.sorted { $0.key < $1.key }, got = extras.sorted { $0.key < $1.key }
        if expected.map(\.key) != got.map(\.key) || zip(expected, got).contains(where: { !sameNumberOrValue($0.value, $1.value) }) {
            found.append("extras: \(expected) then \(got)")
        }
        return found
    }

    /// JSON texts that are the same value, numbers compared as numbers.
    static func sameNumberOrValue(_ a: String, _ b: String) -> Bool {
        if a == b { return true }
        guard let x = try? JSONParser.parse(a), let y = try? JSONParser.parse(b) else { return false }
        switch (x, y) {
        case (.integer(let i), .double(let d)), (.double(let d), .integer(let i)): return Double(i) == d
        default: return x == y
        }
    }

    static func seconds(_ seconds: Int64) -> Timestamp { Timestamp(milliseconds: seconds * 1000) }

    static func title(_ random: inout SplitMix64) -> String {
        (0..<random.int(in: 1...4)).map { _ in random.pick(words) }.joined(separator: " ")
    }

    static func uuid(_ random: inout SplitMix64) -> String {
        let digits = Array("0123456789abcdef")
        var text = ""
        for index in 0..<32 {
            if [8, 12, 16, 20].contains(index) { text.append("-") }
            let nibble = index == 12 ? 4 : index == 16 ? 8 + random.below(4) : random.below(16)
            text.append(digits[nibble])
        }
        return text
    }
}

extension TaskwarriorRealToolTests {
    /// The sample database's tasks changed as taskls changes them: a series completed and renamed, another's
    /// occurrence skipped, a task done, one reopened, notes rewritten, a repeating task made in taskls.
    static func changedInTaskls(_ document: ExchangeDocument, now: Timestamp) throws -> ExchangeDocument {
        var document = document
        let zone = TaskwarriorTestZone(zone)
        let today = zone.localReading(of: now).date
        func change(_ title: String, _ edit: (inout ExchangeTask) throws -> Void) throws {
            let index = try #require(document.tasks.firstIndex { $0.title == title }, "no task \(title)")
            try edit(&document.tasks[index])
            document.tasks[index].modifiedAt = now
        }
        func advance(_ task: inout ExchangeTask, _ outcome: Occurrence.Outcome) throws {
            let rule = try #require(task.repeatRule), due = try #require(task.due)
            task.due = rule.next(after: due, completedAt: now, today: today, zone: zone, occurrence: task.occurrences.used + 1)
            task.occurrences = task.occurrences.adding(Occurrence(due: due, outcome: outcome, at: now))
        }
        try change("Water plants") { task in
            try advance(&task, .completed)
            task.title = "Water the plants"
        }
        try change("Pay rent") { try advance(&$0, .skipped) }
        try change("Buy milk") { task in
            task.done = true
            task.completedAt = now
        }
        try change("Plain task") { task in
            task.done = false
            task.completedAt = nil
        }
        try change("Call the bank") { $0.notes = "call before noon\nask about the card" }
        let due = CalendarDate(daysSinceEpoch: today.daysSinceEpoch + 2)
        document.tasks.append(ExchangeTask(uid: "0b6f3c1e-8d2a-4f5b-9c7d-2e1f0a9b8c7d", list: "Home", title: "New in taskls",
                                           createdAt: now, modifiedAt: now, due: .date(due),
                                           repeatRule: try RepeatRule(frequency: .weekly)))
        for index in document.tasks.indices where document.tasks[index].list == nil { document.tasks[index].list = "Inbox" }
        return document
    }

    @Test func tasksChangedInTasklsGoBackToTaskwarriorAsItWouldHaveChangedThem() throws {
        guard TaskwarriorDatabase.available(marker: "taskwarrior") else { return }
        let (original, _) = try TaskwarriorDatabase.sample(zoneName: Self.zone)
        defer { original.remove() }
        let reading = try TaskwarriorFormat.read(try original.export(), options: .taskwarrior(Self.zone))
        let now = Timestamp(milliseconds: (Int64(Date().timeIntervalSince1970) + 5) * 1000)
        let changed = try Self.changedInTaskls(reading.document, now: now)
        let writing = TaskwarriorFormat.write(changed, options: .taskwarrior(Self.zone))
        let fresh = try TaskwarriorDatabase(zoneName: Self.zone)
        defer { fresh.remove() }
        try fresh.importText(writing.text)
        try original.importText(writing.text)
        let nowText = TaskwarriorDate.text(now)
        for database in [fresh, original] {
            let export = try database.export()
            let tasks = try TaskwarriorDatabase.tasks(of: export).values
            func one(_ description: String, _ filter: (JSONObject) -> Bool = { _ in true }) throws -> JSONObject {
                let found = tasks.filter { $0["description"] == .string(description) && filter($0) }
                #expect(found.count == 1, "\(description): \(found.count) tasks")
                return try #require(found.first)
            }
            func instance(_ description: String, _ imask: Int) throws -> JSONObject {
                try one(description) { TaskwarriorRecord.wholeNumber($0["imask"] ?? .null) == imask }
            }
            let plants = try one("Water the plants") { $0["status"] == .string("recurring") }
            #expect(plants["mask"] == .string("++--"))
            // The occurrence completed in taskls is closed before the rename reaches the pending ones.
            #expect(try instance("Water plants", 1)["status"] == .string("completed"))
            #expect(try instance("Water plants", 1)["end"] == .string(nowText))
            #expect(try instance("Water the plants", 2)["status"] == .string("pending"))
            #expect(try instance("Water plants", 0)["status"] == .string("completed"))
            let rent = try one("Pay rent") { $0["status"] == .string("recurring") }
            #expect(rent["mask"] == .string("XX-"))
            #expect(try instance("Pay rent", 1)["status"] == .string("deleted"))
            let milk = try one("Buy milk")
            #expect(milk["status"] == .string("completed") && milk["end"] == .string(nowText) && milk["start"] == nil)
            let plain = try one("Plain task")
            #expect(plain["status"] == .string("pending") && plain["end"] == nil)
            let bank = try one("Call the bank")
            #expect(bank["annotations"].map { annotations -> [JSON?] in
                guard case .array(let list) = annotations else { return [] }
                return list.map { $0["description"] }
            } == [.string("call before noon"), .string("ask about the card")])
            #expect(try one("New in taskls") { $0["status"] == .string("recurring") }["recur"] == .string("weekly"))
            #expect(try one("New in taskls") { $0["parent"] != nil }["status"] == .string("pending"))

            let back = Dictionary(uniqueKeysWithValues: try TaskwarriorFormat.read(export, options: .taskwarrior(Self.zone))
                .document.tasks.map { ($0.title, $0) })
            for task in changed.tasks where ["Water the plants", "Pay rent", "Call the bank", "New in taskls"].contains(task.title) {
                let read = try #require(back[task.title])
                #expect(read.due == task.due, "\(task.title)")
                #expect(read.notes == task.notes, "\(task.title)")
                #expect(read.occurrences.used == task.occurrences.used, "\(task.title)")
                #expect(read.repeatRule == task.repeatRule, "\(task.title)")
            }
        }
    }
}
