/// `items/create`, `items/get`, `items/update`, `items/move`, `items/indent`, `items/outdent`, `items/delete`,
/// `items/duplicate`, `items/skip`.

import Domain
import TasklsProtocol
import Wire

enum ItemMethods {
    static func register(in table: inout MethodTable) {
        table.writing(ItemsCreate.self) { context, params throws(ResponseError) in
            let id = ItemID(context.freshIdentifier())
            let mutation = Mutation.createItem(id: id, list: ListID(params.list), fields: try ItemFields(params),
                                               before: params.before.map(ItemID.init), parent: Clearable(params.parent),
                                               at: context.now)
            let applied = try context.apply([mutation])
            return ItemsCreateResult(item: try item(context.engine, id, in: context.calendar), revision: applied.revision)
        }
        table.reading(ItemsGet.self) { context, params throws(ResponseError) in
            try item(context.engine, ItemID(params.id), in: context.calendar)
        }
        table.writing(ItemsUpdate.self) { context, params throws(ResponseError) in
            let ids = params.target.ids.map(ItemID.init)
            let patch = try ItemPatch(params)
            // Completing a repeating item moves it on to its next occurrence, in the client's zone and day (read only then).
            let (mutations, advanced): ([Mutation], [ItemID]) = patch.done != true
                ? ([.updateItems(ids: ids, patch: patch, at: context.now)], [])
                : try context.reading.domain { () throws(DomainError) in
                    try context.engine.state.completionMutations(ids, patch, at: context.now, today: context.calendar.today(at: context.now).date,
                                                                 zone: context.calendar.zone)
                }
            let applied = try context.apply(mutations)
            var items: [TasklsProtocol.Item] = []
            for id in ids { items.append(try item(context.engine, id, in: context.calendar)) }
            return ItemsUpdateResult(items: items, revision: applied.revision, changed: !applied.changes.isEmpty,
                                     advanced: advanced.map(TasklsProtocol.ItemID.init))
        }
        table.writing(ItemsSkip.self) { context, params throws(ResponseError) in
            let ids = params.ids.map(ItemID.init)
            let mutations = try context.reading.domain { () throws(DomainError) in
                try context.engine.state.skipMutations(ids, at: context.now, today: context.calendar.today(at: context.now).date,
                                                       zone: context.calendar.zone)
            }
            let applied = try context.apply(mutations)
            var items: [TasklsProtocol.Item] = []
            for id in ids { items.append(try item(context.engine, id, in: context.calendar)) }
            return ItemsSkipResult(items: items, revision: applied.revision)
        }
        table.writing(ItemsDelete.self) { context, params throws(ResponseError) in
            let applied = try context.apply([.deleteItems(ids: params.ids.map(ItemID.init))])
            return ItemsDeleteResult(revision: applied.revision)
        }
        table.writing(ItemsDuplicate.self) { context, params throws(ResponseError) in
            let first = context.freshIdentifier()
            let mutations = try context.reading.domain { () throws(DomainError) in
                try context.engine.state.duplicates(of: params.ids.map(ItemID.init), firstIdentifier: first, at: context.now)
            }
            let applied = try context.apply(mutations)
            var copies: [TasklsProtocol.Item] = []
            for offset in mutations.indices { copies.append(try item(context.engine, ItemID(first + UInt64(offset)), in: context.calendar)) }
            return ItemsDuplicateResult(items: copies, revision: applied.revision)
        }
        table.writing(ItemsMove.self) { context, params throws(ResponseError) in
            let mutation: Mutation?
            switch params {
            case .view(let view, let version, let from, let count, let to, let depth):
                // The engine checks the version, then the sort, then the ranges, then the depth.
                mutation = try context.reading.domain { () throws(DomainError) in
                    try context.engine.moveMutation(view: ViewID(view), from: from, count: count ?? 1, to: to, depth: depth,
                                                    seenVersion: version, at: context.now)
                }
            case .ids(let ids, let before, let list, let parent):
                mutation = .moveItems(ids: ids.map(ItemID.init), toList: list.map(ListID.init), before: before.map(ItemID.init),
                                      parent: Clearable(parent), at: context.now)
            }
            guard let mutation else { return ItemsMoveResult(revision: context.engine.revision, changed: false) }
            let applied = try context.apply([mutation])
            return ItemsMoveResult(revision: applied.revision, changed: !applied.changes.isEmpty)
        }
        registerTreeMoves(in: &table)
    }

    /// `items/indent` and `items/outdent`: the move the state resolves them to, applied.
    private static func registerTreeMoves(in table: inout MethodTable) {
        table.writing(ItemsIndent.self) { context, params throws(ResponseError) in
            let mutation = try context.reading.domain { () throws(DomainError) in
                try context.engine.state.indentMutation(params.ids.map(ItemID.init), at: context.now)
            }
            let applied = try context.apply([mutation])
            return ItemsMoveResult(revision: applied.revision, changed: !applied.changes.isEmpty)
        }
        table.writing(ItemsOutdent.self) { context, params throws(ResponseError) in
            let mutation = try context.reading.domain { () throws(DomainError) in
                try context.engine.state.outdentMutation(params.ids.map(ItemID.init), at: context.now)
            }
            let applied = try context.apply([mutation])
            return ItemsMoveResult(revision: applied.revision, changed: !applied.changes.isEmpty)
        }
    }

    /// The item `id` in full, or `-32803 notFound`.
    static func item(_ engine: Engine, _ id: ItemID, in calendar: ClientCalendar) throws(ResponseError) -> TasklsProtocol.Item {
        guard let item = engine.item(id) else {
            throw DomainError.notFound(kind: .item, ids: [id.rawValue]).responseError
        }
        return TasklsProtocol.Item(item, subtasks: engine.state.subtaskCount(of: id), in: calendar)
    }
}
