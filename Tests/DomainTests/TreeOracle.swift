// An independent model of lists as trees and of the rows of any view over them, written from protocol.md's
// "Subtasks" section alone: each parent's subtasks in a plain array, no positions, no indexes. Views are computed
// the naive way (matching items plus their ancestors, siblings sorted, depth first, collapsed rows left out), and
// every mutation, refusal and move by index is decided by protocol.md's rules, written out again here.

import Testing
@testable import Domain

/// What the model keeps of an item: its fields and its parent; its place is its index among its siblings.
struct TreeItem: Equatable {
    var id: ItemID
    var list: ListID
    var parent: ItemID?
    var title: String
    var done: Bool
    var due: Due?
    var priority: Priority
    var tags: [String]
    var created: Int64
}

/// A filter the model understands, each written out below (not `Filter.matches`).
enum TreeFilter: CaseIterable {
    case everything, atLeastMedium, home, done

    var filter: Filter {
        switch self {
        case .everything: .all
        case .atLeastMedium: Filter(priorityAtLeast: .medium)
        case .home: Filter(tagsAnyOf: ["home"])
        case .done: Filter(done: .done)
        }
    }

    func matches(_ item: TreeItem) -> Bool {
        switch self {
        case .everything: true
        case .atLeastMedium: item.priority == .medium || item.priority == .high
        case .home: item.tags.contains("home")
        case .done: item.done
        }
    }
}

/// One view the model computes: source, sort, filter and sections.
struct TreeSpec: CustomStringConvertible {
    var source: ViewSource
    var sort: Sort
    var filter: TreeFilter
    var grouping: Grouping

    var description: String { "\(source) \(sort.field)-\(sort.direction) \(filter) by \(grouping)" }
}

/// A row as the model computes it: a section header with its count, or an item with where it sits.
enum TreeModelRow: Equatable {
    case header(SectionID, count: Int)
    case item(ItemID, facts: TreeFacts, section: SectionID?)

    var section: SectionID? {
        switch self {
        case .header(let section, _): section
        case .item(_, _, let section): section
        }
    }

    var item: ItemID? {
        if case .item(let id, _, _) = self { return id }
        return nil
    }

    var facts: TreeFacts? {
        if case .item(_, let facts, _) = self { return facts }
        return nil
    }
}

/// What a client sees of a row, but an item's revision and times: the form both sides are compared in.
enum RowImage: Equatable, CustomStringConvertible {
    case header(SectionID, count: Int)
    case item(ItemID, list: ListID, parent: ItemID?, title: String, done: Bool, due: Due?, priority: Priority,
              tags: [String], facts: TreeFacts)

    init(_ row: Row) {
        switch row {
        case .header(let header): self = .header(header.section, count: header.count)
        case .item(let item, let facts):
            self = .item(item.id, list: item.list, parent: item.parent, title: item.title, done: item.done, due: item.due,
                         priority: item.priority, tags: item.tags, facts: facts)
        }
    }

    var description: String {
        switch self {
        case .header(let section, let count): return "[\(section) ×\(count)]"
        case .item(let id, let list, let parent, let title, let done, _, let priority, _, let facts):
            let flags = (facts.hasChildren ? "+" : "") + (facts.collapsed ? "c" : "") + (facts.context ? "x" : "")
            return "\(id)@\(list)<\(parent.map { "\($0)" } ?? "-") d\(facts.depth) \(title)\(done ? " done" : "") \(priority) "
                + "\(facts.children)/\(facts.openChildren)\(flags)"
        }
    }
}

/// What a mutation does by the model's rules: refused (for this reason, or field), nothing, or a change touching
/// exactly these items (their own state changed: their `revision` goes up).
enum TreeOutcome: Equatable {
    case refused(String)
    case unchanged
    case changed(Set<ItemID>)
}

/// What the model expects of a move by index: refused (for this reason or field), nothing (dropped where it is),
/// or a move by id of the block's items to a parent and place.
enum TreeIndexMove: Equatable {
    case refused(String)
    case nothing
    case move(ids: [ItemID], list: ListID, parent: ItemID?, before: ItemID?)
}

/// The lists in order, each list's tree as arrays of siblings, and the items' fields.
struct TreeModel: Equatable {
    var lists: [ListID] = []
    /// Each list's top-level items, in order.
    var tops: [ListID: [ItemID]] = [:]
    /// Each item's subtasks, in order (absent: none).
    var subtasks: [ItemID: [ItemID]] = [:]
    var items: [ItemID: TreeItem] = [:]
    /// The client's day (fixed for a run).
    var today: Today

    // MARK: The tree

    func siblings(in list: ListID, under parent: ItemID?) -> [ItemID] {
        parent.map { subtasks[$0] ?? [] } ?? tops[list]!
    }

    mutating func setSiblings(_ ids: [ItemID], in list: ListID, under parent: ItemID?) {
        if let parent { subtasks[parent] = ids.isEmpty ? nil : ids } else { tops[list] = ids }
    }

    /// The item's siblings with it, in order.
    func siblings(of id: ItemID) -> [ItemID] {
        siblings(in: items[id]!.list, under: items[id]!.parent)
    }

    func depth(of id: ItemID) -> Int {
        ancestors(of: id).count
    }

    /// The depth a subtask of `parent` has.
    func depth(under parent: ItemID?) -> Int {
        parent.map { depth(of: $0) + 1 } ?? 0
    }

    /// Its ancestors, nearest first.
    func ancestors(of id: ItemID) -> [ItemID] {
        var result: [ItemID] = []
        var current = items[id]!.parent
        while let parent = current {
            result.append(parent)
            current = items[parent]!.parent
        }
        return result
    }

    func hasAncestor(_ id: ItemID, in ids: Set<ItemID>) -> Bool {
        ancestors(of: id).contains(where: ids.contains)
    }

    /// Its descendants in tree order.
    func descendants(of id: ItemID) -> [ItemID] {
        (subtasks[id] ?? []).flatMap { [$0] + descendants(of: $0) }
    }

    /// The levels below it: 0 without subtasks.
    func height(of id: ItemID) -> Int {
        (subtasks[id] ?? []).map { 1 + height(of: $0) }.max() ?? 0
    }

    /// A list's items in tree order: each item right before its subtasks.
    func treeOrder(_ list: ListID) -> [ItemID] {
        tops[list]!.flatMap { [$0] + descendants(of: $0) }
    }

    /// Every item in the lists' order, then each list's tree order (a smart group's manual order).
    func manualOrder() -> [ItemID] {
        lists.flatMap(treeOrder)
    }

    /// The items in their current order: the lists' order, then each list's tree order.
    func blockOrder(_ ids: some Sequence<ItemID>) -> [ItemID] {
        let wanted = Set(ids)
        return manualOrder().filter(wanted.contains)
    }

    /// The named items less those inside another named item's subtree, in their current order.
    func tops(of ids: [ItemID]) -> [ItemID] {
        let named = Set(ids)
        return blockOrder(named.filter { !hasAncestor($0, in: named) })
    }

    // MARK: Mutations, by protocol.md's rules

    mutating func createList(_ id: ListID) {
        lists.append(id)
        tops[id] = []
    }

    /// Moves lists as a block in their current order before `before` (not in the block), or to the end.
    mutating func moveLists(_ ids: [ListID], before: ListID?) {
        let block = lists.filter(ids.contains)
        lists.removeAll(where: ids.contains)
        lists.insert(contentsOf: block, at: before.flatMap { lists.firstIndex(of: $0) } ?? lists.count)
    }

    /// `items/create`: its parent is `parent` when given, else `before`'s parent; it goes right before `before`, or
    /// last among its siblings.
    mutating func create(_ item: TreeItem, before: ItemID?, parent choice: Clearable<ItemID>?) -> TreeOutcome {
        let parent: ItemID? = if case .set(let id)? = choice { id } else { nil }
        if let parent, items[parent]!.list != item.list { return .refused("parentInOtherList") }
        if let before, items[before]!.list != item.list { return .refused("beforeInOtherList") }
        if let before, choice != nil, items[before]!.parent != parent { return .refused("beforeNotChild") }
        let destination = choice == nil ? before.flatMap { items[$0]!.parent } : parent
        if depth(under: destination) > Limits.maxDepth { return .refused("tooDeep") }
        var created = item
        created.parent = destination
        items[item.id] = created
        var siblings = siblings(in: item.list, under: destination)
        siblings.insert(item.id, at: before.flatMap { siblings.firstIndex(of: $0) } ?? siblings.count)
        setSiblings(siblings, in: item.list, under: destination)
        return .changed([item.id])
    }

    /// `items/update`: the named items get the patch; marking done also marks done every descendant not done.
    mutating func update(_ ids: [ItemID], _ patch: ItemPatch) -> TreeOutcome {
        var touched = Set<ItemID>()
        for id in ids {
            var item = items[id]!
            if let title = patch.title { item.title = title }
            if let done = patch.done { item.done = done }
            if let due = patch.due { item.due = due.value }
            if let priority = patch.priority { item.priority = priority }
            if let tags = patch.tags { item.tags = tags }
            if item != items[id]! { touched.insert(id) }
            items[id] = item
        }
        if patch.done == true {
            for id in ids {
                for descendant in descendants(of: id) where !items[descendant]!.done {
                    items[descendant]!.done = true
                    touched.insert(descendant)
                }
            }
        }
        return touched.isEmpty ? .unchanged : .changed(touched)
    }

    /// `items/delete`: each item with its subtree.
    mutating func delete(_ ids: [ItemID]) -> TreeOutcome {
        var deleted = Set<ItemID>()
        for top in tops(of: ids) {
            let item = items[top]!
            setSiblings(siblings(of: top).filter { $0 != top }, in: item.list, under: item.parent)
            for id in [top] + descendants(of: top) {
                items[id] = nil
                subtasks[id] = nil
                deleted.insert(id)
            }
        }
        return .changed(deleted)
    }

    /// `items/move` by id, refusals checked in protocol.md's order; the tops move with their subtrees as a block of
    /// consecutive siblings under the destination parent, before `before` or last.
    mutating func move(_ ids: [ItemID], toList: ListID?, before: ItemID?, parent choice: Clearable<ItemID>?) -> TreeOutcome {
        let tops = tops(of: ids)
        let moved = Set(tops)
        let parent: ItemID?
        switch choice {
        case .set(let id)?: parent = id
        case .clear?: parent = nil
        case nil: parent = before.flatMap { items[$0]!.parent }
        }
        let ownLists = Set(tops.map { items[$0]!.list })
        guard let list = toList ?? parent.map({ items[$0]!.list }) ?? before.map({ items[$0]!.list })
            ?? (ownLists.count == 1 ? ownLists.first : nil) else { return .refused("ambiguousList") }
        if let before, moved.contains(before) || hasAncestor(before, in: moved) { return .refused("beforeInBlock") }
        if let parent, moved.contains(parent) || hasAncestor(parent, in: moved) { return .refused("cycle") }
        if let parent, items[parent]!.list != list { return .refused("parentInOtherList") }
        if let before, items[before]!.list != list { return .refused("beforeInOtherList") }
        if let before, items[before]!.parent != parent { return .refused("beforeNotChild") }
        if tops.contains(where: { depth(under: parent) + height(of: $0) > Limits.maxDepth }) { return .refused("tooDeep") }
        let old = self
        var touched = moved
        for top in tops {
            let item = items[top]!
            setSiblings(siblings(of: top).filter { $0 != top }, in: item.list, under: item.parent)
            items[top]!.parent = parent
            if item.list != list {
                for id in [top] + descendants(of: top) {
                    items[id]!.list = list
                    touched.insert(id)
                }
            }
        }
        var siblings = siblings(in: list, under: parent)
        siblings.insert(contentsOf: tops, at: before.flatMap { siblings.firstIndex(of: $0) } ?? siblings.count)
        setSiblings(siblings, in: list, under: parent)
        // A move that leaves the tree as it was changes nothing.
        return self == old ? .unchanged : .changed(touched)
    }

    /// `items/indent`: the tops (one list, one parent) become the last subtasks of the sibling before the first.
    mutating func indent(_ ids: [ItemID]) -> TreeOutcome {
        let tops = tops(of: ids)
        let first = items[tops[0]]!
        if tops.contains(where: { items[$0]!.parent != first.parent || items[$0]!.list != first.list }) {
            return .refused("notSiblings")
        }
        let siblings = siblings(of: first.id)
        let index = siblings.firstIndex(of: first.id)!
        guard index > 0 else { return .refused("noPreviousSibling") }
        return move(tops, toList: nil, before: nil, parent: .set(siblings[index - 1]))
    }

    /// `items/outdent`: the tops (one list, one parent P) become P's next siblings, right after P.
    mutating func outdent(_ ids: [ItemID]) -> TreeOutcome {
        let tops = tops(of: ids)
        let first = items[tops[0]]!
        if tops.contains(where: { items[$0]!.parent != first.parent || items[$0]!.list != first.list }) {
            return .refused("notSiblings")
        }
        guard let parent = first.parent else { return .refused("topLevel") }
        let siblings = siblings(of: parent)
        let next = siblings.firstIndex(of: parent)! + 1
        return move(tops, toList: nil, before: next < siblings.count ? siblings[next] : nil,
                    parent: items[parent]!.parent.map { .set($0) } ?? .clear)
    }

    // MARK: Counts

    /// A list's items, and those not done.
    func counts(of list: ListID) -> (total: Int, open: Int) {
        let order = treeOrder(list)
        return (order.count, order.filter { !items[$0]!.done }.count)
    }

    /// An item's direct subtasks, and those not done.
    func subtaskCount(of id: ItemID) -> SubtaskCount {
        let subtasks = subtasks[id] ?? []
        return SubtaskCount(total: subtasks.count, open: subtasks.filter { !items[$0]!.done }.count)
    }

    // MARK: Views

    /// Whether the item is in the source: its list, or its smart group on the model's day.
    func contains(_ source: ViewSource, _ item: TreeItem) -> Bool {
        expectedInSource(source, list: item.list, done: item.done, due: item.due, today: today)
    }

    func matches(_ spec: TreeSpec, _ item: TreeItem) -> Bool {
        contains(spec.source, item) && spec.filter.matches(item)
    }

    /// The section a top-level item's own fields give it.
    func section(_ item: TreeItem, _ grouping: Grouping) -> SectionID? {
        expectedSection(grouping, due: item.due, priority: item.priority, list: item.list, done: item.done, today: today)
    }

    func sectionRank(_ section: SectionID) -> Int { expectedSectionRank(section, lists: lists) }

    /// The field's order of two items (negative: `lhs` first), direction applied; 0 when the field ties. Items
    /// with no due come last in either direction.
    func fieldOrder(_ lhs: TreeItem, _ rhs: TreeItem, _ sort: Sort) -> Int {
        func compare<T: Comparable>(_ a: T, _ b: T) -> Int { a == b ? 0 : (a < b ? -1 : 1) }
        let sign = sort.direction == .descending ? -1 : 1
        switch sort.field {
        case .manual, .modified: preconditionFailure("not a field order")
        case .title:
            // ASCII titles only: folding is lowercasing.
            let (left, right) = (Array(lhs.title.lowercased().utf8), Array(rhs.title.lowercased().utf8))
            return left == right ? 0 : sign * (left.lexicographicallyPrecedes(right) ? -1 : 1)
        case .priority:
            let ranks: [Priority] = [.none, .low, .medium, .high]
            return sign * compare(ranks.firstIndex(of: lhs.priority)!, ranks.firstIndex(of: rhs.priority)!)
        case .created: return sign * compare(lhs.created, rhs.created)
        case .due:
            switch (lhs.due, rhs.due) {
            case (nil, nil): return 0
            case (nil, _): return 1
            case (_, nil): return -1
            case (let a?, let b?): return sign * OrderModel.dueOrder(a, b)
            }
        }
    }

    /// Each item's manual order among its siblings: its list's place among the lists (at the top level; subtasks'
    /// siblings share their list, 0), then its own place among its siblings.
    func manualRanks() -> [ItemID: (list: Int, sibling: Int)] {
        var ranks: [ItemID: (list: Int, sibling: Int)] = [:]
        for (listRank, list) in lists.enumerated() {
            for (rank, id) in tops[list]!.enumerated() { ranks[id] = (listRank, rank) }
        }
        for siblings in subtasks.values {
            for (rank, id) in siblings.enumerated() { ranks[id] = (0, rank) }
        }
        return ranks
    }

    /// Whether sibling `lhs` comes before sibling `rhs` in the view: at the top level the section first; then the
    /// field, ties in manual order (the lists' order, then the siblings' order), ascending; in manual order that
    /// manual order itself, each set of siblings reversed when descending. `ranks` are `manualRanks()`.
    func precedes(_ lhs: TreeItem, _ rhs: TreeItem, _ spec: TreeSpec, ranks: [ItemID: (list: Int, sibling: Int)]) -> Bool {
        if lhs.parent == nil, let left = section(lhs, spec.grouping), let right = section(rhs, spec.grouping), left != right {
            return sectionRank(left) < sectionRank(right)
        }
        // Siblings under one parent share a list: their list ranks tie.
        let (left, right) = (ranks[lhs.id]!, ranks[rhs.id]!)
        if spec.sort.field == .manual { return spec.sort.direction == .descending ? right < left : left < right }
        let field = fieldOrder(lhs, rhs, spec.sort)
        return field != 0 ? field < 0 : left < right
    }

    /// The items of a view: its matching items and every ancestor of one.
    func members(_ spec: TreeSpec) -> (all: Set<ItemID>, matching: Set<ItemID>) {
        let matching = Set(items.values.filter { matches(spec, $0) }.map(\.id))
        var all = matching
        for id in matching { all.formUnion(ancestors(of: id)) }
        return (all, matching)
    }

    /// Every row of a view, computed the naive way: its items (matching ones and their ancestors), each set of
    /// siblings sorted, depth first, the rows below a collapsed item left out; a header before each section's
    /// first top-level row, counting the section's matching items (hidden ones included, context rows not).
    func rows(_ spec: TreeSpec, collapsed: Set<ItemID>) -> [TreeModelRow] {
        view(spec, collapsed: collapsed).rows
    }

    /// `rows(_:collapsed:)`, and the number of the view's items (its item rows and those hidden by collapsing).
    /// `ranks` are `manualRanks()`, when the caller has them.
    func view(_ spec: TreeSpec, collapsed: Set<ItemID>, ranks: [ItemID: (list: Int, sibling: Int)]? = nil)
        -> (rows: [TreeModelRow], items: Int) {
        let (all, matching) = members(spec)
        var below: [ItemID?: [TreeItem]] = [:]
        for id in all { below[items[id]!.parent, default: []].append(items[id]!) }
        let ranks = ranks ?? manualRanks()
        for key in below.keys { below[key]!.sort { precedes($0, $1, spec, ranks: ranks) } }
        var rows: [TreeModelRow] = []
        var counts: [SectionID: Int] = [:]
        func visit(_ item: TreeItem, depth: Int, section: SectionID?, shown: Bool) {
            if let section, matching.contains(item.id) { counts[section, default: 0] += 1 }
            let subtasks = below[item.id] ?? []
            let isCollapsed = collapsed.contains(item.id) && !subtasks.isEmpty
            let own = subtaskCount(of: item.id)
            if shown {
                rows.append(.item(item.id, facts: TreeFacts(depth: depth, children: own.total, openChildren: own.open,
                                                            hasChildren: !subtasks.isEmpty, collapsed: isCollapsed,
                                                            context: !matching.contains(item.id)),
                                  section: section))
            }
            for subtask in subtasks { visit(subtask, depth: depth + 1, section: section, shown: shown && !isCollapsed) }
        }
        var previous: SectionID?? = nil
        for top in below[nil] ?? [] {
            let section = section(top, spec.grouping)
            if let section, previous != .some(section) { rows.append(.header(section, count: 0)) }
            previous = .some(section)
            visit(top, depth: 0, section: section, shown: true)
        }
        let counted = rows.map { row in
            if case .header(let section, _) = row { return TreeModelRow.header(section, count: counts[section]!) }
            return row
        }
        return (counted, all.count)
    }

    /// A row as a client sees it (but the item's revision and times).
    func image(_ row: TreeModelRow) -> RowImage {
        switch row {
        case .header(let section, let count): return .header(section, count: count)
        case .item(let id, let facts, _):
            let item = items[id]!
            return .item(id, list: item.list, parent: item.parent, title: item.title, done: item.done, due: item.due,
                         priority: item.priority, tags: item.tags, facts: facts)
        }
    }

    // MARK: Moves by index

    /// The block a move by index takes: the `count` rows at `from` plus the rows right after them deeper than the
    /// shallowest of those; nil when one of the named rows is a header.
    static func block(_ rows: [TreeModelRow], from: Int, count: Int) -> Range<Int>? {
        let named = rows[from..<(from + count)]
        guard named.allSatisfy({ $0.item != nil }) else { return nil }
        let shallowest = named.map { $0.facts!.depth }.min()!
        var end = from + count
        while end < rows.count, let facts = rows[end].facts, facts.depth > shallowest { end += 1 }
        return from..<end
    }

    /// The depths a drop at `to` allows in the view without `block`: from `next`'s depth when it counts (an item row
    /// of `prev`'s section; of any section when there is no `prev`), else 0, to `prev`'s depth + 1 (its depth when
    /// collapsed; 0 when there is no `prev` or it is a header).
    static func allowedDepths(_ rows: [TreeModelRow], block: Range<Int>, to target: Int)
        -> (depths: ClosedRange<Int>, previous: TreeModelRow?, next: TreeModelRow?, section: SectionID?) {
        let without = Array(rows[..<block.lowerBound] + rows[block.upperBound...])
        let previous = target > 0 ? without[target - 1] : nil
        let nextRow = target < without.count ? without[target] : nil
        let section = previous.map(\.section) ?? nextRow.map(\.section) ?? rows[block.lowerBound].section
        let next = nextRow.flatMap { $0.item != nil && $0.section == section ? $0 : nil }
        let lowest = next?.facts!.depth ?? 0
        let highest = previous?.facts.map { $0.depth + ($0.collapsed ? 0 : 1) } ?? 0
        return (lowest...highest, previous, next, section)
    }

    /// Where a move by index puts the block, by protocol.md's "Moving in the tree": the checks in its order (the
    /// sort, the rows, `to`, `depth`, `crossSection`), then the landing place for depth d: the first subtasks of
    /// `prev` at its depth + 1; else after the whole subtree of `prev`'s ancestor-or-self S at depth d, with S's
    /// parent; with no `prev` (or a header), before `next`, else last at the top level of a list's section, else
    /// gathered after the last top. `tooDeep` is the move's own check.
    func indexMove(_ spec: TreeSpec, _ rows: [TreeModelRow], from: Int, count: Int, to target: Int,
                   depth wanted: Int?) -> TreeIndexMove {
        guard spec.sort == .manual else { return .refused("sortedView") }
        guard let block = TreeModel.block(rows, from: from, count: count) else { return .refused("from") }
        let remaining = rows.count - block.count
        guard (0...remaining).contains(target), target > 0 || spec.grouping == .none || remaining == 0 else {
            return .refused("to")
        }
        if target == from && wanted == nil { return .nothing }
        let (depths, previous, next, section) = TreeModel.allowedDepths(rows, block: block, to: target)
        if let wanted, !depths.contains(wanted) { return .refused("depth") }
        if spec.grouping != .none, spec.grouping != .list, rows[block].contains(where: { $0.section != section }) {
            return .refused("crossSection")
        }
        let depth = wanted ?? depths.lowerBound
        let ids = rows[block].map { $0.item! }
        let moving = Set(ids)
        let shallowest = rows[block].map { $0.facts!.depth }.min()!
        // Dropped where it is with every top (a row whose parent is not in the block) already at that depth.
        if target == from, rows[block].allSatisfy({ row in
            items[row.item!]!.parent.map(moving.contains) ?? false || row.facts!.depth == depth
        }) {
            return .nothing
        }
        func firstUnmoved(_ candidates: some Sequence<ItemID>) -> ItemID? { candidates.first { !moving.contains($0) } }
        if let previous, let after = previous.item {
            if depth == previous.facts!.depth + 1 {
                return .move(ids: ids, list: items[after]!.list, parent: after, before: firstUnmoved(subtasks[after] ?? []))
            }
            let anchor = ([after] + ancestors(of: after))[previous.facts!.depth - depth]
            let siblings = siblings(of: anchor)
            return .move(ids: ids, list: items[anchor]!.list, parent: items[anchor]!.parent,
                         before: firstUnmoved(siblings[(siblings.firstIndex(of: anchor)! + 1)...]))
        }
        if let next, let before = next.item {
            return .move(ids: ids, list: items[before]!.list, parent: nil, before: before)
        }
        if case .list(let list)? = section { return .move(ids: ids, list: list, parent: nil, before: nil) }
        let last = rows[block].last { $0.facts!.depth == shallowest }!.item!
        let siblings = siblings(of: last)
        return .move(ids: ids, list: items[last]!.list, parent: nil,
                     before: firstUnmoved(siblings[(siblings.firstIndex(of: last)! + 1)...]))
    }
}
