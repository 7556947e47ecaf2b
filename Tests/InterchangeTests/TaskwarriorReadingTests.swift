// Reading Taskwarrior JSON: the shapes `task export` really writes (captured from Taskwarrior 2.6.2), each field's
// mapping, and bad files refused with the file, line, field and words.

import Domain
@testable import Interchange
import Testing
import Wire

@Suite struct TaskwarriorReadingTests {
    /// What `task export` wrote for a small database in UTC (Taskwarrior 2.6.2, `TZ=UTC`).
    static let export = #"""
    [
    {"id":1,"description":"Buy milk","due":"20261124T000000Z","entry":"20261126T103529Z","modified":"20261126T103529Z","priority":"H","project":"Home","start":"20261126T103529Z","status":"pending","uuid":"9cedd122-d8ad-45d7-8a69-4b5b96dd1b41","annotations":[{"entry":"20261126T103529Z","description":"first note"},{"entry":"20261126T103530Z","description":"second note"}],"tags":["errands","home"],"urgency":30.716},
    {"id":2,"description":"Write report","due":"20261124T093000Z","entry":"20261126T103529Z","estimate":3,"modified":"20261126T103529Z","priority":"L","project":"Work.Reports","size":"M","status":"pending","uuid":"eeae15c7-2c91-4157-92a2-94733866c9f5","urgency":20.5351},
    {"id":3,"description":"Water plants","due":"20261120T000000Z","entry":"20261126T103529Z","mask":"--","modified":"20261126T103529Z","recur":"weekly","rtype":"periodic","status":"recurring","uuid":"59c3081c-4bc1-4356-9b11-140fd01a5002","urgency":11.7446},
    {"id":4,"description":"Waiting task","entry":"20261126T103529Z","modified":"20261126T103529Z","scheduled":"20261130T000000Z","status":"pending","until":"20270101T000000Z","uuid":"ae935ed2-3b9a-4bf7-8611-d64d5267e961","wait":"20261201T000000Z","urgency":-3},
    {"id":5,"description":"Dep task","entry":"20261126T103529Z","modified":"20261126T103529Z","status":"pending","uuid":"c9aa7919-becd-4905-b0c2-f3d2ffb1754b","depends":["9cedd122-d8ad-45d7-8a69-4b5b96dd1b41","eeae15c7-2c91-4157-92a2-94733866c9f5"],"urgency":-5},
    {"id":6,"description":"Water plants","due":"20261120T000000Z","entry":"20261126T103529Z","imask":0,"modified":"20261126T103529Z","parent":"59c3081c-4bc1-4356-9b11-140fd01a5002","recur":"weekly","rtype":"periodic","status":"pending","uuid":"9d850473-956f-471b-9925-d5a3120e3685","urgency":11.7446},
    {"id":7,"description":"Water plants","due":"20261127T000000Z","entry":"20261126T103529Z","imask":1,"modified":"20261126T103529Z","parent":"59c3081c-4bc1-4356-9b11-140fd01a5002","recur":"weekly","rtype":"periodic","status":"pending","uuid":"9c7e1e3f-14e8-4c48-be36-e1ac51c04cfa","urgency":8.5446},
    {"id":0,"description":"Plain task","end":"20261126T103529Z","entry":"20261126T103529Z","modified":"20261126T103529Z","status":"completed","uuid":"15dbdaba-f917-4a28-9ddb-b8999f5d42ab","urgency":0},
    {"id":0,"description":"Gone","end":"20261126T103530Z","entry":"20261126T103529Z","modified":"20261126T103530Z","status":"deleted","uuid":"25dbdaba-f917-4a28-9ddb-b8999f5d42ab","urgency":0}
    ]
    """#

    static func instant(_ text: String) -> Timestamp {
        guard case .success(let instant) = TaskwarriorDate.instant(text) else { fatalError(text) }
        return instant
    }

    static func read(_ text: String, zone: String = "UTC", skipInvalid: Bool = false) throws(ExchangeFailure) -> ExchangeReading {
        try TaskwarriorFormat.read(text, options: .taskwarrior(zone, skipInvalid: skipInvalid))
    }

    /// The problems a file is refused with, as the user reads them.
    static func problems(_ text: String) -> [String] {
        do {
            _ = try read(text)
            return []
        } catch {
            return error.problems.map(\.description) + (error.more > 0 ? ["and \(error.more) more"] : [])
        }
    }

    @Test func anExportReadsAsTasksWithEveryFieldMappedOrKept() throws {
        let reading = try Self.read(Self.export)
        let tasks = reading.document.tasks
        #expect(tasks.map(\.title) == ["Buy milk", "Write report", "Water plants", "Waiting task", "Dep task", "Plain task"])
        #expect(reading.losses.map(\.description) == ["1 task: deleted tasks (taskls keeps no deleted tasks)"])
        let milk = tasks[0]
        #expect(milk.uid == "9cedd122-d8ad-45d7-8a69-4b5b96dd1b41")
        #expect(milk.list == "Home")
        #expect(milk.due == .date(CalendarDate(year: 2026, month: 11, day: 24)!))
        #expect(milk.priority == .high)
        #expect(milk.tags == ["errands", "home"])
        #expect(milk.notes == "first note\nsecond note")
        #expect(milk.createdAt == Self.instant("20261126T103529Z") && milk.modifiedAt == Self.instant("20261126T103529Z"))
        #expect(milk.line == 2)
        #expect(milk.extras == [
            Extra(key: "taskwarrior:start", value: #""20261126T103529Z""#),
            Extra(key: "taskwarrior:annotations",
                  value: #"[{"entry":"20261126T103529Z","description":"first note"},{"entry":"20261126T103530Z","description":"second note"}]"#),
        ])
        let report = tasks[1]
        #expect(report.due == .dateTime(Self.instant("20261124T093000Z"), offsetSeconds: 0))
        #expect(report.list == "Work.Reports" && report.priority == .low)
        #expect(report.extras == [Extra(key: "taskwarrior:estimate", value: "3"), Extra(key: "taskwarrior:size", value: #""M""#)])
        let waiting = tasks[3]
        #expect(waiting.list == nil)
        #expect(waiting.extras == [
            Extra(key: "taskwarrior:scheduled", value: #""20261130T000000Z""#),
            Extra(key: "taskwarrior:until", value: #""20270101T000000Z""#),
            Extra(key: "taskwarrior:wait", value: #""20261201T000000Z""#),
            Extra(key: "taskwarrior:project", value: "null"),
        ])
        #expect(tasks[4].extras.first == Extra(key: "taskwarrior:depends",
                                               value: #"["9cedd122-d8ad-45d7-8a69-4b5b96dd1b41","eeae15c7-2c91-4157-92a2-94733866c9f5"]"#))
        let done = tasks[5]
        #expect(done.done && done.completedAt == Self.instant("20261126T103529Z"))
    }

    @Test func aTemplateAndItsInstancesAreOneRepeatingTaskDueAtTheFirstPendingInstance() throws {
        let plants = try Self.read(Self.export).document.tasks[2]
        #expect(plants.uid == "59c3081c-4bc1-4356-9b11-140fd01a5002")
        #expect(plants.repeatRule?.rrule == "FREQ=WEEKLY")
        #expect(plants.due == .date(CalendarDate(year: 2026, month: 11, day: 20)!))
        #expect(plants.occurrences == .none)
        #expect(plants.extras.map(\.key) == ["taskwarrior:due", "taskwarrior:mask", "taskwarrior:recur", "taskwarrior:rtype",
                                             "taskwarrior:project", "taskwarrior:template", "taskwarrior:instances"])
        #expect(plants.extras[5].value == #"{"description":"Water plants","project":null,"priority":null,"tags":[]}"#)
        // The instances are kept whole, without `id` and `urgency`.
        #expect(plants.extras[6].value.hasPrefix(#"[{"description":"Water plants","due":"20261120T000000Z","entry":"20261126T103529Z","imask":0,"#))
        #expect(!plants.extras[6].value.contains("urgency"))
    }

    @Test func aSeriesDueIsItsFirstPendingInstanceAndItsHistoryItsDoneOnes() throws {
        let text = #"""
        [
        {"uuid":"11111111-1111-4111-8111-111111111111","description":"Rent","status":"recurring","recur":"monthly","due":"20260115T000000Z","mask":"+X+-","entry":"20260101T000000Z","modified":"20260401T000000Z","until":"20261231T235959Z"},
        {"uuid":"11111111-1111-4111-8111-111111111112","description":"Rent","status":"completed","parent":"11111111-1111-4111-8111-111111111111","imask":0,"due":"20260115T000000Z","end":"20260116T080000Z","entry":"20260101T000000Z"},
        {"uuid":"11111111-1111-4111-8111-111111111113","description":"Rent","status":"deleted","parent":"11111111-1111-4111-8111-111111111111","imask":1,"due":"20260215T000000Z","end":"20260220T080000Z","entry":"20260101T000000Z"},
        {"uuid":"11111111-1111-4111-8111-111111111115","description":"Rent","status":"pending","parent":"11111111-1111-4111-8111-111111111111","imask":3.000000,"due":"20260415T000000Z","entry":"20260101T000000Z"},
        {"uuid":"11111111-1111-4111-8111-111111111114","description":"Rent","status":"completed","parent":"11111111-1111-4111-8111-111111111111","imask":2,"due":"20260315T000000Z","end":"20260314T080000Z","entry":"20260101T000000Z"}
        ]
        """#
        let tasks = try Self.read(text).document.tasks
        #expect(tasks.count == 1)
        let rent = tasks[0]
        #expect(rent.repeatRule?.rrule == "FREQ=MONTHLY;UNTIL=20261231")
        #expect(rent.due == .date(CalendarDate(year: 2026, month: 4, day: 15)!))
        #expect(rent.occurrences.completed == 2 && rent.occurrences.skipped == 1)
        #expect(rent.occurrences.recent.map(\.due.iso8601) == ["2026-01-15", "2026-02-15", "2026-03-15"])
        #expect(rent.occurrences.recent.map(\.outcome) == [.completed, .skipped, .completed])
        #expect(rent.occurrences.recent.map(\.at) == [Self.instant("20260116T080000Z"), Self.instant("20260220T080000Z"),
                                                       Self.instant("20260314T080000Z")])
        // With no pending instance, the due is the one Taskwarrior makes next: the template's, stepped per mask character.
        let finished = text.replacingOccurrences(of: #""status":"pending""#, with: #""status":"completed","end":"20260415T090000Z""#)
            .replacingOccurrences(of: "+X+-", with: "+X++")
        #expect(try Self.read(finished).document.tasks[0].due == .date(CalendarDate(year: 2026, month: 5, day: 15)!))
    }

    @Test func aPeriodTasklsCannotRepeatByKeepsTheSeriesAndCountsTheLoss() throws {
        let text = #"""
        [{"uuid":"11111111-1111-4111-8111-111111111111","description":"Stretch","status":"recurring","recur":"2h","due":"20261128T080000Z","mask":"-"},
        {"uuid":"11111111-1111-4111-8111-111111111112","description":"Stretch","status":"pending","parent":"11111111-1111-4111-8111-111111111111","imask":0,"recur":"2h","due":"20261128T080000Z"},
        {"uuid":"21111111-1111-4111-8111-111111111111","description":"Rent","status":"recurring","recur":"monthly","due":"20261031T000000Z","mask":""}]
        """#
        let reading = try Self.read(text)
        #expect(reading.document.tasks[0].repeatRule == nil)
        #expect(reading.document.tasks[0].due == .dateTime(Self.instant("20261128T080000Z"), offsetSeconds: 0))
        #expect(reading.document.tasks[1].repeatRule?.rrule == "FREQ=MONTHLY")
        #expect(reading.losses.map(\.description) == [
            #"1 task: repeat "2h" (taskls repeats by days, weeks, months or years: kept for export, the task does not repeat)"#,
            "1 task: repeats on the 29th to 31st or on 29 February (Taskwarrior moves them to the month's last day and stays there; taskls skips months without the day)",
        ])
    }

    @Test func aLocalMidnightIsADayAndAnyOtherInstantATimeInTheZonesOffset() throws {
        let text = #"""
        [{"uuid":"11111111-1111-4111-8111-111111111111","description":"a","due":"20261123T230000Z"},
        {"uuid":"11111111-1111-4111-8111-111111111112","description":"b","due":"20260701T080000Z"},
        {"uuid":"11111111-1111-4111-8111-111111111113","description":"c","due":"2026-03-28T23:00:00Z"}]
        """#
        let dues = try Self.read(text, zone: "Europe/Berlin").document.tasks.map(\.due)
        #expect(dues == [.date(CalendarDate(year: 2026, month: 11, day: 24)!),
                         .dateTime(Self.instant("20260701T080000Z"), offsetSeconds: 7200),
                         .date(CalendarDate(year: 2026, month: 3, day: 29)!)])
    }

    @Test func oneObjectOrOneObjectPerLineReadsLikeAnArray() throws {
        let line = #"{"uuid":"11111111-1111-4111-8111-111111111111","description":"a"}"#
        let other = #"{"uuid":"11111111-1111-4111-8111-111111111112","description":"b"}"#
        #expect(try Self.read(line).document.tasks.map(\.title) == ["a"])
        let lines = try Self.read("\n" + line + "\n\n" + other + "\n").document.tasks
        #expect(lines.map(\.title) == ["a", "b"] && lines.map(\.line) == [2, 4])
        #expect(try Self.read("  \n").document.tasks.isEmpty)
        #expect(try Self.read("[]").document.tasks.isEmpty)
    }

    @Test func badFilesAreRefusedWithTheirLineFieldAndWhatIsWrong() {
        let valid = #"{"uuid":"11111111-1111-4111-8111-111111111111","description":"a"}"#
        #expect(Self.problems("not json") == ["tasks.json:1: invalid JSON at byte 0: expected 'null'"])
        #expect(Self.problems("[\n" + valid + ",\n{\"uuid\": }\n]") == [
            "tasks.json:3: invalid JSON at byte 78: expected a JSON value, found '}'"])
        #expect(Self.problems(#""a task""#) == [
            "tasks.json:1: expected a JSON array of tasks (what `task export` writes), found a string"])
        #expect(Self.problems("[\n1\n]") == ["tasks.json:2: expected a task (a JSON object), found an integer"])
        #expect(Self.problems(valid + "\n{\"uuid\"\n") == ["tasks.json:2: invalid JSON at byte 7: expected ':' after an object key, found end of input"])
        #expect(Self.problems(#"[{"description":"a"},{"uuid":"11111111-1111-4111-8111-111111111112"}]"#) == [
            "tasks.json:1: uuid: is missing", "tasks.json:1: description: is missing"])
        #expect(Self.problems(#"[{"uuid":"x","description":""},{"uuid":"11111111-1111-4111-8111-111111111112","description":"  "}]"#) == [
            #"tasks.json:1: uuid: "x" is not a UUID (8-4-4-4-12 hexadecimal digits)"#,
            "tasks.json:1: description: is empty",
            "tasks.json:1: description: is only white space (a taskls title needs a word)"])
        #expect(Self.problems("[\n" + #"{"uuid":"11111111-1111-4111-8111-111111111111","description":"a","due":"20260230T000000Z","end":"2026-11-24T25:00:00Z","wait":"tomorrow"}"# + "\n]") == [
            #"tasks.json:2: due: "20260230T000000Z" is not a date (2026-02-30 does not exist)"#,
            #"tasks.json:2: end: "2026-11-24T25:00:00Z" is not a date (25:00:00 is not a time of day)"#,
            #"tasks.json:2: wait: "tomorrow" is not a Taskwarrior date (YYYYMMDDTHHMMSSZ)"#])
        #expect(Self.problems("[\n" + valid + ",\n{},\n" + valid + "\n]") == [
            "tasks.json:3: uuid: is missing", "tasks.json:3: description: is missing",
            #"tasks.json:4: uuid: "11111111-1111-4111-8111-111111111111" appears twice (lines 2 and 4)"#])
        #expect(Self.problems(#"[{"uuid":"11111111-1111-4111-8111-111111111111","description":"a","status":"done","priority":1,"tags":["a",2],"mask":"-?Q","imask":-1,"annotations":[{"description":"x"}],"depends":"nope"}]"#) == [
            #"tasks.json:1: status: "done" is not a Taskwarrior status: pending, waiting, completed, deleted or recurring"#,
            "tasks.json:1: priority: expected a string, found an integer",
            "tasks.json:1: tags[1]: expected a string, found an integer",
            #"tasks.json:1: mask: "-?Q" is not a recurrence mask (one of - + X W ? per instance)"#,
            "tasks.json:1: imask: expected a whole number from 0, found an integer",
            "tasks.json:1: annotations[0]: expected an object with entry and description, found an object",
            #"tasks.json:1: depends: "nope" is not a UUID (8-4-4-4-12 hexadecimal digits)"#])
        #expect(Self.problems(#"[{"uuid":"11111111-1111-4111-8111-111111111111","description":"a","status":"recurring"}]"#) == [
            "tasks.json:1: due: is missing (a recurring task needs one)", "tasks.json:1: recur: is missing (a recurring task needs one)"])
    }

    @Test func aCycleOfDependsIsAProblemOnEachTaskOnIt() {
        let a = "11111111-1111-4111-8111-11111111111a", b = "11111111-1111-4111-8111-11111111111b"
        let c = "11111111-1111-4111-8111-11111111111c"
        let text = "[\n" + [
            #"{"uuid":"\#(a)","description":"a","depends":["\#(b)"]}"#,
            #"{"uuid":"\#(b)","description":"b","depends":"\#(a),\#(c)"}"#,
            #"{"uuid":"\#(c)","description":"c","depends":["\#(c)"]}"#,
        ].joined(separator: ",\n") + "\n]"
        #expect(Self.problems(text) == [
            "tasks.json:2: depends: a cycle: \(a) → \(b) → \(a)",
            "tasks.json:3: depends: a cycle: \(a) → \(b) → \(a)",
            "tasks.json:4: depends: a cycle: \(c) → \(c)"])
    }

    @Test func skippingInvalidTasksReadsTheOthersAndReportsEach() throws {
        let text = "[\n" + [
            #"{"uuid":"11111111-1111-4111-8111-111111111111","description":"kept"}"#,
            #"{"uuid":"11111111-1111-4111-8111-111111111112","description":"bad due","due":"x"}"#,
            #"{"uuid":"11111111-1111-4111-8111-111111111111","description":"again"}"#,
            #"{"uuid":"11111111-1111-4111-8111-111111111113","description":"also kept","status":"completed"}"#,
        ].joined(separator: ",\n") + "\n]"
        let reading = try Self.read(text, skipInvalid: true)
        #expect(reading.document.tasks.map(\.title) == ["kept", "also kept"])
        #expect(reading.skipped.map(\.description) == [
            #"tasks.json:3: due: "x" is not a Taskwarrior date (YYYYMMDDTHHMMSSZ)"#,
            #"tasks.json:4: uuid: "11111111-1111-4111-8111-111111111111" appears twice (lines 2 and 4)"#])
    }

    @Test func aFileWithManyProblemsListsTheFirstHundredAndCountsTheRest() {
        let text = "[" + Array(repeating: "{}", count: 60).joined(separator: ",") + "]"
        let problems = Self.problems(text)
        #expect(problems.count == 101)
        #expect(problems.last == "and 20 more")
    }
}
