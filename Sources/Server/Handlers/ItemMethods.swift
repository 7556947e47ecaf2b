/// `items/create`, `items/get`, `items/update`, `items/move`, `items/delete`.

import Domain
import Wire

enum ItemMethods {
    static func register(in table: inout MethodTable) {
        table.writing("items/create", Fields.self) { context, fields throws(ResponseError) in
            try fields.rejectUnknown(["list", "title", "notes", "done", "due", "priority", "tags", "before"])
            let id = ItemID(context.freshIdentifier())
            let mutation = Mutation.createItem(
                id: id, list: try fields.required("list"), fields: try ItemFields(fields),
                before: try fields.nullable("before"), at: context.now)
            let applied = try context.apply([mutation])
            return ["item": try item(context.engine, id), "revision": .integer(Int64(applied.revision))]
        }
        table.reading("items/get", Fields.self) { context, fields throws(ResponseError) in
            try fields.rejectUnknown(["id"])
            return try item(context.engine, try fields.required("id"))
        }
        table.writing("items/update", Fields.self) { context, fields throws(ResponseError) in
            try fields.rejectUnknown(["id", "ids", "title", "notes", "done", "due", "priority", "tags"])
            let ids = try targets(fields)
            let patch = try ItemPatch(fields)
            guard !patch.isEmpty else {
                throw .invalidParams("params: nothing to change; give at least one of title, notes, done, due, priority, tags")
            }
            let applied = try context.apply([.updateItems(ids: ids, patch: patch, at: context.now)])
            var items: [JSON] = []
            for id in ids { items.append(try item(context.engine, id)) }
            return ["items": .array(items), "revision": .integer(Int64(applied.revision)), "changed": .bool(!applied.changes.isEmpty)]
        }
        table.writing("items/delete", Fields.self) { context, fields throws(ResponseError) in
            try fields.rejectUnknown(["ids"])
            let applied = try context.apply([.deleteItems(ids: try identifiers(fields, "ids"))])
            return ["revision": .integer(Int64(applied.revision))]
        }
        table.writing("items/move", Fields.self) { context, fields throws(ResponseError) in
            let mutation: Mutation?
            if fields.contains("view") {
                try fields.rejectUnknown(["view", "version", "from", "count", "to"])
                // Every param's type first; then (in the engine) the version, the sort and the ranges.
                let view: ViewID = try fields.required("view")
                let version: Int64 = try fields.required("version")
                let from: Int = try fields.required("from")
                let count: Int = try fields.optional("count") ?? 1
                let to: Int = try fields.required("to")
                do throws(DomainError) {
                    mutation = try context.engine.moveMutation(
                        view: view, from: from, count: count, to: to, seenVersion: UInt64(max(0, version)),
                        at: context.now)
                } catch {
                    throw error.responseError
                }
            } else {
                try fields.rejectUnknown(["ids", "before", "list"])
                let ids: [ItemID] = try identifiers(fields, "ids")
                guard fields.contains("before") else {
                    throw .invalidParams("params.before: missing; give an item id, or null for the end of the list")
                }
                mutation = .moveItems(ids: ids, toList: try fields.optional("list"), before: try fields.nullable("before"), at: context.now)
            }
            guard let mutation else { return ["revision": .integer(Int64(context.engine.revision)), "changed": false] }
            let applied = try context.apply([mutation])
            return ["revision": .integer(Int64(applied.revision)), "changed": .bool(!applied.changes.isEmpty)]
        }
    }

    /// The item `id` in full, or `-32803 notFound`.
    private static func item(_ engine: Engine, _ id: ItemID) throws(ResponseError) -> JSON {
        guard let item = engine.item(id) else {
            throw DomainError.notFound(kind: .item, ids: [id.rawValue]).responseError
        }
        return item.fullJSON
    }

    /// `id` or `ids`: the items a request addresses.
    private static func targets(_ fields: Fields) throws(ResponseError) -> [ItemID] {
        // Both members' types first (a `null` is refused naming its member), then the choice.
        let id: ItemID? = try fields.optional("id")
        let ids: [ItemID]? = fields.contains("ids") ? try identifiers(fields, "ids") : nil
        switch (id, ids) {
        case (let id?, nil): return [id]
        case (nil, let ids?): return ids
        case (.some, .some): throw .invalidParams("params: give id or ids, not both")
        case (nil, nil): throw .invalidParams("params.id: missing; give id (one item) or ids (several)")
        }
    }
}
