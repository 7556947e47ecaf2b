/// `lists/open`, `view/setWindow`, `view/sort`, `view/filter`, `view/sections`, `view/snapshot`, `view/close`.
///
/// Each answers from the engine while the store can serve, and from the waiting views (no rows, the store's
/// state) while it loads or has failed.

import Domain
import Wire

enum ViewMethods {
    /// The window a view opens with when the client does not say.
    static let defaultWindow = Window(start: 0, end: 100)

    static func register(in table: inout MethodTable) {
        table.reading("lists/open", OpenParams.self) { context, params throws(ResponseError) in
            try context.openView(source: params.source, sort: params.sort, filter: params.filter, grouping: params.grouping,
                                 window: params.window).json
        } waiting: { context, params throws(ResponseError) in
            let view = context.openView(source: params.source, sort: params.sort, filter: params.filter, grouping: params.grouping,
                                        window: params.window)
            return waitingSnapshot(view, context)
        }
        table.reading("view/setWindow", WindowParams.self) { context, params throws(ResponseError) in
            try context.setWindow(params.view, params.window).json
        } waiting: { context, params throws(ResponseError) in
            var view = try context.view(params.view)
            view.window = params.window
            context.update(view)
            return waitingSnapshot(view, context)
        }
        register(SortParams.self, as: "view/sort", in: &table)
        register(FilterParams.self, as: "view/filter", in: &table)
        register(SectionsParams.self, as: "view/sections", in: &table)
        table.reading("view/snapshot", ViewParams.self) { context, params throws(ResponseError) in
            try context.snapshot(params.view).json
        } waiting: { context, params throws(ResponseError) in
            waitingSnapshot(try context.view(params.view), context)
        }
        table.reading("view/close", ViewParams.self) { context, params throws(ResponseError) in
            try context.closeView(params.view)
            return .null
        } waiting: { context, params throws(ResponseError) in
            _ = try context.view(params.view)
            context.close(params.view)
            return .null
        }
    }

    /// `view/sort`, `view/filter` or `view/sections`: a new generation of the view, announced by one `reset`
    /// before the answer `{view, version}` (and a background build when the order is new and large).
    private static func register<Params: Reconfiguration>(_ params: Params.Type, as method: String, in table: inout MethodTable) {
        table.reading(method, Params.self) { context, params throws(ResponseError) in
            let change = params.change
            let version = try context.reconfigure(params.view, sort: change.sort, filter: change.filter, grouping: change.grouping)
            return ["view": WireID.view(params.view), "version": .integer(Int64(version))]
        } waiting: { context, params throws(ResponseError) in
            var view = try context.view(params.view)
            let change = params.change
            view.sort = change.sort ?? view.sort
            view.filter = change.filter ?? view.filter
            view.grouping = change.grouping ?? view.grouping
            view.version += 1
            context.update(view)
            context.publish(ViewChange(view: view.id, version: view.version, count: nil, window: view.window, state: context.state,
                                       operations: [.reset(rows: [])]))
            return ["view": WireID.view(view.id), "version": .integer(Int64(view.version))]
        }
    }

    /// The snapshot of a view waiting for the store: no rows, no count, the store's state.
    private static func waitingSnapshot(_ view: DetachedView, _ context: WaitingContext) -> JSON {
        ViewSnapshot(view: view.id, version: view.version, state: context.state, count: nil, window: view.window, rows: [],
                     source: view.source, sort: view.sort, filter: view.filter, grouping: view.grouping).json
    }
}

/// The params of `lists/open`: what to show, how, and through which window.
struct OpenParams: JSONDecodable {
    var source: ViewSource
    var sort: Sort
    var filter: Filter
    var grouping: Grouping
    var window: Window

    init(json: JSON, path: String) throws(ResponseError) {
        let fields = try Fields(json: json, path: path)
        try fields.rejectUnknown(["list", "group", "sort", "filter", "sections", "window"])
        // Both members' types first (a `null` is refused naming its member), then the choice.
        let list: ListID? = try fields.optional("list")
        let group: SmartGroup? = try fields.optional("group")
        switch (list, group) {
        case (let list?, nil): source = .list(list)
        case (nil, let group?): source = .group(group)
        case (.some, .some): throw .invalidParams("params: give list or group, not both")
        case (nil, nil): throw .invalidParams("params.list: missing; give list (a list id) or group (a smart group)")
        }
        sort = try fields.optional("sort") ?? .manual
        filter = try fields.optional("filter") ?? .all
        grouping = try fields.optional("sections") ?? .none
        window = try fields.optional("window") ?? ViewMethods.defaultWindow
    }
}

/// Params naming one view.
struct ViewParams: JSONDecodable {
    var view: ViewID

    init(json: JSON, path: String) throws(ResponseError) {
        let fields = try Fields(json: json, path: path)
        try fields.rejectUnknown(["view"])
        view = try fields.required("view")
    }
}

/// `view/setWindow` params.
struct WindowParams: JSONDecodable {
    var view: ViewID
    var window: Window

    init(json: JSON, path: String) throws(ResponseError) {
        let fields = try Fields(json: json, path: path)
        try fields.rejectUnknown(["view", "window"])
        view = try fields.required("view")
        window = try fields.required("window")
    }
}

/// The params of `view/sort`, `view/filter` or `view/sections`: the view, and what changes (nil: kept).
protocol Reconfiguration: JSONDecodable {
    var view: ViewID { get }
    var change: (sort: Sort?, filter: Filter?, grouping: Grouping?) { get }
}

/// `view/sort` params.
struct SortParams: Reconfiguration {
    var view: ViewID
    var sort: Sort
    var change: (sort: Sort?, filter: Filter?, grouping: Grouping?) { (sort, nil, nil) }

    init(json: JSON, path: String) throws(ResponseError) {
        let fields = try Fields(json: json, path: path)
        try fields.rejectUnknown(["view", "sort"])
        view = try fields.required("view")
        sort = try fields.required("sort")
    }
}

/// `view/filter` params (`filter: null` is no filter).
struct FilterParams: Reconfiguration {
    var view: ViewID
    var filter: Filter
    var change: (sort: Sort?, filter: Filter?, grouping: Grouping?) { (nil, filter, nil) }

    init(json: JSON, path: String) throws(ResponseError) {
        let fields = try Fields(json: json, path: path)
        try fields.rejectUnknown(["view", "filter"])
        view = try fields.required("view")
        filter = try fields.nullable("filter") ?? .all
    }
}

/// `view/sections` params.
struct SectionsParams: Reconfiguration {
    var view: ViewID
    var grouping: Grouping
    var change: (sort: Sort?, filter: Filter?, grouping: Grouping?) { (nil, nil, grouping) }

    init(json: JSON, path: String) throws(ResponseError) {
        let fields = try Fields(json: json, path: path)
        try fields.rejectUnknown(["view", "sections"])
        view = try fields.required("view")
        grouping = try fields.required("sections")
    }
}
