/// What undo and redo say: the REPL's own words for the steps it described, the server's `description` for the
/// others (indent, outdent, raw requests) and whenever the REPL's record no longer matches the server's history.

@testable import REPL
import Testing

@Test func undoSaysTheREPLsWordsOrTheServers() {
    var history = StepHistory()
    history.record(Step(method: "items/delete", words: "delete \"Buy milk\""))
    history.record(Step(method: "items/indent", words: nil))
    #expect(history.undid("items/indent", description: "indent 2 tasks") == "indent 2 tasks")
    #expect(history.undid("items/delete", description: "delete 1 task") == "delete \"Buy milk\"")
    #expect(history.redid("items/delete", description: "delete 1 task") == "delete \"Buy milk\"")
    #expect(history.redid("items/indent", description: "indent 2 tasks") == "indent 2 tasks")
    // Another client's step: the record is dropped, and the server's words said.
    #expect(history.undid("items/outdent", description: "outdent 1 task") == "outdent 1 task")
    #expect(history.done.isEmpty)
    #expect(history.undid("items/delete", description: "delete 1 task") == "delete 1 task")
}
