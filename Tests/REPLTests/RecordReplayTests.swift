/// `--record FILE` writes a transcript that replays green against the real binary.

import Foundation
@testable import REPL
import Testing
import TestSupport
import Transcript

@Test func recordedSessionReplays() throws {
    let directory = makeTemporaryDirectory(prefix: "taskls-repl-record")
    defer { removeTree(directory) }
    let path = directory + "/session.tx"
    let output = CapturedOutput()
    let (repl, store) = try startREPL(["--record", path, "--clock", "2026-11-22T10:00:00Z"], output: output)
    defer { removeTree(store) }
    for command in ["mklist Inbox", "open Inbox", "add Buy milk due:tomorrow !high #home", "add Call Ann", "add Renew passport due:-1",
                    "done 2", "mv 3 1", "untag 2 home", "edit 2 Buy oat milk ^fri // oat", "prio 1 low", "filter #x|#y !low+ due<fri open", "filter off", "group due", "show 2", "rm 2", "undo",
                    "open today", "open Inbox", "rename Errands", "raw {\"method\":\"server/ping\"}", "quit"] {
        #expect(repl.execute(command), "\(command): \(output.text)")
    }
    #expect(repl.finish() == 0)
    let recorded = try String(contentsOfFile: path, encoding: .utf8)
    #expect(recorded.contains("$bind:l1"))
    #expect(recorded.contains("== exit 0"))
    let outcome = Replayer(executable: BuildPaths.taskls).run(path: path)
    #expect(outcome.passed, "\(outcome.report)\n\(recorded)")
}
