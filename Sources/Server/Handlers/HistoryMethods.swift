/// `undo` and `redo`: a client's own steps, undone and redone as ordinary mutations.

import Domain
import TasklsProtocol
import Wire

enum HistoryMethods {
    static func register(in table: inout MethodTable) {
        table.writing(Undo.self) { context, _ throws(ResponseError) in
            guard let step = context.history.popUndo() else {
                throw .requestFailed(reason: "nothingToUndo", "undo: there is nothing to undo")
            }
            let applied = try invert(step, context: context, .undo)
            context.history.pushRedo(HistoryStep(method: step.method, changes: applied.changes, description: step.description))
            return UndoResult(undone: step.method, description: step.description, canUndo: !context.history.undoSteps.isEmpty,
                              canRedo: !context.history.redoSteps.isEmpty, revision: applied.revision)
        }
        table.writing(Redo.self) { context, _ throws(ResponseError) in
            guard let step = context.history.popRedo() else {
                throw .requestFailed(reason: "nothingToRedo", "redo: there is nothing to redo")
            }
            let applied = try invert(step, context: context, .redo)
            context.history.pushUndo(HistoryStep(method: step.method, changes: applied.changes, description: step.description))
            return RedoResult(redone: step.method, description: step.description, canUndo: !context.history.undoSteps.isEmpty,
                              canRedo: !context.history.redoSteps.isEmpty, revision: applied.revision)
        }
    }

    /// Applies the inverse of `step`, unrecorded. A step that can no longer be inverted (what
    /// it changed was changed or deleted since) is refused and dropped: it never becomes
    /// possible again, since revisions only grow. A step the store could not write is put back.
    private static func invert(_ step: HistoryStep, context: WritingContext, _ direction: HistoryDirection) throws(ResponseError) -> Applied {
        let mutations: [Mutation]
        do throws(DomainError) {
            mutations = try context.engine.inverse(of: step.changes, at: context.now)
        } catch {
            throw dropped(error.responseError, direction, step: step)
        }
        do {
            return try context.applyUnrecorded(mutations)
        } catch {
            if error.isStoreRefusal {
                context.history.putBack(step, direction)
                throw error
            }
            throw dropped(error, direction, step: step)
        }
    }

    private static func dropped(_ error: ResponseError, _ direction: HistoryDirection, step: HistoryStep) -> ResponseError {
        var refusal = error
        refusal.message = "\(direction.rawValue) of \(step.method): \(refusal.message); that step is dropped from the history"
        return refusal
    }
}
