// todo.txt read: the format's own examples (its README), a file edited by a person, identities for lines without
// uid:, and bad lines refused with their line, field and words.

import Domain
import Interchange
import Testing

/// Every example line of the todo.txt README (github.com/todotxt/todo.txt), with what it says.
private let readmeExamples: [(line: String, done: Bool, priority: Priority, created: String?, completed: String?,
                              title: String, list: String?, tags: [String])] = [
    ("(A) Thank Mom for the meatballs @phone", false, .high, nil, nil, "Thank Mom for the meatballs", nil, ["phone"]),
    ("(B) Schedule Goodwill pickup +GarageSale @phone", false, .medium, nil, nil, "Schedule Goodwill pickup",
     "GarageSale", ["phone"]),
    ("Post signs around the neighborhood +GarageSale", false, .none, nil, nil, "Post signs around the neighborhood",
     "GarageSale", []),
    ("@GroceryStore pies", false, .none, nil, nil, "pies", nil, ["GroceryStore"]),
    ("(A) Call Mom", false, .high, nil, nil, "Call Mom", nil, []),
    ("Really gotta call Mom (A) @phone @someday", false, .none, nil, nil, "Really gotta call Mom (A)", nil,
     ["phone", "someday"]),
    ("(b) Get back to the boss", false, .none, nil, nil, "(b) Get back to the boss", nil, []),
    ("(B)->Submit TPS report", false, .none, nil, nil, "(B)->Submit TPS report", nil, []),
    ("2011-03-02 Document +TodoTxt task format", false, .none, "2011-03-02", nil, "Document +TodoTxt task format",
     "TodoTxt", []),
    ("(A) 2011-03-02 Call Mom", false, .high, "2011-03-02", nil, "Call Mom", nil, []),
    ("(A) Call Mom 2011-03-02", false, .high, nil, nil, "Call Mom 2011-03-02", nil, []),
    ("(A) Call Mom +Family +PeaceLoveAndHappiness @iphone @phone", false, .high, nil, nil, "Call Mom", "Family",
     ["iphone", "phone"]),
    ("Email SoAndSo at soandso@example.com", false, .none, nil, nil, "Email SoAndSo at soandso@example.com", nil, []),
    ("Learn how to add 2+2", false, .none, nil, nil, "Learn how to add 2+2", nil, []),
    ("x 2011-03-03 Call Mom", true, .none, nil, "2011-03-03", "Call Mom", nil, []),
    ("xylophone lesson", false, .none, nil, nil, "xylophone lesson", nil, []),
    ("X 2012-01-01 Make resolutions", false, .none, nil, nil, "X 2012-01-01 Make resolutions", nil, []),
    ("(A) x Find ticket prices", false, .high, nil, nil, "x Find ticket prices", nil, []),
    ("x 2011-03-02 2011-03-01 Review Tim's pull request +TodoTxtTouch @github", true, .none, "2011-03-01",
     "2011-03-02", "Review Tim's pull request", "TodoTxtTouch", ["github"]),
]

@Test func theReadmeExamplesReadAsTheFormatSays() throws {
    let text = readmeExamples.map(\.line).joined(separator: "\n") + "\n"
    let reading = try TodoTxtFormat.read(text, options: todoTxtReadOptions())
    #expect(reading.skipped.isEmpty && reading.losses.isEmpty)
    try #require(reading.document.tasks.count == readmeExamples.count)
    for (task, example) in zip(reading.document.tasks, readmeExamples) {
        #expect(task.done == example.done, "\(example.line)")
        #expect(task.priority == example.priority, "\(example.line)")
        #expect(task.createdAt == example.created.map(todoTxtMidnight), "\(example.line)")
        #expect(task.completedAt == example.completed.map(todoTxtMidnight), "\(example.line)")
        #expect(task.title == example.title, "\(example.line)")
        #expect(task.list == example.list, "\(example.line)")
        #expect(task.tags == example.tags, "\(example.line)")
        #expect(task.extras == (example.line.contains("PeaceLove") ? [Extra(key: "todotxt:project",
                                                                            value: "PeaceLoveAndHappiness")] : []))
    }
    #expect(reading.document.lists.map(\.name) == ["GarageSale", "TodoTxt", "Family", "TodoTxtTouch"])
}

@Test func theReadmeExamplesRoundTripLineForLine() throws {
    let text = readmeExamples.map(\.line).joined(separator: "\n") + "\n"
    let first = try TodoTxtFormat.read(text, options: todoTxtReadOptions())
    let written = TodoTxtFormat.write(first.document, options: todoTxtWriteOptions)
    #expect(written.losses.isEmpty)
    let second = try TodoTxtFormat.read(written.text, options: todoTxtReadOptions())
    #expect(withoutLines(second.document) == withoutLines(first.document))
    // Each line comes back as written, with its uid: after it; only what stood before the title moves after it.
    let lines = written.text.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == readmeExamples.count + 1 && lines.last == "")
    for (line, task) in zip(lines, first.document.tasks) {
        var expected = readmeExamples[task.line - 1].line
        if expected == "@GroceryStore pies" { expected = "pies @GroceryStore" }
        #expect(line == expected + " uid:" + task.uid!)
    }
}

@Test func theReadmeKeyValueExamplesKeepTheirFields() throws {
    let text = "Pay the bill due:2010-01-02\nx 2011-03-02 Review Tim's pull request pri:A\n"
    let tasks = try TodoTxtFormat.read(text, options: todoTxtReadOptions()).document.tasks
    #expect(tasks[0].due == .date(CalendarDate(year: 2010, month: 1, day: 2)!))
    #expect(tasks[1].done && tasks[1].priority == .high && tasks[1].extras.isEmpty)
    let lines = TodoTxtFormat.write(ExchangeDocument(tasks: tasks), options: todoTxtWriteOptions).text
        .split(separator: "\n")
    #expect(lines[1] == "x 2011-03-02 Review Tim's pull request pri:A uid:\(tasks[1].uid!)")
}

@Test func aFileEditedByAPersonImportsCleanly() throws {
    let text = "\u{FEFF}(A) Call Mom @phone   \r\n\r\n \t \r\n  Buy\tmilk  +Errands\t@home_store \r\n"
        + "x 2026-01-02 2025-12-30 Pay   rent +Home_Office due:2026-01-01 t:2025-12-28\rWater plants rec:3d "
        + "due:2026-01-05\n\n"
    let reading = try TodoTxtFormat.read(text, options: todoTxtReadOptions())
    let tasks = reading.document.tasks
    #expect(tasks.map(\.line) == [1, 4, 5, 6])
    #expect(tasks.map(\.title) == ["Call Mom", "Buy milk", "Pay rent", "Water plants"])
    #expect(tasks.map(\.list) == [nil, "Errands", "Home Office", nil])
    #expect(tasks.map(\.tags) == [["phone"], ["home store"], [], []])
    #expect(tasks[2].done && tasks[2].completedAt == todoTxtMidnight("2026-01-02")
        && tasks[2].createdAt == todoTxtMidnight("2025-12-30"))
    #expect(tasks[2].due == .date(CalendarDate(year: 2026, month: 1, day: 1)!))
    #expect(tasks[2].extras == [Extra(key: "todotxt:t", value: "2025-12-28")])
    #expect(tasks[3].repeatRule == (try RepeatRule(rrule: "FREQ=DAILY;INTERVAL=3", anchor: .completion)))
    #expect(reading.document.lists.map(\.name) == ["Errands", "Home Office"])
    #expect(reading.skipped.isEmpty && reading.losses.isEmpty)
    #expect(Set(tasks.compactMap(\.uid)).count == 4 && tasks.allSatisfy { $0.uid!.hasPrefix("todotxt-") })
}

@Test func wordsBetweenTheTitlesWordsStayInIt() throws {
    let line = "Call @Mom about +Garage_Sale re:budget tomorrow +Other @phone h:1 due:2026-03-01 @Mom"
    let task = try TodoTxtFormat.read(line, options: todoTxtReadOptions()).document.tasks[0]
    #expect(task.title == "Call @Mom about +Garage_Sale re:budget tomorrow")
    #expect(task.list == "Garage Sale" && task.tags == ["Mom", "phone"])
    #expect(task.extras == [Extra(key: "todotxt:project", value: "Other"), Extra(key: "todotxt:h", value: "1")])
    #expect(task.due == .date(CalendarDate(year: 2026, month: 3, day: 1)!))
    let written = TodoTxtFormat.write(ExchangeDocument(tasks: [task]), options: todoTxtWriteOptions)
    #expect(written.text == "Call @Mom about +Garage_Sale re:budget tomorrow +Other @phone h:1 due:2026-03-01 "
        + "uid:\(task.uid!)\n")
    #expect(written.losses.isEmpty)
    // A URL, a time of day and a key without a value are words; so is a `project:` pair.
    let words = "See http://example.com/a at 10:30 note: project:x"
    #expect(try TodoTxtFormat.read(words, options: todoTxtReadOptions()).document.tasks[0].title == words)
    let onlyTags = try TodoTxtFormat.read("+Shopping @store h:1", options: todoTxtReadOptions()).document.tasks[0]
    #expect(onlyTags.title == "+Shopping @store" && onlyTags.list == "Shopping" && onlyTags.tags == ["store"])
}

@Test func aLineWithoutUIDKeepsItsIdentityWhenAnotherToolCompletesIt() throws {
    let open = "(A) 2026-01-01 Call Mom +Family @phone due:2026-01-03\n"
    let completed = "x 2026-01-04 2026-01-01 Call Mom +Family @phone due:2026-01-03 pri:A\n"
    let spaced = "2026-01-01   Call Mom\t+Family @phone due:2026-01-03  \r\n"
    let edited = "(A) 2026-01-01 Call Mom tonight +Family @phone due:2026-01-03\n"
    func uid(_ text: String) throws -> String { try TodoTxtFormat.read(text, options: todoTxtReadOptions()).document.tasks[0].uid! }
    #expect(try uid(open) == uid(completed))
    #expect(try uid(open) == uid(spaced))
    #expect(try uid(open) != uid(edited))
    #expect(try uid(open) == "todotxt-" + fnv1aHex("2026-01-01 Call Mom +Family @phone due:2026-01-03"))
    // The same text twice: the second is -2; a uid: another line names is passed over.
    let twice = try TodoTxtFormat.read("Buy milk\nBuy milk\nx Buy milk\nOther uid:todotxt-\(fnv1aHex("Buy milk"))-4\n",
                                       options: todoTxtReadOptions()).document.tasks
    let base = "todotxt-" + fnv1aHex("Buy milk")
    #expect(twice.map(\.uid!) == [base, base + "-2", base + "-3", base + "-4"])
}

/// 64-bit FNV-1a of the text's UTF-8, 16 hexadecimal digits (the published algorithm, written out again here).
private func fnv1aHex(_ text: String) -> String {
    var hash: UInt64 = 14_695_981_039_346_656_037
    for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 1_099_511_628_211 }
    let digits = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
}

@Test func badLinesAreRefusedWithTheirLineFieldAndWords() {
    let text = """
        (A) 2026-02-30 Call Mom
        x 2026-13-01 Done thing
        Pay rent due:2026-02-29
        Pay rent due:tomorrow due:2026-01-01
        Water rec:2x due:2026-01-01
        Water rec:0d due:2026-01-01
        Water rrule:FREQ=DAILY due:2026-01-01
        Water rrule:+FREQ=HOURLY due:2026-01-01
        Water rec:1w rrule:+FREQ=DAILY due:2026-01-01
        (A) Urgent pri:B
        Odd pri:high
        due:2026-01-01 h:1
        2026-01-01
        One uid:a%zz
        Two uid:same
        Three uid:same
        Four parent:nobody
        Five uid:p1 parent:p2
        Six uid:p2 parent:p1
        Seven uid:me parent:me
        """
    #expect(throws: ExchangeFailure.self) { try TodoTxtFormat.read(text, options: todoTxtReadOptions()) }
    do {
        _ = try TodoTxtFormat.read(text, options: todoTxtReadOptions())
    } catch {
        #expect(error.problems.map(\.description) == [
            "todo.txt:1: creation date: 2026-02-30 is not a day",
            "todo.txt:2: completion date: 2026-13-01 is not a day",
            "todo.txt:3: due: 2026-02-29 is not a day",
            "todo.txt:4: due: \"tomorrow\" is not a day (YYYY-MM-DD)",
            "todo.txt:4: due: is given twice",
            "todo.txt:5: rec: \"2x\" is not a recurrence such as 1w or +1m (a number, then d, w, m, y or b; + counts from the due)",
            "todo.txt:6: rec: \"0d\" is out of range: 1 to 1000",
            "todo.txt:7: rrule: \"FREQ=DAILY\" must start with +, ++ or .+ (what the next due counts from), then an RRULE such as FREQ=WEEKLY;BYDAY=MO",
            "todo.txt:8: rrule: FREQ=HOURLY is not supported: DAILY, WEEKLY, MONTHLY or YEARLY",
            "todo.txt:9: rrule: and rec both say how the task repeats: keep one",
            "todo.txt:10: pri: B contradicts the priority (A) at the start of the line",
            "todo.txt:11: pri: \"high\" is not a priority letter (A to Z)",
            "todo.txt:12: the line has no title, only key:value pairs",
            "todo.txt:13: the line has no title",
            "todo.txt:14: uid: \"a%zz\" has a % not followed by two hexadecimal digits",
            "todo.txt:16: uid: \"same\" appears twice (lines 15 and 16)",
            "todo.txt:17: parent: \"nobody\" names no task in this file",
            "todo.txt:18: parent: \"p2\" makes a cycle of parents (lines 18, 19)",
            "todo.txt:19: parent: \"p1\" makes a cycle of parents (lines 18, 19)",
            "todo.txt:20: parent: \"me\" is the task's own uid",
        ])
        #expect(error.more == 0)
    }
}

@Test func skippingInvalidLinesKeepsTheRestAndLeavesOutTheirSubtasks() throws {
    let text = """
        Parent uid:p due:2026-02-30
        Child uid:c parent:p
        Grandchild parent:c
        Fine uid:f
        Fine's child parent:f
        """
    let reading = try TodoTxtFormat.read(text, options: todoTxtReadOptions(skipInvalid: true))
    #expect(reading.document.tasks.map(\.title) == ["Fine", "Fine's child"])
    #expect(reading.document.tasks[1].parentUID == "f")
    #expect(reading.skipped.map(\.description) == [
        "todo.txt:1: due: 2026-02-30 is not a day",
        "todo.txt:2: parent: \"p\" is the task on line 1, which is invalid",
        "todo.txt:3: parent: \"c\" is the task on line 2, which is invalid",
    ])
}

@Test func aFileOfManyBadLinesListsTheFirstHundred() {
    let text = (1...250).map { "Task \($0) due:2026-02-30" }.joined(separator: "\n")
    do {
        _ = try TodoTxtFormat.read(text, options: todoTxtReadOptions(file: "big.txt"))
        Issue.record("a file of bad lines was read")
    } catch {
        #expect(error.problems.count == ExchangeFailure.limit && error.more == 150)
        #expect(error.problems.last?.description == "big.txt:100: due: 2026-02-30 is not a day")
    }
}

@Test func recurrencesReadAsSimpletaskAndTopydoMeanThem() throws {
    let cases: [(String, String?, RepeatRule.Anchor)] = [
        ("1d", "FREQ=DAILY", .completion), ("+3d", "FREQ=DAILY;INTERVAL=3", .due), ("5", "FREQ=DAILY;INTERVAL=5", .completion),
        ("2w", "FREQ=WEEKLY;INTERVAL=2", .completion), ("+1m", "FREQ=MONTHLY", .due), ("+1y", "FREQ=YEARLY", .due),
        ("1b", "FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR", .completion), ("+1b", "FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR", .due),
        ("3b", nil, .completion),
    ]
    for (value, rrule, anchor) in cases {
        let reading = try TodoTxtFormat.read("Water due:2026-01-01 rec:\(value)", options: todoTxtReadOptions())
        let task = reading.document.tasks[0]
        if let rrule {
            #expect(task.repeatRule == (try RepeatRule(rrule: rrule, anchor: anchor)), "rec:\(value)")
            #expect(task.extras.isEmpty && reading.losses.isEmpty)
        } else {
            #expect(task.repeatRule == nil && task.extras == [Extra(key: "todotxt:rec", value: value)])
            #expect(reading.losses.map(\.description) == [
                "1 task: repeats every 3 business days (taskls has no such rule: the repeat is kept as text for export)"])
        }
    }
    let noDue = try TodoTxtFormat.read("Water rec:+1w t:2026-01-01", options: todoTxtReadOptions())
    #expect(noDue.document.tasks[0].repeatRule == nil)
    #expect(noDue.document.tasks[0].extras == [Extra(key: "todotxt:t", value: "2026-01-01"),
                                               Extra(key: "todotxt:rec", value: "+1w")])
    #expect(noDue.losses.map(\.description) == ["1 task: repeats of tasks without a due (taskls repeats only tasks "
        + "with a due: the repeat is kept as text for export)"])
    let written = TodoTxtFormat.write(noDue.document, options: todoTxtWriteOptions).text
    #expect(written == "Water t:2026-01-01 rec:+1w uid:\(noDue.document.tasks[0].uid!)\n")
}

@Test func prioritiesBeyondCAreLowAndKeepTheirLetter() throws {
    let reading = try TodoTxtFormat.read("(D) Someday\nx 2026-01-01 Done pri:Q\n(C) Low", options: todoTxtReadOptions())
    let tasks = reading.document.tasks
    #expect(tasks.map(\.priority) == [.low, .low, .low])
    #expect(tasks.map(\.extras) == [[Extra(key: "todotxt:pri", value: "D")], [Extra(key: "todotxt:pri", value: "Q")], []])
    let lines = TodoTxtFormat.write(reading.document, options: todoTxtWriteOptions).text.split(separator: "\n")
    #expect(lines.map { $0.split(separator: " ").dropLast().joined(separator: " ") }
        == ["(D) Someday", "x 2026-01-01 Done pri:Q", "(C) Low"])
    // Raised in taskls, the kept letter no longer counts.
    var raised = tasks[0]
    raised.priority = .high
    #expect(TodoTxtFormat.write(ExchangeDocument(tasks: [raised]), options: todoTxtWriteOptions).text
        .hasPrefix("(A) Someday uid:"))
}
