/// Domain values the protocol spells in its own words: header ids, due buckets, group titles, and domain
/// refusals as JSON-RPC errors.

import Domain
import Wire

extension SectionID {
    /// A header row's id: `s:due:today`, `s:priority:high`, `s:list:l3`, `s:done:false`.
    var wireID: String {
        switch self {
        case .due(let bucket): "s:due:\(bucket.wireName)"
        case .priority(let priority): "s:priority:\(priority.rawValue)"
        case .list(let list): "s:list:\(list)"
        case .done(let done): "s:done:\(done)"
        }
    }
}

extension DueBucket {
    /// The bucket's name on the wire.
    var wireName: String {
        switch self {
        case .overdue: "overdue"
        case .today: "today"
        case .tomorrow: "tomorrow"
        case .nextSevenDays: "next7days"
        case .later: "later"
        case .noDate: "noDate"
        }
    }
}

extension SmartGroup {
    /// The group's title as a pane shows it.
    var title: String {
        switch self {
        case .today: "Today"
        case .scheduled: "Scheduled"
        case .overdue: "Overdue"
        case .all: "All"
        case .completed: "Completed"
        }
    }
}

extension DomainError {
    /// The JSON-RPC error for this refusal; field names get their `params.` path.
    var responseError: ResponseError {
        switch self {
        case .invalidField(let field, let problem):
            return .invalidParams("params.\(field): \(problem)")
        case .notFound(let kind, let ids):
            let names = ids.map { raw in
                switch kind {
                case .list: ListID(raw).description
                case .item: ItemID(raw).description
                case .smartList: SmartListID(raw).description
                }
            }
            let noun = kind == .smartList ? "smart list" : kind.rawValue
            return .requestFailed(
                reason: "notFound", "unknown \(noun) id\(ids.count == 1 ? "" : "s"): \(names.joined(separator: ", "))",
                data: ["ids": .array(names.map(JSON.string))])
        case .refused(let reason, let message):
            return .requestFailed(reason: reason, message)
        case .refusedItems(let reason, let message, let ids):
            return .requestFailed(reason: reason, message, data: ["ids": .array(ids.map { JSON.string($0.description) })])
        case .staleVersion(let view, let seen, let current):
            return ResponseError(
                .contentModified, "view \(view) is at version \(current), the request saw version \(seen); nothing was changed",
                data: ["version": .integer(Int64(current))])
        case .unknownView(let view):
            return .requestFailed(reason: "unknownView", "no open view \(view)")
        }
    }
}
