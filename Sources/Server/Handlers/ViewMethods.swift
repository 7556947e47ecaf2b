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

    static func register(in table: inout MethodTable) {
        table.request("lists/open", Fields.self) { server, fields throws(ResponseError) in
            try fields.rejectUnknown(["list", "group", "sort", "filter", "sections", "window"])
            let source: ViewSource
            switch (fields.contains("list"), fields.contains("group")) {
            case (true, false): source = .list(try fields.required("list"))
            case (false, true): source = .group(try fields.required("group"))
            case (true, true): throw .invalidParams("params: give list or group, not both")
            case (false, false): throw .invalidParams("params.list: missing; give list (a list id) or group (a smart group)")
            }
            let sort: Sort = try fields.optionalValue("sort") ?? .manual
            let filter: Filter = try fields.optionalValue("filter") ?? .all
            let grouping: Grouping = try fields.optionalValue("sections") ?? .none
            let window: Window = try fields.optionalValue("window") ?? defaultWindow
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
            try fields.rejectUnknown(["view", "sort"])
            return try reconfigure(server, try fields.required("view"), sort: try fields.required("sort"))
        }
        table.request("view/filter", Fields.self) { server, fields throws(ResponseError) in
            try fields.rejectUnknown(["view", "filter"])
            let filter: Filter = try fields.optional("filter") ?? .all
            return try reconfigure(server, try fields.required("view"), filter: filter)
        }
        table.request("view/sections", Fields.self) { server, fields throws(ResponseError) in
            try fields.rejectUnknown(["view", "sections"])
            return try reconfigure(server, try fields.required("view"), grouping: try fields.required("sections"))
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
