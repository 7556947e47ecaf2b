/// Protocol values to domain values and back: ids, priorities, groups, sorts, sections, windows,
/// filters, sources and dues. Params become domain values here; `-32602` names the param's path.

import Domain
import TasklsProtocol
import Wire

extension Domain.ListID {
    /// The list `id` names.
    init(_ id: TasklsProtocol.ListID) { self.init(id.rawValue) }
}

extension TasklsProtocol.ListID {
    /// The wire id of `id`.
    init(_ id: Domain.ListID) { self.init(id.rawValue) }
}

extension Domain.ItemID {
    /// The item `id` names.
    init(_ id: TasklsProtocol.ItemID) { self.init(id.rawValue) }
}

extension TasklsProtocol.ItemID {
    /// The wire id of `id`.
    init(_ id: Domain.ItemID) { self.init(id.rawValue) }
}

extension Domain.ViewID {
    /// The view `id` names.
    init(_ id: TasklsProtocol.ViewID) { self.init(id.rawValue) }
}

extension TasklsProtocol.ViewID {
    /// The wire id of `id`.
    init(_ id: Domain.ViewID) { self.init(id.rawValue) }
}

extension Domain.Priority {
    /// The priority `wire` names.
    init(_ wire: TasklsProtocol.Priority) {
        switch wire {
        case .none: self = .none
        case .low: self = .low
        case .medium: self = .medium
        case .high: self = .high
        }
    }
}

extension TasklsProtocol.Priority {
    /// The wire name of `priority`.
    init(_ priority: Domain.Priority) {
        switch priority {
        case .none: self = .none
        case .low: self = .low
        case .medium: self = .medium
        case .high: self = .high
        }
    }
}

extension Domain.SmartGroup {
    /// The group `wire` names.
    init(_ wire: TasklsProtocol.SmartGroup) {
        switch wire {
        case .today: self = .today
        case .scheduled: self = .scheduled
        case .overdue: self = .overdue
        case .all: self = .all
        case .completed: self = .completed
        }
    }
}

extension TasklsProtocol.SmartGroup {
    /// The wire name of `group`.
    init(_ group: Domain.SmartGroup) {
        switch group {
        case .today: self = .today
        case .scheduled: self = .scheduled
        case .overdue: self = .overdue
        case .all: self = .all
        case .completed: self = .completed
        }
    }
}

extension Domain.Sort {
    /// The sort `wire` describes.
    init(_ wire: TasklsProtocol.Sort) {
        let field: Domain.SortField = switch wire.field {
        case .manual: .manual
        case .title: .title
        case .due: .due
        case .priority: .priority
        case .created: .created
        case .modified: .modified
        }
        self.init(field, wire.direction == .ascending ? .ascending : .descending)
    }
}

extension TasklsProtocol.Sort {
    /// The wire form of `sort`.
    init(_ sort: Domain.Sort) {
        let field: TasklsProtocol.SortField = switch sort.field {
        case .manual: .manual
        case .title: .title
        case .due: .due
        case .priority: .priority
        case .created: .created
        case .modified: .modified
        }
        self.init(field, sort.direction == .ascending ? .ascending : .descending)
    }
}

extension Grouping {
    /// The grouping `sections` names.
    init(_ sections: Sections) {
        switch sections {
        case .none: self = .none
        case .dueBucket: self = .dueBucket
        case .priority: self = .priority
        case .list: self = .list
        case .done: self = .done
        }
    }
}

extension Sections {
    /// The wire name of `grouping`.
    init(_ grouping: Grouping) {
        switch grouping {
        case .none: self = .none
        case .dueBucket: self = .dueBucket
        case .priority: self = .priority
        case .list: self = .list
        case .done: self = .done
        }
    }
}

extension Domain.Window {
    /// The window `wire` describes (its decoder checked it).
    init(_ wire: TasklsProtocol.Window) { self.init(start: wire.start, end: wire.end) }
}

extension TasklsProtocol.Window {
    /// The wire form of `window`.
    init(_ window: Domain.Window) { self.init(start: window.start, end: window.end) }
}

extension Domain.ViewSource {
    /// The source `wire` names.
    init(_ wire: TasklsProtocol.ViewSource) {
        switch wire {
        case .list(let list): self = .list(Domain.ListID(list))
        case .group(let group): self = .group(Domain.SmartGroup(group))
        // The rule is the smart list's own, taken from the state when the view opens (`Engine.openView`).
        case .smartList(let id): self = .smartList(Domain.SmartListID(id), SmartListRule())
        }
    }
}

extension TasklsProtocol.ViewSource {
    /// The wire form of `source`.
    init(_ source: Domain.ViewSource) {
        switch source {
        case .list(let list): self = .list(TasklsProtocol.ListID(list))
        case .group(let group): self = .group(TasklsProtocol.SmartGroup(group))
        case .smartList(let id, _): self = .smartList(TasklsProtocol.SmartListID(id))
        }
    }
}

extension TasklsProtocol.EmptyReason {
    /// The wire name of `reason`.
    init(_ reason: Domain.EmptyReason) {
        switch reason {
        case .noItems: self = .noItems
        case .noMatches: self = .noMatches
        }
    }
}

extension Due {
    /// Parses a due the client sent at `path` (`params.due`, `params.filter.dueBefore`): `-32602`
    /// naming the path and the problem (`params.due: 2026-02-30 is not a calendar date`).
    init(wire text: String, path: String) throws(ResponseError) {
        do {
            self = try Due(parsing: text, field: path)
        } catch {
            if case .invalidField(_, let problem) = error { throw .invalidParams("\(path): \(problem)") }
            throw error.responseError
        }
    }
}

extension Domain.Filter {
    /// The filter `wire` describes; its dues are parsed here, errors naming `path` and the member.
    init(_ wire: TasklsProtocol.Filter, path: String = "params.filter") throws(ResponseError) {
        let done: Domain.Filter.Completion = switch wire.done {
        case .any: .any
        case .done: .done
        case .notDone: .notDone
        }
        self.init(
            text: wire.text, done: done, tagsAnyOf: wire.tagsAnyOf, tagsAllOf: wire.tagsAllOf,
            priorityAtLeast: wire.priorityAtLeast.map(Domain.Priority.init),
            dueBefore: try wire.dueBefore.map { text throws(ResponseError) in try Due(wire: text, path: path + ".dueBefore") },
            dueAfter: try wire.dueAfter.map { text throws(ResponseError) in try Due(wire: text, path: path + ".dueAfter") })
    }
}

extension TasklsProtocol.Filter {
    /// The filter as the client gave it, dues in canonical form (members at their defaults are left out when written).
    init(_ filter: Domain.Filter) {
        let done: TasklsProtocol.Filter.Completion = switch filter.done {
        case .any: .any
        case .done: .done
        case .notDone: .notDone
        }
        self.init(
            text: filter.text, done: done, tagsAnyOf: filter.tagsAnyOf, tagsAllOf: filter.tagsAllOf,
            priorityAtLeast: filter.priorityAtLeast.map(TasklsProtocol.Priority.init),
            dueBefore: filter.dueBefore?.iso8601, dueAfter: filter.dueAfter?.iso8601)
    }
}
