/// `smartLists/create`, `smartLists/update`, `smartLists/delete`, `smartLists/move`.

import Domain
import TasklsProtocol
import Wire

enum SmartListMethods {
    static func register(in table: inout MethodTable) {
        table.writing(SmartListsCreate.self) { context, params throws(ResponseError) in
            let id = SmartListID(context.freshIdentifier())
            let fields = try SmartListFields(params)
            let applied = try context.apply([.createSmartList(id: id, fields: fields,
                                                              before: params.before.map(SmartListID.init))])
            return SmartListResult(smartList: try smartList(context.engine, id), revision: applied.revision)
        }
        table.writing(SmartListsUpdate.self) { context, params throws(ResponseError) in
            let id = SmartListID(params.id)
            let applied = try context.apply([.updateSmartList(id: id, patch: try SmartListPatch(params))])
            return SmartListResult(smartList: try smartList(context.engine, id), revision: applied.revision,
                                   changed: !applied.changes.isEmpty)
        }
        table.writing(SmartListsDelete.self) { context, params throws(ResponseError) in
            ListsDeleteResult(revision: try context.apply([.deleteSmartList(id: SmartListID(params.id))]).revision)
        }
        table.writing(SmartListsMove.self) { context, params throws(ResponseError) in
            let applied = try context.apply([.moveSmartLists(ids: params.ids.map(SmartListID.init),
                                                             before: params.before.map(SmartListID.init))])
            return ListsMoveResult(revision: applied.revision, changed: !applied.changes.isEmpty)
        }
    }

    /// The smart list `id` with its count, as a mutation left it.
    private static func smartList(_ engine: Engine, _ id: SmartListID) throws(ResponseError) -> TasklsProtocol.SmartList {
        guard let summary = engine.smartLists().first(where: { $0.smartList.id == id }) else {
            throw ResponseError(.internalError, "smart list \(id) vanished after it was written")
        }
        return TasklsProtocol.SmartList(summary)
    }
}
