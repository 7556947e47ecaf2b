/// `lists/list`, `lists/create`, `lists/update`, `lists/delete`, `lists/move`.

import Domain
import Wire

enum ListMethods {
    static func register(in table: inout MethodTable) {
        // `watch: true`: from now on the client is told whenever the overview changes (`lists/changed`);
        // `watch: false` stops that; absent leaves it as it is.
        table.reading("lists/list", ListsListParams.self) { context, params throws(ResponseError) in
            context.overview(watch: params.watch).json(revision: context.engine.revision)
        } waiting: { context, params throws(ResponseError) in
            // Loading or failed: no lists yet, and the store's state; the lists follow in `lists/changed`.
            context.overview(watch: params.watch)
        }
        table.writing("lists/create", Fields.self) { context, fields throws(ResponseError) in
            try fields.rejectUnknown(["name", "color", "icon", "before"])
            let id = ListID(context.freshIdentifier())
            let listFields = ListFields(name: try fields.required("name"), color: try fields.nullable("color"), icon: try fields.nullable("icon"))
            let applied = try context.apply([.createList(id: id, fields: listFields, before: try fields.nullable("before"))])
            return try result(context, applied, list: id)
        }
        table.writing("lists/update", Fields.self) { context, fields throws(ResponseError) in
            try fields.rejectUnknown(["id", "name", "color", "icon"])
            let id: ListID = try fields.required("id")
            let applied = try context.apply([.updateList(id: id, patch: try ListPatch(fields))])
            return try result(context, applied, list: id, sayingWhetherItChanged: true)
        }
        table.writing("lists/delete", Fields.self) { context, fields throws(ResponseError) in
            try fields.rejectUnknown(["id"])
            let applied = try context.apply([.deleteList(id: try fields.required("id"))])
            return ["revision": .integer(Int64(applied.revision))]
        }
        table.writing("lists/move", Fields.self) { context, fields throws(ResponseError) in
            try fields.rejectUnknown(["ids", "before"])
            let ids: [ListID] = try identifiers(fields, "ids")
            guard fields.contains("before") else {
                throw .invalidParams("params.before: missing; give a list id, or null for the end")
            }
            let applied = try context.apply([.moveLists(ids: ids, before: try fields.nullable("before"))])
            return ["revision": .integer(Int64(applied.revision)), "changed": .bool(!applied.changes.isEmpty)]
        }
    }

    /// `{list, revision}` for the list a mutation created or changed, and `changed` when the request may have
    /// changed nothing.
    private static func result(_ context: WritingContext, _ applied: Applied, list id: ListID,
                               sayingWhetherItChanged: Bool = false) throws(ResponseError) -> JSON {
        guard let summary = context.engine.lists().first(where: { $0.list.id == id }) else {
            throw ResponseError(.internalError, "list \(id) vanished after it was written")
        }
        let answer: JSON = ["list": summary.json, "revision": .integer(Int64(applied.revision))]
        guard sayingWhetherItChanged else { return answer }
        return ["list": summary.json, "revision": .integer(Int64(applied.revision)), "changed": .bool(!applied.changes.isEmpty)]
    }
}


/// `lists/list` params.
struct ListsListParams: JSONDecodable {
    var watch: Bool?

    init(json: JSON, path: String) throws(ResponseError) {
        let fields = try Fields(json: json, path: path)
        try fields.rejectUnknown(["watch"])
        watch = try fields.optional("watch")
    }
}
