/// `undo` and `redo`: a client's own steps, undone and redone as ordinary mutations.

import Domain
import Wire

enum HistoryMethods {
    static func register(in table: inout MethodTable) {
        table.request("undo", NoParams.self) { server, _ throws(ResponseError) in
            guard let step = server.history.popUndo() else {
                throw .requestFailed(reason: "nothingToUndo", "undo: there is nothing to undo")
            }
            let applied = try invert(step, server: server, verb: "undo")
            server.history.pushRedo(HistoryStep(method: step.method, changes: applied.changes))
            return result(server, applied, step: step, key: "undone")
        }
        table.request("redo", NoParams.self) { server, _ throws(ResponseError) in
            guard let step = server.history.popRedo() else {
                throw .requestFailed(reason: "nothingToRedo", "redo: there is nothing to redo")
            }
            let applied = try invert(step, server: server, verb: "redo")
            server.history.pushUndo(HistoryStep(method: step.method, changes: applied.changes))
            return result(server, applied, step: step, key: "redone")
        }
    }

    /// Applies the inverse of `step`, unrecorded. A step that can no longer be inverted (what
    /// it changed was changed or deleted since) is refused and dropped: it never becomes
    /// possible again, since revisions only grow.
    private static func invert(_ step: HistoryStep, server: Server, verb: String) throws(ResponseError) -> Applied {
        // What other processes appended comes first: the step may no longer be possible.
        do {
            try server.prepareToWrite()
        } catch {
            server.history.putBack(step, verb: verb)
            throw error
        }
        let mutations: [Mutation]
        do throws(DomainError) {
            mutations = try server.engine.inverse(of: step.changes, at: server.options.clock())
        } catch {
            throw dropped(error.responseError, verb: verb, step: step)
        }
        do {
            let applied = try server.applyDurably(mutations)
            server.publish(applied.viewChanges)
            return applied
        } catch {
            if error.isStoreRefusal {
                server.history.putBack(step, verb: verb)
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

    private static func result(_ server: Server, _ applied: Applied, step: HistoryStep, key: String) -> JSON {
        [
            key: .string(step.method),
            "canUndo": .bool(!server.history.undoSteps.isEmpty),
            "canRedo": .bool(!server.history.redoSteps.isEmpty),
            "revision": .integer(Int64(applied.revision)),
        ]
    }
}
