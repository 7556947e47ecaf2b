/// What `RandomSession` knows the store holds: its lists, each list's tree, every item's fields and the open
/// views' filters and collapsed items, kept from the requests it made and their results, with the cascades
/// protocol.md's "Subtasks" describes (a deleted item's subtree, a done item's descendants, a moved item's
/// subtree). `ShadowStore+Tree.swift` says what each tree request does to it; `ShadowStore+Views.swift` what
/// rows each view shows.

import TasklsProtocol

/// Where an item sits: at the top level of a list, or among the subtasks of an item.
enum Place: Hashable, CustomStringConvertible {
    case top(ListID)
    case under(ItemID)

    var description: String {
        switch self {
        case .top(let list): "the top level of \(list)"
        case .under(let parent): "the subtasks of \(parent)"
        }
    }
}

/// What the test knows the store holds, from the requests it made and their results.
struct ShadowStore {
    /// The deepest depth an item may have.
    static let deepest = 15

    var revision: UInt64
    /// List ids in creation order (the session never reorders lists, so also their manual order).
    var lists: [ListID] = []
    /// The items of each place in manual order; a place with none has no entry, so two trees are equal exactly
    /// when their `children` are.
    private(set) var children: [Place: [ItemID]] = [:]
    /// The last full item seen for each id, its `list`, `parent` and `done` kept current across moves and cascades
    /// (its `children` and `openChildren` are not: `subtaskCount` and `openSubtaskCount` are).
    var items: [ItemID: Item] = [:]
    /// Ids of deleted items, which name nothing any more.
    var deleted: [ItemID] = []
    /// The open views, as the session opened, sorted, filtered and collapsed them.
    var views: [ViewID: ShadowView] = [:]

    init(revision: UInt64) { self.revision = revision }

    // MARK: Reading the tree

    /// The items of `place`, in manual order.
    func items(at place: Place) -> [ItemID] { children[place] ?? [] }

    /// Where `id` sits.
    func place(of id: ItemID) -> Place {
        guard let item = items[id] else { preconditionFailure("no item \(id)") }
        return item.parent.map(Place.under) ?? .top(item.list)
    }

    /// The list of `id`.
    func list(of id: ItemID) -> ListID {
        guard let list = items[id]?.list else { preconditionFailure("no list for \(id)") }
        return list
    }

    /// The list items at `place` belong to.
    func list(of place: Place) -> ListID {
        switch place {
        case .top(let list): list
        case .under(let parent): list(of: parent)
        }
    }

    /// The list's items in tree order: each item right before its subtree.
    /// - Complexity: O(items of the list).
    func order(of list: ListID) -> [ItemID] { preorder(from: .top(list)) }

    /// `id` and its descendants, in tree order.
    func subtree(of id: ItemID) -> [ItemID] { [id] + preorder(from: .under(id)) }

    /// The items at `place` and below them, in tree order.
    private func preorder(from place: Place) -> [ItemID] {
        var order: [ItemID] = []
        func visit(_ place: Place) {
            for id in items(at: place) {
                order.append(id)
                visit(.under(id))
            }
        }
        visit(place)
        return order
    }

    /// The ancestors of `id`, its parent first.
    func ancestors(of id: ItemID) -> [ItemID] {
        var ancestors: [ItemID] = []
        var current = items[id]?.parent
        while let parent = current {
            ancestors.append(parent)
            current = items[parent]?.parent
        }
        return ancestors
    }

    /// The number of ancestors of `id`.
    func depth(of id: ItemID) -> Int { ancestors(of: id).count }

    /// The depth the items of `place` have.
    func depth(of place: Place) -> Int {
        switch place {
        case .top: 0
        case .under(let parent): depth(of: parent) + 1
        }
    }

    /// How many levels `id`'s subtree reaches below it (0 without subtasks).
    func height(of id: ItemID) -> Int {
        items(at: .under(id)).map { height(of: $0) + 1 }.max() ?? 0
    }

    /// Whether `id` is `other` or one of its descendants.
    func isInSubtree(_ id: ItemID, of other: ItemID) -> Bool { id == other || ancestors(of: id).contains(other) }

    /// The number of `id`'s direct subtasks.
    func subtaskCount(of id: ItemID) -> Int { items(at: .under(id)).count }

    /// The number of `id`'s direct subtasks that are not done.
    func openSubtaskCount(of id: ItemID) -> Int { items(at: .under(id)).filter { !items[$0]!.done }.count }

    /// The items named, without those inside another named item's subtree, in their current order: their lists'
    /// order, then tree order (protocol.md's "tops").
    func tops(of ids: [ItemID]) -> [ItemID] {
        let named = Set(ids)
        let tops = ids.filter { id in !ancestors(of: id).contains(where: named.contains) }
        var rank: [ItemID: Int] = [:]
        for list in lists {
            for id in order(of: list) { rank[id] = rank.count }
        }
        return tops.sorted { rank[$0]! < rank[$1]! }
    }

    // MARK: Changing the tree

    /// A new item at `place`, before `before` (one of its items) or last.
    mutating func insert(_ item: Item, at place: Place, before: ItemID?) {
        items[item.id] = item
        items[item.id]!.parent = place.parentItem
        items[item.id]!.list = list(of: place)
        var siblings = items(at: place)
        siblings.insert(item.id, at: before.flatMap { siblings.firstIndex(of: $0) } ?? siblings.count)
        children[place] = siblings
    }

    /// Takes `ids` (with their subtrees) out of their places.
    mutating func detach(_ ids: [ItemID]) {
        for id in ids {
            let place = place(of: id)
            let siblings = items(at: place).filter { $0 != id }
            children[place] = siblings.isEmpty ? nil : siblings
        }
    }

    /// Puts `tops` (detached, with their subtrees) at `place` before `before` (one of its items) or last, in
    /// this order; their descendants go to the place's list with them.
    mutating func attach(_ tops: [ItemID], at place: Place, before: ItemID?) {
        let list = list(of: place)
        for top in tops {
            items[top]!.parent = place.parentItem
            for id in subtree(of: top) { items[id]!.list = list }
        }
        var siblings = items(at: place)
        siblings.insert(contentsOf: tops, at: before.flatMap { siblings.firstIndex(of: $0) } ?? siblings.count)
        children[place] = siblings
    }

    /// Moves `tops` (in this order) to `place`, before `before` or last.
    mutating func move(_ tops: [ItemID], to place: Place, before: ItemID?) {
        detach(tops)
        attach(tops, at: place, before: before)
    }

    /// Deletes `ids` with their subtrees; they leave every view's collapsed items.
    mutating func remove(_ ids: [ItemID]) {
        for id in ids where items[id] != nil {
            let subtree = subtree(of: id)
            detach([id])
            for gone in subtree {
                items[gone] = nil
                children[.under(gone)] = nil
                deleted.append(gone)
                for view in views.keys { views[view]!.collapsed.remove(gone) }
            }
        }
    }

    /// Deletes a list and its items; its views close.
    mutating func deleteList(_ list: ListID) {
        remove(items(at: .top(list)))
        lists.removeAll { $0 == list }
        views = views.filter { $0.value.list != list }
    }

    /// Takes an item `items/update` answered; when the update marked it done (`markedDone`), every descendant that
    /// is not becomes done too.
    mutating func update(_ item: Item, markedDone: Bool) {
        items[item.id] = item
        guard markedDone else { return }
        for id in subtree(of: item.id).dropFirst() where !items[id]!.done {
            items[id]!.done = true
            items[id]!.completed = item.completed
        }
    }
}

extension Place {
    /// The item whose subtasks these are; nil at the top level.
    var parentItem: ItemID? {
        if case .under(let parent) = self { return parent }
        return nil
    }
}
