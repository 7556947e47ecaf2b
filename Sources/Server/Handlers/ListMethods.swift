/// `lists/list`, `lists/create`, `lists/update`, `lists/delete`, `lists/move`.

import Domain
import TasklsProtocol
import Wire

enum ListMethods {
    static func register(in table: inout MethodTable) {
        // `watch: true`: from now on the client is told whenever the overview changes (`lists/changed`);
        // `watch: false` stops that; absent leaves it as it is.
        table.reading(ListsList.self) { context, params throws(ResponseError) in
            TasklsProtocol.Overview(context.overview(watch: params.watch), revision: context.engine.revision, sync: context.syncStates)
        } waiting: { context, params throws(ResponseError) in
            // Loading or failed: no lists yet, and the store's state; the lists follow in `lists/changed`.
            context.overview(watch: params.watch)
        }
        table.writing(ListsCreate.self) { context, params throws(ResponseError) in
            let id = ListID(context.freshIdentifier())
            let applied = try context.apply([.createList(id: id, fields: ListFields(params), before: params.before.map(ListID.init))])
            return ListsCreateResult(list: try list(context.engine, id), revision: applied.revision)
        }
        table.writing(ListsUpdate.self) { context, params throws(ResponseError) in
            let id = ListID(params.id)
            let applied = try context.apply([.updateList(id: id, patch: ListPatch(params))])
            return ListsUpdateResult(list: try list(context.engine, id), revision: applied.revision, changed: !applied.changes.isEmpty)
        }
        table.writing(ListsDelete.self) { context, params throws(ResponseError) in
            ListsDeleteResult(revision: try context.apply([.deleteList(id: ListID(params.id))]).revision)
        }
        table.writing(ListsMove.self) { context, params throws(ResponseError) in
            let applied = try context.apply([.moveLists(ids: params.ids.map(ListID.init), before: params.before.map(ListID.init))])
            return ListsMoveResult(revision: applied.revision, changed: !applied.changes.isEmpty)
        }
    }

    /// The list `id` with its counts, as a mutation left it.
    private static func list(_ engine: Engine, _ id: ListID) throws(ResponseError) -> TasklsProtocol.TaskList {
        guard let summary = engine.lists().first(where: { $0.list.id == id }) else {
            throw ResponseError(.internalError, "list \(id) vanished after it was written")
        }
        return TasklsProtocol.TaskList(summary)
    }
}
