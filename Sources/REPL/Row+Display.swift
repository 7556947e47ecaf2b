/// A row of a view's window as the REPL shows it: the protocol's `Row`, an item or a section header, with the
/// fields a table line reads (a header has none of an item's); and the readers of raw JSON that `raw` and
/// `--record` need.

import TasklsProtocol
import Wire

extension Row {
    /// Whether this is a section header.
    var isHeader: Bool {
        if case .header = self { return true }
        return false
    }

    /// The item's title, or the header's.
    var title: String {
        switch self {
        case .item(let item): item.title
        case .header(let header): header.title
        }
    }

    /// Whether the item is done (a header is not).
    var done: Bool {
        if case .item(let item) = self { return item.done }
        return false
    }

    /// The item's due as the server spells it (`2026-11-23` or an instant), or nil.
    var due: String? {
        if case .item(let item) = self { return item.due }
        return nil
    }

    /// The item's repeat (nil for a header or an item that does not repeat).
    var repeats: Repeat? {
        if case .item(let item) = self { return item.repeat }
        return nil
    }

    /// The item's priority (`none` for a header).
    var priority: Priority {
        if case .item(let item) = self { return item.priority }
        return .none
    }

    /// The item's tags (none for a header).
    var tags: [String] {
        if case .item(let item) = self { return item.tags }
        return []
    }

    /// The item's list (nil for a header).
    var list: ListID? {
        if case .item(let item) = self { return item.list }
        return nil
    }

    /// A header's item count (0 for an item).
    var count: Int {
        if case .header(let header) = self { return header.count }
        return 0
    }

    /// The item's row in the view's tree (nil for a header): its parent, depth, subtask counts, fold and context.
    var item: ItemRow? {
        if case .item(let item) = self { return item }
        return nil
    }

    /// The item's depth in its list's tree (0 at the top level, and for a header).
    var depth: Int { item?.depth ?? 0 }

    /// Whether the two rows show the same: everything but an item's own revision, which no line prints.
    func showsTheSame(as other: Row) -> Bool {
        switch (self, other) {
        case (.item(var item), .item(let otherItem)):
            item.revision = otherItem.revision
            return item == otherItem
        default: return self == other
        }
    }

    /// Whether the two rows differ at most in what follows from their subtasks (`children`, `openChildren`,
    /// `hasChildren`, `collapsed`) and the revision: an update of that kind comes with a change to a subtask, or
    /// with folding, and is no change to the item itself.
    func differsOnlyBelow(_ other: Row) -> Bool {
        switch (self, other) {
        case (.item(var item), .item(let otherItem)):
            item.revision = otherItem.revision
            item.children = otherItem.children
            item.openChildren = otherItem.openChildren
            item.hasChildren = otherItem.hasChildren
            item.collapsed = otherItem.collapsed
            return item == otherItem
        default: return self == other
        }
    }
}

extension SmartGroup {
    /// "Today" for `today`.
    var title: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }
}

extension ViewState {
    /// Whether the view is `ready`.
    var isReady: Bool {
        if case .ready = self { return true }
        return false
    }

    /// Whether the view is `loading`.
    var isLoading: Bool {
        if case .loading = self { return true }
        return false
    }

    /// `ready`, `loading`, `closed` or `error`: the state without its progress or error.
    var name: String {
        switch self {
        case .ready: "ready"
        case .loading: "loading"
        case .closed: "closed"
        case .error: "error"
        }
    }
}

extension StoreState {
    /// `memory`, `loading`, `ready` or `error`: the state without its members.
    var name: String {
        switch self {
        case .memory: "memory"
        case .loading: "loading"
        case .ready: "ready"
        case .error: "error"
        }
    }
}

extension JSON {
    /// The string, when this is one.
    var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}
