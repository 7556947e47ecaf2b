/// The lists an `@name` can name, looked up as the domain compares titles: ignoring case and diacritics.

import Domain

/// The client's lists by name, for `@Groceries`.
public struct ListDirectory: Sendable {
    /// What an `@name` found.
    public enum Lookup: Sendable {
        /// One list.
        case found(ListID)
        /// No list; the names of lists spelt nearly so (nearest first, at most 3).
        case unknown(nearly: [String])
        /// Several lists whose names fold to it and none spelt exactly so (in the lists' order).
        case ambiguous([(id: ListID, name: String)])
    }

    private struct Entry: Sendable {
        let id: ListID
        let name: String
        let folded: [UInt8]
    }

    private let entries: [Entry]

    /// The lists `(id, name)`, in their manual order.
    /// - Complexity: O(total length of the names): each is folded once.
    public init(_ lists: [(id: ListID, name: String)]) {
        entries = lists.map { Entry(id: $0.id, name: $0.name, folded: CollationKey(folding: $0.name).bytes) }
    }

    /// The list `name` names: the one whose name folds as it does (`CollationKey`: case and diacritics
    /// ignored); when several do, the one spelt exactly so, if there is exactly one; else it is ambiguous.
    /// - Complexity: O(lists × name length), and for an unknown name O(lists × name length²) for the near misses.
    public func lookup(_ name: String) -> Lookup {
        let folded = CollationKey(folding: name).bytes
        let matches = entries.filter { $0.folded == folded }
        if matches.count == 1 { return .found(matches[0].id) }
        if matches.count > 1 {
            let exact = matches.filter { $0.name == name }
            if exact.count == 1 { return .found(exact[0].id) }
            return .ambiguous(matches.map { ($0.id, $0.name) })
        }
        let typed = String(decoding: folded, as: UTF8.self)
        let foldedNames = entries.map { String(decoding: $0.folded, as: UTF8.self) }
        let prefixed = entries.indices.filter { !typed.isEmpty && foldedNames[$0].hasPrefix(typed) }
        let near = Suggestion.nearest(to: typed, among: foldedNames, limit: 3).compactMap { near in
            foldedNames.firstIndex(of: near)
        }
        var names: [String] = []
        for index in near + prefixed where !names.contains(entries[index].name) && names.count < 3 {
            names.append(entries[index].name)
        }
        return .unknown(nearly: names)
    }
}
