/// `lists/open`, `view/setWindow`, `view/sort`, `view/snapshot`, `view/close`.

import Domain
import Wire

enum ViewMethods {
    /// The window a view opens with when the client does not say.
    static let defaultWindow = Window(start: 0, end: 100)

    static func register(in table: inout MethodTable) {
        table.request("lists/open", Fields.self) { server, fields throws(ResponseError) in
            try fields.rejectUnknown(["list", "sort", "window"])
            let list: ListID = try fields.required("list")
            let sort: Sort = try fields.optional("sort") ?? .manual
            let window: Window = try fields.optional("window") ?? defaultWindow
            let opened = try server.domain { () throws(DomainError) in
                try server.engine.openView(source: .list(list), sort: sort, window: window)
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
            let view: ViewID = try fields.required("view")
            let sort: Sort = try fields.required("sort")
            let changed = try server.domain { () throws(DomainError) in try server.engine.setSort(view, sort) }
            if let build = changed.build { server.indexBuilder.start(build, reportingTo: server.mailbox) }
            server.publish([changed.change])
            return ["view": WireID.view(view), "version": .integer(Int64(changed.change.version))]
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
