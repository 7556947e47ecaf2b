/// `undo` and `redo`: a client's own steps, undone and redone as ordinary mutations.

import Domain
import Wire

enum HistoryMethods {
    static func register(in table: inout MethodTable) {
        table.writing("undo", NoParams.self) { context, _ throws(ResponseError) in
            guard let step = context.history.popUndo() else {
                throw .requestFailed(reason: "nothingToUndo", "undo: there is nothing to undo")
            }
            let applied = try invert(step, context: context, verb: "undo")
            context.history.pushRedo(HistoryStep(method: step.method, changes: applied.changes))
            return result(context, applied, step: step, key: "undone")
        }
        table.writing("redo", NoParams.self) { context, _ throws(ResponseError) in
            guard let step = context.history.popRedo() else {
                throw .requestFailed(reason: "nothingToRedo", "redo: there is nothing to redo")
            }
            let applied = try invert(step, context: context, verb: "redo")
            context.history.pushUndo(HistoryStep(method: step.method, changes: applied.changes))
            return result(context, applied, step: step, key: "redone")
        }
    }

    /// Applies the inverse of `step`, unrecorded. A step that can no longer be inverted (what
    /// it changed was changed or deleted since) is refused and dropped: it never becomes
    /// possible again, since revisions only grow. A step the store could not write is put back.
    private static func invert(_ step: HistoryStep, context: WritingContext, verb: String) throws(ResponseError) -> Applied {
        let mutations: [Mutation]
        do throws(DomainError) {
            mutations = try context.engine.inverse(of: step.changes, at: context.now)
        } catch {
            throw dropped(error.responseError, verb: verb, step: step)
        }
        do {
            return try context.applyUnrecorded(mutations)
        } catch {
            if error.isStoreRefusal {
                context.history.putBack(step, verb: verb)
                throw error
            }
            throw dropped(error, verb: verb, step: step)
        }
    }

    private static func dropped(_ error: ResponseError, verb: String, step: HistoryStep) -> ResponseError {
        var refusal = error
        refusal.message = "\(verb) of \(step.method): \(refusal.message); that step is dropped from the history"
        return refusal
    }

    private static func result(_ context: WritingContext, _ applied: Applied, step: HistoryStep, key: String) -> JSON {
        [
            key: .string(step.method),
            "canUndo": .bool(!context.history.undoSteps.isEmpty),
            "canRedo": .bool(!context.history.redoSteps.isEmpty),
            "revision": .integer(Int64(applied.revision)),
        ]
    }
}
