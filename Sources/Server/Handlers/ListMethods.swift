/// `lists/list`, `lists/create`, `lists/update`, `lists/delete`, `lists/move`.

import Domain
import Wire

enum ListMethods {
    static func register(in table: inout MethodTable) {
        table.request("lists/list", Fields.self) { server, fields throws(ResponseError) in
            try fields.rejectUnknown(["watch"])
            if !server.storage.isUsable {
                // Loading or failed: no lists yet, and the store's state; the lists follow in `lists/changed`.
                switch try fields.optional("watch", as: Bool.self) {
                case true?: server.watchedOverview = Overview(lists: [], groups: [])
                case false?: server.watchedOverview = nil
                case nil: break
                }
                return server.unusableOverview()
            }
            let overview = server.engine.overview()
            // `watch: true`: from now on the client is told whenever the overview changes
            // (`lists/changed`); `watch: false` stops that; absent leaves it as it is.
            switch try fields.optional("watch", as: Bool.self) {
            case true?: server.watchedOverview = overview
            case false?: server.watchedOverview = nil
            case nil: if server.watchedOverview != nil { server.watchedOverview = overview }
            }
            return overview.json(revision: server.engine.revision)
        }
        table.request("lists/create", Fields.self) { server, fields throws(ResponseError) in
            try fields.rejectUnknown(["name", "color", "icon", "before"])
            let id = ListID(try server.freshIdentifier())
            let listFields = ListFields(name: try fields.required("name"), color: try fields.nullable("color"), icon: try fields.nullable("icon"))
            let applied = try server.apply([.createList(id: id, fields: listFields, before: try fields.nullable("before"))])
            return try result(server, applied, list: id)
        }
        table.request("lists/update", Fields.self) { server, fields throws(ResponseError) in
            try fields.rejectUnknown(["id", "name", "color", "icon"])
            let id: ListID = try fields.required("id")
            let applied = try server.apply([.updateList(id: id, patch: try ListPatch(fields))])
            return try result(server, applied, list: id, sayingWhetherItChanged: true)
        }
        table.request("lists/delete", Fields.self) { server, fields throws(ResponseError) in
            try fields.rejectUnknown(["id"])
            let applied = try server.apply([.deleteList(id: try fields.required("id"))])
            return ["revision": .integer(Int64(applied.revision))]
        }
        table.request("lists/move", Fields.self) { server, fields throws(ResponseError) in
            try fields.rejectUnknown(["ids", "before"])
            let ids: [ListID] = try identifiers(fields, "ids")
            guard fields.contains("before") else {
                throw .invalidParams("params.before: missing; give a list id, or null for the end")
            }
            let applied = try server.apply([.moveLists(ids: ids, before: try fields.nullable("before"))])
            return ["revision": .integer(Int64(applied.revision)), "changed": .bool(!applied.changes.isEmpty)]
        }
    }

    /// `{list, revision}` for the list a mutation created or changed, and `changed` when the request may have
    /// changed nothing.
    private static func result(_ server: Server, _ applied: Applied, list id: ListID,
                               sayingWhetherItChanged: Bool = false) throws(ResponseError) -> JSON {
        guard let summary = server.engine.lists().first(where: { $0.list.id == id }) else {
            throw ResponseError(.internalError, "list \(id) vanished after it was written")
        }
        let answer: JSON = ["list": summary.json, "revision": .integer(Int64(applied.revision))]
        guard sayingWhetherItChanged else { return answer }
        return ["list": summary.json, "revision": .integer(Int64(applied.revision)), "changed": .bool(!applied.changes.isEmpty)]
    }
}

