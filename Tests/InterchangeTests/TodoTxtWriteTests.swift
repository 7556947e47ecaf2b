// todo.txt written: the exact lines of a store's document (lists, subtasks, repeats, done tasks), how each repeat
// is spelt, and what the format cannot say counted as losses.

import Domain
import Interchange
import Testing

@Test func aDocumentIsWrittenOneLinePerTaskParentsFirst() throws {
    let document = ExchangeDocument(lists: [ExchangeList(name: "Home Office", color: "blue"), ExchangeList(name: "Inbox")], tasks: [
        ExchangeTask(uid: "a1", list: "Home Office", title: "Plan the move", createdAt: todoTxtMidnight("2026-01-02"),
                     due: .date(CalendarDate(year: 2026, month: 3, day: 1)!), priority: .high, tags: ["errand", "big deal"]),
        ExchangeTask(uid: "urn:uuid:b 2", list: "Home Office", parentUID: "a1", title: "Book the van", done: true,
                     completedAt: todoTxtMidnight("2026-01-05"), createdAt: todoTxtMidnight("2026-01-03"), priority: .medium),
        ExchangeTask(uid: "c3", list: "Inbox", title: "Pay rent",
                     due: .date(CalendarDate(year: 2026, month: 2, day: 1)!),
                     repeatRule: try RepeatRule(rrule: "FREQ=MONTHLY", anchor: .due),
                     extras: [Extra(key: "todotxt:t", value: "2026-01-25")]),
        ExchangeTask(uid: "d4", list: "Inbox", title: "Team call", due: .date(CalendarDate(year: 2026, month: 2, day: 27)!),
                     repeatRule: try RepeatRule(rrule: "FREQ=MONTHLY;BYDAY=-1FR", anchor: .dueFuture)),
    ])
    let written = TodoTxtFormat.write(document, options: todoTxtWriteOptions)
    #expect(written.text == """
        (A) 2026-01-02 Plan the move +Home_Office @errand @big_deal due:2026-03-01 uid:a1
        x 2026-01-05 2026-01-03 Book the van +Home_Office pri:B parent:a1 uid:urn%3Auuid%3Ab%202
        Pay rent +Inbox t:2026-01-25 due:2026-02-01 rec:+1m uid:c3
        Team call +Inbox due:2026-02-27 rrule:++FREQ=MONTHLY;BYDAY=-1FR uid:d4

        """)
    #expect(written.losses.isEmpty)
    let back = try TodoTxtFormat.read(written.text, options: todoTxtReadOptions())
    #expect(back.document.tasks.map(\.parentUID) == [nil, "a1", nil, nil])
    #expect(back.document.tasks[1].uid == "urn:uuid:b 2")
    #expect(back.document.lists == [ExchangeList(name: "Home Office"), ExchangeList(name: "Inbox")])
}

@Test func eachRepeatIsSpeltWithRecWhenRecSaysItExactly() throws {
    let cases: [(String, RepeatRule.Anchor, String)] = [
        ("FREQ=DAILY", .completion, "rec:1d"), ("FREQ=DAILY;INTERVAL=3", .due, "rec:+3d"),
        ("FREQ=WEEKLY;INTERVAL=2", .completion, "rec:2w"), ("FREQ=MONTHLY", .due, "rec:+1m"),
        ("FREQ=YEARLY;INTERVAL=1000", .completion, "rec:1000y"),
        ("FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR", .completion, "rec:1b"), ("FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR", .due, "rec:+1b"),
        ("FREQ=DAILY", .dueFuture, "rrule:++FREQ=DAILY"),
        ("FREQ=DAILY;INTERVAL=2;BYDAY=MO,TU,WE,TH,FR", .due, "rrule:+FREQ=DAILY;INTERVAL=2;BYDAY=MO,TU,WE,TH,FR"),
        ("FREQ=WEEKLY;BYDAY=MO,WE", .completion, "rrule:.+FREQ=WEEKLY;BYDAY=MO,WE"),
        ("FREQ=WEEKLY;WKST=SU", .due, "rrule:+FREQ=WEEKLY;WKST=SU"),
        ("FREQ=DAILY;COUNT=5", .due, "rrule:+FREQ=DAILY;COUNT=5"),
        ("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;UNTIL=20401231T235959Z", .due,
         "rrule:+FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;UNTIL=20401231T235959Z"),
    ]
    for (rrule, anchor, spelt) in cases {
        let rule = try RepeatRule(rrule: rrule, anchor: anchor)
        let task = ExchangeTask(uid: "u", title: "Water", due: .date(CalendarDate(year: 2026, month: 1, day: 1)!),
                                repeatRule: rule)
        let text = TodoTxtFormat.write(ExchangeDocument(tasks: [task]), options: todoTxtWriteOptions).text
        #expect(text == "Water due:2026-01-01 \(spelt) uid:u\n")
        #expect(try TodoTxtFormat.read(text, options: todoTxtReadOptions()).document.tasks[0].repeatRule == rule)
    }
}

@Test func whatTodoTxtCannotSayIsCountedAsLost() {
    let afternoon = Timestamp(milliseconds: todoTxtMidnight("2026-01-02").milliseconds + 15 * 3_600_000)
    let full = ExchangeTask(uid: "f", list: "Inbox", title: "Full", notes: "two\nlines", done: true,
                            completedAt: afternoon, createdAt: afternoon, modifiedAt: afternoon,
                            due: .dateTime(Timestamp(milliseconds: todoTxtMidnight("2026-01-03").milliseconds
                                                         + 24 * 3_600_000 + 30 * 60_000), offsetSeconds: 0),
                            alerts: [.offset(minutes: -60)],
                            occurrences: Occurrences(completed: 1, skipped: 0, recent: []),
                            extras: [Extra(key: "taskwarrior:wait", value: "\"20260101T000000Z\""),
                                     Extra(key: "todotxt:bad", value: "has space")])
    let awkward = [
        ExchangeTask(uid: "1", title: "x marks the spot"),
        ExchangeTask(uid: "2", title: "two  spaces"),
        ExchangeTask(uid: "3", title: "Call @Mom"),
        ExchangeTask(uid: "4", title: "Pay due:2026-01-01 now"),
        ExchangeTask(uid: "5", list: "snake_case", title: "Snake"),
        ExchangeTask(uid: "6", title: "Tag", tags: ["a_b"]),
        ExchangeTask(uid: "7", title: "Done without a date", done: true, createdAt: todoTxtMidnight("2026-01-01")),
    ]
    let written = TodoTxtFormat.write(ExchangeDocument(tasks: [full] + awkward), options: todoTxtWriteOptions)
    // The due 2026-01-03T23:30Z is 00:30 on the 4th in the user's zone.
    #expect(written.text.split(separator: "\n")[0] == "x 2026-01-02 2026-01-02 Full +Inbox due:2026-01-04 uid:f")
    #expect(written.losses.map(\.description) == [
        "1 task: completion times of day (todo.txt keeps only the completion date)",
        "1 task: creation times of day (todo.txt keeps only the creation date)",
        "1 task: todo.txt fields that are no longer key:value pairs (todo.txt values have no spaces or colons)",
        "1 task: fields kept from other formats (todo.txt keeps only its own key:value pairs)",
        "1 task: due times (todo.txt dues are days: written as the day)",
        "1 task: notes (todo.txt has one line per task)",
        "1 task: alerts (todo.txt has no alerts)",
        "1 task: repeat history (todo.txt keeps no history of a repeating task)",
        "1 task: modification times (todo.txt has none)",
        "4 tasks: titles that read back otherwise (todo.txt reads runs of white space as one space, +word, @word and "
            + "key:value as a project, a context and a field, and x, (A) or a date first as a done mark, a priority "
            + "or a date)",
        "2 tasks: tags that read back otherwise (todo.txt writes spaces in a @context as _ and reads _ as a space)",
        "1 task: list names that read back otherwise (todo.txt writes spaces in a +project as _, reads _ as a space, "
            + "and reads the first +project as the list)",
        "1 task: creation dates of done tasks without a completion date (todo.txt writes a done task's creation date "
            + "after its completion date)",
    ])
}
