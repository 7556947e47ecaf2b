/// The client's undo and redo stacks: one step per mutating request, as the changes it made.

import Domain

/// One undoable step: what a request changed, and which request it was.
struct HistoryStep {
    /// The method of the request (`items/move`), or `undo` / `redo` for the steps they made.
    var method: String
    /// What the request changed (old and new values), the input to `Engine.inverse`.
    var changes: Changes
    /// The request's change in words ("delete 3 tasks"), taken when it was recorded and kept through undo and redo.
    var description: String

    /// A step of `method` that changed `changes`, described from them.
    init(method: String, changes: Changes) {
        self.init(method: method, changes: changes, description: StepDescription.words(method: method, changes: changes))
    }

    /// A step with its description given (what an undo or redo pushes: the original request's words).
    init(method: String, changes: Changes, description: String) {
        self.method = method
        self.changes = changes
        self.description = description
    }

    /// How many item and list records the step holds.
    var size: Int { changes.items.count + changes.lists.count }
}

/// Undo and redo for the one client of this server.
///
/// Every mutating request that changed something becomes one step, however many items it
/// touched (a block move, a bulk delete), and clears the redo stack. Undoing a step applies
/// its inverse as a new mutation and pushes that onto the redo stack, and the other way round.
/// Which way a step goes through the history: undone, or redone.
enum HistoryDirection: String {
    case undo, redo
}

struct UndoHistory {
    /// The most steps kept; the oldest go first.
    static let depth = 1_000
    /// The most item and list records the undo steps may hold together (each step holds the
    /// old and new value of everything it changed); the oldest steps go first.
    static let records = 200_000

    private(set) var undoSteps: [HistoryStep] = []
    private(set) var redoSteps: [HistoryStep] = []
    private var undoRecords = 0

    /// Records what a client's request changed.
    mutating func record(_ changes: Changes, method: String) {
        guard !changes.isEmpty else { return }
        pushUndo(HistoryStep(method: method, changes: changes))
        redoSteps.removeAll()
    }

    /// Takes the step to undo.
    mutating func popUndo() -> HistoryStep? {
        guard let step = undoSteps.popLast() else { return nil }
        undoRecords -= step.size
        return step
    }

    /// Takes the step to redo.
    mutating func popRedo() -> HistoryStep? { redoSteps.popLast() }

    /// Puts back a step taken by `popUndo` (`direction` `.undo`) or `popRedo` (`.redo`) that the store could not
    /// write: it stays possible.
    mutating func putBack(_ step: HistoryStep, _ direction: HistoryDirection) {
        switch direction {
        case .undo:
            undoSteps.append(step)
            undoRecords += step.size
        case .redo:
            redoSteps.append(step)
        }
    }

    /// Records the changes an undo made, so redo can invert them.
    mutating func pushRedo(_ step: HistoryStep) { redoSteps.append(step) }

    /// Records the changes a redo made, so it can be undone again (the redo stack is kept).
    mutating func pushUndo(_ step: HistoryStep) {
        undoSteps.append(step)
        undoRecords += step.size
        var dropped = 0
        while undoSteps.count - dropped > 1 && (undoSteps.count - dropped > Self.depth || undoRecords > Self.records) {
            undoRecords -= undoSteps[dropped].size
            dropped += 1
        }
        if dropped > 0 { undoSteps.removeFirst(dropped) }
    }
}
