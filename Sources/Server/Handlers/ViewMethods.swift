/// `lists/open`, `view/setWindow`, `view/sort`, `view/filter`, `view/sections`, `view/collapse`, `view/expand`,
/// `view/snapshot`, `view/locate`, `view/close`.
///
/// Each answers from the engine while the store can serve, and from the waiting views (no rows, the store's
/// state) while it loads or has failed.

import Domain
import TasklsProtocol
import Wire

enum ViewMethods {
    static func register(in table: inout MethodTable) {
        table.reading(ListsOpen.self) { context, params throws(ResponseError) in
            let spec = try ViewSpec(params)
            return ViewSnapshotResult(try context.openView(source: spec.source, sort: spec.sort, filter: spec.filter,
                                                           grouping: spec.grouping, window: spec.window), in: context.calendar)
        } waiting: { context, params throws(ResponseError) in
            let spec = try ViewSpec(params)
            let view = context.openView(source: spec.source, sort: spec.sort, filter: spec.filter, grouping: spec.grouping,
                                        window: spec.window)
            return waitingSnapshot(view, context)
        }
        table.reading(ViewSetWindow.self) { context, params throws(ResponseError) in
            ViewSnapshotResult(try context.setWindow(ViewID(params.view), Domain.Window(params.window)), in: context.calendar)
        } waiting: { context, params throws(ResponseError) in
            var view = try context.view(ViewID(params.view))
            view.window = Domain.Window(params.window)
            context.update(view)
            return waitingSnapshot(view, context)
        }
        register(ViewSort.self, in: &table) { params throws(ResponseError) in (Domain.Sort(params.sort), nil, nil) }
        register(ViewFilter.self, in: &table) { params throws(ResponseError) in
            (nil, try params.filter.map { wire throws(ResponseError) in try Domain.Filter(wire) } ?? .all, nil)
        }
        register(ViewSections.self, in: &table) { params throws(ResponseError) in (nil, nil, Grouping(params.sections)) }
        table.reading(TasklsProtocol.ViewSnapshot.self) { context, params throws(ResponseError) in
            ViewSnapshotResult(try context.snapshot(ViewID(params.view)), in: context.calendar)
        } waiting: { context, params throws(ResponseError) in
            waitingSnapshot(try context.view(ViewID(params.view)), context)
        }
        table.reading(ViewCollapse.self) { context, params throws(ResponseError) in
            CollapseResult(changed: try context.setCollapsed(ViewID(params.view), ids: params.target.itemIDs, collapse: true))
        } waiting: { context, params throws(ResponseError) in
            try collapseWhileWaiting(params.view, params.target, context)
        }
        table.reading(ViewExpand.self) { context, params throws(ResponseError) in
            CollapseResult(changed: try context.setCollapsed(ViewID(params.view), ids: params.target.itemIDs, collapse: false))
        } waiting: { context, params throws(ResponseError) in
            try collapseWhileWaiting(params.view, params.target, context)
        }
        table.reading(ViewLocate.self) { context, params throws(ResponseError) in
            let found = try context.locate(ItemID(params.id), in: ViewID(params.view))
            return ViewLocation(view: params.view, version: found.version, index: found.location?.index,
                                id: found.location.map { TasklsProtocol.ItemID($0.row) })
        } waiting: { context, params throws(ResponseError) in
            // No rows while the store loads or has failed: nothing to find yet.
            ViewLocation(view: params.view, version: try context.view(ViewID(params.view)).version, index: nil, id: nil)
        }
        table.reading(ViewClose.self) { context, params throws(ResponseError) in
            try context.closeView(ViewID(params.view))
            return NullResult()
        } waiting: { context, params throws(ResponseError) in
            let id = ViewID(params.view)
            _ = try context.view(id)
            context.close(id)
            return NullResult()
        }
    }

    /// What a reconfiguration changes (nil: kept).
    private typealias Change = (sort: Domain.Sort?, filter: Domain.Filter?, grouping: Grouping?)

    /// `view/sort`, `view/filter` or `view/sections`: a new generation of the view, announced by one `reset`
    /// before the answer `{view, version}` (and a background build when the order is new and large).
    private static func register<Message: RequestMessage & ViewAddressed>(
        _ message: Message.Type, in table: inout MethodTable, change: @escaping (Message) throws(ResponseError) -> Change
    ) where Message.Result == ViewVersion {
        table.reading(Message.self) { context, params throws(ResponseError) in
            let wanted = try change(params)
            let version = try context.reconfigure(ViewID(params.view), sort: wanted.sort, filter: wanted.filter, grouping: wanted.grouping)
            return ViewVersion(view: params.view, version: version)
        } waiting: { context, params throws(ResponseError) in
            let wanted = try change(params)
            var view = try context.view(ViewID(params.view))
            view.sort = wanted.sort ?? view.sort
            view.filter = wanted.filter ?? view.filter
            view.grouping = wanted.grouping ?? view.grouping
            view.version += 1
            context.update(view)
            context.publish(ViewChange(view: view.id, version: view.version, count: nil, window: view.window, state: context.state,
                                       operations: [.reset(rows: [])]))
            return ViewVersion(view: params.view, version: view.version)
        }
    }

    /// `view/collapse` or `view/expand` while the store loads or has failed: the view has no items, so an id is not
    /// one of them and `all` changes nothing.
    private static func collapseWhileWaiting(_ view: TasklsProtocol.ViewID, _ target: CollapseTarget,
                                             _ context: WaitingContext) throws(ResponseError) -> CollapseResult {
        _ = try context.view(ViewID(view))
        if case .ids(let ids) = target, let first = ids.first {
            throw DomainError.refused(reason: "notInView", message: "ids: item \(ItemID(first)) is not a row of view \(ViewID(view))").responseError
        }
        return CollapseResult(changed: false)
    }

    /// The snapshot of a view waiting for the store: no rows, no count, the store's state.
    private static func waitingSnapshot(_ view: DetachedView, _ context: WaitingContext) -> ViewSnapshotResult {
        ViewSnapshotResult(ViewSnapshot(view: view.id, version: view.version, state: context.state, count: nil, window: view.window,
                                        rows: [], source: view.source, sort: view.sort, filter: view.filter, grouping: view.grouping),
                           in: context.calendar)
    }
}

/// A view's params as the domain takes them (`lists/open`'s defaults filled in).
private struct ViewSpec {
    var source: ViewSource
    var sort: Domain.Sort
    var filter: Domain.Filter
    var grouping: Grouping
    var window: Domain.Window

    init(_ params: ListsOpen) throws(ResponseError) {
        source = ViewSource(params.source)
        sort = params.sort.map(Domain.Sort.init) ?? .manual
        filter = try params.filter.map { wire throws(ResponseError) in try Domain.Filter(wire) } ?? .all
        grouping = params.sections.map(Grouping.init) ?? .none
        window = Domain.Window(params.window ?? ListsOpen.defaultWindow)
    }
}

/// Params that name one view.
protocol ViewAddressed {
    var view: TasklsProtocol.ViewID { get }
}

extension ViewSort: ViewAddressed {}

extension CollapseTarget {
    /// The items named, nil for all.
    var itemIDs: [Domain.ItemID]? {
        switch self {
        case .ids(let ids): ids.map(Domain.ItemID.init)
        case .all: nil
        }
    }
}
extension ViewFilter: ViewAddressed {}
extension ViewSections: ViewAddressed {}
