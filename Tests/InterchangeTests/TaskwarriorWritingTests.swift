// Writing Taskwarrior JSON: the text a document becomes, what it cannot carry (counted), the list a task without a
// project came in, notes as annotations, and write → read → write giving the same document.

import Domain
@testable import Interchange
import Testing
import TestSupport
import Wire

@Suite struct TaskwarriorWritingTests {
    static func instant(_ text: String) -> Timestamp { TaskwarriorReadingTests.instant(text) }

    static func write(_ tasks: [ExchangeTask], lists: [String] = [], zone: String = "UTC") -> ExchangeWriting {
        TaskwarriorFormat.write(ExchangeDocument(lists: lists.map { ExchangeList(name: $0) }, tasks: tasks), options: .taskwarrior(zone))
    }

    @Test func aDocumentIsWrittenOneTaskPerLineInAnArray() throws {
        let created = Self.instant("20261101T080000Z"), modified = Self.instant("20261102T093000Z")
        let tasks = [
            ExchangeTask(uid: "11111111-1111-4111-8111-111111111111", list: "Home", title: "Buy \"milk\"", notes: "2 litres\nsemi-skimmed",
                         createdAt: created, modifiedAt: modified, due: .date(CalendarDate(year: 2026, month: 11, day: 24)!),
                         priority: .high, tags: ["home", "errands"]),
            ExchangeTask(uid: "11111111-1111-4111-8111-111111111112", list: "Work.Reports", title: "Report", done: true,
                         completedAt: modified, createdAt: created, modifiedAt: modified,
                         due: .dateTime(Self.instant("20261124T083000Z"), offsetSeconds: 3600), priority: .low),
            ExchangeTask(uid: "11111111-1111-4111-8111-111111111113", list: "Home", title: "Water plants", createdAt: created,
                         modifiedAt: modified, due: .date(CalendarDate(year: 2026, month: 11, day: 20)!),
                         repeatRule: try RepeatRule(rrule: "FREQ=WEEKLY;INTERVAL=2;UNTIL=20270131")),
        ]
        let writing = Self.write(tasks, zone: "Europe/Berlin")
        #expect(writing.losses.isEmpty)
        #expect(writing.text == #"""
        [
        {"uuid":"11111111-1111-4111-8111-111111111111","description":"Buy \"milk\"","status":"pending","entry":"20261101T080000Z","modified":"20261102T093000Z","priority":"H","project":"Home","tags":["home","errands"],"annotations":[{"entry":"20261102T093000Z","description":"2 litres"},{"entry":"20261102T093001Z","description":"semi-skimmed"}],"due":"20261123T230000Z"},
        {"uuid":"11111111-1111-4111-8111-111111111112","description":"Report","status":"completed","entry":"20261101T080000Z","modified":"20261102T093000Z","end":"20261102T093000Z","priority":"L","project":"Work.Reports","due":"20261124T083000Z"},
        {"uuid":"11111111-1111-4111-8111-111111111113","description":"Water plants","status":"recurring","entry":"20261101T080000Z","modified":"20261102T093000Z","project":"Home","due":"20261119T230000Z","recur":"2w","until":"20270131T225959Z","rtype":"periodic"}
        ]

        """#)
        let back = try TaskwarriorFormat.read(writing.text, options: .taskwarrior("Europe/Berlin")).document.tasks
        #expect(back.map(\.due) == tasks.map(\.due))
        #expect(back[2].repeatRule == tasks[2].repeatRule)
    }

    @Test func whatTaskwarriorCannotCarryIsCounted() throws {
        let base = ExchangeTask(uid: "11111111-1111-4111-8111-111111111111", list: "Home", title: "a",
                                createdAt: Self.instant("20261101T080000Z"), modifiedAt: Self.instant("20261101T080000Z"))
        func with(_ edit: (inout ExchangeTask) throws -> Void) rethrows -> ExchangeTask {
            var task = base
            try edit(&task)
            return task
        }
        let day = CalendarDate(year: 2026, month: 11, day: 30)!
        let writing = Self.write([
            with { $0.alerts = [.offset(minutes: -30)] },
            with { $0.parentUID = "11111111-1111-4111-8111-111111111119" },
            with { $0.due = .dateTime(Timestamp(milliseconds: Self.instant("20261124T083000Z").milliseconds + 250), offsetSeconds: 0) },
            with { $0.due = .dateTime(Self.instant("20261124T083000Z"), offsetSeconds: 3600) },
            with { $0.due = .dateTime(Self.instant("20261124T000000Z"), offsetSeconds: 0) },
            with { $0.title = "party 🎉" },
            with { $0.notes = "one\n\ntwo" },
            try with { $0.due = .date(day); $0.repeatRule = try RepeatRule(rrule: "FREQ=WEEKLY;BYDAY=MO,WE") },
            try with { $0.due = .date(day); $0.repeatRule = try RepeatRule(rrule: "FREQ=DAILY;COUNT=3", anchor: .completion) },
            try with { $0.due = .date(day); $0.repeatRule = try RepeatRule(rrule: "FREQ=MONTHLY") },
            try with { $0.due = .date(day); $0.done = true; $0.repeatRule = try RepeatRule(rrule: "FREQ=DAILY") },
        ])
        #expect(writing.losses.map(\.description) == [
            "1 task: alerts (Taskwarrior has no alerts)",
            "1 task: subtasks (written as top-level tasks) (Taskwarrior has no subtasks)",
            "1 task: due times' milliseconds (Taskwarrior keeps whole seconds)",
            "1 task: due times' UTC offsets (Taskwarrior keeps instants, read back in your time zone)",
            "1 task: due times at midnight (read back as days) (Taskwarrior writes a day as its midnight)",
            "1 task: characters beyond U+FFFF (emoji) (Taskwarrior 2.6's import garbles them)",
            "1 task: empty lines of notes (Taskwarrior drops empty annotations)",
            "1 task: repeat rules Taskwarrior cannot say (Taskwarrior repeats by one period: daily, weekly, monthly, yearly, every N of them, weekdays)",
            "1 task: repeat counts (Taskwarrior ends a repeat at a date (until), not after a count)",
            "1 task: repeats from completion or from today (Taskwarrior 2.6 repeats from the due only)",
            "1 task: repeats on the 29th to 31st or on 29 February (Taskwarrior moves them to the month's last day and stays there; taskls skips months without the day)",
            "1 task: repeats of done tasks (Taskwarrior repeats open tasks only)",
        ])
        // A rule Taskwarrior cannot say leaves a plain task with its due.
        #expect(writing.text.split(separator: "\n")[8].contains(#""status":"pending""#))
        #expect(!writing.text.split(separator: "\n")[8].contains("recur"))
    }

    @Test func tasksThatHadNoProjectGetNoneWhileInTheListTheyCameIn() throws {
        let text = "[\n" + (1...3).map { #"{"uuid":"11111111-1111-4111-8111-11111111111\#($0)","description":"t\#($0)"}"# }
            .joined(separator: ",\n") + ",\n" + #"{"uuid":"11111111-1111-4111-8111-111111111114","description":"t4","project":"Inbox"}"# + "\n]"
        var document = try TaskwarriorFormat.read(text, options: .taskwarrior("UTC")).document
        for index in document.tasks.indices where document.tasks[index].list == nil { document.tasks[index].list = "Inbox" }
        document.tasks[2].list = "Work"
        let written = try TaskwarriorFormat.read(TaskwarriorFormat.write(document, options: .taskwarrior("UTC")).text,
                                                 options: .taskwarrior("UTC")).document.tasks
        #expect(written.map(\.list) == [nil, nil, "Work", "Inbox"])
    }

    @Test func changedNotesKeepTheAnnotationsTheyStillHaveWithTheirTimes() throws {
        let text = #"[{"uuid":"11111111-1111-4111-8111-111111111111","description":"a","modified":"20261120T100000Z","annotations":[{"entry":"20261101T100000Z","description":"first"},{"entry":"20261102T100000Z","description":"second"}]}]"#
        var document = try TaskwarriorFormat.read(text, options: .taskwarrior("UTC")).document
        document.tasks[0].list = "Inbox"
        #expect(TaskwarriorFormat.write(document, options: .taskwarrior("UTC")).text.contains(
            #""annotations":[{"entry":"20261101T100000Z","description":"first"},{"entry":"20261102T100000Z","description":"second"}]"#))
        document.tasks[0].notes = "second\nthird\nfourth"
        #expect(TaskwarriorFormat.write(document, options: .taskwarrior("UTC")).text.contains(
            #""annotations":[{"entry":"20261102T100000Z","description":"second"},{"entry":"20261120T100000Z","description":"third"},{"entry":"20261120T100001Z","description":"fourth"}]"#))
        document.tasks[0].notes = ""
        #expect(!TaskwarriorFormat.write(document, options: .taskwarrior("UTC")).text.contains("annotations"))
    }

    @Test func writingWhatWasReadGivesTheSameDocumentBack() throws {
        var random = SplitMix64(seed: 77)
        var checked = 0
        for _ in 0..<20 {
            var document = TaskwarriorRandomDocument.make(count: 30, zone: "Europe/Berlin", using: &random)
            document.tasks = document.tasks.filter { task in
                // Midnight times read back as days (counted as lost when written).
                guard case .dateTime(let instant, _) = task.due else { return true }
                return TaskwarriorTestZone("Europe/Berlin").localReading(of: instant).millisecond != 0
            }
            let once = TaskwarriorFormat.write(document, options: .taskwarrior("Europe/Berlin"))
            #expect(once.losses.isEmpty)
            let read = try TaskwarriorFormat.read(once.text, options: .taskwarrior("Europe/Berlin"))
            for (written, back) in zip(document.tasks, read.document.tasks) {
                #expect(TaskwarriorRandomDocument.differences(written, back) == [], "\(written.title)")
                #expect(written.modifiedAt == back.modifiedAt)
                checked += 1
            }
            let twice = try TaskwarriorFormat.read(TaskwarriorFormat.write(read.document, options: .taskwarrior("Europe/Berlin")).text,
                                                   options: .taskwarrior("Europe/Berlin"))
            #expect(twice.document == read.document)
        }
        #expect(checked > 500)
    }
}

extension TaskwarriorWritingTests {
    @Test func oddButValidTasksAreWrittenBackAsTheyWere() throws {
        let text = #"""
        [
        {"uuid":"11111111-1111-4111-8111-111111111111","description":"waiting","status":"waiting","wait":"20270101T000000Z","entry":"20261101T000000Z","modified":"20261101T000000Z","priority":"VH","depends":"11111111-1111-4111-8111-111111111112"},
        {"uuid":"11111111-1111-4111-8111-111111111112","description":"orphan instance","status":"pending","parent":"21111111-1111-4111-8111-111111111111","imask":4,"recur":"weekly","rtype":"periodic","due":"20261120T000000Z","entry":"20261101T000000Z","modified":"20261101T000000Z","project":"Home"},
        {"uuid":"11111111-1111-4111-8111-111111111113","description":"ended series","status":"completed","end":"20261110T000000Z","recur":"daily","mask":"++","due":"20261101T000000Z","rtype":"periodic","entry":"20261101T000000Z","modified":"20261110T000000Z"},
        {"uuid":"11111111-1111-4111-8111-111111111114","description":"ended series","status":"completed","end":"20261101T100000Z","parent":"11111111-1111-4111-8111-111111111113","imask":0,"due":"20261101T000000Z","entry":"20261101T000000Z","modified":"20261101T100000Z"},
        {"uuid":"11111111-1111-4111-8111-111111111115","description":"ended series","status":"completed","end":"20261102T100000Z","parent":"11111111-1111-4111-8111-111111111113","imask":1,"due":"20261102T000000Z","entry":"20261101T000000Z","modified":"20261102T100000Z"},
        {"uuid":"11111111-1111-4111-8111-111111111116","description":"a\nsecond line","status":"pending","entry":"20261101T000000Z","modified":"20261101T000000Z","annotations":[{"entry":"20261101T000000Z","description":"with\nnewline"}],"unknown":{"nested":[1,2.5,"x"]}}
        ]
        """#
        let reading = try TaskwarriorFormat.read(text, options: .taskwarrior("UTC"))
        var document = reading.document
        #expect(document.tasks.count == 4)
        #expect(document.tasks[0].priority == .none)
        #expect(document.tasks[2].done && document.tasks[2].repeatRule?.rrule == "FREQ=DAILY")
        for index in document.tasks.indices where document.tasks[index].list == nil { document.tasks[index].list = "Inbox" }
        let written = TaskwarriorFormat.write(document, options: .taskwarrior("UTC")).text
        #expect(try TaskwarriorDatabase.differences(text, written) == [])
    }
}

extension TaskwarriorWritingTests {
    /// The captured export's weekly series (due 2026-11-20, instances 0 and 1 pending), changed as taskls changes
    /// it, written, and its template and instances by mask index.
    static func series(_ edit: (inout ExchangeTask) throws -> Void) throws -> (template: JSONObject, instances: [Int: JSONObject]) {
        var document = try TaskwarriorFormat.read(TaskwarriorReadingTests.export, options: .taskwarrior("UTC")).document
        for index in document.tasks.indices where document.tasks[index].list == nil { document.tasks[index].list = "Inbox" }
        try edit(&document.tasks[2])
        let tasks = try TaskwarriorDatabase.tasks(of: TaskwarriorFormat.write(document, options: .taskwarrior("UTC")).text)
        let template = try #require(tasks["59c3081c-4bc1-4356-9b11-140fd01a5002"])
        var instances: [Int: JSONObject] = [:]
        for task in tasks.values where task["parent"] == .string("59c3081c-4bc1-4356-9b11-140fd01a5002") {
            instances[TaskwarriorRecord.wholeNumber(task["imask"]!)!] = task
        }
        return (template, instances)
    }

    /// Completes (or skips) the task `times` times at `at`, as taskls does.
    static func advance(_ task: inout ExchangeTask, times: Int, _ outcome: Occurrence.Outcome, at: Timestamp) {
        for _ in 0..<times {
            let due = task.due!
            task.due = task.repeatRule!.next(after: due, completedAt: at, today: CalendarDate(year: 2026, month: 11, day: 26)!,
                                             zone: TaskwarriorTestZone("UTC"), occurrence: task.occurrences.used + 1)
            task.occurrences = task.occurrences.adding(Occurrence(due: due, outcome: outcome, at: at))
        }
        task.modifiedAt = at
    }

    @Test func aSeriesMovedOnInTasklsClosesTheInstancesItPassedAndMarksTheMask() throws {
        let at = Self.instant("20261126T120000Z")
        let once = try Self.series { Self.advance(&$0, times: 1, .completed, at: at) }
        #expect(once.template["mask"] == .string("+-") && once.template["due"] == .string("20261120T000000Z"))
        #expect(once.instances[0]?["status"] == .string("completed") && once.instances[0]?["end"] == .string("20261126T120000Z"))
        #expect(once.instances[1]?["status"] == .string("pending"))
        let skipped = try Self.series { Self.advance(&$0, times: 2, .skipped, at: at) }
        #expect(skipped.template["mask"] == .string("XX"))
        #expect(skipped.instances.values.map { $0["status"] } == [.string("deleted"), .string("deleted")])
        // Past the instances Taskwarrior made: the mask says the occurrences between are done, so it makes the next.
        let thrice = try Self.series { Self.advance(&$0, times: 4, .completed, at: at) }
        #expect(thrice.template["mask"] == .string("++++") && thrice.template["due"] == .string("20261120T000000Z"))
        let renamed = try Self.series { task in
            Self.advance(&task, times: 1, .completed, at: at)
            task.title = "Water the plants"
        }
        #expect(renamed.template["description"] == .string("Water the plants"))
        #expect(renamed.instances[0]?["description"] == .string("Water plants"))
        #expect(renamed.instances[1]?["description"] == .string("Water the plants"))
    }

    @Test func aSeriesGivenANewRuleStartsAgainAndOneNoLongerRepeatingIsAPlainTask() throws {
        let at = Self.instant("20261126T120000Z")
        let fortnightly = try Self.series { task in
            Self.advance(&task, times: 1, .completed, at: at)
            task.repeatRule = try RepeatRule(rrule: "FREQ=WEEKLY;INTERVAL=2")
        }
        #expect(fortnightly.template["recur"] == .string("2w") && fortnightly.template["mask"] == .string(""))
        #expect(fortnightly.template["due"] == .string("20261127T000000Z"))
        #expect(fortnightly.instances[0]?["status"] == .string("completed") && fortnightly.instances[1]?["status"] == .string("deleted"))
        let stopped = try Self.series { task in
            task.repeatRule = nil
            task.modifiedAt = at
        }
        #expect(stopped.template["status"] == .string("pending") && stopped.template["recur"] == nil && stopped.template["mask"] == nil)
        #expect(stopped.template["due"] == .string("20261120T000000Z"))
        #expect(stopped.instances.values.allSatisfy { $0["status"] == .string("deleted") })
        let done = try Self.series { task in
            task.done = true
            task.completedAt = at
            task.modifiedAt = at
        }
        #expect(done.template["status"] == .string("completed") && done.template["end"] == .string("20261126T120000Z"))
        #expect(done.template["mask"] == .string("++"))
    }
}
