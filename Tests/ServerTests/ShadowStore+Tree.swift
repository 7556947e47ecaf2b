/// What each tree request does to the shadow store, from protocol.md's "Subtasks" and `items/move`: the
/// refusal it earns, checked in the order protocol.md gives, or where its items land. The session draws a
/// request, asks here what must happen, sends it and holds the server to it.

import TasklsProtocol

/// What a request must do.
enum TreeOutcome {
    /// Refused with `-32803` and this `data.reason`; nothing changes.
    case refused(String)
    /// Refused with `-32602`, naming `params.` and this field; nothing changes.
    case invalid(String)
    /// Done: the store after it (the same tree when the request changes nothing).
    case applied(ShadowStore)
}

extension ShadowStore {
    /// Where `items/create` puts a new item of `list`, or its refusal: `notFound`, `parentInOtherList`,
    /// `beforeInOtherList`, `beforeNotChild`, `tooDeep`, in that order.
    func placing(in list: ListID, before: ItemID?, parent: ParentChoice) -> Result<Place, TreeRefusal> {
        if !lists.contains(list) || [before, parent.item].contains(where: { $0.map { items[$0] == nil } ?? false }) {
            return .failure("notFound")
        }
        if let parent = parent.item, self.list(of: parent) != list { return .failure("parentInOtherList") }
        if let before, self.list(of: before) != list { return .failure("beforeInOtherList") }
        let place: Place
        switch parent {
        case .unspecified: place = before.map { self.place(of: $0) } ?? .top(list)
        case .topLevel: place = .top(list)
        case .item(let item): place = .under(item)
        }
        if let before, self.place(of: before) != place { return .failure("beforeNotChild") }
        if depth(of: place) > Self.deepest { return .failure("tooDeep") }
        return .success(place)
    }

    /// What `items/move` by id does: `notFound`, `ambiguousList`, `beforeInBlock`, `cycle`, `parentInOtherList`,
    /// `beforeInOtherList`, `beforeNotChild`, `tooDeep` in that order, else the tops move as consecutive siblings
    /// under the destination parent, before `before` or last.
    func movingByID(_ ids: [ItemID], before: ItemID?, list: ListID?, parent: ParentChoice) -> TreeOutcome {
        if (ids + [before, parent.item].compactMap { $0 }).contains(where: { items[$0] == nil })
            || list.map({ !lists.contains($0) }) ?? false {
            return .refused("notFound")
        }
        let tops = tops(of: ids)
        let ownLists = Set(tops.map { self.list(of: $0) })
        guard let destination = list ?? parent.item.map({ self.list(of: $0) }) ?? before.map({ self.list(of: $0) })
            ?? (ownLists.count == 1 ? ownLists.first : nil) else { return .refused("ambiguousList") }
        let isMoved = { (id: ItemID) in tops.contains { self.isInSubtree(id, of: $0) } }
        if let before, isMoved(before) { return .refused("beforeInBlock") }
        if let parent = parent.item, isMoved(parent) { return .refused("cycle") }
        if let parent = parent.item, self.list(of: parent) != destination { return .refused("parentInOtherList") }
        if let before, self.list(of: before) != destination { return .refused("beforeInOtherList") }
        let place: Place
        switch parent {
        case .unspecified: place = before.map { self.place(of: $0) } ?? .top(destination)
        case .topLevel: place = .top(destination)
        case .item(let item): place = .under(item)
        }
        if let before, self.place(of: before) != place { return .refused("beforeNotChild") }
        if tops.contains(where: { depth(of: place) + height(of: $0) > Self.deepest }) { return .refused("tooDeep") }
        var next = self
        next.move(tops, to: place, before: before)
        return .applied(next)
    }

    /// What `items/indent` does: `notFound`, `notSiblings`, `noPreviousSibling`, `tooDeep` in that order, else the
    /// tops become the last subtasks of the sibling before the first of them.
    func indenting(_ ids: [ItemID]) -> TreeOutcome {
        if ids.contains(where: { items[$0] == nil }) { return .refused("notFound") }
        let tops = tops(of: ids)
        let place = place(of: tops[0])
        if tops.contains(where: { self.place(of: $0) != place }) { return .refused("notSiblings") }
        let siblings = items(at: place)
        let first = siblings.firstIndex(of: tops[0])!
        guard first > 0 else { return .refused("noPreviousSibling") }
        let parent = siblings[first - 1]
        if tops.contains(where: { depth(of: parent) + 1 + height(of: $0) > Self.deepest }) { return .refused("tooDeep") }
        var next = self
        next.move(tops, to: .under(parent), before: nil)
        return .applied(next)
    }

    /// What `items/outdent` does: `notFound`, `notSiblings`, `topLevel` in that order, else the tops become
    /// siblings of their parent, right after it.
    func outdenting(_ ids: [ItemID]) -> TreeOutcome {
        if ids.contains(where: { items[$0] == nil }) { return .refused("notFound") }
        let tops = tops(of: ids)
        let place = place(of: tops[0])
        if tops.contains(where: { self.place(of: $0) != place }) { return .refused("notSiblings") }
        guard case .under(let parent) = place else { return .refused("topLevel") }
        let outer = self.place(of: parent)
        let siblings = items(at: outer)
        let after = siblings.index(after: siblings.firstIndex(of: parent)!)
        var next = self
        next.move(tops, to: outer, before: after < siblings.count ? siblings[after] : nil)
        return .applied(next)
    }

    /// What `items/move` by index does in `view` (manual ascending, no sections), from protocol.md's "Moving in
    /// the tree": the ranges, then `depth` within the allowed range (both `-32602`), then `tooDeep`; else the
    /// block's tops land at the depth asked (default: the least allowed).
    /// - Parameter rows: the view's rows (`rows(of:)`).
    func movingByIndex(rows: [ShadowRow], list: ListID, from: Int, count: Int?, to: Int, depth: Int?) -> TreeOutcome {
        let named = count ?? 1
        guard from >= 0, from < rows.count else { return .invalid("from") }
        guard named >= 1, from + named <= rows.count else { return .invalid("count") }
        let end = Self.blockEnd(of: rows, from: from, count: named)
        let without = Array(rows[..<from] + rows[end...])
        guard (0...without.count).contains(to) else { return .invalid("to") }
        let previous = to > 0 ? without[to - 1] : nil
        let next = to < without.count ? without[to] : nil
        let allowed = Self.allowedDepths(of: rows, from: from, count: named, to: to)
        if let depth, !allowed.contains(depth) { return .invalid("depth") }
        let blockIDs = rows[from..<end].map(\.id)
        let tops = tops(of: blockIDs)
        // Dropped where it is, without a depth or with every top already at the depth asked: nothing changes
        // ("With `depth`, `T` equal to `F` re-parents the block's tops at that depth unless all are at it").
        let depths = Dictionary(rows[from..<end].map { ($0.id, $0.depth) }) { first, _ in first }
        if to == from && (depth == nil || tops.allSatisfy { depths[$0] == depth }) { return .applied(self) }
        let landing = depth ?? allowed.lowerBound
        if tops.contains(where: { landing + height(of: $0) > Self.deepest }) { return .refused("tooDeep") }
        var moved = self
        if let previous, landing == previous.depth + 1 {
            moved.detach(tops)
            moved.attach(tops, at: .under(previous.id), before: moved.items(at: .under(previous.id)).first)
        } else if let previous {
            let sibling = landing == previous.depth ? previous.id : ancestors(of: previous.id)[previous.depth - 1 - landing]
            moved.detach(tops)
            let place = moved.place(of: sibling)
            let siblings = moved.items(at: place)
            let after = siblings.firstIndex(of: sibling)! + 1
            moved.attach(tops, at: place, before: after < siblings.count ? siblings[after] : nil)
        } else if let next {
            moved.detach(tops)
            moved.attach(tops, at: .top(self.list(of: next.id)), before: next.id)
        } else {
            // The block was every row: gathered right after the last of the tops, at the top level.
            let siblings = items(at: .top(list))
            let after = siblings[(siblings.firstIndex(of: tops.last!)! + 1)...].first { !tops.contains($0) }
            moved.detach(tops)
            moved.attach(tops, at: .top(list), before: after)
        }
        return .applied(moved)
    }

    /// The end of the block the `count` rows at `from` make: they and the rows right after them deeper than the
    /// least depth among them.
    static func blockEnd(of rows: [ShadowRow], from: Int, count: Int) -> Int {
        var end = from + count
        let least = rows[from..<end].map(\.depth).min()!
        while end < rows.count && rows[end].depth > least { end += 1 }
        return end
    }

    /// The depths the block of `count` rows at `from` may land at, at `to` (in the rows without the block, which
    /// must lie within them): from the next row's depth (0 without one) to the previous row's depth plus one (but
    /// for a collapsed one; 0 without one).
    static func allowedDepths(of rows: [ShadowRow], from: Int, count: Int, to: Int) -> ClosedRange<Int> {
        let without = Array(rows[..<from] + rows[blockEnd(of: rows, from: from, count: count)...])
        let previous = to > 0 ? without[to - 1] : nil
        let next = to < without.count ? without[to] : nil
        return (next?.depth ?? 0)...(previous.map { $0.depth + ($0.collapsed ? 0 : 1) } ?? 0)
    }

    /// Whether `other` has the same trees (the same items in the same places, in the same order).
    func hasSameTree(as other: ShadowStore) -> Bool { children == other.children }
}

/// A refusal's `data.reason`.
struct TreeRefusal: Error, ExpressibleByStringLiteral, CustomStringConvertible {
    var reason: String
    init(stringLiteral reason: String) { self.reason = reason }
    var description: String { reason }
}
