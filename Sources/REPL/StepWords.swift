/// What undo and redo say: the REPL remembers, in words, each change it asked for, in the order the server's
/// history keeps them (protocol.md, "Undo and redo": one step per request that changed something), so that
/// `undo` can say "undid: delete "Buy milk"" where the server's `description` says "delete 1 task". A step the
/// REPL did not put in words of its own (`indent`, `outdent`, a `raw` request) is said in the server's words.

import TasklsProtocol

/// One step of the session's history, as the REPL said it.
struct Step: Equatable {
    /// The method of the request (`items/delete`): checked against what `undo` answers.
    let method: String
    /// The change in words (`delete 3 tasks`); nil: the server's `description` says it.
    let words: String?

    /// Whether a request of `method` that succeeded is a step of the history (it changes the store).
    static func isStep(_ method: String) -> Bool {
        [ItemsCreate.method, ItemsUpdate.method, ItemsDelete.method, ItemsMove.method, ItemsDuplicate.method,
         ItemsIndent.method, ItemsOutdent.method, ListsCreate.method, ListsUpdate.method, ListsDelete.method,
         ListsMove.method].contains(method)
    }
}

/// The steps that undo and redo would take, newest last.
struct StepHistory {
    /// What undo takes back, newest last.
    private(set) var done: [Step] = []
    /// What redo does again, newest last.
    private(set) var undone: [Step] = []

    /// A new step: the redo stack is cleared, as the server clears it.
    mutating func record(_ step: Step) {
        done.append(step)
        if done.count > 1_000 { done.removeFirst(done.count - 1_000) }
        undone.removeAll()
    }

    /// The words of the step the server undid (`method`, which it says as `description`), moved to the redo stack.
    /// When the newest step here is not of that method (another client's step), the REPL's record no longer
    /// matches the server's: it is dropped, and the server's words are used.
    mutating func undid(_ method: String, description: String) -> String {
        guard let step = done.popLast(), step.method == method else {
            done.removeAll()
            undone.append(Step(method: method, words: nil))
            return description
        }
        undone.append(step)
        return step.words ?? description
    }

    /// The words of the step the server redid (`method`, `description`), moved back to the undo stack.
    mutating func redid(_ method: String, description: String) -> String {
        guard let step = undone.popLast(), step.method == method else {
            undone.removeAll()
            done.append(Step(method: method, words: nil))
            return description
        }
        done.append(step)
        return step.words ?? description
    }

    /// Drops the newest step (the server dropped it: it can never be undone).
    mutating func dropNewest() { _ = done.popLast() }
}
