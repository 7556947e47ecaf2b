/// Smart lists between the wire and the domain: ids, params as fields and patches, and the overview's entries.

import Domain
import TasklsProtocol
import Wire

extension Domain.SmartListID {
    /// The domain id of a wire id.
    init(_ id: TasklsProtocol.SmartListID) { self.init(id.rawValue) }
}

extension TasklsProtocol.SmartListID {
    /// The wire id of a domain id.
    init(_ id: Domain.SmartListID) { self.init(id.rawValue) }
}

extension TasklsProtocol.SmartList {
    /// A smart list with its count, as the overview and the results write it (source lists ascending).
    init(_ summary: SmartListSummary) {
        let smartList = summary.smartList
        self.init(id: TasklsProtocol.SmartListID(smartList.id), name: smartList.name, color: smartList.color,
                  icon: smartList.icon, filter: TasklsProtocol.Filter(smartList.rule.filter),
                  lists: smartList.rule.lists.map { $0.sorted().map(TasklsProtocol.ListID.init) }, count: summary.count)
    }
}

extension SmartListFields {
    /// The fields of a new smart list from `smartLists/create` params.
    init(_ params: SmartListsCreate) throws(ResponseError) {
        let filter = try Domain.Filter(params.filter)
        self.init(name: params.name, color: params.color, icon: params.icon,
                  rule: SmartListRule(filter: filter, lists: params.lists.map { Set($0.map(Domain.ListID.init)) }))
    }
}

extension SmartListPatch {
    /// The members `smartLists/update` changes: absent leaves one alone, `null` clears `color` or `icon` and sets
    /// `lists` to every list.
    init(_ params: SmartListsUpdate) throws(ResponseError) {
        let filter = try params.filter.map { wire throws(ResponseError) in try Domain.Filter(wire) }
        let lists: Clearable<Set<Domain.ListID>>? = switch params.lists {
        case .unchanged: nil
        case .cleared: .clear
        case .set(let ids): .set(Set(ids.map(Domain.ListID.init)))
        }
        self.init(name: params.name, color: Clearable(params.color), icon: Clearable(params.icon), filter: filter,
                  lists: lists)
    }
}
