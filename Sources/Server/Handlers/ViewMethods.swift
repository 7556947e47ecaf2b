/// `lists/open`, `view/setWindow`, `view/sort`, `view/filter`, `view/sections`, `view/snapshot`, `view/close`.

import Domain
import Wire

enum ViewMethods {
    /// A new generation of a view (sort, filter or sections changed): one `reset` notification
    /// before the answer `{view, version}`, and a background build when the order is new and large.
    private static func reconfigure(
        _ server: Server, _ view: ViewID, sort: Sort? = nil, filter: Filter? = nil, grouping: Grouping? = nil
    ) throws(ResponseError) -> JSON {
        let changed = try server.domain { () throws(DomainError) in
            try server.engine.reconfigure(view, sort: sort, filter: filter, grouping: grouping)
        }
        if let build = changed.build { server.indexBuilder.start(build, reportingTo: server.mailbox) }
        server.publish([changed.change])
        return ["view": WireID.view(view), "version": .integer(Int64(changed.change.version))]
    }

    /// The window a view opens with when the client does not say.
    static let defaultWindow = Window(start: 0, end: 100)

    /// The params of `lists/open`: what to show, how, and through which window.
    static func openParams(_ fields: Fields) throws(ResponseError)
        -> (source: ViewSource, sort: Sort, filter: Filter, grouping: Grouping, window: Window)
    {
        try fields.rejectUnknown(["list", "group", "sort", "filter", "sections", "window"])
        // Both members' types first (a `null` is refused naming its member), then the choice.
        let list: ListID? = try fields.optional("list")
        let group: SmartGroup? = try fields.optional("group")
        let source: ViewSource
        switch (list, group) {
        case (let list?, nil): source = .list(list)
        case (nil, let group?): source = .group(group)
        case (.some, .some): throw .invalidParams("params: give list or group, not both")
        case (nil, nil): throw .invalidParams("params.list: missing; give list (a list id) or group (a smart group)")
        }
        return (source, try fields.optional("sort") ?? .manual, try fields.optional("filter") ?? .all,
                try fields.optional("sections") ?? .none, try fields.optional("window") ?? defaultWindow)
    }

    /// The params of `view/sort`, `view/filter` or `view/sections`: what changes (nil: kept).
    static func reconfiguration(_ method: String, _ fields: Fields) throws(ResponseError)
        -> (sort: Sort?, filter: Filter?, grouping: Grouping?)
    {
        switch method {
        case "view/sort":
            try fields.rejectUnknown(["view", "sort"])
            return (try fields.required("sort"), nil, nil)
        case "view/filter":
            try fields.rejectUnknown(["view", "filter"])
            return (nil, try fields.nullable("filter") ?? .all, nil)
        default:
            try fields.rejectUnknown(["view", "sections"])
            return (nil, nil, try fields.required("sections"))
        }
    }

    static func register(in table: inout MethodTable) {
        table.request("lists/open", Fields.self) { server, fields throws(ResponseError) in
            let (source, sort, filter, grouping, window) = try openParams(fields)
            let opened = try server.domain { () throws(DomainError) in
                try server.engine.openView(source: source, sort: sort, filter: filter, grouping: grouping, window: window)
            }
            if let build = opened.build { server.indexBuilder.start(build, reportingTo: server.mailbox) }
            return opened.snapshot.json
        }
        table.request("view/setWindow", Fields.self) { server, fields throws(ResponseError) in
            try fields.rejectUnknown(["view", "window"])
            let view: ViewID = try fields.required("view")
            let window: Window = try fields.required("window")
            return try server.domain { () throws(DomainError) in try server.engine.setWindow(view, window) }.json
        }
        table.request("view/sort", Fields.self) { server, fields throws(ResponseError) in
            let change = try reconfiguration("view/sort", fields)
            return try reconfigure(server, try fields.required("view"), sort: change.sort, filter: change.filter, grouping: change.grouping)
        }
        table.request("view/filter", Fields.self) { server, fields throws(ResponseError) in
            let change = try reconfiguration("view/filter", fields)
            return try reconfigure(server, try fields.required("view"), sort: change.sort, filter: change.filter, grouping: change.grouping)
        }
        table.request("view/sections", Fields.self) { server, fields throws(ResponseError) in
            let change = try reconfiguration("view/sections", fields)
            return try reconfigure(server, try fields.required("view"), sort: change.sort, filter: change.filter, grouping: change.grouping)
        }
        table.request("view/snapshot", Fields.self) { server, fields throws(ResponseError) in
            try fields.rejectUnknown(["view"])
            let view: ViewID = try fields.required("view")
            return try server.domain { () throws(DomainError) in try server.engine.snapshot(view) }.json
        }
        table.request("view/close", Fields.self) { server, fields throws(ResponseError) in
            try fields.rejectUnknown(["view"])
            let view: ViewID = try fields.required("view")
            try server.domain { () throws(DomainError) in try server.engine.closeView(view) }
            return .null
        }
    }
}
