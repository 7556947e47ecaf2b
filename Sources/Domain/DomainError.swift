// DomainError: why a request was refused, as a value the server converts to a JSON-RPC error once.

/// Why the domain refused a request. A refused request changes nothing.
public enum DomainError: Error, Sendable, Equatable {
    /// A field's value is out of bounds or malformed (JSON-RPC -32602). `field` is the wire name
    /// (`title`, `due`, `tags`, `window`...), `problem` completes the sentence "field: problem".
    case invalidField(field: String, problem: String)
    /// Some ids name nothing (JSON-RPC -32803). `ids` are the raw ids that were not found, in request order.
    case notFound(kind: EntityKind, ids: [UInt64])
    /// The request is well formed but cannot be done (JSON-RPC -32803 with `data.reason`).
    /// Reasons: `sortedView`, `viewLoading`, `identifierUsed`, `beforeInBlock`, `beforeInOtherList`, `ambiguousList`;
    /// for undo and redo (`TaskState.inverse(of:at:)` and the restore mutations): `changedSince`, `deletedSince`,
    /// `listDeleted`, `identifierUnused`, `positionTaken`; for any group that would leave two items with one
    /// `Item.uid` (`insertItems`, `restoreItems`): `uidTaken`. Messages name ids as the wire does (`i42`, `l3`).
    case refused(reason: String, message: String)
    /// As `refused`, naming the items that stop the request (JSON-RPC -32803 with `data.reason` and `data.ids`).
    /// Reasons: `notRepeating`, `repeatEnded` (`TaskState.skipMutations`).
    case refusedItems(reason: String, message: String, ids: [ItemID])
    /// An index-addressed request saw version `seen` of `view`, which is now at `current` (JSON-RPC -32801).
    case staleVersion(view: ViewID, seen: UInt64, current: UInt64)
    /// No open view has this id (JSON-RPC -32803, reason `unknownView`).
    case unknownView(ViewID)

    /// What a `notFound` error names.
    public enum EntityKind: String, Sendable, Equatable {
        /// A task list.
        case list
        /// An item.
        case item
        /// A smart list.
        case smartList
    }

    /// A one-line human-readable message, naming the field or ids involved.
    public var message: String {
        switch self {
        case .invalidField(let field, let problem):
            return "\(field): \(problem)"
        case .notFound(let kind, let ids):
            let (letter, noun) = switch kind {
            case .list: ("l", "list")
            case .item: ("i", "item")
            case .smartList: ("s", "smart list")
            }
            return "no \(noun) " + ids.map { letter + String($0) }.joined(separator: ", ")
        case .refused(_, let message), .refusedItems(_, let message, _):
            return message
        case .staleVersion(let view, let seen, let current):
            return "view \(view) is at version \(current), the request saw version \(seen)"
        case .unknownView(let view):
            return "no open view \(view)"
        }
    }
}
