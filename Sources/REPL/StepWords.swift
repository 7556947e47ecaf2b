/// What undo and redo say: the REPL remembers, in words, each change it asked for, in the order the server's
/// history keeps them (protocol.md, "Undo and redo": one step per request that changed something), so that
/// `undo` can say "undid: delete 3 tasks" where the server's answer only names the method (`items/delete`).

import TasklsProtocol

/// One step of the session's history, as the REPL said it.
struct Step: Equatable {
    /// The method of the request (`items/delete`): checked against what `undo` answers.
    let method: String
    /// The change in words: `delete 3 tasks`.
    let words: String

    /// Whether a request of `method` that succeeded is a step of the history (it changes the store).
    static func isStep(_ method: String) -> Bool {
        [ItemsCreate.method, ItemsUpdate.method, ItemsDelete.method, ItemsMove.method, ItemsDuplicate.method,
         ListsCreate.method, ListsUpdate.method, ListsDelete.method, ListsMove.method].contains(method)
    }

    /// Words for a step the REPL did not describe (a `raw` request): from its method alone.
    static func words(ofMethod method: String) -> String {
        switch method {
        case ItemsCreate.method: "add a task"
        case ItemsUpdate.method: "change tasks"
        case ItemsDelete.method: "delete tasks"
        case ItemsMove.method: "move tasks"
        case ItemsDuplicate.method: "duplicate tasks"
        case ListsCreate.method: "create a list"
        case ListsUpdate.method: "change a list"
        case ListsDelete.method: "delete a list"
        case ListsMove.method: "move a list"
        default: "the last change"
        }
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

    /// The words of the step the server undid (`method`), moved to the redo stack.
    mutating func undid(_ method: String) -> String {
        guard let step = done.popLast(), step.method == method else {
            done.removeAll()
            undone.append(Step(method: method, words: Step.words(ofMethod: method)))
            return Step.words(ofMethod: method)
        }
        undone.append(step)
        return step.words
    }

    /// The words of the step the server redid (`method`), moved back to the undo stack.
    mutating func redid(_ method: String) -> String {
        guard let step = undone.popLast(), step.method == method else {
            undone.removeAll()
            done.append(Step(method: method, words: Step.words(ofMethod: method)))
            return Step.words(ofMethod: method)
        }
        done.append(step)
        return step.words
    }

    /// Drops the newest step (the server dropped it: it can never be undone).
    mutating func dropNewest() { _ = done.popLast() }
}
