// The backup read strictly: every wrong value named by its JSON path and line, a newer version and a file that is
// not a backup refused whole, invalid parts skipped on request with their subtasks.

import Domain
import Interchange
import Testing

/// The problems reading `text` is refused with, as `file:line: field: message` lines.
private func refusal(_ text: String, skipInvalid: Bool = false) -> [String] {
    do {
        _ = try BackupFormat.read(text, options: todoTxtReadOptions(file: "backup.json", skipInvalid: skipInvalid))
        return []
    } catch {
        return error.problems.map(\.description)
    }
}

@Test func aFileThatIsNotABackupIsRefusedWhole() {
    #expect(refusal("{\"format\":\"taskls-backup\",\n\"version\":1,\n\"tasks\":[}") == [
        "backup.json:3: invalid JSON at byte 49: expected a JSON value, found '}'"])
    #expect(refusal("[1]") == ["backup.json: expected a taskls backup (an object), got an array"])
    #expect(refusal("{\"format\":\"todo\",\"version\":2,\"tasks\":{},\"extra\":1}") == [
        "backup.json: extra: is not a member of a taskls backup: format, version, lists, smartLists, tasks",
        "backup.json: format: expected \"taskls-backup\", got \"todo\"",
        "backup.json: version: 2 is newer than this taskls reads (1): update taskls",
        "backup.json: tasks: expected an array, got an object",
    ])
    #expect(refusal("{\"version\":0}") == [
        "backup.json: format: is missing", "backup.json: version: 0 is out of range: 1 to 9223372036854775807"])
    // The top level is refused even when invalid parts may be skipped.
    #expect(refusal("{\"format\":\"taskls-backup\",\"version\":3}", skipInvalid: true) == [
        "backup.json: version: 3 is newer than this taskls reads (1): update taskls"])
}

@Test func everyWrongValueIsNamedByItsPathAndLine() {
    let text = """
        {"format":"taskls-backup","version":1,
        "lists":[
        {"name":"Inbox","colour":"blue","storeID":"i3"},
        {"color":null}
        ],
        "smartLists":[
        {"name":"S","filter":{"done":"maybe","text":null,"dueBefore":"2026-02-30","tagsAnyOf":[1]},"lists":"Inbox"}
        ],
        "tasks":[
        {"uid":"a","title":"A","due":"2026-02-30","priority":"urgent","done":"yes","tags":["x",2]},
        {"uid":"b","title":7,"createdAt":"2026-01-01","completedAt":"2026-01-01T10:00","modifiedAt":null,"storeID":"i0"},
        {"uid":"c","title":"C","repeat":{"rule":"FREQ=HOURLY","from":"later"},"alerts":[{"at":"2026-01-01T00:00:00Z","offset":5},{}]},
        {"uid":"d","title":"D","occurrences":{"completed":-1,"recent":[{"due":"2026-01-01","outcome":"done"}]},"extras":[{"key":"k"}]},
        {"uid":"e","title":"E","title":"E2","notes":null},
        "task",
        {"uid":"a","title":"A again","parentUID":"nobody"},
        {"uid":"p","title":"P","parentUID":"q"},
        {"uid":"q","title":"Q","parentUID":"p"}
        ]}
        """
    #expect(refusal(text) == [
        "backup.json:3: lists[0].colour: is not a member of a list: name, color, icon, storeID",
        "backup.json:3: lists[0].storeID: \"i3\" is not a list id such as l42",
        "backup.json:4: lists[1].name: is missing",
        "backup.json:7: smartLists[0].filter.done: \"maybe\" is not one of any, done, notDone",
        "backup.json:7: smartLists[0].filter.text: expected a string, got null",
        "backup.json:7: smartLists[0].filter.tagsAnyOf[0]: expected a string, got an integer",
        "backup.json:7: smartLists[0].filter.dueBefore: 2026-02-30 is not a day",
        "backup.json:7: smartLists[0].lists: expected an array, got a string",
        "backup.json:10: tasks[0].done: expected true or false, got a string",
        "backup.json:10: tasks[0].due: 2026-02-30 is not a day",
        "backup.json:10: tasks[0].priority: \"urgent\" is not one of none, low, medium, high",
        "backup.json:10: tasks[0].tags[1]: expected a string, got an integer",
        "backup.json:11: tasks[1].title: expected a string, got an integer",
        "backup.json:11: tasks[1].completedAt: 2026-01-01T10:00 must end with Z or a UTC offset such as +01:00",
        "backup.json:11: tasks[1].createdAt: expected an instant such as 2026-11-22T09:30:00.000Z, got a day",
        "backup.json:11: tasks[1].storeID: \"i0\" is not an item id such as i42",
        "backup.json:12: tasks[2].repeat.from: \"later\" is not one of due, dueFuture, completion",
        "backup.json:12: tasks[2].repeat.rule: FREQ=HOURLY is not supported: DAILY, WEEKLY, MONTHLY or YEARLY",
        "backup.json:12: tasks[2].alerts[0]: give at or offset, not both",
        "backup.json:12: tasks[2].alerts[1]: give at (an instant) or offset (minutes from the due)",
        "backup.json:13: tasks[3].occurrences.completed: -1 is out of range: 0 to 2147483647",
        "backup.json:13: tasks[3].occurrences.recent[0].outcome: \"done\" is not one of completed, skipped",
        "backup.json:13: tasks[3].occurrences.recent[0].at: is missing",
        "backup.json:13: tasks[3].extras[0].value: is missing",
        "backup.json:14: tasks[4].title: is given twice",
        "backup.json:14: tasks[4].notes: expected a string, got null",
        "backup.json:15: tasks[5]: expected a task (an object), got a string",
        "backup.json:16: tasks[6].uid: \"a\" appears twice (tasks[0] and tasks[6])",
        "backup.json:16: tasks[6].parentUID: \"nobody\" names no task in this file",
        "backup.json:17: tasks[7].parentUID: \"q\" makes a cycle of parents (tasks[7], tasks[8])",
        "backup.json:18: tasks[8].parentUID: \"p\" makes a cycle of parents (tasks[7], tasks[8])",
    ])
    // A rule that does not read names the rule.
    #expect(refusal("{\"format\":\"taskls-backup\",\"version\":1,\"tasks\":[{\"title\":\"T\",\"repeat\":{\"rule\":\"FREQ=HOURLY\",\"from\":\"due\"}}]}")
        == ["backup.json:1: tasks[0].repeat.rule: FREQ=HOURLY is not supported: DAILY, WEEKLY, MONTHLY or YEARLY"])
}

@Test func skippingInvalidPartsKeepsTheRestAndLeavesOutTheirSubtasks() throws {
    let text = """
        {"format":"taskls-backup","version":1,
        "lists":[{"name":"Inbox"},{"name":5}],
        "tasks":[
        {"uid":"p","title":"Parent","due":"2026-13-01"},
        {"uid":"c","title":"Child","parentUID":"p"},
        {"uid":"f","title":"Fine","list":"Inbox"}
        ]}
        """
    let reading = try BackupFormat.read(text, options: todoTxtReadOptions(file: "backup.json", skipInvalid: true))
    #expect(reading.document.lists == [ExchangeList(name: "Inbox")])
    #expect(reading.document.tasks == [ExchangeTask(uid: "f", list: "Inbox", title: "Fine", line: 6)])
    #expect(reading.skipped.map(\.description) == [
        "backup.json:2: lists[1].name: expected a string, got an integer",
        "backup.json:4: tasks[0].due: 2026-13-01 is not a day",
        "backup.json:5: tasks[1].parentUID: \"p\" is tasks[0], which is invalid",
    ])
}

@Test func absentMembersTakeTheirDefaults() throws {
    let reading = try BackupFormat.read("{\"format\":\"taskls-backup\",\"version\":1,\"tasks\":[{\"title\":\"Only a title\"}],"
        + "\"smartLists\":[{\"name\":\"All\"}]}", options: todoTxtReadOptions())
    #expect(reading.document.tasks == [ExchangeTask(title: "Only a title", line: 1)])
    #expect(reading.document.smartLists == [ExchangeSmartList(name: "All", filter: .all)])
}
