// The backup JSON round trips: random documents with every field of every list, smart list and task set, written
// and read back, are the same document; and one small document written exactly as protocol.md shows.

import Domain
import Interchange
import Testing
import TestSupport

/// Random documents with every field drawn, over the whole range each field allows.
private struct BackupDocuments {
    var random: SplitMix64
    var features: [String: Int] = [:]

    static let texts = ["Buy milk", "Ünïcode é (NFC)", "e\u{301} (NFD)", "quote \" and \\ backslash", "tab\tand\nnew line",
                        "control \u{01}\u{1F}", "emoji 👩‍👩‍👧", "", " spaced ", "/slash/", "{\"json\": [1]}"]
    static let rules = ["FREQ=DAILY", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE", "FREQ=MONTHLY;BYDAY=-1FR",
                        "FREQ=MONTHLY;BYMONTHDAY=-1,15;COUNT=12", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;UNTIL=20401231",
                        "FREQ=WEEKLY;WKST=SU;UNTIL=20300101T120000Z", "FREQ=DAILY;INTERVAL=1000"]

    mutating func count(_ feature: String) { features[feature, default: 0] += 1 }

    mutating func text() -> String { random.pick(Self.texts) + (random.chance(50) ? String(random.below(1000)) : "") }
    mutating func optionalText() -> String? { random.chance(30) ? nil : text() }

    mutating func instant() -> Timestamp {
        // Years 1 to 9999, any millisecond.
        Timestamp(milliseconds: Int64(random.int(in: -62_135_596_800_000 ... 253_402_300_799_999)))
    }

    mutating func due() -> Due {
        if random.chance(40) { return .date(CalendarDate(daysSinceEpoch: Int64(random.int(in: -719_162...2_932_896)))) }
        count("due time")
        let offset = random.int(in: -18 * 60...18 * 60) * 60
        // An instant whose reading at the offset stays within years 1 to 9999.
        let instant = Timestamp(milliseconds: Int64(random.int(in: -62_135_500_000_000 ... 253_402_200_000_000)))
        return .dateTime(instant, offsetSeconds: offset)
    }

    mutating func storeID() -> UInt64 { random.chance(10) ? UInt64.max - UInt64(random.below(3)) : random.next() % 1_000_000 + 1 }

    mutating func document() -> ExchangeDocument {
        var document = ExchangeDocument()
        for index in 0..<random.int(in: 0...5) {
            document.lists.append(ExchangeList(name: "List \(index) " + text(), color: optionalText(),
                                               icon: optionalText(), storeID: random.chance(80) ? storeID() : nil))
        }
        for _ in 0..<random.int(in: 0...4) {
            var filter = Filter()
            if random.chance(50) { filter.text = text() }
            filter.done = random.pick(Filter.Completion.allCases)
            if random.chance(50) { filter.tagsAnyOf = (0..<random.int(in: 1...3)).map { _ in text() } }
            if random.chance(50) { filter.tagsAllOf = (0..<random.int(in: 1...3)).map { _ in text() } }
            if random.chance(50) { filter.priorityAtLeast = random.pick(Priority.allCases) }
            if random.chance(50) { filter.dueBefore = due() }
            if random.chance(50) { filter.dueAfter = due() }
            let lists = random.chance(50) ? nil : random.sample(document.lists.map(\.name), count: random.below(document.lists.count + 1))
            document.smartLists.append(ExchangeSmartList(name: text(), color: optionalText(), icon: optionalText(),
                                                         filter: filter, lists: lists))
            count("smart list")
        }
        for index in 0..<random.int(in: 0...30) {
            var task = ExchangeTask(title: text())
            task.uid = random.chance(90) ? "uid-\(index)-" + text() : nil
            task.storeID = random.chance(90) ? storeID() : nil
            task.list = random.chance(90) ? (document.lists.isEmpty ? text() : random.pick(document.lists).name) : nil
            let parents = document.tasks.compactMap(\.uid)
            if !parents.isEmpty, random.chance(30) {
                task.parentUID = random.pick(parents)
                count("parent")
            }
            task.notes = random.chance(50) ? text() : ""
            task.done = random.chance(40)
            task.completedAt = random.chance(50) ? instant() : nil
            task.createdAt = random.chance(90) ? instant() : nil
            task.modifiedAt = random.chance(90) ? instant() : nil
            task.due = random.chance(70) ? due() : nil
            task.priority = random.pick(Priority.allCases)
            task.tags = (0..<random.below(4)).map { _ in text() }
            if random.chance(40) {
                task.repeatRule = try! RepeatRule(rrule: random.pick(Self.rules), anchor: random.pick(RepeatRule.Anchor.allCases))
                count("repeat")
            }
            if random.chance(40) {
                let recent = (0..<random.int(in: 0...Occurrences.recentLimit)).map { _ in
                    Occurrence(due: due(), outcome: random.chance(50) ? .completed : .skipped, at: instant())
                }
                task.occurrences = Occurrences(completed: random.int(in: recent.count...100_000), skipped: random.below(50),
                                               recent: recent)
                count("history")
            }
            task.alerts = (0..<random.below(4)).map { _ in
                random.chance(50) ? .at(instant()) : .offset(minutes: random.int(in: -Alert.maximumOffsetMinutes...Alert.maximumOffsetMinutes))
            }
            task.extras = (0..<random.below(4)).map { _ in Extra(key: random.pick(["taskwarrior:wait", "ical:X-A", "todotxt:t", "odd"]),
                                                                   value: text()) }
            if !task.alerts.isEmpty, !task.extras.isEmpty { count("alerts and extras") }
            document.tasks.append(task)
        }
        return document
    }
}

@Test(arguments: [1, 2, 3])
func randomDocumentsRoundTripThroughTheBackup(seed: UInt64) throws {
    var documents = BackupDocuments(random: SplitMix64(seed: seed))
    var tasks = 0
    for _ in 0..<40 {
        var document = documents.document()
        // Uids are unique in a document (the generator's suffixes may repeat a text).
        var seen: Set<String> = []
        for index in document.tasks.indices {
            if let uid = document.tasks[index].uid, !seen.insert(uid).inserted { document.tasks[index].uid = nil }
        }
        for index in document.tasks.indices where document.tasks[index].parentUID.map({ !seen.contains($0) }) == true {
            document.tasks[index].parentUID = nil
        }
        let written = BackupFormat.write(document, options: todoTxtWriteOptions)
        #expect(written.losses.isEmpty)
        let reading = try BackupFormat.read(written.text, options: todoTxtReadOptions(file: "backup.json"))
        #expect(reading.skipped.isEmpty && reading.losses.isEmpty)
        #expect(withoutLines(reading.document) == document, "seed \(seed)")
        // Each task is on its own line, after the four lines of the top level and the lists and smart lists.
        let firstTaskLine = 5 + (document.lists.isEmpty ? 0 : document.lists.count + 1)
            + (document.smartLists.isEmpty ? 0 : document.smartLists.count + 1)
        #expect(reading.document.tasks.map(\.line) == document.tasks.indices.map { firstTaskLine + $0 })
        #expect(BackupFormat.write(reading.document, options: todoTxtWriteOptions).text == written.text)
        tasks += document.tasks.count
    }
    #expect(tasks > 300)
    for feature in ["smart list", "parent", "due time", "repeat", "history", "alerts and extras"] {
        #expect(documents.features[feature, default: 0] >= 10, "seed \(seed): \(feature)")
    }
}

@Test func aSmallDocumentIsWrittenAsProtocolMdShows() throws {
    let document = ExchangeDocument(
        lists: [ExchangeList(name: "Inbox", color: "blue", storeID: 1)],
        tasks: [ExchangeTask(uid: "u1", list: "Inbox", title: "Pay rent", notes: "by transfer",
                             createdAt: Timestamp(milliseconds: 1_795_000_000_000),
                             modifiedAt: Timestamp(milliseconds: 1_795_000_000_000),
                             due: .date(CalendarDate(year: 2026, month: 12, day: 1)!), priority: .high, tags: ["home"],
                             repeatRule: try RepeatRule(rrule: "FREQ=MONTHLY", anchor: .due), alerts: [.offset(minutes: 540)],
                             occurrences: Occurrences(completed: 1, skipped: 0, recent: [
                                Occurrence(due: .date(CalendarDate(year: 2026, month: 11, day: 1)!), outcome: .completed,
                                           at: Timestamp(milliseconds: 1_793_000_000_000))]),
                             extras: [Extra(key: "taskwarrior:wait", value: "\"20261120T000000Z\"")], storeID: 2),
                ExchangeTask(uid: "u2", list: "Inbox", parentUID: "u1", title: "Check the amount", done: true,
                             completedAt: Timestamp(milliseconds: 1_795_000_000_000))],
        smartLists: [ExchangeSmartList(name: "Urgent", icon: "flame",
                                       filter: Filter(done: .notDone, priorityAtLeast: .high), lists: ["Inbox"])])
    let text = BackupFormat.write(document, options: todoTxtWriteOptions).text
    #expect(text == """
        {"format":"taskls-backup","version":1,
        "lists":[
        {"name":"Inbox","color":"blue","icon":null,"storeID":"l1"}
        ],
        "smartLists":[
        {"name":"Urgent","color":null,"icon":"flame","filter":{"done":"notDone","priorityAtLeast":"high"},"lists":["Inbox"]}
        ],
        "tasks":[
        {"uid":"u1","storeID":"i2","list":"Inbox","parentUID":null,"title":"Pay rent","notes":"by transfer","done":false,"completedAt":null,"createdAt":"2026-11-18T11:06:40.000Z","modifiedAt":"2026-11-18T11:06:40.000Z","due":"2026-12-01","priority":"high","tags":["home"],"repeat":{"rule":"FREQ=MONTHLY","from":"due"},"occurrences":{"completed":1,"skipped":0,"recent":[{"due":"2026-11-01","outcome":"completed","at":"2026-10-26T07:33:20.000Z"}]},"alerts":[{"offset":540}],"extras":[{"key":"taskwarrior:wait","value":"\\"20261120T000000Z\\""}]},
        {"uid":"u2","storeID":null,"list":"Inbox","parentUID":"u1","title":"Check the amount","notes":"","done":true,"completedAt":"2026-11-18T11:06:40.000Z","createdAt":null,"modifiedAt":null,"due":null,"priority":"none","tags":[],"repeat":null,"occurrences":{"completed":0,"skipped":0,"recent":[]},"alerts":[],"extras":[]}
        ]}

        """)
    let back = try BackupFormat.read(text, options: todoTxtReadOptions(file: "backup.json"))
    #expect(withoutLines(back.document) == document)
    #expect(back.document.tasks.map(\.line) == [9, 10])
    // An empty document.
    let empty = BackupFormat.write(ExchangeDocument(), options: todoTxtWriteOptions).text
    #expect(empty == "{\"format\":\"taskls-backup\",\"version\":1,\n\"lists\":[],\n\"smartLists\":[],\n\"tasks\":[]}\n")
    #expect(try BackupFormat.read(empty, options: todoTxtReadOptions()).document == ExchangeDocument())
}

@Test func twoListsOfOneNameAreCountedAsALoss() {
    let document = ExchangeDocument(lists: [ExchangeList(name: "A", storeID: 1), ExchangeList(name: "A", storeID: 2)],
                                    tasks: [ExchangeTask(uid: "1", list: "A", title: "x"), ExchangeTask(uid: "2", list: "B", title: "y")])
    #expect(BackupFormat.write(document, options: todoTxtWriteOptions).losses.map(\.description)
        == ["1 task: which of two lists of the same name a task is in (the backup names a task's list by its name)"])
}
