// The exchange model's small pieces: extras' keys, problems' words, losses counted by kind.

import Domain
import Interchange
import Testing

@Test func anExtraSplitsItsKeyAtTheFirstColon() {
    let extra = Extra(key: "ical:X-APPLE-SORT-ORDER", value: ";X=1:42")
    #expect(extra.format == "ical")
    #expect(extra.name == "X-APPLE-SORT-ORDER")
    #expect(Extra(key: "todotxt:t:x", value: "").name == "t:x")
}

@Test func aProblemNamesItsFileLineAndField() {
    #expect(ExchangeProblem(file: "todo.txt", line: 3, field: "due", message: "2026-02-30 is not a day").description
        == "todo.txt:3: due: 2026-02-30 is not a day")
    #expect(ExchangeProblem(file: "-", line: 0, message: "not JSON").description == "-: not JSON")
    let failure = ExchangeFailure(problems: [ExchangeProblem(file: "a", line: 1, message: "x")], more: 2)
    #expect(failure.description == "a:1: x\nand 2 more")
}

@Test func lossesAreCountedByKindInTheOrderFirstMet() {
    var tally = LossTally()
    tally.add("alerts", because: "todo.txt has no alerts")
    tally.add("notes", because: "todo.txt has one line per task")
    tally.add("alerts", because: "todo.txt has no alerts")
    #expect(tally.losses.map(\.description) == [
        "2 tasks: alerts (todo.txt has no alerts)", "1 task: notes (todo.txt has one line per task)"])
    #expect(ExchangeFormatName.allCases.map(\.rawValue) == ["taskwarrior", "todotxt", "ics", "json"])
}
